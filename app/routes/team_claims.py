"""Editor forms for the team's claims: set, change or remove its claim on a cell
(app/forms/editing.py says what the editor forms share)."""

from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from app.accounts.identity import SignedIn
from app.accounts.web import EditorUser
from app.db import SessionDep
from app.forms import team as forms
from app.forms.base import sentences, version_of
from app.forms.editing import back_to, form_page, posted, redirect_with_flash, system_named
from app.forms.team import ClaimForm
from app.queries.common import capabilities_in_order
from app.queries.matrix_data import cell_claims
from app.queries.team import team_claims
from app.text import level_label
from app.web.errors import NotFoundError
from app.web.pages import page
from app.writes import claims, common
from app.writes.transaction import write_transaction

router = APIRouter(include_in_schema=False)

CLAIM_POST = ("level", "note", "version", "next")


def _system_and_capability(
    session: SessionDep, slug: str, capability: str
) -> tuple[tuple[str, str], Any]:
    system = system_named(session, slug)
    caps = {cap.slug: cap for cap, _ in capabilities_in_order(session)}
    if capability not in caps:
        names = {s: c.name for s, c in caps.items()}
        raise NotFoundError("capability", capability, list(names), names)
    return system, caps[capability]


def _claim_page(request: Request, session: SessionDep, form: ClaimForm, status: int) -> Response:
    _, capability = _system_and_capability(session, form.system, form.capability)
    context = {
        "form": form,
        "capability": capability,
        "cell": cell_claims(session, form.system, form.capability),
    }
    fragments = {form.target: "team_claim_form"}
    return form_page(request, session, "pages/team_claim.html", context, status, fragments)


@router.get("/systems/{slug}/claims")
async def pick_claim(slug: str, who: EditorUser, capability: str = "") -> Response:
    """The system page's "another capability" picker is a GET form; this opens its choice."""
    if not capability:
        return RedirectResponse(f"/systems/{quote(slug, safe='')}#features", 303)
    return RedirectResponse(
        f"/systems/{quote(slug, safe='')}/claims/{quote(capability, safe='')}", 303
    )


@page(router, "/systems/{slug}/claims/{capability}")
def claim_page(
    slug: str, capability: str, request: Request, session: SessionDep, who: EditorUser
) -> Response:
    system, cap = _system_and_capability(session, slug, capability)
    current = team_claims(session, slug).get(capability)
    back = f"/systems/{slug}#cap-{capability}"
    form = forms.claim_form(system, (cap.slug, cap.name), current, back)
    return _claim_page(request, session, form, 200)


@router.post("/systems/{slug}/claims/{capability}")
async def set_claim(
    slug: str, capability: str, request: Request, session: SessionDep, who: EditorUser
) -> Response:
    values = await posted(request, CLAIM_POST)
    return await run_in_threadpool(_set_claim, request, session, who, slug, capability, values)


def _set_claim(
    request: Request,
    session: SessionDep,
    who: SignedIn,
    slug: str,
    capability: str,
    values: dict[str, str],
) -> Response:
    system, cap = _system_and_capability(session, slug, capability)
    team = request.app.state.settings.atlas_team_name
    form = ClaimForm(*system, cap.slug, cap.name, values=values, next=values["next"])
    try:
        version = version_of(values)
        claim = forms.claim_in(values)
        with write_transaction(session):
            saved = claims.put_claim(session, who, slug, capability, claim, version, team)
    except (common.StaleVersionError, common.VersionRequiredError) as exc:
        form.current, form.version = forms.claim_view(exc.row), exc.current
        created = isinstance(exc, common.VersionRequiredError)
        form.clash = forms.claim_clash(values, exc.row, created=created)
        return _claim_page(request, session, form, 409)
    except common.TeamError as exc:
        form.current = team_claims(session, slug).get(capability)
        form.version = version_of(values)
        form.problems = sentences(exc.problems)
        return _claim_page(request, session, form, 422)
    doc = saved.items[0]
    where = f"{system[1]} · {cap.name}"
    back = back_to(request, values, f"/matrix/cell?system={slug}&capability={capability}")
    if not saved.created and doc["version"] == version_of(values):
        return redirect_with_flash(
            request, back, f"Nothing to save: the team's claim on {where} is as it was."
        )
    verb = "Added" if saved.created else "Changed"
    return redirect_with_flash(
        request, back, f"{verb} the team's claim on {where}: {level_label(doc['level'])}."
    )


@router.post("/systems/{slug}/claims/{capability}/delete")
async def remove_claim(
    slug: str, capability: str, request: Request, session: SessionDep, who: EditorUser
) -> Response:
    values = await posted(request, ("version", "next"))
    return await run_in_threadpool(_remove_claim, request, session, who, slug, capability, values)


def _remove_claim(
    request: Request,
    session: SessionDep,
    who: SignedIn,
    slug: str,
    capability: str,
    values: dict[str, str],
) -> Response:
    system, cap = _system_and_capability(session, slug, capability)
    where = f"{system[1]} · {cap.name}"
    back = back_to(request, values, f"/matrix/cell?system={slug}&capability={capability}")
    try:
        version = version_of(values)
        with write_transaction(session):
            claims.delete_claim(session, who, slug, capability, version)
    except (common.StaleVersionError, common.VersionRequiredError) as exc:
        form = ClaimForm(
            *system,
            cap.slug,
            cap.name,
            values={},
            current=forms.claim_view(exc.row),
            version=exc.current,
            next=values["next"],
            removing=True,
            clash=forms.claim_clash({}, exc.row, created=False),
        )
        return _claim_page(request, session, form, 409)
    except common.UnknownItemError:
        return redirect_with_flash(request, back, f"The team had no claim on {where} to remove.")
    except common.TeamError as exc:
        saved = team_claims(session, slug).get(capability)
        form = forms.claim_form(system, (cap.slug, cap.name), saved, values["next"])
        form.problems = sentences(exc.problems)
        return _claim_page(request, session, form, 422)
    return redirect_with_flash(request, back, f"Removed the team's claim on {where}.")
