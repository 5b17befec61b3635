"""Editor forms for the team's benchmark results: add, edit, delete (see team_forms.py)."""

from fastapi import APIRouter, Request
from fastapi.responses import Response
from sqlmodel import Session
from starlette.concurrency import run_in_threadpool

from app.accounts.users import SignedIn
from app.accounts.web import EditorUser, safe_next
from app.db import SessionDep
from app.forms import team as forms
from app.forms.editing import (
    back_to,
    done,
    new_result_form,
    not_found,
    page,
    posted,
    system_named,
)
from app.forms.team import ResultForm
from app.queries.entries import vocabulary_choices, vocabulary_names
from app.queries.matrix import system_name_map
from app.queries.team import metric_choices
from app.web.render import serve
from app.writes import team as service
from app.writes.documents import ResultDoc
from app.writes.transaction import write_transaction

router = APIRouter(include_in_schema=False)

RESULT_POST = (*forms.RESULT_FIELDS, "version", "next")
RESULT_BLOCK = {"team_result_form": "team_result_form"}


def _result_page(request: Request, session: Session, form: ResultForm, status: int) -> Response:
    heading = "Edit a team result" if form.editing else "Add a team result"
    context = {"form": form, "heading": heading}
    return page(request, session, "pages/team_result.html", context, status, RESULT_BLOCK)


@router.get("/team-results/new")
async def new_result(
    request: Request, session: SessionDep, who: EditorUser, system: str = ""
) -> Response:
    def build(s: Session) -> Response:
        chosen = system_named(s, system) if system else None
        back = f"/systems/{system}" if chosen else "/benchmarks"
        action = f"/systems/{system}/team-results" if chosen else "/team-results"
        form = new_result_form(s, action, back, chosen)
        form.cancel = back
        return _result_page(request, s, form, 200)

    return await serve(request, session, build)


@router.post("/team-results")
async def add_result(request: Request, session: SessionDep, who: EditorUser) -> Response:
    values = await posted(request, RESULT_POST)
    return await run_in_threadpool(_add, request, session, who, None, values)


@router.post("/systems/{slug}/team-results")
async def add_system_result(
    slug: str, request: Request, session: SessionDep, who: EditorUser
) -> Response:
    values = await posted(request, RESULT_POST)
    return await run_in_threadpool(_add, request, session, who, slug, values)


def _add(
    request: Request, session: Session, who: SignedIn, fixed: str | None, values: dict[str, str]
) -> Response:
    system = system_named(session, fixed) if fixed else None
    team = request.app.state.settings.atlas_team_name
    try:
        result = forms.result_in(fixed or values["system"], values)
        with write_transaction(session):
            saved = service.add_results(session, who, [result], team)
    except service.TeamError as exc:
        form = new_result_form(session, request.url.path, values["next"], system)
        form.values, form.problems = values, forms.sentences(exc.problems)
        form.cancel = values["next"] or "/"  # drops what was typed, back where it started
        return _result_page(request, session, form, 422)
    doc = saved.items[0]
    back = _at(back_to(request, values, f"/systems/{doc['system']}"), doc, row=True)
    return done(request, back, f"Added a team result for {_result_words(session, doc)}.")


def _at(back: str, doc: ResultDoc, *, row: bool) -> str:
    """Land on the result's row (or, once it is gone, the system's benchmarks) when going back
    to a page that lists it; a `next` with an anchor of its own keeps it."""
    if "#" in back:
        return back
    path = back.partition("?")[0]
    if path == f"/systems/{doc['system']}":
        return f"{back}#bench-{doc['id']}" if row else f"{back}#benchmarks"
    if path == "/benchmarks" and row:
        return f"{back}#result-{doc['id']}"
    return back


def _result_words(session: Session, doc: ResultDoc) -> str:
    metric = next((m.name for m in metric_choices(session) if m.slug == doc["metric"]), "")
    system = system_name_map(session).get(doc["system"], doc["system"])
    return f"{system}: {metric} {forms.figure_text(doc)}"


def _saved_result(request: Request, session: Session, result_id: str) -> ResultDoc | None:
    try:
        return service.team_result(session, result_id)
    except (service.UnknownItemError, service.TeamError):
        return None


def _edit_form(
    session: Session, doc: ResultDoc, values: dict[str, str], next_path: str
) -> ResultForm:
    back = next_path or f"/systems/{doc['system']}"
    return ResultForm(
        action=f"/team-results/{doc['id']}/edit",
        values=values | {"metric": doc["metric"]},
        metrics=metric_choices(session),
        vocabulary=vocabulary_choices(session),
        system_name=system_name_map(session).get(doc["system"], doc["system"]),
        version=int(doc["version"]),
        next=back,
        cancel=back,
    )


def _no_result(result_id: str) -> str:
    return f"No team result has the id {result_id!r}; it may have been deleted since."


@router.get("/team-results/{result_id}/edit")
async def edit_result(
    result_id: str, request: Request, session: SessionDep, who: EditorUser
) -> Response:
    next_path = request.query_params.get("next", "")

    def build(s: Session) -> Response:
        doc = _saved_result(request, s, result_id)
        if doc is None:
            return not_found(request, s, _no_result(result_id))
        form = _edit_form(s, doc, forms.result_values(doc), next_path and safe_next(next_path))
        return _result_page(request, s, form, 200)

    return await serve(request, session, build)


@router.post("/team-results/{result_id}/edit")
async def save_result(
    result_id: str, request: Request, session: SessionDep, who: EditorUser
) -> Response:
    values = await posted(request, RESULT_POST)
    return await run_in_threadpool(_save, request, session, who, result_id, values)


def _save(
    request: Request, session: Session, who: SignedIn, result_id: str, values: dict[str, str]
) -> Response:
    next_path = values["next"]
    version = forms.version_of(values)
    try:
        changes = forms.result_changes(values)
        with write_transaction(session):
            saved = service.update_result(session, who, result_id, changes, version)
    except (service.StaleVersionError, service.VersionRequiredError) as exc:
        form = _edit_form(session, exc.row, values, next_path)
        form.clash = forms.result_clash(values, exc.row, vocabulary_names(session))
        return _result_page(request, session, form, 409)
    except service.UnknownItemError:
        return not_found(request, session, _no_result(result_id))
    except service.TeamError as exc:
        doc = _saved_result(request, session, result_id)
        if doc is None:
            return not_found(request, session, _no_result(result_id))
        form = _edit_form(session, doc, values, next_path)
        # Still based on the version the editor saw: a re-show never moves them past a change.
        form.version, form.problems = version or form.version, forms.sentences(exc.problems)
        return _result_page(request, session, form, 422)
    doc = saved.items[0]
    back = _at(back_to(request, values, f"/systems/{doc['system']}"), doc, row=True)
    if doc["version"] == version:
        return done(request, back, "Nothing to save: the team result is as it was.")
    words = _result_words(session, doc)
    return done(request, back, f"Saved the team result for {words} (version {doc['version']}).")


def _delete_page(
    request: Request,
    session: Session,
    doc: ResultDoc,
    next_path: str,
    changed: bool,
    status: int,
) -> Response:
    back = next_path or f"/systems/{doc['system']}"
    context = {
        "doc": doc,
        "words": _result_words(session, doc),
        "next": back,
        "changed": changed,
        "labels": forms.LABELS,
        "shown": forms.EDITABLE,
    }
    return page(request, session, "pages/team_result_delete.html", context, status, {})


@router.get("/team-results/{result_id}/delete")
async def confirm_delete(
    result_id: str, request: Request, session: SessionDep, who: EditorUser
) -> Response:
    next_path = request.query_params.get("next", "")

    def build(s: Session) -> Response:
        doc = _saved_result(request, s, result_id)
        if doc is None:
            return not_found(request, s, _no_result(result_id))
        return _delete_page(request, s, doc, next_path and safe_next(next_path), False, 200)

    return await serve(request, session, build)


@router.post("/team-results/{result_id}/delete")
async def delete_result(
    result_id: str, request: Request, session: SessionDep, who: EditorUser
) -> Response:
    values = await posted(request, ("version", "next"))
    return await run_in_threadpool(_delete, request, session, who, result_id, values)


def _delete(
    request: Request, session: Session, who: SignedIn, result_id: str, values: dict[str, str]
) -> Response:
    next_path = values["next"]
    version = forms.version_of(values)
    try:
        with write_transaction(session):
            doc = service.team_result(session, result_id)
            service.delete_result(session, who, result_id, version)
    except (service.StaleVersionError, service.VersionRequiredError) as exc:
        return _delete_page(request, session, exc.row, next_path, True, 409)
    except (service.UnknownItemError, service.TeamError):
        return not_found(request, session, _no_result(result_id))
    back = _at(back_to(request, values, f"/systems/{doc['system']}"), doc, row=False)
    return done(request, back, f"Deleted the team result for {_result_words(session, doc)}.")
