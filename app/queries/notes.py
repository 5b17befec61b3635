"""Team notes: beside the published items on every page, and listed by the notes API.

One query layer for both. Pages read `note_index` (every note by the item it is on, loaded
once per data version); the notes API, the forms and the write service name an item with
`find_item` (by slugs and result ids, as a URL or a request body does) and read notes with
their items through `note_items`.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy import func
from sqlmodel import Session, col, select

from app.models import BenchmarkResult, Capability, Claim, Source, System, TeamNote
from app.queries.benchmarks import benchmark_views
from app.queries.note_index import note_view, with_authors
from app.schemas import TeamNoteItem, TeamNoteList
from app.text import figure

MAX_NOTES_PER_ITEM = 20
"""A note is a remark, not a thread: an item holding this many takes no more, which also
bounds what a page draws beside one item."""

NoteOn = Literal["claim", "result", "system"]


class ItemError(Exception):
    """The parameters name no item (`missing`), or name one badly; `field` says which."""

    def __init__(self, field: str, message: str, *, missing: bool = False) -> None:
        super().__init__(message)
        self.field, self.message, self.missing = field, message, missing


@dataclass(frozen=True)
class ItemRef:
    """A published item a note can be on, by its stable keys (and its row ids, for writing)."""

    on: NoteOn
    system_id: int
    system: str
    label: str  # the item in words: "vLLM · Prefix caching, as Best Servers 2026 says"
    claim_id: int | None = None
    capability: str | None = None
    source: str | None = None
    reading: int | None = None
    result_id: int | None = None
    result: str | None = None
    published: bool = True
    withdrawn: bool = False

    def fields(self) -> dict[str, Any]:
        """The item as the API and the history name it: slugs and result ids, never row ids."""
        names = ("system", "capability", "source", "reading", "result")
        return {"on": self.on} | {n: getattr(self, n) for n in names if getattr(self, n)}

    @property
    def key(self) -> str:
        """The item's key in the history (a claim's as the seed's claims are keyed)."""
        if self.on == "result":
            return str(self.result)
        if self.on == "claim":
            reading = f"/{self.reading}" if self.reading else ""
            return f"{self.system}/{self.capability}/{self.source}{reading}"
        return self.system


# Naming an item ---------------------------------------------------------------------------------


def find_item(
    session: Session,
    *,
    system: str | None = None,
    capability: str | None = None,
    source: str | None = None,
    reading: int | None = None,
    result: str | None = None,
) -> ItemRef:
    """The item these name: a figure by its id alone; a claim by system, capability and
    source (and `reading` when the source gives several); else the system itself."""
    if result:
        extra = [
            n
            for n, v in (
                ("system", system),
                ("capability", capability),
                ("source", source),
                ("reading", reading),
            )
            if v
        ]
        if extra:
            raise ItemError(
                extra[0],
                f"a figure is named by its id alone (`result`); leave out {', '.join(extra)}",
            )
        return _result_item(session, BenchmarkResult.slug == result, result)
    if not system:
        raise ItemError(
            "system",
            "required: the system the note is on (a slug), or `result` for a benchmark figure",
        )
    if not (capability or source or reading):
        return _system_item(session, system)
    for name, value in (("capability", capability), ("source", source)):
        if not value:
            raise ItemError(
                name,
                "required for a note on a claim: give system, capability and "
                "source (or only system, for a note on the system)",
            )
    return _claim_item(session, system, str(capability), str(source), reading)


def _system_item(session: Session, slug: str) -> ItemRef:
    row = session.exec(select(System).where(System.slug == slug)).first()
    if row is None:
        raise ItemError("system", f"no system has the slug {slug!r}", missing=True)
    return ItemRef("system", row.id, row.slug, row.name, withdrawn=row.withdrawn)  # type: ignore[arg-type]


def _claim_item(
    session: Session, system: str, capability: str, source: str, reading: int | None
) -> ItemRef:
    found = session.exec(
        select(Claim, System, Capability, Source)
        .join(System, col(System.id) == col(Claim.system_id))
        .join(Capability, col(Capability.id) == col(Claim.capability_id))
        .join(Source, col(Source.id) == col(Claim.source_id))
        .where(System.slug == system, Capability.slug == capability, Source.slug == source)
        .order_by(col(Claim.position))
    ).all()
    if not found:
        _check_slugs(session, system, capability, source)
        message = f"the source {source!r} makes no claim on {system}/{capability}"
        raise ItemError("source", message, missing=True)
    if reading is None and len(found) > 1:
        listed = "; ".join(
            f"{i} ({row[0].note or row[0].level})" for i, row in enumerate(found, start=1)
        )
        raise ItemError(
            "reading", f"{source!r} gives {len(found)} readings of this cell; say which: {listed}"
        )
    if reading is not None and not 1 <= reading <= len(found):
        allowed = "none (the source gives one reading)" if len(found) == 1 else f"1–{len(found)}"
        raise ItemError("reading", f"{reading} is not one of the readings; allowed: {allowed}")
    claim, sys_row, cap_row, src_row = found[(reading or 1) - 1]
    label = f"{sys_row.name} · {cap_row.name}, as {src_row.short} says"
    return ItemRef(
        "claim",
        sys_row.id,  # type: ignore[arg-type]
        system,
        label,
        claim_id=claim.id,
        capability=capability,
        source=source,
        reading=reading if len(found) > 1 else None,
        published=src_row.published,
        withdrawn=claim.withdrawn,
    )


def _check_slugs(session: Session, system: str, capability: str, source: str) -> None:
    for model, name, value in (
        (System, "system", system),
        (Capability, "capability", capability),
        (Source, "source", source),
    ):
        if session.exec(select(model.id).where(model.slug == value)).first() is None:
            raise ItemError(name, f"no {name} has the slug {value!r}", missing=True)


def _result_item(session: Session, where: Any, shown: str) -> ItemRef:
    views = benchmark_views(session, where)
    if not views:
        raise ItemError("result", f"no benchmark result has the id {shown!r}", missing=True)
    view = views[0]
    row = session.exec(
        select(BenchmarkResult.id, BenchmarkResult.system_id, Source.published)
        .join(Source, col(Source.id) == col(BenchmarkResult.source_id))
        .where(BenchmarkResult.slug == view.id)
    ).one()
    label = f"{view.system_name}: {view.metric_name} {figure(view)} ({view.source.short})"
    return ItemRef(
        "result",
        row[1],
        view.system,
        label,
        result_id=row[0],
        result=view.id,
        published=row[2],
        withdrawn=view.withdrawn,
    )


def item_of(session: Session, note: TeamNote) -> ItemRef:
    """The item a saved note is on."""
    if note.result_id is not None:
        return _result_item(session, BenchmarkResult.id == note.result_id, str(note.result_id))
    system = session.get(System, note.system_id)
    assert system is not None  # a foreign key
    if note.claim_id is None:
        return _system_item(session, system.slug)
    claim = session.get(Claim, note.claim_id)
    assert claim is not None
    capability, source = (
        session.get(Capability, claim.capability_id),
        session.get(Source, claim.source_id),
    )
    assert capability is not None and source is not None
    readings = list(
        session.exec(
            select(Claim.id)
            .where(
                Claim.system_id == claim.system_id,
                Claim.capability_id == claim.capability_id,
                Claim.source_id == claim.source_id,
            )
            .order_by(col(Claim.position))
        )
    )
    reading = readings.index(claim.id) + 1 if len(readings) > 1 else None
    return _claim_item(session, system.slug, capability.slug, source.slug, reading)


def notes_on(session: Session, item: ItemRef) -> int:
    """How many notes the item holds."""
    statement = select(func.count()).select_from(TeamNote)
    return int(session.exec(_on_item(statement, item)).one())


def _on_item(statement: Any, item: ItemRef) -> Any:
    if item.on == "result":
        return statement.where(TeamNote.result_id == item.result_id)
    if item.on == "claim":
        return statement.where(TeamNote.claim_id == item.claim_id)
    return statement.where(
        TeamNote.system_id == item.system_id,
        col(TeamNote.claim_id).is_(None),
        col(TeamNote.result_id).is_(None),
    )


# Reading notes ----------------------------------------------------------------------------------


def list_notes(
    session: Session, item: ItemRef | None, *, whole_system: bool, limit: int, offset: int = 0
) -> TeamNoteList:
    """Notes newest first: on `item`, or (`whole_system`) on its system and everything in it,
    or (no item) every note; at most `limit`, after skipping `offset`."""
    statement, count = with_authors(), select(func.count()).select_from(TeamNote)
    if item is not None and whole_system:
        statement = statement.where(TeamNote.system_id == item.system_id)
        count = count.where(TeamNote.system_id == item.system_id)
    elif item is not None:
        statement, count = _on_item(statement, item), _on_item(count, item)
    page = session.exec(statement.order_by(col(TeamNote.id).desc()).offset(offset).limit(limit))
    rows = list(page)
    return TeamNoteList(notes=note_items(session, rows), total=int(session.exec(count).one()))


def note_items(session: Session, rows: Sequence[tuple[TeamNote, str | None]]) -> list[TeamNoteItem]:
    """Notes with the items they are on, as the API shows them."""
    items: dict[tuple[int | None, int | None, int], ItemRef] = {}
    out = []
    for note, by in rows:
        where = (note.claim_id, note.result_id, note.system_id)
        if where not in items:  # the same item's notes come together; look it up once
            items[where] = item_of(session, note)
        item = items[where]
        out.append(
            TeamNoteItem(
                **note_view(note, by).model_dump(), **item.fields(), item_withdrawn=item.withdrawn
            )
        )
    return out


def note_item(session: Session, slug: str) -> TeamNoteItem | None:
    """One note with its item, or None."""
    row = session.exec(with_authors().where(TeamNote.slug == slug)).first()
    return note_items(session, [row])[0] if row else None
