"""The write API: a team's benchmark results and claims (editors and admins, by token or cookie).

Replies: 201/200 with the saved rows (each with its `version`, also sent as an ETag), 401
anonymous, 403 viewer, 404 unknown id or slug, 409 a change based on an old version (the
reply holds the current row), 422 naming each bad field, 428 a change to an existing row
that does not say which version it is based on.
"""

from collections.abc import Callable, Mapping
from typing import Annotated, Any, TypeVar, cast

from fastapi import APIRouter, Body, Header, Request
from fastapi.responses import JSONResponse, Response
from pydantic import ValidationError

from app.accounts.web import EditorUser
from app.db import SessionDep
from app.params.reader import ParamProblem
from app.web.errors import RefusedError, problem_details
from app.writes import claims, common
from app.writes import team as service
from app.writes.documents import ResultChanges
from app.writes.inputs import (
    MAX_RESULTS_PER_POST,
    TeamClaimIn,
    TeamResultIn,
    TeamResultPatch,
)
from app.writes.prices import PriceIn, set_price
from app.writes.transaction import write_transaction

router = APIRouter(prefix="/api/v1", tags=["team writes"])

WRITE_ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"description": "No credential: send `Authorization: Bearer TOKEN`"},
    403: {"description": "The user is a viewer; writes need an editor or admin"},
    404: {"description": "No such system, capability or team result"},
    409: {"description": "The row changed since the version the change is based on"},
    422: {"description": "A field that is not allowed; the reply names it"},
}
VERSIONED: dict[int | str, dict[str, Any]] = {
    428: {"description": "The row exists: say which version the change is based on"}
}
IfMatch = Annotated[
    str | None,
    Header(
        description="The version the change is based on (the ETag of the last reply)",
        # In the schema only: the route words its own 422 for anything else (version_of).
        json_schema_extra={"pattern": r'^(W/)?"?[1-9][0-9]{0,17}"?$'},
    ),
]


ONE_OR_MANY = {
    "oneOf": [
        {"$ref": "#/components/schemas/TeamResultIn"},
        {
            "type": "array",
            "items": {"$ref": "#/components/schemas/TeamResultIn"},
            "maxItems": MAX_RESULTS_PER_POST,
        },
    ]
}
AnyJson = Annotated[Any, Body()]


@router.post(
    "/benchmarks",
    status_code=201,
    responses=WRITE_ERRORS,
    openapi_extra={
        "requestBody": {"required": True, "content": {"application/json": {"schema": ONE_OR_MANY}}}
    },
)
def post_results(request: Request, who: EditorUser, session: SessionDep, body: AnyJson) -> Response:
    """Add one team result, or a list of them: all are saved, or (on any problem) none."""
    single = not isinstance(body, list)
    items = [body] if single else body
    if not items:
        return problems_reply({"body": "an empty list: give at least one result"})
    if len(items) > MAX_RESULTS_PER_POST:
        return problems_reply(
            {"body": f"{len(items)} results; allowed: at most {MAX_RESULTS_PER_POST} per request"}
        )
    results: list[TeamResultIn] = []
    problems: dict[str, str] = {}
    for index, item in enumerate(items):
        try:
            results.append(TeamResultIn.model_validate(item))
        except ValidationError as exc:
            problems |= validation_problems(exc, "" if single else f"[{index}].")
    if problems:
        return problems_reply(problems)
    team = request.app.state.settings.atlas_team_name
    saved = write_or_refuse(session, lambda: service.add_results(session, who, results, team))
    if single:
        return rows_reply(saved.items[0], 201)
    return JSONResponse({"results": saved.items}, status_code=201)


@router.patch(
    "/benchmarks/{result_id}",
    responses=WRITE_ERRORS | VERSIONED,
)
def patch_result(
    result_id: str,
    who: EditorUser,
    session: SessionDep,
    body: Annotated[dict[str, Any], Body()],
    if_match: IfMatch = None,
) -> Response:
    """Change some fields of a team result (null clears an optional field)."""
    try:
        patch = TeamResultPatch.model_validate(body)
    except ValidationError as exc:
        return problems_reply(validation_problems(exc))
    version = version_of(patch.version, if_match)
    changes = cast(ResultChanges, patch.model_dump(exclude_unset=True, exclude={"version"}))
    saved = write_or_refuse(
        session, lambda: service.update_result(session, who, result_id, changes, version)
    )
    return rows_reply(saved.items[0], 200)


@router.delete(
    "/benchmarks/{result_id}",
    status_code=204,
    responses=WRITE_ERRORS | VERSIONED,
)
def delete_result(
    result_id: str,
    who: EditorUser,
    session: SessionDep,
    if_match: IfMatch = None,
    version: int | None = None,
) -> Response:
    """Remove a team result (`If-Match` or `?version=` names the version you saw)."""
    checked = version_of(version, if_match)
    write_or_refuse(session, lambda: service.delete_result(session, who, result_id, checked))
    return Response(status_code=204)


@router.put(
    "/systems/{slug}/claims/{capability}",
    responses=WRITE_ERRORS | VERSIONED | {201: {"description": "The team's first claim here"}},
)
def put_claim(
    request: Request,
    slug: str,
    capability: str,
    who: EditorUser,
    session: SessionDep,
    claim: TeamClaimIn,
    if_match: IfMatch = None,
) -> Response:
    """Set the team's claim on one cell of the matrix: 201 when new, 200 when changed."""
    version = version_of(claim.version, if_match)
    team = request.app.state.settings.atlas_team_name
    saved = write_or_refuse(
        session,
        lambda: claims.put_claim(session, who, slug, capability, claim, version, team),
    )
    return rows_reply(saved.items[0], 201 if saved.created else 200)


@router.delete(
    "/systems/{slug}/claims/{capability}",
    status_code=204,
    responses=WRITE_ERRORS | VERSIONED,
)
def delete_claim(
    slug: str,
    capability: str,
    who: EditorUser,
    session: SessionDep,
    if_match: IfMatch = None,
    version: int | None = None,
) -> Response:
    """Remove the team's claim on a cell (published claims stay)."""
    checked = version_of(version, if_match)
    write_or_refuse(session, lambda: claims.delete_claim(session, who, slug, capability, checked))
    return Response(status_code=204)


@router.put("/hardware/{slug}/price", responses=WRITE_ERRORS)
def put_price(slug: str, who: EditorUser, session: SessionDep, price: PriceIn) -> Response:
    """Set what one GPU of hardware entry `slug` costs an hour (`usd_per_gpu_hour`) and where
    that price comes from (`basis`); kept in the history. Costs per million tokens use it."""
    with write_transaction(session):
        saved = set_price(session, who, slug, price)
    if saved is None:
        return JSONResponse({"detail": f"no hardware entry {slug!r}"}, status_code=404)
    return JSONResponse(saved.model_dump(mode="json"), headers={"Cache-Control": "no-store"})


# Helpers --------------------------------------------------------------------------------------


T = TypeVar("T")


def write_or_refuse(session: SessionDep, change: Callable[[], T]) -> T:
    """Run `change` in one write transaction; a refusal rolls it back and is raised as the
    reply (RefusedError, which app/web/errors.py sends)."""
    try:
        with write_transaction(session):
            return change()
    except common.TeamError as exc:
        raise RefusedError(problems_reply(exc.problems, exc.values)) from exc
    except common.UnknownItemError as exc:
        raise RefusedError(JSONResponse({"detail": str(exc)}, status_code=404)) from exc
    except common.StaleVersionError as exc:
        raise RefusedError(_current_row(exc, exc.row, exc.current, 409)) from exc
    except common.VersionRequiredError as exc:
        raise RefusedError(_current_row(exc, exc.row, exc.current, 428)) from exc


def _current_row(exc: Exception, row: dict[str, Any], current: int, status: int) -> Response:
    return JSONResponse({"detail": str(exc), "current": row}, status, headers=etag(current))


def version_of(given: int | None, if_match: str | None) -> int | None:
    """The version a change is based on, from the body/query or If-Match (they must agree);
    raises RefusedError (a 422) when If-Match is not a version or disagrees."""
    if if_match is None:
        return given
    text = if_match.strip().removeprefix("W/").strip('"')
    if not text.isdigit() or int(text) < 1:
        allowed = 'a number, e.g. If-Match: "3" (the ETag of the last reply)'
        problem = {"If-Match": f"{if_match!r} is not a version; allowed: {allowed}"}
        raise RefusedError(problems_reply(problem))
    if given is not None and given != int(text):
        problem = {"version": f"the body says {given}, If-Match says {text}; send one"}
        raise RefusedError(problems_reply(problem))
    return int(text)


def rows_reply(row: Mapping[str, Any], status: int) -> JSONResponse:
    """A saved row, its version also sent as the ETag."""
    return JSONResponse(row, status_code=status, headers=etag(row["version"]))


def etag(version: int) -> dict[str, str]:
    """The headers that carry a row's version (never stored by a cache)."""
    return {"ETag": f'"{version}"', "Cache-Control": "no-store"}


def problems_reply(problems: dict[str, str], values: dict[str, str] | None = None) -> JSONResponse:
    """422 naming each field (the API's problem format), with the refused value where given."""
    listed = [
        ParamProblem(field, (values or {}).get(field, ""), (), message)
        for field, message in problems.items()
    ]
    return JSONResponse(problem_details(listed), status_code=422)


def validation_problems(
    exc: ValidationError, prefix: str = "", what: str = "a team result"
) -> dict[str, str]:
    """Pydantic's errors by field (`[1].unit` in a list); `what` names the thing posted."""
    problems: dict[str, str] = {}
    for error in exc.errors(include_url=False):
        where = ".".join(str(part) for part in error["loc"]) or "body"
        message = error["msg"]
        if error["type"] == "extra_forbidden":
            message = f"not a field of {what}; see the API docs for the fields"
        problems.setdefault(prefix + where, message)
    return problems
