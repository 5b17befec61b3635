"""The server's commands: serve (migrating and seeding first, in a child process), migrate,
seed and check."""

import logging
import logging.config
import subprocess
import sys
from pathlib import Path
from typing import Annotated

import typer

from app.backup.document import TEAM_FILE
from app.cli.common import database, prepare, refuse
from app.ops.logs import logging_config
from app.ops.memory import limit_malloc_arenas, tune_for_serving
from app.seeding.errors import SeedError
from app.seeding.load import load_seed
from app.seeding.prepare import migrate_and_seed
from app.settings import InsecureSecretError, Settings


def serve(host: str = "127.0.0.1", port: int = 8000) -> None:
    """Serve the dashboard (migrating, and seeding an empty database, first)."""
    limit_malloc_arenas()  # before any thread starts (app/ops/memory.py says why)
    import uvicorn

    from app.main import create_app

    settings = Settings()
    if "public_url" not in settings.model_fields_set:
        # Links then point where this process listens; a team sets ATLAS_PUBLIC_URL.
        # Listening on every address names none: the machine's own is the best guess.
        shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
        shown = f"[{shown}]" if ":" in shown else shown
        settings.public_url = f"http://{shown}:{port}"
    try:
        if settings.atlas_env == "production":
            settings.signing_secret()  # refuses a weak secret before anything is set up
        # From here on the process is a server: its records go out as LOG_FORMAT says.
        log_config = logging_config(settings.log_format, settings.log_level)
        logging.config.dictConfig(log_config)
        app = create_app(settings)
    except InsecureSecretError as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(code=1) from exc
    _prepare_in_a_child()
    tune_for_serving()
    # Behind a reverse proxy, the client address and scheme (https, for the cookie's Secure
    # flag) come from X-Forwarded-* only when the proxy's address is in ATLAS_TRUSTED_PROXIES
    # (FORWARDED_ALLOW_IPS, uvicorn's name, is read too; default 127.0.0.1,::1). The app's
    # outermost layer applies them (app/web/edge/proxies.py) with uvicorn's own middleware
    # and that one list, so uvicorn's is off: the app must still see the proxy's address to
    # believe its sign-in headers, and one list means one notion of a trusted proxy.
    # The app writes its own line per request (ACCESS_LOG), so uvicorn's access log is off.
    # uvicorn has no header-read timeout of its own: an idle keep-alive connection is closed
    # after 5 s, headers are capped at 64 KB (h11's buffer), and a body that stalls gets a 408
    # from the app (BODY_TIMEOUT_SECONDS). Caddy, in front, times out slow headers itself.
    uvicorn.run(
        app,
        host=host,
        port=port,
        access_log=False,
        proxy_headers=False,
        log_config=log_config,
        timeout_keep_alive=5,
        h11_max_incomplete_event_size=64 * 1024,
    )


def _prepare_in_a_child() -> None:
    """Migrate, and seed an empty database, in a process of its own that ends before the
    server starts. Seeding ten times the real data takes some 200 MB; in the server's own
    process the allocator would keep that memory, freed but not returned, for the server's
    whole life (its peak at x10 was the first start's seed, docs/performance.md)."""
    command = [sys.executable, "-c", "from app.cli import main; main()", "prepare-to-serve"]
    done = subprocess.run(command, stdin=subprocess.DEVNULL, check=False)
    if done.returncode != 0:
        raise typer.Exit(code=done.returncode)


def prepare_to_serve() -> None:
    """What `serve` runs in a child process first: `migrate`, saying what was done in the
    server's own log format."""
    settings = Settings()
    logging.config.dictConfig(logging_config(settings.log_format, settings.log_level))
    prepare(settings, say=logging.getLogger("inference_atlas").info)


def migrate() -> None:
    """Upgrade the database to the newest schema, then seed it if it is empty."""
    prepare(Settings())


def seed(
    seed_dir: Annotated[Path | None, typer.Option(help="Seed folder (default: seed/)")] = None,
) -> None:
    """Validate the seed files, then bring the published data up to them in one transaction."""
    settings = Settings()
    with database(settings) as engine:
        try:
            data, report = migrate_and_seed(engine, seed_dir or settings.seed_dir)
        except SeedError as exc:
            refuse(str(exc))
    rows = sum(len(r) for r in data.benchmarks.values())
    claims = sum(len(c) for s in data.claims.values() for c in s.values())
    typer.echo(f"Loaded {len(data.systems)} systems, {claims} claims, {rows} benchmark results.")
    typer.echo(report.summary())
    folder = seed_dir or settings.seed_dir
    if (folder / TEAM_FILE).exists():
        # A backup folder: seeding reads only its published files, which can surprise.
        typer.echo(
            f"{folder / TEAM_FILE} was not read: seeding loads only the published data. "
            f"To restore the team's data and history too, run: inference-atlas import {folder}",
            err=True,
        )


def check(
    seed_dir: Annotated[Path | None, typer.Option(help="Seed folder (default: seed/)")] = None,
) -> None:
    """Validate the seed files without touching the database; print their coverage."""
    from app.queries.coverage import report_lines, seed_coverage

    try:
        data = load_seed(seed_dir or Settings().seed_dir)
    except SeedError as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(code=1) from exc
    typer.echo("Seed files are valid.")
    typer.echo("\n".join(report_lines(seed_coverage(data))))
