"""The inference-atlas command: serve, seed, check, export."""

from pathlib import Path
from typing import Annotated

import typer
from sqlalchemy.exc import OperationalError

from app.db import create_tables, make_engine
from app.memory import tune_for_serving
from app.seeding.errors import SeedError
from app.seeding.export import export_seed
from app.seeding.load import load_seed
from app.seeding.service import prepare_database
from app.seeding.service import seed as seed_database
from app.settings import Settings

cli = typer.Typer(help="Inference Atlas: choose an LLM inference server from sourced data.")


@cli.command()
def serve(host: str = "127.0.0.1", port: int = 8000) -> None:
    """Serve the dashboard (seeding an empty database first)."""
    import uvicorn

    from app.main import create_app

    settings = Settings()
    _prepare(settings)
    app = create_app(settings)
    tune_for_serving()
    uvicorn.run(app, host=host, port=port, access_log=settings.access_log)


def _prepare(settings: Settings) -> None:
    engine = make_engine(settings.database_url, **settings.engine_options())
    try:
        if prepare_database(engine, settings.seed_dir):
            typer.echo(f"Seeded an empty database from {settings.seed_dir}.")
    except SeedError as exc:
        _fail(exc)
    finally:
        engine.dispose()


def _locked(exc: OperationalError) -> None:
    """Another writer held the database past the busy timeout: say so, without a traceback."""
    if "locked" not in str(exc.orig):
        raise exc
    seconds = Settings().sqlite_busy_timeout_ms / 1000
    typer.echo(f"The database stayed locked by another writer for {seconds:g} s.", err=True)
    typer.echo("Nothing was written; run the command again when the other write is done.", err=True)
    raise typer.Exit(code=1)


def _fail(exc: SeedError) -> None:
    typer.echo(str(exc), err=True)
    typer.echo("Nothing was written.", err=True)
    raise typer.Exit(code=1)


@cli.command()
def seed(
    seed_dir: Annotated[Path | None, typer.Option(help="Seed folder (default: seed/)")] = None,
) -> None:
    """Validate the seed files, then (re)load them in one transaction."""
    settings = Settings()
    engine = make_engine(settings.database_url, **settings.engine_options())
    create_tables(engine)
    try:
        data = seed_database(engine, seed_dir or settings.seed_dir)
    except SeedError as exc:
        _fail(exc)
    except OperationalError as exc:
        _locked(exc)
    finally:
        engine.dispose()
    rows = sum(len(r) for r in data.benchmarks.values())
    claims = sum(len(c) for s in data.claims.values() for c in s.values())
    typer.echo(f"Loaded {len(data.systems)} systems, {claims} claims, {rows} benchmark results.")


@cli.command()
def check(
    seed_dir: Annotated[Path | None, typer.Option(help="Seed folder (default: seed/)")] = None,
) -> None:
    """Validate the seed files without touching the database."""
    try:
        load_seed(seed_dir or Settings().seed_dir)
    except SeedError as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(code=1) from exc
    typer.echo("Seed files are valid.")


@cli.command()
def export(out_dir: Path) -> None:
    """Write the database back out as seed files under OUT_DIR."""
    settings = Settings()
    engine = make_engine(settings.database_url, **settings.engine_options())
    written = export_seed(engine, out_dir)
    engine.dispose()
    typer.echo(f"Wrote {len(written)} files to {out_dir}.")


def main() -> None:
    cli()
