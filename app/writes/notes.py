"""A team's notes on published items: add, change, remove, each with its revision.

Published claims, figures and systems belong to seed/ and are never rewritten; a team
annotates them instead. A note names its item by stable keys (app/queries/notes.py
`find_item`), is attributed to the user who saved it last, and counts its saves in
`version`: a change based on an older version is refused, as for team results and claims.
The team's own claims and results are not annotated (their editors change them directly).

Call these inside `app.writes.transaction.write_transaction`, like app/writes/team.py.
"""

import secrets
from typing import cast

from sqlmodel import Session, select

from app.accounts.identity import SignedIn
from app.data_version.version import bump_data_version
from app.db import lock_writes
from app.models import TeamNote
from app.queries.notes import (
    MAX_NOTES_PER_ITEM,
    ItemError,
    ItemRef,
    find_item,
    item_of,
    notes_on,
)
from app.queries.notes import note_item as read_note
from app.writes.common import (
    Filed,
    Saved,
    TeamError,
    UnknownItemError,
    check_version,
    now,
    record_change,
    revise,
)
from app.writes.documents import NoteChanges, NoteDoc, NoteReply
from app.writes.inputs import TeamNoteIn

NOTE_PREFIX = "note-"
ENTITY = "note"
"""The kind of item in the history (/changes?kind=note)."""


def add_note(session: Session, who: SignedIn, note: TeamNoteIn) -> Saved[NoteReply]:
    """Put a new note on the item `note` names (its text and link)."""
    lock_writes(session)
    item = _published_item(session, note)
    if notes_on(session, item) >= MAX_NOTES_PER_ITEM:
        field = _item_field(item)
        raise TeamError(
            {
                field: f"{item.label} already holds {MAX_NOTES_PER_ITEM} notes, the "
                "most one item takes; change or remove one of them"
            }
        )
    saved_at = now()
    row = TeamNote(
        slug=f"{NOTE_PREFIX}{secrets.token_hex(5)}",
        system_id=item.system_id,
        claim_id=item.claim_id,
        result_id=item.result_id,
        text=note.text,
        link=note.link,
        user_id=who.user_id,
        version=1,
        created_at=saved_at,
        updated_at=saved_at,
    )
    session.add(row)
    session.flush()
    doc = note_doc(row, item)
    revise(session, who, ENTITY, note_key(item, row.slug), "create", None, doc, item.system)
    bump_data_version(session)
    return Saved(items=[_reply(session, row.slug)], created=True)


def update_note(
    session: Session, who: SignedIn, slug: str, changes: NoteChanges, version: int | None
) -> Saved[NoteReply]:
    """Change the fields named in `changes` (text, link; a None link removes it)."""
    lock_writes(session)
    row, item = _note(session, slug)
    before = note_doc(row, item)
    check_version(f"the team note {slug}", row.version, version, _reply(session, slug))
    if "text" in changes and not changes["text"]:
        raise TeamError({"text": "a note needs text; to take it away, delete the note"})
    for name in ("text", "link"):
        if name in changes:
            setattr(row, name, changes[name])
    record_change(session, who, row, _filed(item, slug), before, note_doc(row, item))
    return Saved(items=[_reply(session, slug)])


def delete_note(session: Session, who: SignedIn, slug: str, version: int | None) -> None:
    """Remove a note, if it is still at `version`."""
    lock_writes(session)
    row, item = _note(session, slug)
    before = note_doc(row, item)
    check_version(f"the team note {slug}", row.version, version, _reply(session, slug))
    record_change(session, who, row, _filed(item, slug), before, None)


def team_note(session: Session, slug: str) -> NoteReply:
    """A note as the API shows it, with its item, version and author."""
    _note(session, slug)
    return _reply(session, slug)


def note_doc(row: TeamNote, item: ItemRef) -> NoteDoc:
    """A note as its revisions record it: its id, its item's keys, its text and link."""
    # item.fields() names the item's keys by name; mypy cannot see they make a NoteDoc.
    doc = cast(NoteDoc, {"id": row.slug} | item.fields() | {"text": row.text})
    return doc | ({"link": row.link} if row.link else {})


def note_key(item: ItemRef, slug: str) -> str:
    """The note's key in the history: its item's key, then its own id."""
    return f"{item.key}/{slug}"


def _filed(item: ItemRef, slug: str) -> Filed:
    return Filed(ENTITY, note_key(item, slug), item.system)


def _published_item(session: Session, note: TeamNoteIn) -> ItemRef:
    target = note.model_dump(include={"system", "capability", "source", "reading", "result"})
    try:
        item = find_item(session, **target)
    except ItemError as exc:
        # In a request body every wrong key is a field to correct, unknown or not.
        raise TeamError({exc.field: exc.message}) from None
    if not item.published:
        kind = "result" if item.on == "result" else "claim"
        raise TeamError(
            {
                _item_field(item): f"this is the team's own {kind}: change it (its "
                "note field) rather than annotate it"
            }
        )
    return item


def _item_field(item: ItemRef) -> str:
    return {"result": "result", "claim": "source", "system": "system"}[item.on]


def _note(session: Session, slug: str) -> tuple[TeamNote, ItemRef]:
    row = session.exec(select(TeamNote).where(TeamNote.slug == slug)).first()
    if row is None:
        raise UnknownItemError(f"no team note has the id {slug!r}")
    return row, item_of(session, row)


def _reply(session: Session, slug: str) -> NoteReply:
    found = read_note(session, slug)
    assert found is not None  # read in the same transaction that wrote it
    return cast(NoteReply, found.model_dump(mode="json"))  # TeamNoteItem's own fields
