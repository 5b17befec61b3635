"""Team results from the command line: import-results reads benchmark result files (a file,
a sweep's folder or an archive) and saves them through the import write path;
export-llmd-report writes a saved import back out as llm-d Benchmark Reports."""

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from sqlalchemy.exc import OperationalError
from sqlmodel import Session

from app.accounts import users as accounts
from app.accounts.models import Role
from app.cli.common import (
    database,
    locked,
    prepare_engine,
    print_table,
    quiet_unless_changed,
    refuse,
)
from app.db import make_engine, writer
from app.settings import Settings

if TYPE_CHECKING:  # the import commands load the writes themselves, when they run
    from app.importers import ParsedFile
    from app.writes.documents import ImportDoc

FORMAT_HELP = "Skip detection: vllm-bench, sglang-bench, llama-bench, genai-perf, aiperf, guidellm."


def _text(help_text: str, *names: str) -> Any:
    return typer.Option(*names, help=help_text)


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
        {
            "system": system,
            "hardware": hardware,
            "gpus": gpus,
            "precision": precision,
            "system_version": system_version,
            "model": model,
            "workload": workload,
        }
    )
    read: list[tuple[bytes, ParsedFile]] = []
    big = sum(f.stat().st_size for f in files if f.is_file()) > 5 * 1024 * 1024
    with typer.progressbar(files, label="Reading", file=sys.stderr, hidden=not big) as bar:
        for path in bar:
            try:
                read.append(_read_results(path, file_format))
            except OSError as exc:
                refuse_import(f"{path}: {exc.strerror or exc}")
            except ResultFileError as exc:
                refuse_import(str(exc))
    settings = Settings()
    engine = make_engine(settings.database_url, **settings.engine_options())
    try:
        # A new database is migrated and seeded first: its systems, hardware and metrics are
        # what every imported result refers to.
        prepare_engine(engine, settings, quiet_unless_changed)
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
            previews = [
                imports.preview_parsed(session, who, parsed, data, context) for data, parsed in read
            ]
            for preview in previews:
                _show_preview(preview.document)
            problems = [
                (pv.document["file"], k, v)
                for pv in previews
                for k, v in pv.document["problems"].items()
            ]
            if problems:
                for name, field, message in problems:
                    flag = (
                        f" (give --{field.replace('_', '-')})"
                        if field in imports.CONTEXT_FIELDS
                        else ""
                    )
                    typer.echo(f"{name}: {field}: {message}{flag}", err=True)
                refuse_import("")
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
        refuse_import("")
    except OperationalError as exc:
        locked(exc)
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


def export_llmd_report(
    import_id: Annotated[str, typer.Argument(metavar="IMPORT_ID", help="A saved import's id.")],
    run: Annotated[int | None, typer.Option(help="Only the run at this place (0-based).")] = None,
    out: Annotated[Path | None, typer.Option(help="Write here instead of stdout.")] = None,
) -> None:
    """Write a saved import (a team sweep) as llm-d Benchmark Reports v0.2 (a JSON list, or
    one report with --run), for llm-d-benchmark and Prism."""
    import json

    from app.present.llmd_report import llmd_reports
    from app.queries.imports import saved_runs

    with database(Settings()) as engine, Session(engine) as session:
        try:
            reports = llmd_reports(saved_runs(session, import_id, run))
        except LookupError as exc:
            refuse(str(exc), "Nothing was written.")
    text = json.dumps(reports[0] if run is not None else reports, indent=2) + "\n"
    if out is None:
        typer.echo(text, nl=False)
    else:
        out.write_text(text)
        typer.echo(f"Wrote {len(reports)} report{'s' if len(reports) != 1 else ''} to {out}.")


def refuse_import(message: str) -> NoReturn:
    refuse(message, "Nothing was saved.")


def _editor(session: Session, name: str | None) -> accounts.SignedIn:
    """The account imported results are attributed to: an active editor or admin."""
    if name is None:
        refuse_import("--user: name the editor or admin the results are attributed to")
    found = accounts.get_user(session, name)
    if found is None or found.disabled or found.id is None:
        refuse_import(f"--user: there is no active user called {accounts.normalise_name(name)!r}")
    if not Role(found.role).rank >= Role.editor.rank:
        refuse_import(f"--user: {found.name} is a viewer; results need an editor or admin")
    return accounts.SignedIn(found.id, found.name, Role(found.role), "command line", "")


def _show_preview(document: "ImportDoc") -> None:
    typer.echo(f"{document['file']}: {document['format_title']}, {len(document['runs'])} runs")
    columns = (
        "RUN",
        "LOAD",
        "MODEL",
        "HARDWARE",
        "PRECISION",
        "OUT TOK/S",
        "TTFT MS",
        "TPOT MS",
        "TOK/S/USER",
    )
    rows = [columns]
    for run in document["runs"]:
        setup, metrics = run["setup"], run["metrics"]
        load = "-"
        if setup.get("concurrency"):
            load = f"{setup['concurrency']} concurrent"
        elif setup.get("request_rate"):
            load = f"{setup['request_rate']:g} req/s"
        rows.append(
            (
                run["where"],
                load,
                str(setup.get("model", "?"))[:40],
                f"{setup['gpus']}× {setup['hardware']}"
                if setup.get("gpus") and setup.get("hardware")
                else str(setup.get("hardware", "?")),
                str(setup.get("precision", "?")),
                _figure(metrics, "output_throughput", "generation_tok_s"),
                _figure(metrics, "ttft_mean"),
                _figure(metrics, "tpot_mean"),
                _figure(metrics, "output_throughput_per_user"),
            )
        )
    print_table(rows)
    for note in document["notes"]:
        typer.echo(f"  note: {note}")


def _figure(metrics: dict[str, float], *keys: str) -> str:
    return next((f"{metrics[k]:,.1f}" for k in keys if k in metrics), "-")
