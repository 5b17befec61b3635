"""The history of changes: /changes (HTML) and /changes.atom; /api/v1/changes is in
app/routes/api/changes.py."""

from functools import partial

from fastapi import APIRouter, Request
from fastapi.responses import Response

from app.db import SessionDep
from app.params.changes import CHANGES_PAGE_SIZE, ChangesParams
from app.present.atom import MEDIA_TYPE, TAG, FeedLinks, change_feed, feed_title, with_base
from app.present.change_words import describe, field_changes
from app.queries.catalogue import change_names, last_loaded
from app.queries.import_groups import ImportChange
from app.queries.matrix_data import system_name_map
from app.queries.revisions import import_files
from app.queries.vocabularies import change_options
from app.schemas import RevisionView
from app.web.deps import ChangeEntries
from app.web.pages import page
from app.web.render import render, tidy_redirect

router = APIRouter(include_in_schema=False)


def _query(query: str) -> str:
    return f"?{query}" if query else ""


def _filters(params: ChangesParams) -> str:
    """The query string of the filters alone: the first page, at the default size."""
    return params.query_string(before=None, limit=CHANGES_PAGE_SIZE)


def _import_files(
    session: SessionDep, entries: list[RevisionView | ImportChange]
) -> dict[str, str]:
    return import_files(session, [e.source for e in entries if isinstance(e, ImportChange)])


@page(router, "/changes")
def changes_page(request: Request, session: SessionDep, read: ChangeEntries) -> Response:
    reading, entries, older = read
    files = _import_files(session, entries)
    params, problems = reading.params, reading.problems
    canonical = f"/changes{_query(params.query_string())}"
    if not problems and (redirect := tidy_redirect(request, canonical, reading.ignored)):
        return redirect
    names = system_name_map(session)
    words = change_names(session)
    context = {
        "params": params,
        "problems": problems,
        "ignored_parameters": reading.ignored,
        # An import's figures are one entry (fields None, words its file's name).
        "changes": [
            (r, None, files.get(r.source, r.source))
            if isinstance(r, ImportChange)
            else (r, field_changes(r), describe(r, words))
            for r in entries
        ],
        "older_url": f"/changes?{params.query_string(before=older)}" if older else None,
        "newest_url": f"/changes{_query(params.query_string(before=None))}",
        "system_names": names,
        "default_limit": CHANGES_PAGE_SIZE,
        "options": change_options(session),
        "json_url": f"/api/v1/changes{_query(params.query_string())}",
        "atom_url": f"/changes.atom{_query(_filters(params))}",
        "active": "changes",
    }
    return render(
        request,
        "pages/changes.html",
        context,
        session=session,
        fragments=("change_list",),
        canonical=canonical,
        status_code=422 if problems else 200,
    )


def _system_name(session: SessionDep, slug: str) -> str:
    return system_name_map(session).get(slug, slug)


@page(router, "/changes.atom")
def changes_feed(request: Request, session: SessionDep, read: ChangeEntries) -> Response:
    reading, entries, before = read
    if reading.problems:
        text = "\n".join(p.message for p in reading.problems[:10]) + "\n"
        return Response(text, 422, media_type="text/plain")
    params, filters = reading.params, _filters(reading.params)
    older = params.query_string(before=before) if before else None
    links = FeedLinks(
        self=f"/changes.atom{_query(params.query_string())}",
        alternate=f"/changes{_query(params.query_string())}",
        next=f"/changes.atom?{older}" if older else None,
    )
    body = change_feed(
        entries,
        title=feed_title(params.kind, _system_name(session, params.system), params.user),
        feed_id=f"{TAG}:changes{_query(filters)}",
        links=links,
        updated=last_loaded(session),
        describe=partial(describe, names=change_names(session)),
        files=_import_files(session, entries),
    )
    # Relative links resolve against the instance's one public address, never the Host.
    body = with_base(body, request.app.state.settings.public_base() + "/")
    return Response(body, media_type=f"{MEDIA_TYPE}; charset=utf-8")
