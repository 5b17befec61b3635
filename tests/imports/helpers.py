"""Shared by the import parser tests: where the fixtures are and how to read one."""

from pathlib import Path

import pytest

from app.importers import ParsedFile, ResultFileError, parse_result_file

FIXTURES = Path(__file__).parent / "fixtures"


def parse(relative: str, **options: object) -> ParsedFile:
    path = FIXTURES / relative
    return parse_result_file(path.name, path.read_bytes(), **options)  # type: ignore[arg-type]


def refused(relative: str, **options: object) -> ResultFileError:
    with pytest.raises(ResultFileError) as caught:
        parse(relative, **options)
    return caught.value
