"""A team's own claims and benchmark results: add, change, remove, each with its revision.

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
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Generic, Literal, TypeVar, cast

from sqlalchemy import func, insert
from sqlmodel import Session, col, select

from app.accounts.models import UserAccount
from app.accounts.users import SignedIn
from app.data_version.version import bump_data_version
from app.db import lock_writes
from app.models import (
    VOCABULARY_TABLES,
    BenchmarkResult,
    Capability,
    Claim,
    Metric,
    Source,
    System,
    TeamNote,
)
from app.queries.entries import entry_ids, vocabulary_names
from app.vocabulary.names import api_listing
from app.writes.documents import ClaimDoc, ResultChanges, ResultDoc, Versioned
from app.writes.inputs import (
    TeamClaimIn,
    TeamResultFields,
    TeamResultIn,
    check_value_or_range,
)
from app.writes.revisions import Action, record, record_many, revision_values

TEAM_SOURCE = "team"
TEAM_KIND = "team-measurement"
RESULT_PREFIX = "team-"
Doc = TypeVar("Doc", bound=Versioned)
"""A saved row's document: a team result's, claim's or note's."""


class TeamError(Exception):
    """Input that cannot be saved; `problems` maps each field to what is wrong with it, and
    `values` the field to the value that was refused, where showing it helps."""

    def __init__(self, problems: dict[str, str], values: dict[str, str] | None = None) -> None:
        super().__init__("; ".join(f"{k}: {v}" for k, v in problems.items()))
        self.problems = problems
        self.values = values or {}


class UnknownItemError(Exception):
    """No such system, capability, or team result."""


class StaleVersionError(Exception, Generic[Doc]):
    """The change was based on `given`, but the row is at `current` (someone saved since)."""

    def __init__(self, what: str, given: int, current: int, row: Doc) -> None:
        super().__init__(
            f"{what} is at version {current}, not {given}: someone saved it since; "
            "reload it and make the change again"
        )
        self.given, self.current, self.row = given, current, row


class VersionRequiredError(Exception, Generic[Doc]):
    """A change to an existing row must say which version it is based on."""

    def __init__(self, what: str, current: int, row: Doc) -> None:
        super().__init__(
            f"{what} already exists (version {current}); send the version your change is "
            "based on (If-Match or a 'version' field)"
        )
        self.current, self.row = current, row


@dataclass
class Saved(Generic[Doc]):
    """What a write did: the rows' documents as the API returns them."""

    items: list[Doc] = field(default_factory=list)
    created: bool = False


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


# Results -------------------------------------------------------------------------------------


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
    position = _next_position(session, BenchmarkResult)
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
        revisions.append(revision_values(actor=who.name, user_id=who.user_id,
                                         entity="benchmark_result", key=row["slug"],
                                         action="create", after=doc, system_slug=result.system,
                                         at=saved_at))  # fmt: skip
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
    systems = _by_slug(session, System, {r.system for r in results})
    metrics = _by_slug(session, Metric, {r.metric for r in results})
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
            slug = self.names[kind].resolve(text) if text else None
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
            {"id": f"{slug!r} is a published figure from {source.short}: it belongs to the "
                   "seed files and cannot be changed here; add a team result instead"}
        )  # fmt: skip
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
        return {"unit": f"{unit!r} does not fit the metric {metric.slug!r}; "
                        f"allowed: {', '.join(metric.units)}"}  # fmt: skip
    if unit == "x":
        zero = [n for n in ("value", "low", "high") if fields.get(n) == 0]
        if zero:
            return {zero[0]: "0 is not a ratio (unit x); allowed: a number above 0"}
    return {}


def _new_result_slug() -> str:
    return f"{RESULT_PREFIX}{secrets.token_hex(5)}"


# Claims --------------------------------------------------------------------------------------


def put_claim(
    session: Session,
    who: SignedIn,
    system_slug: str,
    capability_slug: str,
    claim: TeamClaimIn,
    version: int | None,
    team_name: str,
) -> Saved[ClaimDoc]:
    """Set the team's claim on a cell: made if there is none, else changed (version needed)."""
    lock_writes(session)
    system, capability = _cell_rows(session, system_slug, capability_slug)
    source = team_source(session, team_name)
    row = _team_claim(session, system, capability, source)
    key = claim_key(system_slug, capability_slug)
    if row is None:
        row = Claim(
            system_id=system.id,  # type: ignore[arg-type]
            capability_id=capability.id,  # type: ignore[arg-type]
            source_id=source.id,  # type: ignore[arg-type]
            level=claim.level,
            note=claim.note,
            position=_next_position(session, Claim),
            user_id=who.user_id,
            version=1,
            updated_at=now(),
        )
        session.add(row)
        after = claim_doc(row, system_slug, capability_slug)
        revise(session, who, "claim", key, "create", None, after, system_slug)
        bump_data_version(session)
        return Saved(items=[after | {"version": 1, "by": who.name}], created=True)
    before = claim_doc(row, system_slug, capability_slug)
    seen = before | {"by": author(session, row)}
    check_version(f"the team's claim on {key}", row.version, version, seen)
    row.level, row.note = claim.level, claim.note
    after = claim_doc(row, system_slug, capability_slug)
    if not record_change(session, who, row, Filed("claim", key, system_slug), before, after):
        return Saved(items=[after | {"version": row.version, "by": author(session, row)}])
    return Saved(items=[after | {"version": row.version, "by": who.name}])


def delete_claim(
    session: Session, who: SignedIn, system_slug: str, capability_slug: str, version: int | None
) -> None:
    lock_writes(session)
    system, capability = _cell_rows(session, system_slug, capability_slug)
    source = session.exec(select(Source).where(Source.slug == TEAM_SOURCE)).first()
    row = _team_claim(session, system, capability, source) if source else None
    key = claim_key(system_slug, capability_slug)
    if row is None:
        raise UnknownItemError(f"the team has no claim on {key}")
    before = claim_doc(row, system_slug, capability_slug)
    seen = before | {"by": author(session, row)}
    check_version(f"the team's claim on {key}", row.version, version, seen)
    record_change(session, who, row, Filed("claim", key, system_slug), before, None)


def team_claim(session: Session, system_slug: str, capability_slug: str) -> ClaimDoc | None:
    """The team's claim on a cell as the API shows it (for forms and GET), or None."""
    system, capability = _cell_rows(session, system_slug, capability_slug)
    source = session.exec(select(Source).where(Source.slug == TEAM_SOURCE)).first()
    row = _team_claim(session, system, capability, source) if source else None
    if row is None:
        return None
    doc = claim_doc(row, system_slug, capability_slug)
    return doc | {"version": row.version, "by": author(session, row)}


def claim_key(system: str, capability: str) -> str:
    """The claim's key in the history, as the seed's claims are keyed."""
    return f"{system}/{capability}/{TEAM_SOURCE}"


def claim_doc(row: Claim, system: str, capability: str) -> ClaimDoc:
    doc: ClaimDoc = {
        "system": system,
        "capability": capability,
        "source": TEAM_SOURCE,
        "level": row.level,
    }
    return doc | ({"note": row.note} if row.note else {})


def _cell_rows(
    session: Session, system_slug: str, capability_slug: str
) -> tuple[System, Capability]:
    """The System and Capability rows of a cell; UnknownItemError names the one missing."""
    system = session.exec(select(System).where(System.slug == system_slug)).first()
    if system is None:
        raise UnknownItemError(f"no system has the slug {system_slug!r}")
    capability = session.exec(select(Capability).where(Capability.slug == capability_slug)).first()
    if capability is None:
        raise UnknownItemError(
            f"no capability has the slug {capability_slug!r}; see GET /api/v1/capabilities"
        )
    return system, capability


def _team_claim(
    session: Session, system: System, capability: Capability, source: Source
) -> Claim | None:
    return session.exec(
        select(Claim).where(
            Claim.system_id == system.id,
            Claim.capability_id == capability.id,
            Claim.source_id == source.id,
        )
    ).first()


# Shared --------------------------------------------------------------------------------------


def check_version(what: str, current: int, given: int | None, row: Doc) -> None:
    """Refuse a change based on no version, or on one older than `current`."""
    # `row | {...}` is a Doc again; mypy reads a TypedDict merge on a TypeVar as a plain dict.
    if given is None:
        raise VersionRequiredError(what, current, cast(Doc, row | {"version": current}))
    if given != current:
        raise StaleVersionError(what, given, current, cast(Doc, row | {"version": current}))


@dataclass(frozen=True)
class Filed:
    """Where a team row's changes are filed in the history: its kind of item (`entity`), its
    key, and the system it belongs to."""

    entity: str
    key: str
    system: str


def record_change(
    session: Session,
    who: SignedIn,
    row: BenchmarkResult | Claim | TeamNote,
    filed: Filed,
    before: Mapping[str, object],
    after: Mapping[str, object] | None,
) -> bool:
    """Apply an accepted change to a team row (its version checked): `after` is the row's new
    document, None when the row is removed. The row counts the save and names `who`, the
    change gets its revision and the data a new version. A change that leaves the document
    as it was records nothing and returns False."""
    if after is None:
        session.delete(row)
    elif after == before:
        return False
    else:
        row.version += 1
        row.user_id, row.updated_at = who.user_id, now()
        session.add(row)
        session.flush()
    action: Literal["update", "delete"] = "delete" if after is None else "update"
    revise(session, who, filed.entity, filed.key, action, before, after, filed.system)
    bump_data_version(session)
    return True


def revise(
    session: Session,
    who: SignedIn,
    entity: str,
    key: str,
    action: Action,
    before: Mapping[str, object] | None,
    after: Mapping[str, object] | None,
    system: str,
) -> None:
    """Record a team change, by `who`, filed under `system` (in the caller's transaction)."""
    record(session, actor=who.name, user_id=who.user_id, entity=entity, key=key, action=action,
           before=before, after=after, system_slug=system)  # fmt: skip


def _by_slug(session: Session, model: Any, slugs: set[str]) -> dict[str, Any]:
    if not slugs:
        return {}
    return {row.slug: row for row in session.exec(select(model).where(model.slug.in_(slugs)))}


def _next_position(session: Session, model: Any) -> int:
    return int(session.exec(select(func.coalesce(func.max(model.position), 0))).one()) + 1


def author(session: Session, row: Any) -> str | None:
    """The name of the user who saved a team row last."""
    if row.user_id is None:
        return None
    user = session.get(UserAccount, row.user_id)
    return user.name if user else None


def now() -> dt.datetime:
    """The time a save is stamped with."""
    return dt.datetime.now(dt.UTC)
