"""The team catalogue's write API: the team's own hardware, models, workloads and systems.

POST /api/v1/hardware, /models, /workloads and /systems add one (201 with its `slug`);
PATCH and DELETE on /{kind}/{slug} change or remove it, with versions as for notes (409
stale, 428 missing). A name, alias or slug another entry holds is a 409 naming the holder
(`holder`); deleting an entry in use is a 409 listing what uses it (`used_by`). Published
entries are read-only, but PATCH {"aliases": [...]} gives one the team's own aliases.
Editors and admins only, by token or cookie.
"""

from collections.abc import Callable
from typing import Any, TypeVar

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import ValidationError

from app.accounts.web import EditorUser
from app.db import SessionDep
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
from app.web.errors import RefusedError
from app.writes import entries
from app.writes.entry_inputs import (
    INPUTS,
    PATCHES,
    SystemIn,
    SystemPatch,
    entry_aliases,
    entry_config,
    entry_fields,
)

router = APIRouter(prefix="/api/v1", tags=["team catalogue"])
PATHS = {"hardware": "hardware", "model": "models", "workload": "workloads"}
CONFLICT: dict[int | str, dict[str, Any]] = {
    409: {
        "description": "A name another entry holds (`holder`), an entry in use (`used_by`), "
        "or a change based on an old version"
    }
}
T = TypeVar("T")


def catalogue_write(session: SessionDep, change: Callable[[], T]) -> T:
    """write_or_refuse, with a taken name or an entry in use answered as 409."""
    try:
        return write_or_refuse(session, change)
    except entries.NameTakenError as exc:
        body = {"detail": str(exc), "field": exc.field, "holder": exc.holder}
        raise RefusedError(JSONResponse(body, status_code=409)) from exc
    except entries.InUseError as exc:
        used: dict[str, Any] = {"detail": str(exc), "used_by": exc.uses}
        raise RefusedError(JSONResponse(used, status_code=409)) from exc


def _post_entry(
    kind: str, who: EditorUser, session: SessionDep, body: Any, team_name: str
) -> Response:
    try:
        entry = INPUTS[kind].model_validate(body)
    except ValidationError as exc:
        return problems_reply(validation_problems(exc, what=f"a {entries.NOUNS[kind]}"))
    doc = catalogue_write(
        session,
        lambda: entries.add_entry(
            session,
            who,
            kind,
            entry_fields(entry),
            entry_aliases(entry),
            entry.slug,
            config=entry_config(entry),
            team_name=team_name,
        ),
    )
    reply = rows_reply(doc, 201)
    reply.headers["Location"] = f"/api/v1/{PATHS[kind]}/{doc['slug']}"
    return reply


def _patch_entry(
    kind: str, slug: str, who: EditorUser, session: SessionDep, body: Any, if_match: str | None
) -> Response:
    try:
        patch = PATCHES[kind].model_validate(body)
    except ValidationError as exc:
        return problems_reply(validation_problems(exc, what=f"a {entries.NOUNS[kind]}"))
    version = version_of(getattr(patch, "version", None), if_match)
    changes = patch.model_dump(exclude_unset=True, exclude={"version"})
    doc = catalogue_write(
        session, lambda: entries.update_entry(session, who, kind, slug, changes, version)
    )
    return rows_reply(doc, 200)


def _delete_entry(
    kind: str,
    slug: str,
    who: EditorUser,
    session: SessionDep,
    version: int | None,
    if_match: str | None,
) -> Response:
    checked = version_of(version, if_match)
    catalogue_write(session, lambda: entries.delete_entry(session, who, kind, slug, checked))
    return Response(status_code=204)


def _routes(kind: str) -> None:
    path = f"/{PATHS[kind]}"
    noun = entries.NOUNS[kind]

    @router.post(
        path,
        status_code=201,
        responses=WRITE_ERRORS | CONFLICT,
        summary=f"Add the team's own {noun}",
        name=f"post_{kind}",
    )
    def post(request: Request, who: EditorUser, session: SessionDep, body: AnyJson) -> Response:
        team_name = request.app.state.settings.atlas_team_name
        return _post_entry(kind, who, session, body, team_name)

    @router.patch(
        f"{path}/{{slug}}",
        responses=WRITE_ERRORS | VERSIONED | CONFLICT,
        summary=f"Change the team's {noun}, or add aliases to a published one",
        name=f"patch_{kind}",
    )
    def patch(
        slug: str, who: EditorUser, session: SessionDep, body: AnyJson, if_match: IfMatch = None
    ) -> Response:
        return _patch_entry(kind, slug, who, session, body, if_match)

    @router.delete(
        f"{path}/{{slug}}",
        status_code=204,
        responses=WRITE_ERRORS | VERSIONED | CONFLICT,
        summary=f"Remove the team's {noun} (not while in use)",
        name=f"delete_{kind}",
    )
    def delete(
        slug: str,
        who: EditorUser,
        session: SessionDep,
        if_match: IfMatch = None,
        version: int | None = None,
    ) -> Response:
        return _delete_entry(kind, slug, who, session, version, if_match)


for _kind in PATHS:
    _routes(_kind)


@router.post("/systems", status_code=201, responses=WRITE_ERRORS | CONFLICT)
def post_system(who: EditorUser, session: SessionDep, body: AnyJson) -> Response:
    """Add a system the published data lacks (an engine, a fork): marked as the team's."""
    try:
        system = SystemIn.model_validate(body)
    except ValidationError as exc:
        return problems_reply(validation_problems(exc, what="a system"))
    fields = system.model_dump(exclude={"slug"})
    doc = catalogue_write(session, lambda: entries.add_system(session, who, fields, system.slug))
    reply = rows_reply(doc, 201)
    reply.headers["Location"] = f"/api/v1/systems/{doc['slug']}"
    return reply


@router.patch("/systems/{slug}", responses=WRITE_ERRORS | VERSIONED | CONFLICT)
def patch_system(
    slug: str, who: EditorUser, session: SessionDep, body: AnyJson, if_match: IfMatch = None
) -> Response:
    """Change a team system, or withdraw it (`{"withdrawn": true}`); published ones are
    read-only."""
    try:
        patch = SystemPatch.model_validate(body)
    except ValidationError as exc:
        return problems_reply(validation_problems(exc, what="a system"))
    version = version_of(patch.version, if_match)
    changes = patch.model_dump(exclude_unset=True, exclude={"version"})
    doc = catalogue_write(
        session, lambda: entries.update_system(session, who, slug, changes, version)
    )
    return rows_reply(doc, 200)


@router.delete("/systems/{slug}", status_code=204, responses=WRITE_ERRORS | VERSIONED | CONFLICT)
def delete_system(
    slug: str,
    who: EditorUser,
    session: SessionDep,
    if_match: IfMatch = None,
    version: int | None = None,
) -> Response:
    """Remove a team system nothing refers to (else withdraw it)."""
    checked = version_of(version, if_match)
    catalogue_write(session, lambda: entries.delete_system(session, who, slug, checked))
    return Response(status_code=204)
