"""Editor forms for the team's notes on published claims, figures and systems: add, edit,
delete (see team_forms.py for what the editor forms share, docs/team-forms.md for the rest).

The forms sit beside the items on the system page, in the matrix cell panel and on
/benchmarks: each item has an "Add a team note" link that HTMX swaps for the form (without
JavaScript it opens the form's own page), and each note an Edit link that does the same.
"""

from collections.abc import Mapping

from fastapi import APIRouter, Request
from fastapi.responses import Response
from sqlmodel import Session
from starlette.concurrency import run_in_threadpool

from app.accounts.users import SignedIn
from app.accounts.web import EditorUser, safe_next
from app.db import SessionDep
from app.forms import notes as note_forms
from app.forms.editing import back_to, done, not_found, page, posted
from app.forms.notes import ITEM_FIELDS, NoteForm
from app.forms.team import sentences, version_of
from app.queries.notes import ItemError, ItemRef, find_item
from app.web.render import serve
from app.writes import notes
from app.writes import team as service
from app.writes.documents import NoteReply
from app.writes.transaction import write_transaction

router = APIRouter(include_in_schema=False)

NOTE_POST = (*ITEM_FIELDS, *note_forms.NOTE_FIELDS, "version", "next")


def _note_page(request: Request, session: Session, form: NoteForm, status: int) -> Response:
    heading = "Edit a team note" if form.editing else "Add a team note"
    context = {"form": form, "heading": heading}
    fragments = {form.target: "team_note_form"}
    return page(request, session, "pages/team_note.html", context, status, fragments)


def _reading(values: Mapping[str, object]) -> int | None:
    text = str(values.get("reading") or "")
    return int(text) if text.isdigit() else None


def _find(session: Session, values: Mapping[str, object]) -> ItemRef:
    """The item the form's hidden fields name (ItemError when they name none)."""
    keys = {k: v for k, v in note_forms.item_of(values).items() if k != "reading"}
    return find_item(session, **keys, reading=_reading(values))


def _label(session: Session, values: Mapping[str, object]) -> str:
    """The item in words; empty when the values name no item (the problems say why)."""
    try:
        return _find(session, values).label
    except ItemError:
        return ""


def _new_form(session: Session, values: dict[str, str], next_path: str) -> NoteForm:
    item = note_forms.item_of(values)
    form = NoteForm(item=item, label=_label(session, values), values=values, next=next_path)
    form.cancel = next_path or note_forms.item_page(item)
    return form


@router.get("/notes/new")
async def new_note(request: Request, session: SessionDep, who: EditorUser) -> Response:
    query = request.query_params
    values = {k: query[k].strip() for k in ITEM_FIELDS if k in query}
    next_path = safe_next(query["next"]) if query.get("next") else ""

    def build(s: Session) -> Response:
        try:
            _find(s, values)
        except ItemError as exc:
            return not_found(request, s, f"Nothing to put a note on: {exc.message}.")
        return _note_page(request, s, _new_form(s, values, next_path), 200)

    return await serve(request, session, build)


@router.post("/notes")
async def add_note(request: Request, session: SessionDep, who: EditorUser) -> Response:
    values = await posted(request, NOTE_POST)
    return await run_in_threadpool(_add, request, session, who, values)


def _add(request: Request, session: Session, who: SignedIn, values: dict[str, str]) -> Response:
    try:
        note = note_forms.note_in(values)
        with write_transaction(session):
            saved = notes.add_note(session, who, note)
    except service.TeamError as exc:
        form = _new_form(session, values, values["next"])
        form.problems = sentences(exc.problems)
        return _note_page(request, session, form, 422)
    doc = saved.items[0]
    back = _at(back_to(request, values, note_forms.item_page(doc)), doc["id"])
    return done(request, back, f"Added a team note on {_label(session, _keys(doc))}.")


def _keys(doc: NoteReply) -> dict[str, str]:
    return note_forms.item_of(doc)


def _at(back: str, note_id: str) -> str:
    """Back to the page, at the note (replacing the anchor the form came from)."""
    return f"{back.partition('#')[0]}#note-{note_id}"


# Editing and deleting -----------------------------------------------------------------------


def _saved(session: Session, note_id: str) -> NoteReply | None:
    try:
        return notes.team_note(session, note_id)
    except service.UnknownItemError:
        return None


def _no_note(note_id: str) -> str:
    return f"No team note has the id {note_id!r}; it may have been deleted since."


def _edit_form(
    session: Session, doc: NoteReply, values: dict[str, str], next_path: str
) -> NoteForm:
    item = _keys(doc)
    back = next_path or note_forms.item_page(doc)
    return NoteForm(item=item, label=_label(session, item), values=values, note_id=doc["id"],
                    version=int(doc["version"]), next=back, cancel=back)  # fmt: skip


@router.get("/notes/{note_id}/edit")
async def edit_note(
    note_id: str, request: Request, session: SessionDep, who: EditorUser
) -> Response:
    next_path = request.query_params.get("next", "")

    def build(s: Session) -> Response:
        doc = _saved(s, note_id)
        if doc is None:
            return not_found(request, s, _no_note(note_id))
        values = note_forms.note_values(doc)
        form = _edit_form(s, doc, values, next_path and safe_next(next_path))
        return _note_page(request, s, form, 200)

    return await serve(request, session, build)


@router.post("/notes/{note_id}/edit")
async def save_note(
    note_id: str, request: Request, session: SessionDep, who: EditorUser
) -> Response:
    values = await posted(request, NOTE_POST)
    return await run_in_threadpool(_save, request, session, who, note_id, values)


def _save(
    request: Request, session: Session, who: SignedIn, note_id: str, values: dict[str, str]
) -> Response:
    version = version_of(values)
    try:
        changes = note_forms.note_changes(values)
        with write_transaction(session):
            saved = notes.update_note(session, who, note_id, changes, version)
    except (service.StaleVersionError, service.VersionRequiredError) as exc:
        form = _edit_form(session, exc.row, values, values["next"])
        form.clash = note_forms.note_clash(values, exc.row)
        return _note_page(request, session, form, 409)
    except service.UnknownItemError:
        return not_found(request, session, _no_note(note_id))
    except service.TeamError as exc:
        doc = _saved(session, note_id)
        if doc is None:
            return not_found(request, session, _no_note(note_id))
        form = _edit_form(session, doc, values, values["next"])
        # Still based on the version the editor saw: a re-show never moves them past a change.
        form.version, form.problems = version or form.version, sentences(exc.problems)
        return _note_page(request, session, form, 422)
    doc = saved.items[0]
    back = _at(back_to(request, values, note_forms.item_page(doc)), note_id)
    if doc["version"] == version:
        return done(request, back, "Nothing to save: the team note is as it was.")
    return done(request, back, f"Saved the team note on {_label(session, _keys(doc))}.")


def _delete_page(
    request: Request, session: Session, doc: NoteReply, next_path: str, changed: bool,
    status: int,
) -> Response:  # fmt: skip
    item = _keys(doc)
    back = next_path or note_forms.item_page(doc)
    context = {"doc": doc, "label": _label(session, item), "next": back, "changed": changed}
    return page(request, session, "pages/team_note_delete.html", context, status, {})


@router.get("/notes/{note_id}/delete")
async def confirm_delete(
    note_id: str, request: Request, session: SessionDep, who: EditorUser
) -> Response:
    next_path = request.query_params.get("next", "")

    def build(s: Session) -> Response:
        doc = _saved(s, note_id)
        if doc is None:
            return not_found(request, s, _no_note(note_id))
        return _delete_page(request, s, doc, next_path and safe_next(next_path), False, 200)

    return await serve(request, session, build)


@router.post("/notes/{note_id}/delete")
async def delete_note(
    note_id: str, request: Request, session: SessionDep, who: EditorUser
) -> Response:
    values = await posted(request, ("version", "next"))
    return await run_in_threadpool(_delete, request, session, who, note_id, values)


def _delete(
    request: Request, session: Session, who: SignedIn, note_id: str, values: dict[str, str]
) -> Response:
    try:
        with write_transaction(session):
            doc = notes.team_note(session, note_id)
            notes.delete_note(session, who, note_id, version_of(values))
    except (service.StaleVersionError, service.VersionRequiredError) as exc:
        return _delete_page(request, session, exc.row, values["next"], True, 409)
    except service.UnknownItemError:
        return not_found(request, session, _no_note(note_id))
    item = _keys(doc)
    back = back_to(request, values, note_forms.item_page(doc))
    return done(request, back, f"Deleted the team note on {_label(session, item)}.")
