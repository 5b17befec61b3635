"""Reading team.json back: JSON first, then the header (kind, format, schema), then the shape
of every item, each problem naming the item it is about."""

import json
from pathlib import Path
from typing import Any

from alembic.script import ScriptDirectory
from pydantic import ValidationError as PydanticError

from app.backup.document import FORMAT, FORMAT_VERSION, BackupError, BackupProblem, TeamData, where
from app.migrations.migrate import alembic_config, head_revision
from app.seeding.errors import describe_error


def read_team_file(path: Path) -> TeamData:
    """Read and check the shape of team.json; raise BackupError naming every bad item."""
    raw = _parse(path)
    _check_header(path, raw)
    try:
        return TeamData.model_validate(raw)
    except PydanticError as exc:
        raise BackupError(path, [_problem(raw, e) for e in exc.errors()]) from None


def _parse(path: Path) -> dict[str, Any]:
    if not path.is_file():
        missing = (
            "file is missing: give a folder that `inference-atlas export` wrote (seed files "
            "alone are loaded with `inference-atlas seed --seed-dir DIR`)"
        )
        raise BackupError(path, [BackupProblem("", missing)])
    try:
        raw = json.loads(path.read_text(encoding="utf-8"), object_pairs_hook=_no_repeats)
    except UnicodeDecodeError as exc:
        raise BackupError(path, [BackupProblem("", f"not UTF-8 text ({exc.reason})")]) from None
    except json.JSONDecodeError as exc:
        problem = BackupProblem(f"line {exc.lineno} column {exc.colno}", f"not JSON: {exc.msg}")
        raise BackupError(path, [problem]) from None
    except _RepeatedKeyError as exc:
        raise BackupError(path, [BackupProblem("", str(exc))]) from None
    if not isinstance(raw, dict):
        raise BackupError(path, [BackupProblem("", "not a JSON object")])
    return raw


class _RepeatedKeyError(ValueError):
    pass


def _no_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # json.loads keeps the last of two equal keys, silently: a damaged file would lose data.
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise _RepeatedKeyError(f"the key {key!r} appears twice in one object")
        seen[key] = value
    return seen


def _check_header(path: Path, raw: dict[str, Any]) -> None:
    """Refuse a file of another kind, a newer format, or a newer schema before anything else:
    a newer file would otherwise fail with a list of puzzling field errors."""
    if raw.get("format") != FORMAT:
        message = f"not an Inference Atlas team backup ('format' is not {FORMAT!r})"
        raise BackupError(path, [BackupProblem("format", message)])
    version = raw.get("format_version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        message = f"must be a whole number from 1 (got {version!r})"
        raise BackupError(path, [BackupProblem("format_version", message)])
    if version > FORMAT_VERSION:
        message = (
            f"the file is in format {version}, newer than this version of Inference Atlas "
            f"reads ({FORMAT_VERSION}); restore it with the version that wrote it, or a newer one"
        )
        raise BackupError(path, [BackupProblem("format_version", message)])
    revision = raw.get("schema_revision")
    if revision not in known_revisions():
        message = (
            f"the data was taken at schema revision {revision!r}, which this version of "
            f"Inference Atlas does not know (its newest is {head_revision()}); restore it "
            "with the version that wrote it, or a newer one"
        )
        raise BackupError(path, [BackupProblem("schema_revision", message)])


def known_revisions() -> set[str]:
    script = ScriptDirectory.from_config(alembic_config())
    return {s.revision for s in script.walk_revisions()}


def _problem(raw: dict[str, Any], error: Any) -> BackupProblem:
    location = list(error["loc"])
    section = str(location.pop(0)) if location else ""
    place = section
    if location and isinstance(location[0], int) and isinstance(raw.get(section), list):
        index = location.pop(0)
        place = where(section, index, raw[section][index])
    field = ".".join(str(part) for part in location)
    message = describe_error(error)
    return BackupProblem(place, f"field '{field}': {message}" if field else message)
