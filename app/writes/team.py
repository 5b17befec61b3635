"""A team's own benchmark results: add, change, remove, each with its revision; and the
team's own source they cite (the team's claims are in claims.py).

Published rows belong to seed/ and are never changed here. A team row cites the team's own
source (slug `team`, kind team-measurement, not published), names the user who last saved it,
and counts its saves in `version`: a change based on an older version is refused, never
applied over someone else's.

Call these inside `app.writes.transaction.write_transaction`: each takes the writers' lock
first, records a revision per row and gives the data a new version, all in the caller's
transaction.
"""

import datetime as dt
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any, cast

from sqlalchemy import insert
from sqlmodel import Session, col, select

from app.accounts.identity import SignedIn
from app.data_version.version import bump_data_version
from app.db import lock_writes
from app.models import (
    VOCABULARY_TABLES,
    BenchmarkResult,
    Metric,
    Source,
    System,
)
from app.queries.entries import entry_ids, vocabulary_names
from app.vocabulary.names import api_listing
from app.writes.common import (
    Filed,
    Saved,
    TeamError,
    UnknownItemError,
    author,
    by_slug,
    check_version,
    next_position,
    now,
    record_change,
)
from app.writes.documents import ResultChanges, ResultDoc
from app.writes.inputs import (
    TeamResultFields,
    TeamResultIn,
    check_value_or_range,
)
from app.writes.revisions import record_many, revision_values

TEAM_SOURCE = "team"
TEAM_KIND = "team-measurement"
RESULT_PREFIX = "team-"


def team_source(session: Session, team_name: str) -> Source:
    """The team's own source, made on first use (never by seed/: it is not published)."""
    source = session.exec(select(Source).where(Source.slug == TEAM_SOURCE)).first()
    if source is not None:
        return source
    source = Source(
        slug=TEAM_SOURCE,
        short=team_name,
        title=f"{team_name}: our own measurements and claims",
        date=dt.date.today().isoformat(),
        kind=TEAM_KIND,
        note="Added by the team's editors on this instance; every change is in the history.",
        position=1_000_000,
        published=False,
    )
    session.add(source)
    session.flush()
    return source


def add_results(
    session: Session,
    who: SignedIn,
    results: list[TeamResultIn],
    team_name: str,
    *,
    source: Source | None = None,
    import_runs: list[int] | None = None,
) -> Saved[ResultDoc]:
    """Save every result or none: the first problem anywhere refuses the whole list.

    An import passes the source describing its file and, per result, the run it came from.
    """
    lock_writes(session)
    entries = _Entries(session)
    checked = _check_results(session, results, entries)
    if checked.problems:
        raise TeamError(checked.problems, checked.refused)
    source = source or team_source(session, team_name)
    position = next_position(session, BenchmarkResult)
    saved_at = now()
    saved: Saved[ResultDoc] = Saved(created=True)
    # Rows and revisions go in as two bulk statements: an import confirms thousands of
    # results, and one ORM object at a time held the write lock for a minute.
    rows: list[dict[str, Any]] = []
    revisions: list[dict[str, Any]] = []
    for offset, (result, ids) in enumerate(zip(results, checked.ids, strict=True)):
        row = result.model_dump(exclude={"system", "metric", *VOCABULARY_TABLES}) | dict(ids)
        row |= {
            "slug": _new_result_slug(),
            "system_id": checked.systems[result.system].id,
            "metric_id": checked.metrics[result.metric].id,
            "source_id": source.id,
            "run_by": who.name,
            "position": position + offset,
            "user_id": who.user_id,
            "version": 1,
            "withdrawn": False,
            "updated_at": saved_at,
            "import_run_id": import_runs[offset] if import_runs else None,
        }
        rows.append(row)
        doc = result_doc(row, result.system, result.metric, entries.slugs, source.slug)
        revisions.append(
            revision_values(
                actor=who.name,
                user_id=who.user_id,
                entity="benchmark_result",
                key=row["slug"],
                action="create",
                after=doc,
                system_slug=result.system,
                at=saved_at,
            )
        )
        saved.items.append(doc | {"version": 1, "by": who.name})
    session.execute(insert(BenchmarkResult), rows)
    record_many(session, revisions)
    bump_data_version(session)
    return saved


def update_result(
    session: Session, who: SignedIn, slug: str, changes: ResultChanges, version: int | None
) -> Saved[ResultDoc]:
    """Change the fields named in `changes` (a PATCH body without its version)."""
    lock_writes(session)
    row, system, metric, source = _team_result(session, slug)
    entries = _Entries(session)
    before = result_doc(row, system.slug, metric.slug, entries.slugs, source.slug)
    seen = before | {"by": author(session, row)}
    check_version(f"team result {slug}", row.version, version, seen)
    merged: dict[str, Any] = {name: before.get(name) for name in TeamResultFields.model_fields}
    merged |= changes
    # Only the names the change gives are looked up: an entry the row already points at
    # stays, even one that has since left the seed files (withdrawn).
    names = {kind: merged.pop(kind) for kind in VOCABULARY_TABLES}
    ids, wrong = entries.resolve({kind: names[kind] for kind in changes if kind in names})
    if wrong:
        raise TeamError(wrong, {k: names[k] for k in wrong})
    ids = {f"{k}_id": getattr(row, f"{k}_id") for k in VOCABULARY_TABLES} | ids
    for kind, text_column in (("hardware", "hardware_text"), ("model", "model_text")):
        if ids[f"{kind}_id"] != getattr(row, f"{kind}_id"):
            merged[text_column] = None  # the name kept from before the vocabulary is replaced
    merged |= ids
    if merged.get("unit") is None:
        raise TeamError({"unit": "a result needs a unit"})
    try:
        check_value_or_range(merged["value"], merged["low"], merged["high"])
    except ValueError as exc:
        raise TeamError({"value": str(exc)}) from None
    if problem := _unit_problem(merged["unit"], merged["value"], merged, metric):
        raise TeamError(problem)
    if merged.get("qualifier") is None:
        merged["qualifier"] = "exact"
    for name, value in merged.items():
        setattr(row, name, value)
    after = result_doc(row, system.slug, metric.slug, entries.slugs, source.slug)
    filed = Filed("benchmark_result", slug, system.slug)
    if not record_change(session, who, row, filed, before, after):
        return Saved(items=[after | {"version": row.version, "by": author(session, row)}])
    row.run_by = who.name
    return Saved(items=[after | {"version": row.version, "by": who.name}])


def delete_result(session: Session, who: SignedIn, slug: str, version: int | None) -> None:
    lock_writes(session)
    row, system, metric, source = _team_result(session, slug)
    before = result_doc(row, system.slug, metric.slug, _Entries(session).slugs, source.slug)
    seen = before | {"by": author(session, row)}
    check_version(f"team result {slug}", row.version, version, seen)
    record_change(session, who, row, Filed("benchmark_result", slug, system.slug), before, None)


def team_result(session: Session, slug: str) -> ResultDoc:
    """A team result as the API shows it, with its version and author (for the edit form)."""
    row, system, metric, source = _team_result(session, slug)
    slugs = _Entries(session).slugs
    return result_doc(row, system.slug, metric.slug, slugs, source.slug) | {
        "version": row.version,
        "by": author(session, row),
    }


def result_problems(session: Session, results: list[TeamResultIn]) -> dict[str, str]:
    """What is wrong with each result (`[i].field` when there are several), saving nothing."""
    return _check_results(session, results, _Entries(session)).problems


@dataclass
class _Checked:
    """Results checked before saving: what is wrong, and what each names, resolved."""

    problems: dict[str, str]
    refused: dict[str, str]  # field -> the name that was refused (for the error reply)
    ids: list[dict[str, int | None]]  # per result: {kind}_id of its vocabulary entries
    systems: dict[str, System]
    metrics: dict[str, Metric]


def _check_results(session: Session, results: list[TeamResultIn], entries: "_Entries") -> _Checked:
    systems = by_slug(session, System, {r.system for r in results})
    metrics = by_slug(session, Metric, {r.metric for r in results})
    checked = _Checked({}, {}, [], systems, metrics)
    for index, result in enumerate(results):
        names = result.model_dump(include=set(VOCABULARY_TABLES))
        ids, wrong = entries.resolve(names)
        prefix = f"[{index}]." if len(results) > 1 else ""
        checked.refused |= {prefix + k: names[k] for k in wrong}
        wrong |= _result_problems(result, systems, metrics)
        checked.problems |= {prefix + k: v for k, v in wrong.items()}
        checked.ids.append(ids)
    return checked


def result_doc(
    row: BenchmarkResult | Mapping[str, Any],
    system: str,
    metric: str,
    slugs: dict[str, dict[int, str]],
    source: str = TEAM_SOURCE,
) -> ResultDoc:
    """A team result as the API shows it and as its revisions record it (vocabulary entries
    by slug; `slugs` maps kind -> entry id -> slug). `row` is a saved row or the column
    values of one about to be inserted."""
    value: Callable[[str], Any] = row.get if isinstance(row, Mapping) else partial(getattr, row)
    fields = {
        name: slugs[name].get(value(f"{name}_id")) if name in VOCABULARY_TABLES else value(name)
        for name in (*TeamResultFields.model_fields, "hardware_text", "model_text")
    }
    doc = {"id": value("slug"), "system": system, "metric": metric, "source": source} | {
        k: v for k, v in fields.items() if v is not None
    }
    return cast(ResultDoc, doc)  # the fields are read by name: mypy cannot see a ResultDoc


class _Entries:
    """The hardware, models and workloads a team result may name, read once per write."""

    def __init__(self, session: Session) -> None:
        self.names = vocabulary_names(session)
        ids = entry_ids(session)
        self.ids = ids
        self.slugs = {
            kind: {i: slug for slug, i in by_slug.items()} for kind, by_slug in ids.items()
        }

    def resolve(self, names: dict[str, str | None]) -> tuple[dict[str, int | None], dict[str, str]]:
        """({kind}_id per kind, problems per field) for the names a result gives."""
        ids: dict[str, int | None] = {}
        problems: dict[str, str] = {}
        for kind, text in names.items():
            slug = self.names[kind].resolve_typed(text) if text else None
            if text and slug is None:
                hint = self.names[kind].hint(text, api_listing(kind))
                problems[kind] = f"not a known {kind} name; {hint}"
            ids[f"{kind}_id"] = self.ids[kind][slug] if slug else None
        return ids, problems


def _team_result(session: Session, slug: str) -> tuple[BenchmarkResult, System, Metric, Source]:
    found = session.exec(
        select(BenchmarkResult, System, Metric, Source)
        .join(System, col(System.id) == BenchmarkResult.system_id)
        .join(Metric, col(Metric.id) == BenchmarkResult.metric_id)
        .join(Source, col(Source.id) == BenchmarkResult.source_id)
        .where(BenchmarkResult.slug == slug)
    ).first()
    if found is None:
        raise UnknownItemError(f"no benchmark result has the id {slug!r}")
    row, system, metric, source = found
    if source.published:
        raise TeamError(
            {
                "id": f"{slug!r} is a published figure from {source.short}: it belongs to the "
                "seed files and cannot be changed here; add a team result instead"
            }
        )
    return row, system, metric, source


def _result_problems(
    result: TeamResultIn, systems: dict[str, System], metrics: dict[str, Metric]
) -> dict[str, str]:
    problems = {}
    try:
        check_value_or_range(result.value, result.low, result.high)
    except ValueError as exc:
        problems["value"] = str(exc)
    if result.system not in systems:
        problems["system"] = f"no system has the slug {result.system!r}"
    metric = metrics.get(result.metric)
    if metric is None:
        allowed = "see GET /api/v1/benchmarks for the metrics"
        problems["metric"] = f"no metric has the slug {result.metric!r}; {allowed}"
    else:
        problems |= _unit_problem(result.unit, result.value, result.model_dump(), metric)
    return problems


def _unit_problem(
    unit: str, value: float | None, fields: Mapping[str, object], metric: Metric
) -> dict[str, str]:
    if unit not in metric.units:
        return {
            "unit": f"{unit!r} does not fit the metric {metric.slug!r}; "
            f"allowed: {', '.join(metric.units)}"
        }
    if unit == "x":
        zero = [n for n in ("value", "low", "high") if fields.get(n) == 0]
        if zero:
            return {zero[0]: "0 is not a ratio (unit x); allowed: a number above 0"}
    return {}


def _new_result_slug() -> str:
    return f"{RESULT_PREFIX}{secrets.token_hex(5)}"
