"""create_app(settings) -> FastAPI: the engine, first-start seeding, static files, routers."""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from app.cache import DataVersion, RenderCache
from app.db import create_tables, make_engine
from app.errors import install_error_handlers
from app.routes import api, benchmarks, compare, decide, matrix, pages
from app.seeding.service import seed_if_empty
from app.settings import PROJECT_ROOT, Settings


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the application for `settings` (defaults from the environment)."""
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = make_engine(settings.database_url)
        create_tables(engine)
        seed_if_empty(engine, settings.seed_dir)
        app.state.engine = engine
        app.state.data_version = DataVersion(engine)
        app.state.render_cache = RenderCache()
        yield
        engine.dispose()

    app = FastAPI(
        title=settings.site_name,
        summary="Sourced features, hardware support and benchmarks of LLM inference servers.",
        version="0.1.0",
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.mount("/static", StaticFiles(directory=PROJECT_ROOT / "static"), name="static")
    app.include_router(api.router)
    app.include_router(matrix.router)
    app.include_router(benchmarks.router)
    app.include_router(compare.router)
    app.include_router(decide.router)
    app.include_router(pages.router)
    install_error_handlers(app)

    @app.get("/healthz", include_in_schema=False)
    async def healthz() -> dict[str, str]:
        """Liveness, and the benchmark script's floor: no database, no template."""
        return {"status": "ok"}

    return app
