"""/hardware/{slug}, /models/{slug} and /workloads/{slug}: one vocabulary entry and the figures
that use it. Their JSON twins (and the lists) are in routes/api/catalogue.py."""

import datetime as dt

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from app.accounts.web import EditorUser
from app.db import SessionDep
from app.forms.base import EditorForm
from app.forms.editing import is_editor
from app.queries.entries import entry_names, vocabulary_names
from app.queries.entry_page import EntryPage, entry_page
from app.routes.accounts import read_form
from app.web.deps import Ignored
from app.web.errors import NotFoundError
from app.web.pages import page
from app.web.render import render, tidy_redirect
from app.writes.prices import PriceIn, prices, set_price
from app.writes.transaction import write_transaction

router = APIRouter(include_in_schema=False)

PATHS = {"hardware": "hardware", "model": "models", "workload": "workloads"}
"""kind -> the path its pages (and API lists) live under."""


def find_entry(session: SessionDep, kind: str, slug: str) -> EntryPage | str:
    """The entry's page data, or the canonical slug when `slug` is one of its other names.

    Raises NotFoundError (404 with the closest slugs) when it names nothing."""
    page = entry_page(session, kind, slug, dt.date.today())
    if page is not None:
        return page
    other = vocabulary_names(session)[kind].resolve(slug)
    if other is not None:
        return other
    names = entry_names(session, kind)
    raise NotFoundError(kind, slug, list(names), names)


def _entry_page(
    request: Request,
    session: SessionDep,
    ignored: list[str],
    kind: str,
    slug: str,
    price_form: dict[str, str] | None = None,
    price_problems: dict[str, str] | None = None,
    status_code: int = 200,
) -> Response:
    found = find_entry(session, kind, slug)
    path = f"/{PATHS[kind]}"
    if isinstance(found, str):  # an alias: "/hardware/H100 SXM" is the SXM5 entry's page
        return RedirectResponse(f"{path}/{found}", status_code=308)
    if redirect := tidy_redirect(request, f"{path}/{slug}", ignored):
        return redirect
    price = prices(session).get(found.entry.slug) if kind == "hardware" else None
    saved = (
        {"usd_per_gpu_hour": f"{price.usd_per_gpu_hour:g}", "basis": price.basis} if price else {}
    )
    context = {
        "page": found,
        "entry": found.entry,
        "json_url": f"/api/v1/{PATHS[kind]}/{slug}",
        "benchmarks_url": f"/benchmarks?{kind}={slug}",
        "ignored_parameters": ignored,
        "active": "model-index" if kind == "model" else "benchmarks",
        "can_add": is_editor(request),  # the catalogue's add forms (app/routes/catalogue.py)
        # What one GPU of it costs an hour on this instance: editors set it here.
        "price": price,
        "price_form": EditorForm(values=price_form or saved, problems=price_problems or {}),
    }
    return render(
        request, "pages/vocabulary_entry.html", context, session=session, status_code=status_code
    )


@page(router, "/hardware/{slug}")
def hardware_page(slug: str, request: Request, session: SessionDep, ignored: Ignored) -> Response:
    return _entry_page(request, session, ignored, "hardware", slug)


@page(router, "/models/{slug:path}")  # a Hugging Face id holds a slash
def model_page(slug: str, request: Request, session: SessionDep, ignored: Ignored) -> Response:
    return _entry_page(request, session, ignored, "model", slug)


@page(router, "/workloads/{slug}")
def workload_page(slug: str, request: Request, session: SessionDep, ignored: Ignored) -> Response:
    return _entry_page(request, session, ignored, "workload", slug)


@router.post("/hardware/{slug}/price")
async def set_hardware_price(
    slug: str, request: Request, session: SessionDep, who: EditorUser
) -> Response:
    posted = await read_form(request)
    form = {k: str(posted.get(k) or "").strip() for k in ("usd_per_gpu_hour", "basis")}
    return await run_in_threadpool(_set_price, request, session, who, slug, form)


def _set_price(
    request: Request, session: SessionDep, who: EditorUser, slug: str, form: dict[str, str]
) -> Response:
    problems = price_problems(form)
    if not problems:
        price = PriceIn(usd_per_gpu_hour=float(form["usd_per_gpu_hour"]), basis=form["basis"])
        with write_transaction(session):
            saved = set_price(session, who, slug, price)
        if saved is not None:  # the page shows the price saved: that is the confirmation
            return RedirectResponse(f"/hardware/{slug}#price", status_code=303)
        problems["usd_per_gpu_hour"] = (
            "This entry is withdrawn or another's name; it takes no price."
        )
    ignored: list[str] = []
    return _entry_page(request, session, ignored, "hardware", slug, form, problems, 422)


def price_problems(form: dict[str, str]) -> dict[str, str]:
    """Each field's problem in words (none when the price may be saved)."""
    problems: dict[str, str] = {}
    text = form["usd_per_gpu_hour"].replace(",", "").removeprefix("$").strip()
    try:
        usd = float(text)
    except ValueError:
        problems["usd_per_gpu_hour"] = "Not a number; type dollars per GPU-hour such as 2.49."
    else:
        if not 0 < usd <= 10_000 or usd != usd:
            problems["usd_per_gpu_hour"] = (
                "Out of range: a price above 0 and at most 10,000 dollars per GPU-hour."
            )
        form["usd_per_gpu_hour"] = text
    if len(form["basis"]) < 3 or len(form["basis"]) > 300:
        problems["basis"] = (
            "Say where the price comes from (3 to 300 characters): provider, on-demand or "
            "reserved, and the date."
        )
    return problems
