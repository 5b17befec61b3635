"""The editors' forms for the team's catalogue: add hardware, a model, a workload or a system
(GET /catalogue/{kind} shows the form, POST saves it through app/writes/entries.py, as the
API does). Linked from the vocabulary pages and /benchmarks for editors."""

from fastapi import APIRouter, Request
from fastapi.responses import Response
from sqlmodel import Session
from starlette.concurrency import run_in_threadpool

from app.accounts.users import SignedIn
from app.accounts.web import EditorUser
from app.db import SessionDep
from app.forms.base import sentences
from app.forms.editing import form_page, posted, redirect_with_flash
from app.forms.entries import FIELDS, KINDS, PAGES, EntryForm, entry_in
from app.web.errors import NotFoundError
from app.web.render import serve
from app.writes import entries
from app.writes import team as service
from app.writes.entry_inputs import SystemIn, entry_aliases, entry_fields
from app.writes.transaction import write_transaction

router = APIRouter(include_in_schema=False)


def _page(request: Request, session: Session, form: EntryForm, status: int) -> Response:
    context = {"form": form, "heading": form.heading, "active": "benchmarks"}
    fragments = {form.target: "catalogue_form"}
    return form_page(request, session, "pages/catalogue_new.html", context, status, fragments)


def _kind(kind: str) -> str:
    if kind not in KINDS:
        raise NotFoundError("kind", kind, list(KINDS), {k: k for k in KINDS})
    return kind


@router.get("/catalogue/{kind}")
async def new_entry(kind: str, request: Request, session: SessionDep, who: EditorUser) -> Response:
    _kind(kind)
    return await serve(request, session, lambda s: _page(request, s, EntryForm(kind), 200))


@router.post("/catalogue/{kind}")
async def add_entry(kind: str, request: Request, session: SessionDep, who: EditorUser) -> Response:
    values = await posted(request, FIELDS[_kind(kind)])
    return await run_in_threadpool(_add, request, session, who, kind, values)


def _add(
    request: Request, session: Session, who: SignedIn, kind: str, values: dict[str, str]
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
                    session, who, kind, entry_fields(given), entry_aliases(given), given.slug
                )
    except service.TeamError as exc:
        form.problems = sentences(exc.problems)
        return _page(request, session, form, 422)
    except entries.NameTakenError as exc:
        form.problems = sentences({exc.field: str(exc)})
        return _page(request, session, form, 409)
    target = f"/{PAGES[kind]}/{doc['slug']}"
    return redirect_with_flash(request, target, f"Added {doc['name']} as the team's own.")
