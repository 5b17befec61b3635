"""HTML pages. Each handler: query, then render; no SQL here."""

from fastapi import APIRouter, Request
from fastapi.responses import Response

from app.db import SessionDep
from app.forms.editing import system_editing
from app.params.benchmarks import SweepParams
from app.present.change_words import describe, field_changes
from app.queries.benchmarks import latest_versions
from app.queries.catalogue import change_names, list_sources
from app.queries.coverage import database_coverage
from app.queries.import_groups import ImportChange, collapse_imports, split_imports
from app.queries.matrix_data import system_name_map
from app.queries.revisions import revision_page
from app.queries.support import level_counts, support_base
from app.queries.sweeps import team_sweeps
from app.queries.systems import (
    compare_candidates,
    get_system,
    group_facts,
    list_systems,
    system_glance,
    system_slugs,
)
from app.web.deps import Ignored
from app.web.errors import NotFoundError
from app.web.pages import page
from app.web.render import render, tidy_redirect

router = APIRouter(include_in_schema=False)

SYSTEM_KIND_HEADINGS = (
    ("engine", "Inference engines"),
    ("wrapper", "Wrappers around an engine"),
    ("desktop-app", "Desktop apps"),
    ("library", "Libraries"),
    ("orchestration", "Orchestration layers"),
    ("proxy", "Proxies and gateways"),
)


# These pages take no parameters: tracking ones redirect away (tidy_redirect), any others
# are noted on the page as ignored.


@page(router, "/")
def overview(request: Request, session: SessionDep, ignored: Ignored) -> Response:
    if redirect := tidy_redirect(request, request.url.path, ignored):
        return redirect
    context = {
        "systems": list_systems(session),
        "kinds": SYSTEM_KIND_HEADINGS,
        "active": "systems",
        "ignored_parameters": ignored,
    }
    return render(request, "pages/overview.html", context, session=session)


HISTORY_SIZE = 10
"""Changes a system page lists; /changes?system= has the rest."""
HISTORY_READ = 500
"""Changes read to fill them: an import's figures count as one."""


@page(router, "/systems/{slug}")
def system_page(slug: str, request: Request, session: SessionDep, ignored: Ignored) -> Response:
    if redirect := tidy_redirect(request, request.url.path, ignored):
        return redirect
    detail = get_system(session, slug)
    if detail is None:
        raise NotFoundError("system", slug, system_slugs(session), system_name_map(session))
    # An import saves a figure per metric per load: its run of changes is one line here.
    history = revision_page(session, system=slug, limit=HISTORY_READ)
    changes, more_history = collapse_imports(history.revisions, HISTORY_SIZE)
    names = change_names(session)
    bench_rows, import_groups = split_imports(detail.benchmarks)
    files = {g.source: g.file_name for g in import_groups}
    context = {
        "system": detail,
        "bench_rows": bench_rows,  # published figures and hand-entered team results
        "import_groups": import_groups,  # one per imported result file
        "files": files,
        "glance": system_glance(detail, latest_versions(session).get(slug)),
        "fact_groups": group_facts(detail.facts),
        "compare_with": compare_candidates(session, slug),
        "json_url": f"/api/v1/systems/{slug}",
        "history": [
            (c, None, files.get(c.source, c.source))
            if isinstance(c, ImportChange)
            else (c, field_changes(c), describe(c, names))
            for c in changes
        ],
        "more_history": more_history or history.older is not None,
        "atom_url": f"/changes.atom?system={slug}",
        "atom_title": f"Changes to {detail.name}",
        "ignored_parameters": ignored,
        "team": system_editing(request, session, detail),
        "coverage": database_coverage(session).of(slug),
        # A registry lists hundreds of classes: the page counts them and links to the matrix.
        "model_support": level_counts(support_base(session), slug),
        "timelines": team_sweeps(session, SweepParams(system=(slug,))).timelines,
        "timelines_json_url": f"/api/v1/sweeps?system={slug}",
        "active": "systems",
    }
    return render(request, "pages/system.html", context, session=session)


@page(router, "/sources")
def sources_page(request: Request, session: SessionDep, ignored: Ignored) -> Response:
    if redirect := tidy_redirect(request, request.url.path, ignored):
        return redirect
    context = {
        "sources": list_sources(session),
        "coverage": database_coverage(session),
        "names": {s.slug: s.name for s in list_systems(session)},
        "json_url": "/api/v1/sources",
        "active": "sources",
        "ignored_parameters": ignored,
    }
    return render(request, "pages/sources.html", context, session=session)
