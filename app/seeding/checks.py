"""Cross-reference checks for systems, claims and benchmark rows."""

from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from app.seeding.entries import resolve_row
from app.seeding.reader import SeedReader
from app.seeding.schema import BenchmarkRow, ClaimEntry, SourceEntry, SystemFile
from app.seeding.yamlio import line_of
from app.vocabulary.fixed import FIRST_PARTY_KINDS

# The five articles the Atlas started from came as files without an address; every other
# kind of source is cited by its URL, and its figures carry their whole context.
UNADDRESSED_KINDS = ("article",)
CONTEXT_COLUMNS = ("hardware", "model", "workload")


def check_source_entry(
    reader: SeedReader, path: Path, raw: Any, slug: str, source: SourceEntry
) -> None:
    """A source says where to find it; a first-party one says what was read, and when."""

    def at(key: str) -> int | None:
        return line_of(raw, (slug, key))

    kind = source.kind
    if source.url is None and kind not in UNADDRESSED_KINDS:
        reader.problem(path, at("url"), slug, f"field 'url': a {kind} source needs its URL")
    if kind not in FIRST_PARTY_KINDS:
        return
    if source.read is None:
        msg = f"field 'read': a {kind} source needs the day it was read (YYYY-MM-DD)"
        reader.problem(path, at("read"), slug, msg)
    elif source.read < source.date:
        msg = f"field 'read': {source.read} is before the source's date {source.date}"
        reader.problem(path, at("read"), slug, msg)
    if source.version is None and source.commit is None and not _model_hub(source.url):
        msg = f"field 'version': a {kind} source needs the docs version or the commit read"
        reader.problem(path, at("version"), slug, msg)


def _model_hub(url: str | None) -> bool:
    """A model maker's Hugging Face organisation: it has no version of its own, and each
    model's config block names the Hub revision it was read at (`config.revision`)."""
    return url is not None and (urlsplit(url).hostname or "") == "huggingface.co"


def check_system(reader: SeedReader, path: Path, raw: Any, slug: str, system: SystemFile) -> None:
    """Every source exists; headline licence and status are backed by a fact."""
    for i, source in enumerate(system.summary_sources):
        reader.check_source(path, line_of(raw, ("summary_sources", i)), slug, source)
    for group in ("best_for", "weaknesses", "facts"):
        for i, item in enumerate(getattr(system, group)):
            line = line_of(raw, (group, i, "source"))
            reader.check_source(path, line, f"{group}[{i}]", item.source)
    for attribute in ("licence", "status"):
        headline = getattr(system, attribute)
        backed = {f.value for f in system.facts if f.attribute == attribute}
        if headline != "unknown" and headline not in backed:
            found = ", ".join(sorted(backed)) or "none"
            msg = (
                f"field '{attribute}': {headline!r} is not backed by a fact with that value "
                f"(facts give: {found})"
            )
            reader.problem(path, line_of(raw, (attribute,)), slug, msg)


def check_claims(
    reader: SeedReader, path: Path, raw: Any
) -> dict[str, dict[str, ClaimEntry | list[ClaimEntry]]] | None:
    """Validate one claims/<source>.yaml file: systems, capabilities, levels.

    A cell normally holds one claim. When the source contradicts itself, the cell holds a
    list of two or more claims, each with a note saying which reading of the source it is.
    """
    if not reader.check_source(path, None, "file name", path.stem):
        return None
    if not isinstance(raw, dict):
        reader.problem(path, 1, "", "expected a mapping of system slug to claims")
        return None
    out: dict[str, dict[str, ClaimEntry | list[ClaimEntry]]] = {}
    for system, caps in raw.items():
        if not reader.check_ref(path, line_of(raw, (system,)), str(system), "system", system):
            continue
        if not isinstance(caps, dict):
            msg = "expected a mapping of capability slug to level"
            reader.problem(path, line_of(raw, (system,)), system, msg)
            continue
        out[system] = {}
        for cap, value in caps.items():
            where = f"{system}.{cap}"
            if not reader.check_ref(path, line_of(raw, (system, cap)), where, "capability", cap):
                continue
            if isinstance(value, list):
                readings = _check_readings(reader, path, raw, (system, cap), value)
                if readings is not None:
                    out[system][cap] = readings
                continue
            entry_raw = {"level": value} if isinstance(value, str) else value
            entry = reader.validate(ClaimEntry, entry_raw, path, raw, (system, cap))
            if entry is not None:
                out[system][cap] = entry
    return out


def _check_readings(
    reader: SeedReader, path: Path, raw: Any, where: tuple[str, str], value: list[Any]
) -> list[ClaimEntry] | None:
    """Several readings of one self-contradicting source: each needs its own note."""
    label = ".".join(where)
    if len(value) < 2:
        msg = "a list of claims needs two or more entries (one per reading of the source)"
        reader.problem(path, line_of(raw, where), label, msg)
        return None
    entries = [
        reader.validate(ClaimEntry, item, path, raw, (*where, i)) for i, item in enumerate(value)
    ]
    if any(e is None for e in entries):
        return None
    notes = [e.note for e in entries if e is not None]
    if None in notes or len(set(notes)) != len(notes):
        msg = "each claim in a list needs a note of its own saying which reading it records"
        reader.problem(path, line_of(raw, where), label, msg)
        return None
    return [e for e in entries if e is not None]


def check_benchmark(
    reader: SeedReader, path: Path, line: int, row: BenchmarkRow, seen: dict[str, str]
) -> bool:
    """References resolve, the unit suits the metric, and value/range are coherent."""
    where = f"row {line} ({row.id})"
    ok = reader.check_ref(path, line, where, "system", row.system)
    ok = reader.check_ref(path, line, where, "metric", row.metric) and ok
    metric = reader.data.metrics.get(row.metric)
    if metric and row.unit not in metric.units:
        allowed = ", ".join(metric.units)
        reader.problem(
            path,
            line,
            where,
            f"column 'unit': {row.unit!r} does not fit metric {row.metric!r}; allowed: {allowed}",
        )
        ok = False
    ok = _check_ratio(reader, path, line, where, row) and ok
    ok = _check_context(reader, path, line, where, row) and ok
    ok = resolve_row(reader, path, line, row) and ok
    has_range = row.low is not None or row.high is not None
    if (row.value is None) == (not has_range) or (has_range and None in (row.low, row.high)):
        msg = "give either 'value' or both 'low' and 'high'"
        reader.problem(path, line, where, msg)
        ok = False
    elif has_range and row.low is not None and row.high is not None and row.low > row.high:
        reader.problem(path, line, where, f"'low' ({row.low:g}) is above 'high' ({row.high:g})")
        ok = False
    if row.id in seen:
        reader.problem(path, line, where, f"duplicate id {row.id!r}, first used in {seen[row.id]}")
        ok = False
    seen.setdefault(row.id, f"{path.name}:{line}")
    return ok


def _check_context(
    reader: SeedReader, path: Path, line: int, where: str, row: BenchmarkRow
) -> bool:
    """A figure says what it ran on, which model and which workload: a vague entry
    ("a GPU, not stated which") is an answer, a blank is not. The five articles' rows
    predate this rule and often leave hardware or model out; they are let through."""
    source = reader.data.sources.get(path.stem)
    if source is None or source.kind in UNADDRESSED_KINDS:
        return True
    blank = [name for name in CONTEXT_COLUMNS if getattr(row, name) is None]
    for name in blank:
        msg = (
            f"column '{name}': a figure needs its {name} (a vague entry will do where the "
            f"{source.kind} does not say)"
        )
        reader.problem(path, line, where, msg)
    return not blank


def _check_ratio(reader: SeedReader, path: Path, line: int, where: str, row: BenchmarkRow) -> bool:
    # "0x the baseline" would mean the system did nothing at all: not a comparison, and
    # it cannot be turned round into "N x slower". Zero stays valid for other units.
    if row.unit != "x":
        return True
    zero = [name for name in ("value", "low", "high") if getattr(row, name) == 0]
    for name in zero:
        msg = f"column '{name}': 0 is not a ratio (unit x); allowed: a number above 0"
        reader.problem(path, line, where, msg)
    return not zero
