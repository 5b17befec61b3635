"""Editor forms for the team's benchmark results: add, edit, delete (app/forms/editing.py
says what the editor forms share; the edit and delete flows are app/forms/saved_rows.py)."""

from fastapi import APIRouter, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from app.accounts.identity import SignedIn
from app.accounts.web import EditorUser
from app.db import SessionDep
from app.forms import team as forms
from app.forms.base import Clash, sentences
from app.forms.editing import (
    back_to,
    form_page,
    new_result_form,
    posted,
    redirect_with_flash,
    system_named,
)
from app.forms.saved_rows import TeamRows
from app.forms.team import ResultForm
from app.queries.entries import vocabulary_choices, vocabulary_names
from app.queries.matrix_data import system_name_map
from app.queries.team import metric_choices
from app.web.pages import page
from app.writes import common
from app.writes import team as service
from app.writes.documents import ResultDoc
from app.writes.transaction import write_transaction

router = APIRouter(include_in_schema=False)

RESULT_POST = (*forms.RESULT_FIELDS, "version", "next")
RESULT_BLOCK = {"team_result_form": "team_result_form"}


def _result_page(request: Request, session: SessionDep, form: ResultForm, status: int) -> Response:
    heading = "Edit a team result" if form.editing else "Add a team result"
    context = {"form": form, "heading": heading}
    return form_page(request, session, "pages/team_result.html", context, status, RESULT_BLOCK)


@page(router, "/team-results/new")
def new_result(
    request: Request, session: SessionDep, who: EditorUser, system: str = ""
) -> Response:
    chosen = system_named(session, system) if system else None
    back = f"/systems/{system}" if chosen else "/benchmarks"
    action = f"/systems/{system}/team-results" if chosen else "/team-results"
    form = new_result_form(session, action, back, chosen)
    form.cancel = back
    return _result_page(request, session, form, 200)


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
    request: Request, session: SessionDep, who: SignedIn, fixed: str | None, values: dict[str, str]
) -> Response:
    system = system_named(session, fixed) if fixed else None
    team = request.app.state.settings.atlas_team_name
    try:
        result = forms.result_in(fixed or values["system"], values)
        with write_transaction(session):
            saved = service.add_results(session, who, [result], team)
    except common.TeamError as exc:
        form = new_result_form(session, request.url.path, values["next"], system)
        form.values, form.problems = values, sentences(exc.problems)
        form.cancel = values["next"] or "/"  # drops what was typed, back where it started
        return _result_page(request, session, form, 422)
    doc = saved.items[0]
    back = _back(request, values, doc, True)
    return redirect_with_flash(request, back, f"Added a team result {_words(session, doc)}.")


def _back(request: Request, values: dict[str, str], doc: ResultDoc, kept: bool) -> str:
    """Where a result's form goes back to: on a page that lists the result, its row (or, once
    it is deleted, the system's benchmarks); a `next` with an anchor of its own keeps it."""
    back = back_to(request, values, f"/systems/{doc['system']}")
    if "#" in back:
        return back
    path = back.partition("?")[0]
    if path == f"/systems/{doc['system']}":
        return f"{back}#bench-{doc['id']}" if kept else f"{back}#benchmarks"
    if path == "/benchmarks" and kept:
        return f"{back}#result-{doc['id']}"
    return back


def _result_words(session: SessionDep, doc: ResultDoc) -> str:
    metric = next((m.name for m in metric_choices(session) if m.slug == doc["metric"]), "")
    system = system_name_map(session).get(doc["system"], doc["system"])
    return f"{system}: {metric} {forms.figure_text(doc)}"


def _words(session: SessionDep, doc: ResultDoc) -> str:
    return f"for {_result_words(session, doc)}"


def _edit_form(
    session: SessionDep, doc: ResultDoc, values: dict[str, str], next_path: str
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


def _confirm_page(
    request: Request,
    session: SessionDep,
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
    return form_page(request, session, "pages/team_result_delete.html", context, status, {})


def _clash(session: SessionDep, values: dict[str, str], current: ResultDoc) -> Clash:
    return forms.result_clash(values, current, vocabulary_names(session))


RESULTS: TeamRows[ResultDoc, ResultForm] = TeamRows(
    noun="team result",
    fields=RESULT_POST,
    read=service.team_result,
    values=forms.result_values,
    changes=forms.result_changes,
    update=service.update_result,
    remove=service.delete_result,
    edit_form=_edit_form,
    clash=_clash,
    form_page=_result_page,
    confirm_page=_confirm_page,
    back=_back,
    words=_words,
    says_version=True,
)


@page(router, "/team-results/{result_id}/edit")
def edit_result(result_id: str, request: Request, session: SessionDep, who: EditorUser) -> Response:
    return RESULTS.edit_page(request, session, result_id)


@router.post("/team-results/{result_id}/edit")
async def save_result(
    result_id: str, request: Request, session: SessionDep, who: EditorUser
) -> Response:
    return await RESULTS.save(request, session, who, result_id)


@page(router, "/team-results/{result_id}/delete")
def confirm_delete(
    result_id: str, request: Request, session: SessionDep, who: EditorUser
) -> Response:
    return RESULTS.delete_page(request, session, result_id)


@router.post("/team-results/{result_id}/delete")
async def delete_result(
    result_id: str, request: Request, session: SessionDep, who: EditorUser
) -> Response:
    return await RESULTS.delete(request, session, who, result_id)
