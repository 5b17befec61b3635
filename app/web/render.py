"""The template environment, render() and serve(): the only code that reads HX-* headers.

A route hands serve() a build function. serve() answers from the render cache when it can;
otherwise it runs the build in a worker thread, inside the request's one read transaction,
and caches the result under the data version that transaction saw.
"""

import datetime as dt
from collections.abc import Callable, Iterable, Mapping
from typing import Any
from urllib.parse import quote, urlencode, urlsplit

from anyio import CapacityLimiter
from fastapi import Request
from fastapi.responses import JSONResponse, RedirectResponse, Response
from itsdangerous import BadData, URLSafeTimedSerializer
from jinja2_fragments.fastapi import Jinja2Blocks
from pydantic import BaseModel
from sqlmodel import Session
from starlette.concurrency import run_in_threadpool

from app.accounts.users import SignedIn
from app.accounts.web import here, login_url, safe_next
from app.data_version.version import data_version
from app.forms import notes as note_forms
from app.params.reader import group_problems, is_untidy
from app.present import bar_svg, formatting, marks
from app.present.change_words import field_label
from app.queries.catalogue import site_facts
from app.settings import PROJECT_ROOT
from app.web.cache import VARY, CachedPage, RenderCache, page_key
from app.web.edge.page_cache import FRESH_VERSION
from app.web.http_basics import static_url

templates = Jinja2Blocks(directory=PROJECT_ROOT / "templates")
# Templates change only with a deploy (a new process): without this, every render asked the
# file system whether each template, import and include had changed.
templates.env.auto_reload = False
templates.env.filters.update(
    level_label=formatting.level_label,
    level_icon=formatting.level_icon,
    level_short=formatting.level_short,
    figure=formatting.figure,
    source_date=formatting.source_date,
    caveat_label=formatting.caveat_label,
    fact_label=formatting.fact_label,
    extract=lambda key, mapping: mapping.get(key, key),
    tuple_of=tuple,
)
# Summaries are shortened for cards and meta descriptions; a word cut in half reads as a
# typo, so `truncate` always ends at a word boundary, whatever a template asks (killwords).
_truncate = templates.env.filters["truncate"]
templates.env.filters["truncate"] = lambda text, length=255, killwords=False, end="…", leeway=0: (
    _truncate(templates.env, text, length, False, end, leeway)
)
# Macro modules see the globals that exist when they load: helpers first.
templates.env.globals["group_problems"] = group_problems
templates.env.filters["field_label"] = field_label
templates.env.globals["fmt"] = formatting
templates.env.globals["marks"] = marks
templates.env.globals["bar_svg"] = bar_svg
templates.env.globals["static_url"] = static_url
templates.env.globals["note_forms"] = note_forms
# Blocks rendered alone cannot see a template's own imports, so macros are globals.
templates.env.globals["ui"] = templates.env.get_template("macros/ui.html").module
templates.env.globals["charts_ui"] = templates.env.get_template("macros/charts.html").module
templates.env.globals["team_ui"] = templates.env.get_template("macros/team.html").module
templates.env.globals["notes_ui"] = templates.env.get_template("macros/notes.html").module
templates.env.globals["matrix_ui"] = templates.env.get_template("macros/matrix.html").module
templates.env.globals["changes_ui"] = templates.env.get_template("macros/changes.html").module
templates.env.globals["sweeps_ui"] = templates.env.get_template("macros/sweeps.html").module
templates.env.globals["login_url"] = login_url
templates.env.globals["here"] = here


def is_htmx(request: Request) -> bool:
    """Whether HTMX sent the request (the page around it is already in the browser)."""
    return request.headers.get("HX-Request") == "true"


def hx_redirect(target: str, status_code: int = 204, refresh: bool = False) -> Response:
    """Have HTMX load `target` as a whole page (it would swap a redirect's target into the
    page); `refresh` reloads after the move, for a target on the page the browser is on."""
    headers = {"HX-Redirect": target} | ({"HX-Refresh": "true"} if refresh else {})
    return Response(status_code=status_code, headers=headers)


Fragments = Iterable[str] | Mapping[str, str]


def fragment_target(request: Request, fragments: Fragments) -> str | None:
    """The block to render alone, if this is an HTMX request aimed at one of `fragments`.

    A block fills the element of the same id; a mapping (element id -> block) serves forms
    repeated on a page, one element id each (`claim-prefix-caching` -> `team_claim_form`)."""
    headers = request.headers
    if not is_htmx(request):
        return None
    # Boosted navigation and history restores need the whole page.
    if headers.get("HX-Boosted") == "true" or headers.get("HX-History-Restore-Request") == "true":
        return None
    target = headers.get("HX-Target") or ""
    if isinstance(fragments, Mapping):
        return fragments.get(target)
    return target if target in set(fragments) else None


def render(
    request: Request,
    template: str,
    context: dict[str, Any],
    *,
    session: Session | None = None,
    fragments: Fragments = (),
    canonical: str | None = None,
    status_code: int = 200,
) -> Response:
    """The full page, or one block when HTMX asks for a declared fragment.

    `canonical` is the page's tidy URL: HTMX requests get it pushed into the address bar.
    With `session`, the footer's figures come from the same transaction as the page.
    """
    if session is not None:
        context.setdefault("freshness", site_facts(session))
    # The layout names who is signed in; serve() never caches a page that shows a user.
    context.setdefault("current_user", signed_in(request))
    block = fragment_target(request, fragments)
    # A block rendered alone may add out-of-band parts that the full page already holds.
    context.setdefault("fragment", block)
    flashed = block is None and FLASH_COOKIE in request.cookies and signed_in(request)
    if flashed:
        context.setdefault("flash", _read_flash(request))
    response = templates.TemplateResponse(
        request, template, context, status_code=status_code, block_name=block
    )
    response.headers["Vary"] = VARY
    if flashed:  # shown once: the next page starts without it
        response.delete_cookie(FLASH_COOKIE, path="/")
    if canonical is not None and is_htmx(request) and status_code < 400:
        response.headers["HX-Push-Url"] = canonical
    return response


def render_json(data: BaseModel | list[Any], ignored: list[str]) -> Response:
    """A read model as the JSON twin of its page: an object names the parameters it ignored
    in `ignored_parameters`, a list (which has no room for them) in X-Ignored-Parameters."""
    if isinstance(data, BaseModel):
        return JSONResponse({**data.model_dump(mode="json"), "ignored_parameters": ignored})
    # A header carries Latin-1 only: a name outside printable ASCII goes percent-encoded.
    shown = [n if n.isascii() and n.isprintable() else quote(n, safe="") for n in ignored]
    headers = {"X-Ignored-Parameters": ", ".join(shown)} if ignored else None
    return JSONResponse([item.model_dump(mode="json") for item in data], headers=headers)


def tidy_redirect(request: Request, canonical: str, ignored: Iterable[str] = ()) -> Response | None:
    """A 303 to `canonical` when a plain request's query says more (empty fields, defaults,
    tracking parameters); None when it is already tidy or comes from HTMX.

    Unknown parameters (`ignored`) do not count: the page stays, with a quiet notice.
    """
    if is_htmx(request):
        return None
    skip = set(ignored)
    query = [(k, v) for k, v in request.query_params.multi_items() if k not in skip]
    if is_untidy(urlencode(query), urlsplit(canonical).query):
        return RedirectResponse(canonical, 303)
    return None


def redirect_after_post(request: Request, target: str) -> Response:
    """Back to `target` after a change: a 303, or for HTMX a full load of it (HX-Redirect),
    since the page around the form changed too."""
    if not is_htmx(request):
        return RedirectResponse(target, 303)
    # Moving to an anchor of the page the browser is on does not load anything; reloading
    # after the move does, and lands on the anchor.
    current = (browser_path(request) or "").partition("#")[0]
    return hx_redirect(target, refresh="#" in target and target.partition("#")[0] == current)


def browser_path(request: Request) -> str | None:
    """Where the browser is (path and query), for a form HTMX posted from a panel that does
    not know the page around it; None unless HTMX says so and it is a page of this site."""
    current = request.headers.get("HX-Current-URL") if is_htmx(request) else None
    if not current:
        return None
    parts = urlsplit(current)
    if parts.netloc != request.headers.get("host", ""):
        return None
    path = safe_next(parts.path + (f"?{parts.query}" if parts.query else ""))
    return None if path == "/" and parts.path != "/" else path


# A confirmation carried across a redirect-after-post (Datasette keeps its messages the same
# way): signed, so no other site can plant one; read once, and only on a signed-in user's
# page, which the render cache never keeps.
FLASH_COOKIE = "atlas_flash"
FLASH_SALT = "inference-atlas.flash"
FLASH_SECONDS = 120


def _flash_signer(request: Request) -> URLSafeTimedSerializer:
    sessions: URLSafeTimedSerializer = request.app.state.cookie_signer
    return URLSafeTimedSerializer(sessions.secret_keys, salt=FLASH_SALT)


def flash(request: Request, response: Response, text: str) -> None:
    """Show `text` once, on the next page this browser loads."""
    response.set_cookie(
        FLASH_COOKIE,
        _flash_signer(request).dumps(text),
        max_age=FLASH_SECONDS,
        path="/",
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )


def _read_flash(request: Request) -> str | None:
    try:
        text = _flash_signer(request).loads(request.cookies[FLASH_COOKIE], max_age=FLASH_SECONDS)
    except BadData:
        return None
    return text if isinstance(text, str) else None


Build = Callable[[Session], Response]


def signed_in(request: Request) -> SignedIn | None:
    """Who made the request (set by app.accounts.web.identify), or None."""
    return getattr(request.state, "user", None)


async def serve(request: Request, session: Session, build: Build) -> Response:
    """Answer from the render cache, or build in a thread and cache what is worth keeping.

    Only anonymous requests use the cache: a signed-in user's page is built for them
    alone (same session, same build limit) and never stored or shared."""
    if signed_in(request) is not None:
        return await _serve_privately(request, session, build)
    state = request.app.state
    cache: RenderCache = state.render_cache
    # Read after the request arrived (by the page cache, or here when it did not look).
    version = request.scope.get(FRESH_VERSION) or await state.fresh_version.current()
    request_key = page_key(request.scope, request.headers.get, dt.date.today())
    route = getattr(request.scope.get("route"), "path", None)
    page = cache.get(version, request_key)
    if page is None:
        shared_key = (version, request_key)

        async def build_page() -> CachedPage:
            async with state.build_slots:
                # A client that gave up while queued costs nothing, unless others wait too.
                if await _client_gone(request) and not cache.has_followers(shared_key):
                    return CachedPage(b"", CLIENT_GONE, {"etag": '""'})
                built, response, page = await run_in_threadpool(
                    _frozen_in_one_transaction, session, build, route
                )
            if response.status_code < 400:
                # Under the version the page was built from (never older than `version`).
                cache.put(built, request_key, page)
            return page

        page = await cache.shared(shared_key, build_page)
    return page.respond()


async def _serve_privately(request: Request, session: Session, build: Build) -> Response:
    async with request.app.state.build_slots:
        _, _, page = await run_in_threadpool(_frozen_in_one_transaction, session, build, None, True)
    return page.respond()


CLIENT_GONE = 499  # nginx's name for it; never sent to anyone still listening


async def _client_gone(request: Request) -> bool:
    # The first look may only consume the (empty) GET body; the second sees a disconnect.
    return await request.is_disconnected() or await request.is_disconnected()


def _in_one_transaction(session: Session, build: Build) -> tuple[str, Response]:
    # The version is the transaction's first read, so the page and its cache key agree.
    version = data_version(session)
    return version, build(session)


def _frozen_in_one_transaction(
    session: Session, build: Build, route: str | None, private: bool = False
) -> tuple[str, Response, CachedPage]:
    # Hashed and gzipped here, in the worker thread: a page of several MB takes tens of
    # milliseconds to compress, which on the event loop would hold up every other request.
    version, response = _in_one_transaction(session, build)
    return version, response, CachedPage.of(response, private=private, route=route)


def build_slots(threads: int, builds: int) -> CapacityLimiter:
    """Builds waiting for a thread queue here. On two cores more than a few renders at once
    only add memory and latency (they share one GIL), and threads stay free for the rest."""
    return CapacityLimiter(max(1, min(builds, threads - 2)))
