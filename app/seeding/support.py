"""Read architectures.yaml and support/<source>.yaml: which server serves which model class.

The rows are claims like any other (a level, since which version, the page that says so), so
they go through the claims' own checks: the reader's source and system references, pydantic
for fields and allowed values, and every problem with file, line, field and allowed values.
"""

import re
from pathlib import Path
from typing import Any

from app.seeding.reader import SeedReader
from app.seeding.schema import (
    HF_CLASS_PATTERN,
    HF_CLASS_RULE,
    ArchitectureEntry,
    SupportEntry,
)
from app.seeding.yamlio import line_of
from app.vocabulary.fixed import FIRST_PARTY_KINDS

ARCHITECTURES_FILE = "architectures.yaml"
# A reader must be told why: "no" is a reading of a complete registry, "via" names the
# path (the Transformers fallback), "partial" what is missing; "by vX" says what was not read.
NOTE_LEVELS = ("no", "via", "partial")


def is_hf_class(text: str) -> bool:
    return len(text) <= 100 and re.match(HF_CLASS_PATTERN, text) is not None


def read_architectures(reader: SeedReader) -> None:
    """architectures.yaml, when present: Hugging Face class -> family, kind, keys, source."""
    path = reader.root / ARCHITECTURES_FILE
    if not path.exists():
        return  # optional: a seed without model classes is still whole
    raw = reader.read(path)
    if isinstance(raw, dict):
        reader.architecture_keys = {str(key) for key in raw}
    entries = reader.keyed_entries(
        ArchitectureEntry, raw, path, raw, key_rule=(is_hf_class, HF_CLASS_RULE)
    )
    for name, entry in entries.items():
        reader.check_source(path, line_of(raw, (name, "source")), name, entry.source)
        if len(set(entry.attention)) != len(entry.attention):
            msg = "field 'attention': lists a kind twice; allowed: each kind once"
            reader.problem(path, line_of(raw, (name, "attention")), name, msg)
    reader.data.architectures = entries


def read_support_file(reader: SeedReader, path: Path) -> dict[str, dict[str, SupportEntry]] | None:
    """One support/<source>.yaml: system slug -> Hugging Face class -> row."""
    source = reader.data.sources.get(path.stem)
    if not reader.check_source(path, None, "file name", path.stem) or source is None:
        return None
    if source.kind not in FIRST_PARTY_KINDS:
        allowed = ", ".join(FIRST_PARTY_KINDS)
        msg = (
            f"source {path.stem!r} is of kind {source.kind}; support rows come from a "
            f"project's own registry or pages, allowed kinds: {allowed}"
        )
        reader.problem(path, None, "file name", msg)
        return None
    raw = reader.read(path)
    if raw is None:
        return None
    if not isinstance(raw, dict):
        reader.problem(path, 1, "", "expected a mapping of system slug to architecture classes")
        return None
    out: dict[str, dict[str, SupportEntry]] = {}
    for system, rows in raw.items():
        if not reader.check_ref(path, line_of(raw, (system,)), str(system), "system", system):
            continue
        if not isinstance(rows, dict):
            msg = "expected a mapping of Hugging Face class to a support row"
            reader.problem(path, line_of(raw, (system,)), system, msg)
            continue
        out[system] = {}
        for name, value in rows.items():
            where = f"{system}.{name}"
            if not is_hf_class(name):
                msg = f"is not a valid key; allowed: {HF_CLASS_RULE}"
                reader.problem(path, line_of(raw, (system, name)), where, msg)
                continue
            entry_raw = {"level": value} if isinstance(value, str) else value
            entry = reader.validate(SupportEntry, entry_raw, path, raw, (system, name))
            if entry is not None and _coherent(reader, path, raw, (system, name), entry):
                out[system][name] = entry
    return out


def _coherent(
    reader: SeedReader, path: Path, raw: Any, at: tuple[str, str], entry: SupportEntry
) -> bool:
    """The rules the fields cannot check alone: when a note is owed, since before until."""
    where = ".".join(at)
    owed = f"required for {', '.join(NOTE_LEVELS)} and when since_exact is false"
    found = []
    if entry.note is None and entry.level in NOTE_LEVELS:
        found.append(("level", f"field 'note': a {entry.level!r} row needs a note ({owed})"))
    if not entry.since_exact and entry.since is None:
        message = "field 'since': since_exact false reads 'by <since>'; allowed: a version"
        found.append(("since_exact", message))
    elif not entry.since_exact and entry.note is None:
        message = f"field 'note': say which tags were not read ({owed})"
        found.append(("since_exact", message))
    if entry.until is not None and entry.until == entry.since:
        message = f"field 'until': {entry.until!r} is also 'since'; allowed: a later version"
        found.append(("until", message))
    for key, message in found:
        reader.problem(path, line_of(raw, (*at, key)), where, message)
    return not found
