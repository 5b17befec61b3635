"""The editors' forms for the team's catalogue: add hardware, a model, a workload or a system
(GET /catalogue/{kind} shows the form, POST saves it through app/writes/entries.py, as the
API does); /catalogue lists the team's entries, each with its edit form (versioned as the
API: a stale form is answered 409 with the entry as saved) and its delete or withdraw page
(an entry in use is not deleted: 409 saying what uses it). Linked from the vocabulary pages
and /benchmarks for editors."""

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from app.accounts.identity import SignedIn
from app.accounts.web import EditorUser
from app.db import SessionDep
from app.forms.base import sentences, version_of
from app.forms.editing import form_page, not_found, posted, redirect_with_flash
from app.forms.entries import (
    FIELDS,
    GENERAL,
    KINDS,
    PAGES,
    EntryForm,
    entry_changes,
    entry_clash,
    entry_in,
    form_values,
)
from app.queries.team_catalogue import entry_uses, team_catalogue
from app.web.errors import NotFoundError
from app.web.pages import page
from app.writes import common, entries
from app.writes.entry_inputs import SystemIn, entry_aliases, entry_config, entry_fields
from app.writes.transaction import write_transaction

router = APIRouter(include_in_schema=False)


def _page(request: Request, session: SessionDep, form: EntryForm, status: int) -> Response:
    context = {"form": form, "heading": form.heading, "active": "catalogue"}
    fragments = {form.target: "catalogue_form"}
    return form_page(request, session, "pages/catalogue_new.html", context, status, fragments)


def _kind(kind: str) -> str:
    if kind not in KINDS:
        raise NotFoundError("kind", kind, list(KINDS), {k: k for k in KINDS})
    return kind


@page(router, "/catalogue/{kind}")
def new_entry(kind: str, request: Request, session: SessionDep, who: EditorUser) -> Response:
    return _page(request, session, EntryForm(_kind(kind)), 200)


@router.post("/catalogue/{kind}")
async def add_entry(kind: str, request: Request, session: SessionDep, who: EditorUser) -> Response:
    values = await posted(request, FIELDS[_kind(kind)])
    return await run_in_threadpool(_add, request, session, who, kind, values)


def _add(
    request: Request, session: SessionDep, who: SignedIn, kind: str, values: dict[str, str]
) -> Response:
    form = EntryForm(kind, values)
    try:
        given = entry_in(kind, values)
        with write_transaction(session):
            if isinstance(given, SystemIn):
                fields = given.model_dump(exclude={"slug"})
                doc = entries.add_system(session, who, fields, given.slug)
            else:
                doc = entries.add_entry(
                    session,
                    who,
                    kind,
                    entry_fields(given),
                    entry_aliases(given),
                    given.slug,
                    config=entry_config(given),
                    team_name=request.app.state.settings.atlas_team_name,
                )
    except common.TeamError as exc:
        form.problems = sentences(exc.problems)
        return _page(request, session, form, 422)
    except entries.NameTakenError as exc:
        form.problems = sentences({exc.field: str(exc)})
        return _page(request, session, form, 409)
    target = f"/{PAGES[kind]}/{doc['slug']}"
    return redirect_with_flash(request, target, f"Added {doc['name']} as the team's own.")


# The team's entries: list, edit, delete or withdraw ------------------------------------------


def _saved(session: SessionDep, kind: str, slug: str) -> dict[str, Any]:
    """The entry as the API shows it, with its version (UnknownItemError / TeamError)."""
    if kind == "system":
        return entries.team_system(session, slug)
    return entries.team_entry(session, kind, slug)


def _edit_form(kind: str, doc: dict[str, Any]) -> EntryForm:
    published = not doc.get("team")
    return EntryForm(
        kind,
        form_values(kind, doc, published),
        slug=doc["slug"],
        name=doc.get("name", doc["slug"]),
        version=int(doc["version"]),
        published=published,
    )


@page(router, "/catalogue")
def team_entries(request: Request, session: SessionDep, who: EditorUser) -> Response:
    context = {"catalogue": team_catalogue(session), "active": "catalogue"}
    return form_page(request, session, "pages/catalogue.html", context, 200, {})


@page(router, "/catalogue/{kind}/{slug}/edit")
def edit_entry(
    kind: str, slug: str, request: Request, session: SessionDep, who: EditorUser
) -> Response:
    try:
        doc = _saved(session, _kind(kind), slug)
    except (common.UnknownItemError, common.TeamError) as exc:
        return not_found(request, session, _reason(exc))
    return _page(request, session, _edit_form(kind, doc), 200)


@router.post("/catalogue/{kind}/{slug}/edit")
async def save_entry(
    kind: str, slug: str, request: Request, session: SessionDep, who: EditorUser
) -> Response:
    values = await posted(request, (*FIELDS[_kind(kind)], "version"))
    return await run_in_threadpool(_save, request, session, who, kind, slug, values)


def _reason(exc: Exception) -> str:
    if isinstance(exc, common.TeamError):
        return " ".join(exc.problems.values())
    return str(exc)


def _save(
    request: Request,
    session: SessionDep,
    who: SignedIn,
    kind: str,
    slug: str,
    values: dict[str, str],
) -> Response:
    try:
        doc = _saved(session, kind, slug)
    except (common.UnknownItemError, common.TeamError) as exc:
        return not_found(request, session, _reason(exc))
    form = _edit_form(kind, doc)
    form.values = {k: v for k, v in values.items() if k in form.fields}
    try:
        changes = entry_changes(form, values)
        with write_transaction(session):
            if kind == "system":
                saved = entries.update_system(session, who, slug, changes, version_of(values))
            else:
                saved = entries.update_entry(session, who, kind, slug, changes, version_of(values))
    except (common.StaleVersionError, common.VersionRequiredError) as exc:
        # Someone saved it since this form was drawn: nothing is overwritten, and nothing
        # typed is lost: both side by side, the form keeping what was typed, based on the
        # saved version so saving again puts it on top.
        saved_now = _saved(session, kind, slug)
        current = entry_clash(_edit_form(kind, saved_now), values, saved_now)
        if isinstance(exc, common.VersionRequiredError):
            current.problems = {GENERAL: _sentence(str(exc))}
        return _page(request, session, current, 409)
    except common.TeamError as exc:
        form.problems = sentences(exc.problems)
        return _page(request, session, form, 422)
    except entries.NameTakenError as exc:
        form.problems = sentences({exc.field: str(exc)})
        return _page(request, session, form, 409)
    name = saved.get("name", slug)
    return redirect_with_flash(request, f"/{PAGES[kind]}/{slug}", f"Saved {name}.")


def _sentence(text: str) -> str:
    return sentences({GENERAL: text})[GENERAL]


def _confirm(
    request: Request,
    session: SessionDep,
    kind: str,
    doc: dict[str, Any],
    status: int,
    problem: str | None = None,
) -> Response:
    context = {
        "kind": kind,
        "doc": doc,
        "problem": problem,
        "active": "catalogue",
        "uses": entry_uses(session, kind, doc["slug"]),
        "page_url": f"/{PAGES[kind]}/{doc['slug']}",
        "noun": {**entries.NOUNS, "system": "system"}[kind],
    }
    return form_page(request, session, "pages/catalogue_delete.html", context, status, {})


@page(router, "/catalogue/{kind}/{slug}/delete")
def ask_delete(
    kind: str, slug: str, request: Request, session: SessionDep, who: EditorUser
) -> Response:
    try:
        doc = _saved(session, _kind(kind), slug)
    except (common.UnknownItemError, common.TeamError) as exc:
        return not_found(request, session, _reason(exc))
    if not doc.get("team"):
        return not_found(request, session, f"{slug!r} is published data and stays")
    return _confirm(request, session, kind, doc, 200)


@router.post("/catalogue/{kind}/{slug}/delete")
async def delete_entry(
    kind: str, slug: str, request: Request, session: SessionDep, who: EditorUser
) -> Response:
    _kind(kind)
    values = await posted(request, ("version",))
    return await run_in_threadpool(_delete, request, session, who, kind, slug, values)


def _delete(
    request: Request,
    session: SessionDep,
    who: SignedIn,
    kind: str,
    slug: str,
    values: dict[str, str],
) -> Response:
    try:
        doc = _saved(session, kind, slug)
    except (common.UnknownItemError, common.TeamError) as exc:
        return not_found(request, session, _reason(exc))
    try:
        with write_transaction(session):
            if kind == "system":
                entries.delete_system(session, who, slug, version_of(values))
            else:
                entries.delete_entry(session, who, kind, slug, version_of(values))
    except entries.InUseError as exc:
        return _confirm(request, session, kind, doc, 409, _sentence(str(exc)))
    except (common.StaleVersionError, common.VersionRequiredError) as exc:
        text = f"{_sentence(str(exc))} Nothing was deleted; look at it as it is now."
        return _confirm(request, session, kind, _saved(session, kind, slug), 409, text)
    except common.TeamError as exc:
        return _confirm(request, session, kind, doc, 422, _reason(exc))
    return redirect_with_flash(request, "/catalogue", f"Deleted {doc.get('name', slug)}.")


@router.post("/catalogue/{kind}/{slug}/withdraw")
async def withdraw_entry(
    kind: str, slug: str, request: Request, session: SessionDep, who: EditorUser
) -> Response:
    _kind(kind)
    values = await posted(request, ("version", "withdrawn"))
    return await run_in_threadpool(_withdraw, request, session, who, kind, slug, values)


def _withdraw(
    request: Request,
    session: SessionDep,
    who: SignedIn,
    kind: str,
    slug: str,
    values: dict[str, str],
) -> Response:
    withdrawn = values.get("withdrawn") != "no"
    try:
        doc = _saved(session, kind, slug)
    except (common.UnknownItemError, common.TeamError) as exc:
        return not_found(request, session, _reason(exc))
    try:
        with write_transaction(session):
            change = {"withdrawn": withdrawn}
            if kind == "system":
                entries.update_system(session, who, slug, change, version_of(values))
            else:
                entries.update_entry(session, who, kind, slug, change, version_of(values))
    except (common.StaleVersionError, common.VersionRequiredError) as exc:
        text = f"{_sentence(str(exc))} Nothing was changed; look at it as it is now."
        return _confirm(request, session, kind, _saved(session, kind, slug), 409, text)
    except common.TeamError as exc:
        return _confirm(request, session, kind, doc, 422, _reason(exc))
    verb = "Withdrew" if withdrawn else "Brought back"
    return redirect_with_flash(request, "/catalogue", f"{verb} {doc.get('name', slug)}.")
