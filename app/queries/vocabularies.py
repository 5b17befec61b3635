"""The values each query parameter accepts that come from the data, in one place.

Pages, their JSON twins and /openapi.json all check parameters against these, so an
allowed value is allowed everywhere and documented as such.
"""

import datetime as dt
from collections.abc import Callable

from sqlmodel import Session, col, select

from app.data_version.memo import PerDatabase, VersionedCache
from app.data_version.version import data_version
from app.models import Metric, System
from app.params.matrix import need_vocabulary
from app.queries.benchmark_page import vocabulary
from app.queries.benchmarks import all_results
from app.queries.catalogue import list_sources
from app.queries.entries import vocabulary_choices
from app.queries.matrix_data import matrix_base, system_name_map
from app.queries.revisions import revision_facets
from app.text import entity_label

Vocabularies = dict[str, list[str]]
_VOCABULARIES: PerDatabase[Vocabularies] = PerDatabase(lambda: VersionedCache(max_size=16))


def _cached(session: Session, name: str, load: Callable[[Session], Vocabularies]) -> Vocabularies:
    memo = _VOCABULARIES.of(session)
    return memo.get_or_build(data_version(session), name, lambda: load(session))


def matrix_vocabularies(session: Session) -> Vocabularies:
    """need tokens, hardware targets and column groups (of both views)."""

    def load(session: Session) -> Vocabularies:
        base = matrix_base(session)
        capabilities = [c.slug for gs in base.groups.values() for g in gs for c in g.columns]
        return {
            "need": need_vocabulary(capabilities),
            "capability": capabilities,
            "hardware-target": [c.slug for g in base.groups["hardware"] for c in g.columns],
            # One vocabulary for both views: a shared link may switch views and keep its groups.
            "group": [g.slug for gs in base.groups.values() for g in gs],
        }

    return _cached(session, "matrix", load)


def benchmark_vocabularies(session: Session) -> Vocabularies:
    """The systems, metrics, hardware, models, precisions and sources the figures use, and
    every other one the Atlas knows: a known value no figure uses filters to nothing (an
    empty result), while a value nobody knows is refused."""

    def load(session: Session) -> Vocabularies:
        used = vocabulary(all_results(session, dt.date.today()))
        known = benchmark_display_names(session)
        return {
            name: sorted({*values, *known.get(name, {})}, key=str.lower)
            for name, values in used.items()
        }

    return _cached(session, "benchmarks", load)


def benchmark_display_names(session: Session) -> dict[str, dict[str, str]]:
    """filter -> slug -> the name pages show, for every known system, metric, hardware,
    model, workload and source (precisions are free text: they are their own names)."""
    entries = {kind: dict(pairs) for kind, pairs in vocabulary_choices(session).items()}
    return {
        "system": system_name_map(session),
        "metric": {m.slug: m.name for m in session.exec(select(Metric))},
        **entries,
        "source": {s.slug: s.short for s in list_sources(session)},
    }


def system_vocabularies(session: Session) -> Vocabularies:
    def load(session: Session) -> Vocabularies:
        return {"system": list(session.exec(select(System.slug).order_by(col(System.slug))))}

    return _cached(session, "systems", load)


def change_vocabularies(session: Session) -> Vocabularies:
    """The users, systems and kinds the history can be filtered by.

    Kept per data version like the rest: a revision is only ever written in a transaction
    that also bumps the version (the seed's, and every write's), so no new name is missed.
    """

    def load(session: Session) -> Vocabularies:
        facets = revision_facets(session)
        # A system with no history yet is still a fair filter; a deleted one keeps its history.
        systems = {*facets["system"], *system_vocabularies(session)["system"]}
        return {**facets, "system": sorted(systems)}

    return _cached(session, "changes", load)


def change_options(session: Session) -> dict[str, list[tuple[str, str]]]:
    """Each /changes filter's choices as (value, label), in the order of their labels."""
    vocabularies = change_vocabularies(session)
    labels: dict[str, dict[str, str]] = {
        "user": {},
        "system": system_name_map(session),
        "kind": {k: entity_label(k) for k in vocabularies["kind"]},
    }
    return {
        field: sorted(
            ((v, labels[field].get(v, v)) for v in vocabularies[field]),
            key=lambda option: option[1].lower(),
        )
        for field in ("user", "system", "kind")
    }


def note_vocabularies(session: Session) -> Vocabularies:
    """The systems, capabilities and sources a note can be on (GET /api/v1/notes)."""

    def load(session: Session) -> Vocabularies:
        capabilities = matrix_vocabularies(session)["capability"]
        sources = [s.slug for s in list_sources(session)]
        return {**system_vocabularies(session), "capability": capabilities, "source": sources}

    return _cached(session, "notes", load)
