"""What the team's editor forms share, and the forms other pages draw for editors.

The routes themselves are in team_results.py, team_claims.py and team_notes.py; the edit and
delete flows of results and notes are in saved_rows.py. Every change goes through the write
API's own service functions (app/writes/team.py, claims.py, notes.py), in one write
transaction on the request's session. Success answers 303 (for HTMX, HX-Redirect) to the
page the form came from, which shows a one-time confirmation; a problem re-shows the form
with each field's message and what was typed (422); a change based on a version that
someone has replaced since re-shows it with both versions side by side, ready to be saved
on top of the current one (409). With HTMX only the form is swapped; without, the form comes
back on a page of its own. Anonymous people are sent to sign in, viewers get 403 (EditorUser).
"""

from typing import Any, TypedDict

from fastapi import Request
from fastapi.responses import Response
from sqlmodel import Session

from app.accounts.models import Role
from app.accounts.web import safe_next
from app.forms import base
from app.forms import team as forms
from app.forms.team import ClaimForm, ResultForm
from app.queries.common import capabilities_in_order
from app.queries.entries import vocabulary_choices
from app.queries.matrix_data import system_name_map
from app.queries.systems import list_systems
from app.queries.team import editable_results, metric_choices, team_claims
from app.schemas import SystemDetail
from app.web.errors import NotFoundError
from app.web.render import browser_path, flash, redirect_after_post, render, signed_in

# The result form has 17 fields; parsing stops well before a hostile body costs anything.
MAX_FIELDS = 24
MAX_FIELD_BYTES = 8 * 1024


async def posted(request: Request, names: tuple[str, ...]) -> dict[str, str]:
    """The named fields of a posted form, as typed (a short form: a big body is refused)."""
    form = await request.form(max_files=0, max_fields=MAX_FIELDS, max_part_size=MAX_FIELD_BYTES)
    values = base.posted(form, names)
    if values.get("next"):  # only ever a page of this site, whatever was posted
        values["next"] = safe_next(values["next"])
    return values


def is_editor(request: Request) -> bool:
    """Whether the request comes from someone who may change the team's data."""
    who = signed_in(request)
    return who is not None and who.allows(Role.editor)


def back_to(request: Request, values: dict[str, str], fallback: str) -> str:
    """Where the form came from: its `next`, else (a panel) the page the browser is on."""
    return values.get("next") or browser_path(request) or fallback


def redirect_with_flash(request: Request, target: str, message: str) -> Response:
    """Back to `target`, which then says `message` once."""
    response = redirect_after_post(request, target)
    flash(request, response, message)
    return response


def form_page(
    request: Request,
    session: Session,
    template: str,
    context: dict[str, Any],
    status: int,
    fragments: dict[str, str],
) -> Response:
    """A form's page (or, for HTMX, its block): never stored by a browser or a proxy."""
    response = render(
        request, template, context, session=session, fragments=fragments, status_code=status
    )
    response.headers["Cache-Control"] = "no-store"
    return response


def system_named(session: Session, slug: str) -> tuple[str, str]:
    """(slug, name) of a system; an unknown slug is a 404 that suggests the nearest."""
    names = system_name_map(session)
    if slug not in names:
        raise NotFoundError("system", slug, list(names), names)
    return slug, names[slug]


def not_found(request: Request, session: Session, message: str) -> Response:
    """The 404 page, for a team row that is not (or no longer) there."""
    body = {"detail": message, "allowed": []}
    return form_page(request, session, "errors/404.html", {"error": body}, 404, {})


# Forms drawn on other pages (for editors only: their pages are never cached) --------------------


class Editing(TypedDict, total=False):
    """What an editor gets on a page that lists team items; other readers get nothing."""

    result_form: ResultForm
    results: dict[str, int]  # result id -> version, for each result the team may change
    results_next: str
    claims: dict[str, ClaimForm]  # capability slug -> the team's claim form for that cell
    other_capabilities: list[tuple[str, str]]  # (slug, "Category: Name") not on the page


def new_result_form(
    session: Session, action: str, next_path: str, system: tuple[str, str] | None = None
) -> ResultForm:
    """An empty add form; without `system`, the editor chooses one."""
    form = ResultForm(
        action=action,
        values={},
        metrics=metric_choices(session),
        vocabulary=vocabulary_choices(session),
        next=next_path,
    )
    if system is None:
        form.systems = [(s.slug, s.name) for s in list_systems(session)]
    else:
        form.system_name = system[1]
    return form


def system_editing(request: Request, session: Session, detail: SystemDetail) -> Editing:
    """What an editor gets on a system page: the add form, and controls per team item."""
    if not is_editor(request):
        return {}
    here = f"/systems/{detail.slug}"
    claims = team_claims(session, detail.slug)
    cells = [cell for group in detail.features + detail.hardware for cell in group.cells]
    shown = {cell.capability for cell in cells}
    return {
        "result_form": new_result_form(
            session, f"{here}/team-results", here, (detail.slug, detail.name)
        ),
        "results": editable_results(session, detail.slug),
        "results_next": here,
        "claims": {
            cell.capability: forms.claim_form(
                (detail.slug, detail.name),
                (cell.capability, cell.name),
                claims.get(cell.capability),
                f"{here}#cap-{cell.capability}",
            )
            for cell in cells
        },
        "other_capabilities": [
            (cap.slug, f"{category.name}: {cap.name}")
            for cap, category in capabilities_in_order(session)
            if cap.slug not in shown
        ],
    }


def benchmarks_editing(request: Request, session: Session, here: str) -> Editing:
    """What an editor gets on /benchmarks: the add form, and controls per team result."""
    if not is_editor(request):
        return {}
    return {
        "result_form": new_result_form(session, "/team-results", here),
        "results": editable_results(session),
        "results_next": here,
    }


def cell_editing(
    request: Request,
    session: Session,
    system: tuple[str, str],
    capability: tuple[str, str],
    next_path: str,
) -> ClaimForm | None:
    """The team-claim form in a matrix cell's panel, for editors."""
    if not is_editor(request):
        return None
    current = team_claims(session, system[0]).get(capability[0])
    return forms.claim_form(system, capability, current, next_path)
