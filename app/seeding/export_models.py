"""Write the model data of issue 35 back in the seed format: architectures.yaml, the
support/<source>.yaml files, and each model's `base` and `config` (the rest of a model entry
is a plain column that export.py writes with the other vocabularies).

Kept apart from export.py so the branch moving the write side (`layers`) merges with one
line changed there. The round-trip test compares what this writes with seed/ byte for byte.
"""

from collections import defaultdict
from typing import Any, Protocol

from sqlmodel import Session, col, select

from app.models import Architecture, LanguageModel, ModelConfig, ModelSupport
from app.seeding.schema import CONFIG_FIELDS, ArchitectureEntry, SupportEntry
from app.seeding.support import ARCHITECTURES_FILE
from app.seeding.yamlio import dump_yaml

# Written even when null: "the file names no GGUF arch / model_type" is itself a fact.
ALWAYS_WRITTEN = ("model_type", "gguf")


class Slugs(Protocol):
    """What export.py's _Slugs gives: the published sources' and the systems' slugs by id."""

    source: dict[int, str]
    system: dict[int, str]


def model_files(session: Session, slugs: Slugs) -> dict[str, str]:
    """architectures.yaml (when any class is listed) and one support file per source."""
    files = {}
    architectures = _architectures(session, slugs)
    if architectures:
        files[ARCHITECTURES_FILE] = dump_yaml(architectures)
    for source, rows in _support(session, slugs).items():
        files[f"support/{source}.yaml"] = dump_yaml(rows)
    return files


def model_extras(session: Session, slugs: Slugs) -> dict[int, dict[str, Any]]:
    """model id -> its `base` (a slug) and `config` (every field, nulls included)."""
    slug_of = dict(session.exec(select(LanguageModel.id, LanguageModel.slug)).all())
    out: dict[int, dict[str, Any]] = defaultdict(dict)
    for model_id, base_id in session.exec(select(LanguageModel.id, LanguageModel.base_id)):
        if base_id is not None:
            out[model_id]["base"] = slug_of[base_id]  # type: ignore[index]
    for config in session.exec(select(ModelConfig)):
        values = config.model_dump()
        values["source"] = slugs.source.get(config.source_id)
        out[config.languagemodel_id]["config"] = {name: values[name] for name in CONFIG_FIELDS}
    return dict(out)


def _architectures(session: Session, slugs: Slugs) -> dict[str, Any]:
    out = {}
    rows = session.exec(select(Architecture).order_by(col(Architecture.position)))
    for row in rows:
        values = {**row.model_dump(), "source": slugs.source.get(row.source_id)}
        out[row.name] = {
            name: values[name]
            for name in ArchitectureEntry.model_fields
            if values[name] is not None or name in ALWAYS_WRITTEN
        }
    return out


def _support(session: Session, slugs: Slugs) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = defaultdict(dict)
    for row in session.exec(select(ModelSupport).order_by(col(ModelSupport.position))):
        if row.source_id not in slugs.source:
            continue  # a source withdrawn from the seed: its rows are not seed data
        values = row.model_dump()
        entry = {
            name: values[name]
            for name in SupportEntry.model_fields
            if values[name] is not None and not (name == "since_exact" and values[name])
        }  # since_exact is written only when false, its default being true
        by_system = out[slugs.source[row.source_id]].setdefault(slugs.system[row.system_id], {})
        by_system[row.architecture] = entry
    return dict(out)
