"""Editor forms for the team's notes on published claims, figures and systems: add, edit,
delete (app/forms/editing.py says what the editor forms share, app/forms/saved_rows.py holds
the edit and delete flows, docs/team-forms.md the rest).

The forms sit beside the items on the system page, in the matrix cell panel and on
/benchmarks: each item has an "Add a team note" link that HTMX swaps for the form (without
JavaScript it opens the form's own page), and each note an Edit link that does the same.
"""

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from app.accounts.identity import SignedIn
from app.accounts.web import EditorUser, safe_next
from app.db import SessionDep
from app.forms import notes as note_forms
from app.forms.base import Clash, sentences
from app.forms.editing import back_to, form_page, not_found, posted, redirect_with_flash
from app.forms.notes import ITEM_FIELDS, NoteForm
from app.forms.saved_rows import TeamRows
from app.queries.notes import ItemError, ItemRef, find_item
from app.web.pages import page
from app.writes import common, notes
from app.writes.documents import NoteReply
from app.writes.transaction import write_transaction

router = APIRouter(include_in_schema=False)

NOTE_POST = (*ITEM_FIELDS, *note_forms.NOTE_FIELDS, "version", "next")


def _note_page(request: Request, session: SessionDep, form: NoteForm, status: int) -> Response:
    heading = "Edit a team note" if form.editing else "Add a team note"
    context = {"form": form, "heading": heading}
    fragments = {form.target: "team_note_form"}
    return form_page(request, session, "pages/team_note.html", context, status, fragments)


def _reading(values: dict[str, Any]) -> int | None:
    text = str(values.get("reading") or "")
    return int(text) if text.isdigit() else None


def _find(session: SessionDep, values: dict[str, Any]) -> ItemRef:
    """The item the form's hidden fields name (ItemError when they name none)."""
    keys = {k: v for k, v in note_forms.item_of(values).items() if k != "reading"}
    return find_item(session, **keys, reading=_reading(values))


def _label(session: SessionDep, values: dict[str, Any]) -> str:
    """The item in words; empty when the values name no item (the problems say why)."""
    try:
        return _find(session, values).label
    except ItemError:
        return ""


def _new_form(session: SessionDep, values: dict[str, str], next_path: str) -> NoteForm:
    item = note_forms.item_of(values)
    form = NoteForm(item=item, label=_label(session, values), values=values, next=next_path)
    form.cancel = next_path or note_forms.item_page(item)
    return form


@page(router, "/notes/new")
def new_note(request: Request, session: SessionDep, who: EditorUser) -> Response:
    query = request.query_params
    values = {k: query[k].strip() for k in ITEM_FIELDS if k in query}
    next_path = safe_next(query["next"]) if query.get("next") else ""
    try:
        _find(session, values)
    except ItemError as exc:
        return not_found(request, session, f"Nothing to put a note on: {exc.message}.")
    return _note_page(request, session, _new_form(session, values, next_path), 200)


@router.post("/notes")
async def add_note(request: Request, session: SessionDep, who: EditorUser) -> Response:
    values = await posted(request, NOTE_POST)
    return await run_in_threadpool(_add, request, session, who, values)


def _add(request: Request, session: SessionDep, who: SignedIn, values: dict[str, str]) -> Response:
    try:
        note = note_forms.note_in(values)
        with write_transaction(session):
            saved = notes.add_note(session, who, note)
    except common.TeamError as exc:
        form = _new_form(session, values, values["next"])
        form.problems = sentences(exc.problems)
        return _note_page(request, session, form, 422)
    doc = saved.items[0]
    back = _back(request, values, doc, True)
    return redirect_with_flash(request, back, f"Added a team note {_words(session, doc)}.")


def _keys(doc: NoteReply) -> dict[str, str]:
    return note_forms.item_of(doc)


def _back(request: Request, values: dict[str, str], doc: NoteReply, kept: bool) -> str:
    """Back to the page, at the note (replacing the anchor the form came from) unless it has
    been deleted."""
    back = back_to(request, values, note_forms.item_page(doc))
    return f"{back.partition('#')[0]}#note-{doc['id']}" if kept else back


def _words(session: SessionDep, doc: NoteReply) -> str:
    return f"on {_label(session, _keys(doc))}"


# Editing and deleting -----------------------------------------------------------------------


def _edit_form(
    session: SessionDep, doc: NoteReply, values: dict[str, str], next_path: str
) -> NoteForm:
    item = _keys(doc)
    back = next_path or note_forms.item_page(doc)
    return NoteForm(
        item=item,
        label=_label(session, item),
        values=values,
        note_id=doc["id"],
        version=int(doc["version"]),
        next=back,
        cancel=back,
    )


def _confirm_page(
    request: Request,
    session: SessionDep,
    doc: NoteReply,
    next_path: str,
    changed: bool,
    status: int,
) -> Response:
    item = _keys(doc)
    back = next_path or note_forms.item_page(doc)
    context = {"doc": doc, "label": _label(session, item), "next": back, "changed": changed}
    return form_page(request, session, "pages/team_note_delete.html", context, status, {})


def _clash(session: SessionDep, values: dict[str, str], current: NoteReply) -> Clash:
    return note_forms.note_clash(values, current)


NOTES: TeamRows[NoteReply, NoteForm] = TeamRows(
    noun="team note",
    fields=NOTE_POST,
    read=notes.team_note,
    values=note_forms.note_values,
    changes=note_forms.note_changes,
    update=notes.update_note,
    remove=notes.delete_note,
    edit_form=_edit_form,
    clash=_clash,
    form_page=_note_page,
    confirm_page=_confirm_page,
    back=_back,
    words=_words,
)


@page(router, "/notes/{note_id}/edit")
def edit_note(note_id: str, request: Request, session: SessionDep, who: EditorUser) -> Response:
    return NOTES.edit_page(request, session, note_id)


@router.post("/notes/{note_id}/edit")
async def save_note(
    note_id: str, request: Request, session: SessionDep, who: EditorUser
) -> Response:
    return await NOTES.save(request, session, who, note_id)


@page(router, "/notes/{note_id}/delete")
def confirm_delete(
    note_id: str, request: Request, session: SessionDep, who: EditorUser
) -> Response:
    return NOTES.delete_page(request, session, note_id)


@router.post("/notes/{note_id}/delete")
async def delete_note(
    note_id: str, request: Request, session: SessionDep, who: EditorUser
) -> Response:
    return await NOTES.delete(request, session, who, note_id)
