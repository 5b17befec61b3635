"""Read one benchmarks/<source>.csv file: header, rows, cells."""

import csv
import io
from pathlib import Path

from pydantic import ValidationError

from app.seeding.checks import check_benchmark
from app.seeding.errors import describe_error
from app.seeding.reader import SeedReader
from app.seeding.schema import BENCHMARK_COLUMNS, BenchmarkRow
from app.seeding.yamlio import UnreadableFileError, read_text

HEADER = ",".join(BENCHMARK_COLUMNS)


def read_benchmark_file(
    reader: SeedReader, path: Path, seen: dict[str, str]
) -> list[BenchmarkRow] | None:
    """The file's valid rows, or None when it cannot be read as a whole."""
    try:
        text = read_text(path)
    except UnreadableFileError as exc:
        reader.problem(path, exc.line, "", str(exc))
        return None
    if not text.strip():
        # A file with just the header line is the way to say "no figures"; nothing at
        # all is more likely a slip, and would silently drop the source's figures.
        reader.problem(path, 1, "", f"file is empty; the first line must be the header: {HEADER}")
        return None
    # strict: an unclosed quote is an error instead of swallowing the rest of the file.
    records = csv.DictReader(io.StringIO(text, newline=""), strict=True)
    try:
        return _rows(reader, path, records, seen)
    except csv.Error as exc:
        line = records.line_num + 1  # the reader counts only the rows it finished
        reader.problem(path, line, f"row {line}", f"not valid CSV: {exc}")
        return None


def _rows(
    reader: SeedReader, path: Path, records: "csv.DictReader[str]", seen: dict[str, str]
) -> list[BenchmarkRow] | None:
    if tuple(records.fieldnames or ()) != BENCHMARK_COLUMNS:
        reader.problem(path, 1, "header", f"columns must be exactly: {HEADER}")
        return None
    rows: list[BenchmarkRow] = []
    for record in records:
        line = records.line_num
        cells = _cell_count_problem(record)
        if cells:
            reader.problem(path, line, f"row {line}", cells)
            continue
        row = _row(reader, path, line, record)
        if row and check_benchmark(reader, path, line, row, seen):
            rows.append(row)
    return rows


def _cell_count_problem(record: dict[str | None, object]) -> str | None:
    # DictReader files surplus cells under the key None and fills missing ones with None.
    if None in record:
        extra = record[None]
        count = len(BENCHMARK_COLUMNS) + (len(extra) if isinstance(extra, list) else 1)
        return f"{count} cells, more than the {len(BENCHMARK_COLUMNS)} columns"
    missing = sum(1 for value in record.values() if value is None)
    if missing:
        count = len(BENCHMARK_COLUMNS) - missing
        return f"{count} cells, fewer than the {len(BENCHMARK_COLUMNS)} columns"
    return None


def _row(reader: SeedReader, path: Path, line: int, record: dict[str, str]) -> BenchmarkRow | None:
    try:
        return BenchmarkRow.model_validate(record)
    except ValidationError as exc:
        for err in exc.errors():
            column = ".".join(str(p) for p in err["loc"])
            reader.problem(path, line, f"row {line}", f"column '{column}': {describe_error(err)}")
        return None
