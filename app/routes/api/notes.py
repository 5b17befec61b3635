"""The notes API: a team's notes on published claims, figures and systems.

Reads are open like the rest of the API (and cached for anonymous readers); writes take an
editor or admin, by token or cookie, and answer as the rest of the write API does
(app/routes/api/team.py): 201/200 with the note and its version (also the ETag), 401, 403,
404 for an unknown note, 409 for a change based on an old version, 422 naming each bad
field, 428 for a change that does not say which version it is based on.
"""

from typing import Any, cast
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import ValidationError

from app.accounts.web import EditorUser
from app.db import SessionDep
from app.params.lists import NotesParams
from app.queries.notes import ItemError, find_item, list_notes, note_item
from app.routes.api.catalogue import Ignoring
from app.routes.api.team import (
    VERSIONED,
    WRITE_ERRORS,
    AnyJson,
    IfMatch,
    problems_reply,
    rows_reply,
    validation_problems,
    version_of,
    write_or_refuse,
)
from app.schemas import TeamNoteItem, TeamNoteList
from app.web.deps import NotesReading
from app.web.openapi import query_parameters
from app.web.pages import page
from app.writes import notes
from app.writes.documents import NoteChanges
from app.writes.inputs import TeamNoteIn, TeamNotePatch

router = APIRouter(prefix="/api/v1")
Responses = dict[int | str, dict[str, Any]]
NOTE_ERRORS: Responses = {
    **WRITE_ERRORS,
    404: {"description": "No note has this id"},
    428: VERSIONED[428],
}
NEW_NOTE_ERRORS: Responses = {
    401: WRITE_ERRORS[401],
    403: WRITE_ERRORS[403],
    422: {
        "description": "A field that is not allowed, or an item that is not there (a "
        "slug, a figure, a claim of that source); the reply names the field"
    },
}
A_NOTE = "a team note"


class NotesResponse(TeamNoteList, Ignoring):
    next: str | None = None  # the next page's URL (`offset` moved on); null on the last page


@page(
    router,
    "/notes",
    tags=["api"],
    response_model=NotesResponse,
    responses={
        404: {"description": "No such figure, or the source makes no claim on that cell"},
        422: {"description": "A parameter value that is not allowed; the reply names it"},
    },
    openapi_extra=query_parameters(NotesParams),
)
def list_team_notes(request: Request, session: SessionDep, reading: NotesReading) -> Response:
    """The team's notes, newest first: on one item (a figure by `result`; a claim by system,
    capability and source), on a system and everything in it (`system` alone), or all."""
    p = reading.params
    named = p.model_dump(include={"system", "capability", "source", "reading", "result"})
    whole_system = bool(p.system) and not (p.capability or p.source or p.reading)
    try:
        item = find_item(session, **named) if any(named.values()) else None
    except ItemError as exc:
        # Every value here is allowed on its own; a combination that names no item (a claim
        # without its system, a reading the source does not give) is an item not found.
        return JSONResponse({"detail": exc.message, "field": exc.field}, status_code=404)
    found = list_notes(session, item, whole_system=whole_system, limit=p.limit, offset=p.offset)
    following = p.offset + p.limit
    after = None
    if following < found.total:
        kept = [(k, v) for k, v in request.query_params.multi_items() if k != "offset"]
        after = f"{request.url.path}?{urlencode([*kept, ('offset', str(following))])}"
    body = NotesResponse(**found.model_dump(), ignored_parameters=reading.ignored, next=after)
    return JSONResponse(body.model_dump(mode="json"))


@page(
    router,
    "/notes/{note_id}",
    tags=["api"],
    response_model=TeamNoteItem,
    responses={404: {"description": "No note has this id"}},
)
def get_team_note(note_id: str, session: SessionDep) -> Response:
    """One note with the item it is on; its version is also the ETag (for If-Match)."""
    found = note_item(session, note_id)
    if found is None:
        return JSONResponse({"detail": f"no team note has the id {note_id!r}"}, status_code=404)
    return rows_reply(found.model_dump(mode="json"), 200)


def _body(model: str) -> dict[str, Any]:
    """The operation's request body, for a route that reads its body itself (docs.py defines
    the schema)."""
    schema = {"$ref": f"#/components/schemas/{model}"}
    return {"requestBody": {"required": True, "content": {"application/json": {"schema": schema}}}}


@router.post(
    "/notes",
    status_code=201,
    tags=["team writes"],
    response_model=TeamNoteItem,
    responses=NEW_NOTE_ERRORS,
    openapi_extra=_body("TeamNoteIn"),
)
def post_note(who: EditorUser, session: SessionDep, body: AnyJson) -> Response:
    """Put a note on a published item: a claim (`system`, `capability`, `source`, and
    `reading` when the source gives several), a figure (`result`) or a system (`system`)."""
    try:
        note = TeamNoteIn.model_validate(body)
    except ValidationError as exc:
        return problems_reply(validation_problems(exc, what=A_NOTE))
    saved = write_or_refuse(session, lambda: notes.add_note(session, who, note))
    return rows_reply(saved.items[0], 201)


@router.patch(
    "/notes/{note_id}",
    tags=["team writes"],
    response_model=TeamNoteItem,
    responses=NOTE_ERRORS,
    openapi_extra=_body("TeamNotePatch"),
)
def patch_note(
    note_id: str,
    who: EditorUser,
    session: SessionDep,
    body: AnyJson,
    if_match: IfMatch = None,
) -> Response:
    """Change a note's text or link (a null link removes it); its item stays."""
    try:
        patch = TeamNotePatch.model_validate(body)
    except ValidationError as exc:
        return problems_reply(validation_problems(exc, what=A_NOTE))
    version = version_of(patch.version, if_match)
    changes = cast(NoteChanges, patch.model_dump(exclude_unset=True, exclude={"version"}))
    saved = write_or_refuse(
        session, lambda: notes.update_note(session, who, note_id, changes, version)
    )
    return rows_reply(saved.items[0], 200)


@router.delete(
    "/notes/{note_id}",
    status_code=204,
    tags=["team writes"],
    responses=NOTE_ERRORS,
)
def delete_note(
    note_id: str,
    who: EditorUser,
    session: SessionDep,
    if_match: IfMatch = None,
    version: int | None = None,
) -> Response:
    """Remove a note (`If-Match` or `?version=` names the version you saw)."""
    checked = version_of(version, if_match)
    write_or_refuse(session, lambda: notes.delete_note(session, who, note_id, checked))
    return Response(status_code=204)
