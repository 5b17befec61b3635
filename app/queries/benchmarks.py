"""Benchmark results with their full context."""

import datetime as dt
import re
from typing import Any

from sqlmodel import Session, col, select

from app.data_version.version import per_version
from app.models import VOCABULARY_TABLES, BenchmarkResult, System, SystemFact
from app.queries.common import metrics_by_id, source_refs, system_names
from app.queries.entries import entry_lookup
from app.queries.note_index import note_index
from app.schemas import BenchmarkView, VocabularyEntry


def benchmark_views(session: Session, *where: Any) -> list[BenchmarkView]:
    """Benchmark results matching `where`, in seed order."""
    refs = source_refs(session)
    systems = system_names(session)
    metrics = metrics_by_id(session)
    notes = note_index(session).results
    entries = entry_lookup(session)
    statement = select(BenchmarkResult).where(*where).order_by(col(BenchmarkResult.position))
    views = []
    for row in session.exec(statement):
        metric = metrics[row.metric_id]
        slug, name = systems[row.system_id]
        fields = row.model_dump(exclude=NOT_SHOWN)
        views.append(
            BenchmarkView(
                id=row.slug,
                system=slug,
                system_name=name,
                metric=metric.slug,
                metric_name=metric.name,
                metric_kind=metric.kind,
                better=metric.better,
                source=refs[row.source_id],
                team_notes=notes.get(row.id, []),  # type: ignore[arg-type]
                **fields,
                **_vocabulary(row, entries),
            )
        )
    return views


@per_version(max_entries=1)
def all_benchmark_views(session: Session) -> list[BenchmarkView]:
    """Every result as a view, in seed order: built once per data version and shared by the
    pages that read them all (callers treat it as read-only)."""
    return benchmark_views(session)


@per_version(max_entries=1)
def benchmark_views_by_system(session: Session) -> dict[str, list[BenchmarkView]]:
    """all_benchmark_views by system slug, each in seed order."""
    grouped: dict[str, list[BenchmarkView]] = {}
    for view in all_benchmark_views(session):
        grouped.setdefault(view.system, []).append(view)
    return grouped


NOT_SHOWN = {
    "id",
    "slug",
    "system_id",
    "metric_id",
    "source_id",
    "position",
    *(f"{kind}_id" for kind in VOCABULARY_TABLES),
}


def _vocabulary(
    row: BenchmarkResult, entries: dict[str, dict[int, VocabularyEntry]]
) -> dict[str, Any]:
    """The figure's hardware, model and workload: slug, name, vague flag (None when unstated)."""
    out: dict[str, Any] = {}
    for kind, by_id in entries.items():
        entry = by_id.get(getattr(row, f"{kind}_id"))
        out[kind] = entry.slug if entry else None
        out[f"{kind}_name"] = entry.name if entry else None
        out[f"{kind}_vague"] = bool(entry and entry.vague)
    return out


STALE_AFTER_DAYS = 365


def version_key(text: str) -> tuple[int, ...]:
    """'v0.5.10.post1' -> (0, 5, 10); empty when the text has no major.minor number."""
    match = re.search(r"(\d+(?:\.\d+)+)", text)
    if not match:
        return ()
    parts = [int(p) for p in match.group(1).split(".")]
    while len(parts) > 1 and parts[-1] == 0:  # v1.2 and v1.2.0 are the same release
        parts.pop()
    return tuple(parts)


def release_line(text: str) -> tuple[int, int]:
    """'v0.5.10.post1' -> (0, 5): the major and minor number. A figure is only superseded by
    a newer minor or major release; a patch (v0.5.9 -> v0.5.10.post1) keeps the same
    engine, and its figures hold."""
    key = (*version_key(text), 0, 0)
    return key[0], key[1]


@per_version()
def latest_versions(session: Session) -> dict[str, str]:
    """The newest version any source gives for each system."""
    rows = session.exec(
        select(System.slug, SystemFact.value)
        .join(System, col(System.id) == col(SystemFact.system_id))
        .where(SystemFact.attribute == "version")
    )
    latest: dict[str, str] = {}
    for slug, value in rows:
        if version_key(value) > version_key(latest.get(slug, "")):
            latest[slug] = value
    return latest


def as_date(text: str) -> dt.date:
    """A partial date at the middle of the period it names."""
    parts = [int(p) for p in text.split("-")]
    if len(parts) == 1:
        return dt.date(parts[0], 7, 1)
    if len(parts) == 2:
        return dt.date(parts[0], parts[1], 15)
    return dt.date(parts[0], parts[1], parts[2])


def with_freshness(
    views: list[BenchmarkView], latest: dict[str, str], today: dt.date
) -> list[BenchmarkView]:
    """Each result's age, and why it is stale: too old, or for a superseded version."""
    out = []
    for view in views:
        age = (today - as_date(view.date or view.source.date)).days
        reasons = []
        if age > STALE_AFTER_DAYS:
            reasons.append(f"older than {STALE_AFTER_DAYS // 30} months")
        newest = latest.get(view.system)
        if (
            view.system_version
            and newest
            and version_key(view.system_version)
            and release_line(view.system_version) < release_line(newest)
        ):
            reasons.append(f"{view.system_version} is superseded by {newest}")
        out.append(view.model_copy(update={"age_days": age, "stale": "; ".join(reasons) or None}))
    return out


@per_version()
def all_results(session: Session, today: dt.date) -> list[BenchmarkView]:
    """Every figure with its freshness marks as of `today`: the list every benchmark page,
    /compare and each entry's page share."""
    return with_freshness(all_benchmark_views(session), latest_versions(session), today)
