"""The inference-atlas command: serve, migrate, seed, check, export, import, user, token."""

import logging
import logging.config
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from sqlalchemy import Engine
from sqlalchemy.exc import OperationalError
from sqlmodel import Session

from app.accounts import users as accounts
from app.accounts.models import Role, utcnow
from app.accounts.passwords import password_problem
from app.backup.document import TEAM_FILE, BackupError, describe_counts
from app.backup.dump import export_backup
from app.backup.restore import NotEmptyError, restore_backup
from app.db import make_engine, writer
from app.ops.logs import logging_config
from app.ops.memory import limit_malloc_arenas, tune_for_serving
from app.seeding.errors import SeedError
from app.seeding.load import load_seed
from app.seeding.prepare import SchemaError, migrate_and_seed, prepare_database
from app.settings import InsecureSecretError, Settings

if TYPE_CHECKING:  # the import commands load the writes themselves, when they run
    from app.importers import ParsedFile
    from app.writes.documents import ImportDoc

cli = typer.Typer(help="Inference Atlas: choose an LLM inference server from sourced data.")
users = typer.Typer(help="Who can sign in, and with which role (viewer, editor, admin).")
tokens = typer.Typer(help="API tokens for scripts (Authorization: Bearer TOKEN).")
cli.add_typer(users, name="user")
cli.add_typer(tokens, name="token")
FORMAT_HELP = "Skip detection: vllm-bench, sglang-bench, llama-bench, genai-perf, aiperf, guidellm."


@cli.command()
def serve(host: str = "127.0.0.1", port: int = 8000) -> None:
    """Serve the dashboard (migrating, and seeding an empty database, first)."""
    limit_malloc_arenas()  # before any thread starts (app/ops/memory.py says why)
    import uvicorn

    from app.main import create_app

    settings = Settings()
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
    # Behind a reverse proxy, uvicorn takes the client address and scheme (https, for the
    # cookie's Secure flag) from X-Forwarded-* only when the proxy's address is listed in
    # FORWARDED_ALLOW_IPS (default: 127.0.0.1); nothing else in the app reads those headers.
    # The app writes its own line per request (ACCESS_LOG), so uvicorn's access log is off.
    # uvicorn has no header-read timeout of its own: an idle keep-alive connection is closed
    # after 5 s, headers are capped at 64 KB (h11's buffer), and a body that stalls gets a 408
    # from the app (BODY_TIMEOUT_SECONDS). Caddy, in front, times out slow headers itself.
    uvicorn.run(
        app,
        host=host,
        port=port,
        access_log=False,
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


@cli.command("prepare-to-serve", hidden=True)
def prepare_to_serve() -> None:
    """What `serve` runs in a child process first: `migrate`, saying what was done in the
    server's own log format."""
    settings = Settings()
    logging.config.dictConfig(logging_config(settings.log_format, settings.log_level))
    _prepare(settings, say=logging.getLogger("inference_atlas").info)


@cli.command()
def migrate() -> None:
    """Upgrade the database to the newest schema, then seed it if it is empty."""
    _prepare(Settings())


def _prepare(settings: Settings, say: Callable[[str], object] = typer.echo) -> None:
    with _database(settings) as engine:
        _prepare_engine(engine, settings, say)


def _prepare_engine(
    engine: Engine, settings: Settings, say: Callable[[str], object] = typer.echo
) -> None:
    """Migrate the database and seed it if it is empty, saying what was done (`serve` and
    `migrate` do it, and so do the commands that write to a database a team may have just
    created: `import-results`, the user and token commands)."""
    try:
        done = prepare_database(engine, settings.seed_dir)
    except SeedError as exc:
        _refuse(str(exc))
    except SchemaError as exc:
        _refuse(str(exc), "Nothing was changed.")
    step = done.migration
    if step.rebuilt:
        say(
            f"The database predates migrations (it held only seed data): dropped and rebuilt "
            f"{len(step.rebuilt)} tables."
        )
    if step.before != step.after:
        say(f"Migrated the database from {step.before or 'empty'} to {step.after}.")
    else:
        say(f"The database is at the newest schema ({step.after}).")
    if done.seeded:
        say(f"Seeded the empty database from {settings.seed_dir}.")


def _quiet_unless_changed(message: str) -> None:
    """Report a migration or seeding on stderr; stay silent when the schema was current."""
    if not message.startswith("The database is at the newest schema"):
        typer.echo(message, err=True)


@contextmanager
def _database(settings: Settings) -> Iterator[Engine]:
    """The configured database for one command, closed after it; a write that waited too
    long for another writer ends the command with a word rather than a traceback."""
    engine = make_engine(settings.database_url, **settings.engine_options())
    try:
        yield engine
    except OperationalError as exc:
        _locked(exc)
    finally:
        engine.dispose()


def _locked(exc: OperationalError) -> NoReturn:
    """Another writer held the database past the busy timeout: say so, without a traceback."""
    if "locked" not in str(exc.orig):
        raise exc
    seconds = Settings().sqlite_busy_timeout_ms / 1000
    _refuse(
        f"The database stayed locked by another writer for {seconds:g} s.",
        "Nothing was written; run the command again when the other write is done.",
    )


@cli.command()
def seed(
    seed_dir: Annotated[Path | None, typer.Option(help="Seed folder (default: seed/)")] = None,
) -> None:
    """Validate the seed files, then bring the published data up to them in one transaction."""
    settings = Settings()
    with _database(settings) as engine:
        try:
            data, report = migrate_and_seed(engine, seed_dir or settings.seed_dir)
        except SeedError as exc:
            _refuse(str(exc))
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


@cli.command()
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


@cli.command()
def export(out_dir: Path) -> None:
    """Back up the database under OUT_DIR: the published data as seed files, and the team's
    data, users and history as team.json (secret: it holds password hashes)."""
    settings = Settings()
    engine = make_engine(settings.database_url, **settings.engine_options())
    try:
        done = export_backup(engine, out_dir)
    except BackupError as exc:
        _refuse(str(exc))
    finally:
        engine.dispose()
    held = describe_counts(done.counts)
    typer.echo(f"Wrote {done.seed_files} seed files and {TEAM_FILE} ({held}) to {out_dir}.")
    typer.echo(f"{TEAM_FILE} holds password and token hashes: keep it as secret as the database.")


@cli.command("import")
def restore(
    directory: Annotated[Path, typer.Argument(metavar="DIR")],
    replace: Annotated[
        bool,
        typer.Option(
            "--replace", help="Replace a database that holds team data or users (all of it)."
        ),
    ] = False,
) -> None:
    """Restore a backup that `export` wrote into DIR: migrate, load DIR's seed files (the
    configured seed folder if DIR has none), then the team's data, users and history, all in
    one transaction."""
    settings = Settings()
    with _database(settings) as engine:
        try:
            done = restore_backup(engine, directory, settings.seed_dir, replace=replace)
        except (BackupError, SeedError, SchemaError) as exc:
            _refuse(str(exc))
        except NotEmptyError as exc:
            _refuse(str(exc), "Nothing was imported.")
    step = done.migration
    if step.before != step.after:
        typer.echo(f"Migrated the database from {step.before or 'empty'} to {step.after}.")
    if done.replaced:
        typer.echo(f"Replaced what the database held ({describe_counts(done.replaced)}).")
    typer.echo(f"Loaded the published data from {done.seed_dir}.")
    typer.echo(f"Restored {describe_counts(done.counts)} from {directory / TEAM_FILE}.")
    typer.echo("Browser sign-ins are not in a backup: everyone signs in again.")


# Accounts ----------------------------------------------------------------------------------


@contextmanager
def _accounts() -> Iterator[Session]:
    """One write transaction for a user or token command; a refusal writes nothing."""
    settings = Settings()
    with _database(settings) as engine:
        # A new database is migrated and seeded first, as `serve` would (said on stderr).
        _prepare_engine(engine, settings, _quiet_unless_changed)
        try:
            # Not expiring on commit: the commands print what they wrote after it is committed.
            with Session(writer(engine), expire_on_commit=False) as session, session.begin():
                yield session
        except accounts.AccountError as exc:
            _refuse("\n".join(exc.problems.values()))
        except SchemaError as exc:
            _refuse(str(exc))


def _read_password(name: str, from_stdin: bool) -> str:
    """The new password: one line of standard input, or typed twice at a terminal. Never an
    argument: arguments show in `ps` and in shell history."""
    if from_stdin:
        lines = sys.stdin.read().splitlines()
        if len(lines) > 1:
            _refuse("Standard input holds more than one line; give the password alone.")
        password = lines[0] if lines else ""
    elif sys.stdin.isatty():
        password = typer.prompt("Password", hide_input=True, confirmation_prompt=True)
    else:
        _refuse("Give --password-stdin to read the password from standard input.")
    if problem := password_problem(password, name):
        _refuse(problem)
    return password


def _refuse(message: str, unchanged: str = "Nothing was written.") -> NoReturn:
    """Say on standard error what is wrong (`message`, when there is one) and that nothing
    changed, and exit with status 1."""
    if message:
        typer.echo(message, err=True)
    typer.echo(unchanged, err=True)
    raise typer.Exit(code=1)


PasswordStdin = Annotated[
    bool, typer.Option("--password-stdin", help="Read the password from standard input.")
]


@users.command("add")
def user_add(
    name: str,
    role: Annotated[Role, typer.Option(help="What the user may do.")] = Role.viewer,
    password_stdin: PasswordStdin = False,
) -> None:
    """Add a user who signs in with NAME and a password."""
    password = _read_password(name, password_stdin)
    with _accounts() as session:
        user = accounts.add_user(session, name, role.value, password)
    typer.echo(f"Added {user.name} ({user.role}).")


@users.command("list")
def user_list() -> None:
    """Every user, their role and status, live sessions and tokens."""
    with _accounts() as session:
        rows = accounts.list_users(session)
    if not rows:
        typer.echo("No users yet: add one with inference-atlas user add NAME --role admin.")
        return
    table = [("NAME", "ROLE", "STATUS", "SESSIONS", "TOKENS", "ADDED")] + [
        (u.name, u.role, "disabled" if u.disabled else "active", str(u.sessions), str(u.tokens),
         u.created_at.strftime("%Y-%m-%d"))
        for u in rows
    ]  # fmt: skip
    _print_table(table)


@users.command("set-role")
def user_set_role(name: str, role: Role) -> None:
    """Change what a user may do."""
    with _accounts() as session:
        user = accounts.set_role(session, name, role.value)
    typer.echo(f"{user.name} is now {user.role}.")


@users.command("disable")
def user_disable(name: str) -> None:
    """Stop a user signing in: ends their browser sessions and revokes their API tokens."""
    with _accounts() as session:
        ended, revoked = accounts.disable_user(session, name)
    typer.echo(
        f"Disabled {accounts.normalise_name(name)}: {_count(ended, 'browser session')} ended, "
        f"{_count(revoked, 'API token')} revoked."
    )


@users.command("enable")
def user_enable(name: str) -> None:
    """Let a disabled user sign in again (their old tokens stay revoked)."""
    with _accounts() as session:
        user = accounts.enable_user(session, name)
    typer.echo(f"{user.name} can sign in again.")


@users.command("set-password")
def user_set_password(name: str, password_stdin: PasswordStdin = False) -> None:
    """Give a user a new password; their browser sessions end."""
    password = _read_password(name, password_stdin)
    with _accounts() as session:
        ended = accounts.set_password(session, name, password)
    who = accounts.normalise_name(name)
    typer.echo(f"Changed the password of {who}; {_count(ended, 'browser session')} ended.")


@tokens.command("add")
def token_add(
    user: Annotated[str, typer.Option("--user", help="Whose token: it acts with their role.")],
    expires: Annotated[
        int | None, typer.Option("--expires", help="Days until it stops working (default: never).")
    ] = None,
    label: Annotated[str | None, typer.Option(help="What the token is for.")] = None,
) -> None:
    """Make an API token. It is printed once, on standard output; only its hash is kept."""
    with _accounts() as session:
        token, raw = accounts.add_token(session, user, expires, label)
    until = token.expires_at.strftime("%Y-%m-%d %H:%M UTC") if token.expires_at else "never"
    typer.echo(
        f"Token {token.id} for {accounts.normalise_name(user)} (expires: {until}). "
        "It is shown this once: store it now.",
        err=True,
    )
    typer.echo(raw)


@tokens.command("list")
def token_list(
    user: Annotated[str | None, typer.Option("--user", help="Only this user's tokens.")] = None,
) -> None:
    """Every token: id, owner, label, first characters, dates and status."""
    with _accounts() as session:
        rows = accounts.list_tokens(session, user)
    if not rows:
        typer.echo("No API tokens.")
        return
    now = utcnow()
    table = [("ID", "USER", "LABEL", "STARTS", "CREATED", "EXPIRES", "STATUS")] + [
        (str(t.id), t.user, t.label or "-", t.prefix + "…", t.created_at.strftime("%Y-%m-%d"),
         t.expires_at.strftime("%Y-%m-%d") if t.expires_at else "never", t.status(now))
        for t in rows
    ]  # fmt: skip
    _print_table(table)


@tokens.command("revoke")
def token_revoke(token_id: Annotated[int, typer.Argument(metavar="ID")]) -> None:
    """Stop a token working at once."""
    with _accounts() as session:
        token = accounts.revoke_token(session, token_id)
        revoked_at = token.revoked_at
    typer.echo(f"Token {token_id} revoked ({revoked_at:%Y-%m-%d %H:%M} UTC).")


def _text(help_text: str, *names: str) -> Any:
    return typer.Option(*names, help=help_text)


@cli.command("import-results")
def import_results(
    files: Annotated[
        list[Path],
        typer.Argument(
            metavar="FILE...",
            help="Result files; a directory (a sweep's output folder) or a zip/tar archive "
            "is imported as one sweep of all the result files in it.",
        ),
    ],
    system: Annotated[str | None, _text("The inference server measured (slug).")] = None,
    hardware: Annotated[str | None, _text("The accelerator it ran on (slug or alias).")] = None,
    gpus: Annotated[int | None, typer.Option(min=1, help="How many of them.")] = None,
    precision: Annotated[str | None, _text("The weights' precision: FP8, BF16, Q4_K_M…")] = None,
    system_version: Annotated[str | None, _text("The server's version.")] = None,
    model: Annotated[str | None, _text("The model, slug or alias (else the file's).")] = None,
    workload: Annotated[str | None, _text("The workload (slug or alias), if one fits.")] = None,
    user: Annotated[str | None, _text("The editor the results are attributed to.")] = None,
    file_format: Annotated[str | None, _text(FORMAT_HELP, "--format")] = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Show what would be saved.")] = False,
) -> None:
    """Import benchmark result files as the team's results: all of them, or (on any problem)
    none. Shows what each file holds first; asks only for context no file gives."""
    from app.importers import ParsedFile, ResultFileError
    from app.writes import imports
    from app.writes.common import TeamError

    context = imports.ImportContext.model_validate(
        {"system": system, "hardware": hardware, "gpus": gpus, "precision": precision,
         "system_version": system_version, "model": model, "workload": workload}
    )  # fmt: skip
    read: list[tuple[bytes, ParsedFile]] = []
    big = sum(f.stat().st_size for f in files if f.is_file()) > 5 * 1024 * 1024
    with typer.progressbar(files, label="Reading", file=sys.stderr, hidden=not big) as bar:
        for path in bar:
            try:
                read.append(_read_results(path, file_format))
            except OSError as exc:
                _refuse_import(f"{path}: {exc.strerror or exc}")
            except ResultFileError as exc:
                _refuse_import(str(exc))
    settings = Settings()
    engine = make_engine(settings.database_url, **settings.engine_options())
    try:
        # A new database is migrated and seeded first: its systems, hardware and metrics are
        # what every imported result refers to.
        _prepare_engine(engine, settings, _quiet_unless_changed)
        with Session(writer(engine), expire_on_commit=False) as session, session.begin():
            who = _editor(session, user)
            missing: dict[str, str] = {}
            for _, parsed in read:
                found = imports.build_preview(session, parsed, context)["problems"]
                missing |= {k: v for k, v in found.items() if k in imports.CONTEXT_FIELDS}
            if missing and sys.stdin.isatty():
                answers = {
                    name: typer.prompt(f"{name} ({question})") for name, question in missing.items()
                }
                context = context.model_copy(update=answers)
            previews = [imports.preview_parsed(session, who, parsed, data, context)
                        for data, parsed in read]  # fmt: skip
            for preview in previews:
                _show_preview(preview.document)
            problems = [(pv.document["file"], k, v) for pv in previews
                        for k, v in pv.document["problems"].items()]  # fmt: skip
            if problems:
                for name, field, message in problems:
                    flag = (
                        f" (give --{field.replace('_', '-')})"
                        if field in imports.CONTEXT_FIELDS
                        else ""
                    )
                    typer.echo(f"{name}: {field}: {message}{flag}", err=True)
                _refuse_import("")
            if dry_run:
                session.rollback()
                typer.echo("Dry run: nothing was saved.")
                return
            total = 0
            for preview in previews:
                done = imports.confirm_import(session, who, preview.key, settings.atlas_team_name)
                total += len(done["saved"])
        typer.echo(f"Saved {total} results from {len(previews)} files as {who.name}.")
    except TeamError as exc:
        for name, message in exc.problems.items():
            typer.echo(f"{name}: {message}", err=True)
        _refuse_import("")
    except OperationalError as exc:
        _locked(exc)
    finally:
        engine.dispose()


def _read_results(path: Path, file_format: str | None) -> tuple[bytes, "ParsedFile"]:
    """One file, or every file under a directory / in an archive read as one sweep; the bytes
    returned are what the import's checksum is taken over."""
    from app.importers import (
        MAX_SET_FILES,
        ResultFileError,
        is_archive,
        parse_result_file,
        parse_result_set,
        read_limited,
        unpack_archive,
    )

    if path.is_dir():
        found = sorted(p for p in path.rglob("*") if p.is_file() and not _hidden(p, path))
        if len(found) > MAX_SET_FILES:
            message = f"it holds {len(found):,} files; one import takes at most {MAX_SET_FILES}"
            raise ResultFileError(str(path), message, kind="too-many-runs")
        entries = []
        for item in found:
            with item.open("rb") as stream:
                entries.append((item.relative_to(path).as_posix(), read_limited(stream, item.name)))
        parsed = parse_result_set(path.name, entries, file_format)
        return _manifest(entries), parsed
    with path.open("rb") as stream:
        data = read_limited(stream, path.name)
    if is_archive(data):
        return data, parse_result_set(path.name, unpack_archive(path.name, data), file_format)
    return data, parse_result_file(path.name, data, file_format)


def _hidden(item: Path, root: Path) -> bool:
    return any(part.startswith(".") for part in item.relative_to(root).parts)


def _manifest(entries: list[tuple[str, bytes]]) -> bytes:
    """What identifies a directory's contents: each file's name and checksum."""
    import hashlib

    return "".join(
        f"{name}\t{hashlib.sha256(data).hexdigest()}\n" for name, data in entries
    ).encode()


@cli.command("export-llmd-report")
def export_llmd_report(
    import_id: Annotated[str, typer.Argument(metavar="IMPORT_ID", help="A saved import's id.")],
    run: Annotated[int | None, typer.Option(help="Only the run at this place (0-based).")] = None,
    out: Annotated[Path | None, typer.Option(help="Write here instead of stdout.")] = None,
) -> None:
    """Write a saved import (a team sweep) as llm-d Benchmark Reports v0.2 (a JSON list, or
    one report with --run), for llm-d-benchmark and Prism."""
    import json

    from app.queries.imports import llmd_reports

    with _database(Settings()) as engine, Session(engine) as session:
        try:
            reports = llmd_reports(session, import_id, run)
        except LookupError as exc:
            _refuse(str(exc), "Nothing was written.")
    text = json.dumps(reports[0] if run is not None else reports, indent=2) + "\n"
    if out is None:
        typer.echo(text, nl=False)
    else:
        out.write_text(text)
        typer.echo(f"Wrote {len(reports)} report{'s' if len(reports) != 1 else ''} to {out}.")


def _refuse_import(message: str) -> NoReturn:
    _refuse(message, "Nothing was saved.")


def _editor(session: Session, name: str | None) -> accounts.SignedIn:
    """The account imported results are attributed to: an active editor or admin."""
    if name is None:
        _refuse_import("--user: name the editor or admin the results are attributed to")
    found = accounts.get_user(session, name)
    if found is None or found.disabled or found.id is None:
        _refuse_import(f"--user: there is no active user called {accounts.normalise_name(name)!r}")
    if not Role(found.role).rank >= Role.editor.rank:
        _refuse_import(f"--user: {found.name} is a viewer; results need an editor or admin")
    return accounts.SignedIn(found.id, found.name, Role(found.role), "command line", "")


def _show_preview(document: "ImportDoc") -> None:
    typer.echo(f"{document['file']}: {document['format_title']}, {len(document['runs'])} runs")
    columns = ("RUN", "LOAD", "MODEL", "HARDWARE", "PRECISION", "OUT TOK/S", "TTFT MS",
               "TPOT MS", "TOK/S/USER")  # fmt: skip
    rows = [columns]
    for run in document["runs"]:
        setup, metrics = run["setup"], run["metrics"]
        load = "-"
        if setup.get("concurrency"):
            load = f"{setup['concurrency']} concurrent"
        elif setup.get("request_rate"):
            load = f"{setup['request_rate']:g} req/s"
        rows.append((
            run["where"], load, str(setup.get("model", "?"))[:40],
            f"{setup['gpus']}× {setup['hardware']}" if setup.get("gpus") and setup.get("hardware")
            else str(setup.get("hardware", "?")),
            str(setup.get("precision", "?")),
            _figure(metrics, "output_throughput", "generation_tok_s"),
            _figure(metrics, "ttft_mean"), _figure(metrics, "tpot_mean"),
            _figure(metrics, "output_throughput_per_user"),
        ))  # fmt: skip
    _print_table(rows)
    for note in document["notes"]:
        typer.echo(f"  note: {note}")


def _figure(metrics: dict[str, float], *keys: str) -> str:
    return next((f"{metrics[k]:,.1f}" for k in keys if k in metrics), "-")


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'s' if n != 1 else ''}"


def _print_table(rows: Sequence[Sequence[str]]) -> None:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        typer.echo("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())


def main() -> None:
    cli()
