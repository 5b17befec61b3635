"""The template environment and render(): the only code that reads HX-* headers."""

from collections.abc import Iterable
from typing import Any

from fastapi import Request
from fastapi.responses import Response
from jinja2_fragments.fastapi import Jinja2Blocks
from sqlmodel import Session

from app import formatting
from app.queries.catalogue import freshness
from app.settings import PROJECT_ROOT


def _site_context(request: Request) -> dict[str, Any]:
    """What every page's footer shows: how much data there is and how fresh."""
    with Session(request.app.state.engine) as session:
        return {"freshness": freshness(session)}


templates = Jinja2Blocks(directory=PROJECT_ROOT / "templates", context_processors=[_site_context])
templates.env.filters.update(
    level_label=formatting.level_label,
    level_icon=formatting.level_icon,
    level_short=formatting.level_short,
    figure=formatting.figure,
    source_date=formatting.source_date,
    extract=lambda key, mapping: mapping.get(key, key),
    tuple_of=tuple,
)
# Blocks rendered alone cannot see a template's own imports, so macros are globals.
templates.env.globals["ui"] = templates.env.get_template("macros/ui.html").module
templates.env.globals["charts_ui"] = templates.env.get_template("macros/charts.html").module
templates.env.globals["fmt"] = formatting


def fragment_target(request: Request, fragments: Iterable[str]) -> str | None:
    """The block to render alone, if this is an HTMX request aimed at one of `fragments`."""
    headers = request.headers
    if headers.get("HX-Request") != "true":
        return None
    # Boosted navigation and history restores need the whole page.
    if headers.get("HX-Boosted") == "true" or headers.get("HX-History-Restore-Request") == "true":
        return None
    target = headers.get("HX-Target")
    return target if target in set(fragments) else None


def render(
    request: Request,
    template: str,
    context: dict[str, Any],
    *,
    fragments: Iterable[str] = (),
    status_code: int = 200,
) -> Response:
    """Render the full page, or one block when HTMX asks for a declared fragment."""
    block = fragment_target(request, fragments)
    response = templates.TemplateResponse(
        request, template, context, status_code=status_code, block_name=block
    )
    response.headers["Vary"] = "HX-Request, HX-Target"
    return response
