"""Hardware, models and workloads: the shared vocabulary every benchmark figure refers to."""

from collections import defaultdict
from typing import Any

from sqlalchemy import func
from sqlmodel import Session, col, select

from app.data_version.version import per_version
from app.models import VOCABULARY_TABLES, BenchmarkResult, LanguageModel, ModelConfig, Source
from app.schemas import (
    HardwareEntryView,
    ModelConfigView,
    ModelEntryView,
    VocabularyEntry,
    WorkloadEntryView,
)
from app.vocabulary.names import Names

VIEWS: dict[str, type[VocabularyEntry]] = {
    "hardware": HardwareEntryView,
    "model": ModelEntryView,
    "workload": WorkloadEntryView,
}


@per_version(max_entries=2)
def vocabulary_entries(session: Session) -> dict[str, list[VocabularyEntry]]:
    """kind -> every entry in seed order, with its aliases and how many figures use it."""
    out: dict[str, list[VocabularyEntry]] = {}
    for kind, (model, alias_model, parent) in VOCABULARY_TABLES.items():
        aliases: dict[int, list[str]] = defaultdict(list)
        for entry_id, alias in session.exec(
            select(getattr(alias_model, parent), alias_model.alias).order_by(
                col(alias_model.position)
            )
        ):
            aliases[entry_id].append(alias)
        column = getattr(BenchmarkResult, f"{kind}_id")
        counts = dict(session.exec(select(column, func.count()).group_by(column)).all())
        rows = session.exec(select(model).order_by(col(model.position)))
        extras = model_facts(session) if kind == "model" else {}
        out[kind] = [
            _entry(kind, row, aliases[row.id], counts.get(row.id, 0), extras.get(row.id, {}))
            for row in rows
        ]
    return out


def _entry(
    kind: str, row: Any, aliases: list[str], figures: int, extras: dict[str, Any]
) -> VocabularyEntry:
    view = VIEWS[kind]
    fields = {name: getattr(row, name) for name in view.model_fields if hasattr(row, name)}
    return view(**{**fields, **extras, "aliases": aliases, "figures": figures})


def model_facts(session: Session) -> dict[int, dict[str, Any]]:
    """model id -> its base model's slug and its config facts (issue 35), where it has them."""
    slugs = dict(session.exec(select(LanguageModel.id, LanguageModel.slug)).all())
    out: dict[int, dict[str, Any]] = defaultdict(dict)
    for model_id, base_id in session.exec(select(LanguageModel.id, LanguageModel.base_id)):
        if base_id is not None:
            out[model_id]["base"] = slugs.get(base_id)  # type: ignore[index]
    sources = dict(session.exec(select(Source.id, Source.slug)).all())
    for config in session.exec(select(ModelConfig)):
        values = config.model_dump(exclude={"id", "languagemodel_id", "source_id"})
        out[config.languagemodel_id]["config"] = ModelConfigView(
            **values, source=sources[config.source_id]
        )
    return dict(out)


def entry_ids(session: Session) -> dict[str, dict[str, int]]:
    """kind -> slug -> database id, for writes that point a result at an entry."""
    return {
        kind: dict(session.exec(select(model.slug, model.id)).all())
        for kind, (model, *_) in VOCABULARY_TABLES.items()
    }


def entry_lookup(session: Session) -> dict[str, dict[int, VocabularyEntry]]:
    """kind -> database id -> entry, for labelling figures."""
    ids = entry_ids(session)
    return {
        kind: {ids[kind][e.slug]: e for e in entries}
        for kind, entries in vocabulary_entries(session).items()
    }


def vocabulary_names(session: Session) -> dict[str, Names]:
    """kind -> the names (slugs, display names, aliases) its entries answer to."""
    return {
        kind: Names.of(
            kind,
            ((e.slug, [e.name, *e.aliases]) for e in entries if not e.withdrawn),
            vague=(e.slug for e in entries if e.vague),
        )
        for kind, entries in vocabulary_entries(session).items()
    }


def vocabulary_choices(session: Session) -> dict[str, list[tuple[str, str]]]:
    """kind -> (slug, name) of every current entry, for the editors' suggestion lists."""
    return {
        kind: [(e.slug, e.name) for e in entries if not e.withdrawn]
        for kind, entries in vocabulary_entries(session).items()
    }


def entry_names(session: Session, kind: str) -> dict[str, str]:
    """slug -> name of every entry of `kind` (for "did you mean" on an unknown slug)."""
    return {e.slug: e.name for e in vocabulary_entries(session)[kind]}
