"""create_app(settings) -> FastAPI: the engine, first-start seeding, static files, routers."""

import asyncio
from collections.abc import AsyncIterator, Awaitable
from contextlib import asynccontextmanager

from anyio import to_thread
from fastapi import Depends, FastAPI
from sqlalchemy import Engine
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware

from app.accounts.csrf import CrossOriginGuard
from app.accounts.oidc import Provider
from app.accounts.passwords import warm_up
from app.accounts.proxy import ProxySignIn
from app.accounts.responses import install_account_handlers
from app.accounts.web import COOKIE, SECURE_COOKIE, cookie_signer, identify
from app.data_version.fresh import FreshVersion, VersionReader
from app.db import make_engine
from app.ops.metrics import Metrics
from app.ops.observe import NoteRoute
from app.routes import (
    accounts,
    admin,
    admin_webhooks,
    benchmarks,
    catalogue,
    changes,
    compare,
    decide,
    docs,
    entries,
    finder,
    fit,
    import_entries,
    imports,
    items,
    matrix,
    oidc,
    ops,
    pages,
    team_claims,
    team_notes,
    team_results,
    tokens,
)
from app.routes.api import API_ROUTERS
from app.routes.api import imports as imports_api
from app.seeding.prepare import prepare_database
from app.settings import PROJECT_ROOT, Settings
from app.web.cache import RenderCache
from app.web.edge.compression import Compression
from app.web.edge.conditional import Conditional
from app.web.edge.health import HealthCheck
from app.web.edge.observe import Observe
from app.web.edge.page_cache import PageCache
from app.web.edge.proxies import TrustedProxies
from app.web.edge.security import SecurityHeaders
from app.web.errors import install_error_handlers
from app.web.http_basics import CompressedStaticFiles, HttpBasics
from app.web.render import build_slots
from app.webhooks.sender import Sender


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the application for `settings` (defaults from the environment).

    Raises InsecureSecretError in production without a proper ATLAS_SECRET_KEY."""
    settings = settings or Settings()
    secret = settings.signing_secret()
    signer = cookie_signer(secret)
    metrics = Metrics()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # Every blocking call (database, rendering) runs on these threads; the pool matches.
        to_thread.current_default_thread_limiter().total_tokens = settings.threads
        engine = make_engine(settings.database_url, **settings.engine_options())
        metrics.watch_engine(engine)
        await to_thread.run_sync(prepare_database, engine, settings.seed_dir)
        await to_thread.run_sync(warm_up)
        app.state.engine = engine
        version_reader = VersionReader(engine)
        app.state.fresh_version = FreshVersion(version_reader)
        await app.state.fresh_version.current()
        app.state.render_cache = RenderCache(max_bytes=settings.render_cache_mb * 1024 * 1024)
        app.state.build_slots = build_slots(settings.threads, settings.builds)
        # Kept in the lifespan, not on app.state: tests run one app's lifespan twice at once.
        sender = _sender(settings, engine)
        sending = asyncio.create_task(sender.run(), name="webhook sender") if sender else None
        yield
        if sender is not None and sending is not None:
            await sender.stop()
            await sending
        await to_thread.run_sync(app.state.fresh_version.close)
        await to_thread.run_sync(version_reader.close)
        engine.dispose()

    app = FastAPI(
        title=settings.site_name,
        summary="Sourced features, hardware support and benchmarks of LLM inference servers.",
        version="0.1.0",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        openapi_url=None,
        # Who is asking, for every route: no database work unless a credential is sent.
        dependencies=[Depends(identify)],
    )
    app.state.settings = settings
    app.state.cookie_signer = signer
    app.state.oidc = Provider(settings, secret) if settings.oidc_enabled() else None
    app.state.proxy_sign_in = ProxySignIn.from_settings(settings)
    app.state.metrics = metrics
    metrics.watch_state(lambda: _started(app), {"benchmark_cards": benchmarks.CARDS})
    # Our middleware answers `/path/` itself with a relative Location.
    app.router.redirect_slashes = False
    app.mount("/static", CompressedStaticFiles(PROJECT_ROOT / "static"), name="static")
    # FastAPI tries routes in the order they were added, every route of every router until
    # one matches (twice: the router, then inside it): the health check and the pages a crowd
    # reads come first, the API next, the team's forms and accounts last (no paths overlap).
    ops.add_routes(app)
    for module in (matrix, pages, items, benchmarks, compare, decide, entries, finder, fit):
        app.include_router(module.router)
    for api_router in API_ROUTERS:
        app.include_router(api_router)
    for module in (
        docs,
        changes,
        import_entries,
        imports,
        accounts,
        oidc,
        admin,
        admin_webhooks,
        tokens,
        team_results,
        team_claims,
        team_notes,
        catalogue,
    ):
        app.include_router(module.router)
    install_error_handlers(app)
    install_account_handlers(app)
    for layer in reversed(edge(app, settings, metrics)):
        app.add_middleware(layer.cls, *layer.args, **layer.kwargs)
    return app


def edge(app: FastAPI, settings: Settings, metrics: Metrics) -> list[Middleware]:
    """The layers every request passes, outermost first (app/web/edge/ has one per job).

    Cached pages are answered by the page cache, after the host check and before routing,
    so they get the same headers, encoding, 304s, log line and metrics as built ones."""
    upload = imports_api.MAX_UPLOAD_BYTES + imports_api.ENVELOPE_BYTES
    cookies = (COOKIE, SECURE_COOKIE)
    proxy_header = settings.atlas_proxy_user_header.strip().lower()
    return [
        # Outermost: only here is the connection's own address still known.
        Middleware(TrustedProxies, trusted=settings.trusted_proxies),
        Middleware(SecurityHeaders),
        Middleware(Observe, metrics=metrics, access_log=settings.access_log),
        Middleware(HealthCheck, read_version=lambda: _version_now(app)),
        Middleware(
            TrustedHostMiddleware, allowed_hosts=settings.trusted_host_list(), www_redirect=False
        ),
        Middleware(
            HttpBasics,
            max_query_bytes=settings.max_query_bytes,
            max_body_bytes=settings.max_body_bytes,
            upload_limits={"/api/v1/imports": upload, "/imports": upload},
            body_timeout=settings.body_timeout_seconds,
        ),
        Middleware(Compression),
        Middleware(Conditional),
        Middleware(
            PageCache,
            state=app.state,
            cookie_names=cookies,
            public_read=settings.atlas_public_read,
            credential_headers=(proxy_header,) if proxy_header else (),
        ),
        # Hosts were checked above, so the forgery check may compare Origin with Host.
        Middleware(CrossOriginGuard, cookie_name=cookies),
        Middleware(NoteRoute, routes=app.router.routes),
    ]


def _sender(settings: Settings, engine: Engine) -> Sender | None:
    """The webhook sender this process runs (docs/webhooks.md), or None if it sends none."""
    if not settings.atlas_webhooks_send:
        return None
    return Sender(
        engine,
        public_base=settings.public_base(),
        allow_private=settings.atlas_webhooks_allow_private,
        timeout=settings.atlas_webhooks_timeout_seconds,
        concurrency=settings.atlas_webhooks_concurrency,
        poll_seconds=settings.atlas_webhooks_poll_seconds,
    )


def _version_now(app: FastAPI) -> Awaitable[str] | None:
    fresh: FreshVersion | None = getattr(app.state, "fresh_version", None)
    return None if fresh is None else fresh.current()


def _started(app: FastAPI) -> object | None:
    """The app's state once the lifespan has made the caches, for the metrics scrape."""
    return app.state if hasattr(app.state, "render_cache") else None
