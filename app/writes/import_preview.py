"""An import's preview, built from the parsed runs: each run's context (what the uploader
gave, else what the file says), the team results it would save, checked against the write
API's own rules, and what is missing or wrong. Reads only; writes/imports.py keeps the
preview and confirms it.

The parsed runs are kept in the preview as JSON (`run_record`), so the context can be
changed later without the file.
"""

import datetime as dt
from collections.abc import Mapping
from dataclasses import fields
from typing import Any, Final, cast

from pydantic import Field, ValidationError
from sqlmodel import Session

from app.importers import AtlasFigure, ParsedFile, ParsedRun, atlas_figures
from app.importers.runs import TOOLS
from app.queries.entries import vocabulary_names
from app.seeding.schema import OptionalText, Slug, Strict
from app.vocabulary.names import Names, api_listing, canonical_precision
from app.writes.documents import PreviewDoc, RunPreview, RunSetup
from app.writes.inputs import Concurrency, TeamResultIn
from app.writes.team import result_problems

MAX_IMPORT_RUNS = 1000
"""Runs saved by one import (each gives up to about fifteen results, each with a revision)."""
# The system a file establishes by itself: llama-bench measures llama.cpp and nothing else.
ENGINE_SYSTEMS = {"llama-bench": "llama-cpp"}
RUN_ENGINES = {"sglang": "sglang", "vllm": "vllm", "llama.cpp": "llama-cpp"}
PARSED: Final = "parsed"  # the preview's key for the parsed runs, kept so the context can change


class ImportContext(Strict):
    """What the uploader says about the runs; a field left empty is taken from the file."""

    system: Slug | None = None
    hardware: OptionalText = Field(
        default=None, description="A hardware slug or alias (GET /api/v1/hardware)"
    )
    gpus: Concurrency = Field(default=None, description="GPUs the run used")
    precision: OptionalText = None
    system_version: OptionalText = None
    model: OptionalText = Field(
        default=None, description="A model slug or alias (GET /api/v1/models)"
    )
    workload: OptionalText = Field(
        default=None, description="A workload slug or alias (GET /api/v1/workloads)"
    )


CONTEXT_FIELDS = tuple(ImportContext.model_fields)


def build_preview(session: Session, parsed: ParsedFile, context: ImportContext) -> PreviewDoc:
    """The runs, the results they would give, and what is missing or wrong (by field)."""
    problems: dict[str, str] = {}
    if len(parsed.runs) > MAX_IMPORT_RUNS:
        problems["file"] = (
            f"{len(parsed.runs)} runs in one file; at most {MAX_IMPORT_RUNS} are imported at "
            "once: split the file"
        )
        runs: tuple[ParsedRun, ...] = ()
    else:
        runs = parsed.runs
    previews, results, owners = [], [], []
    unsaved: list[str] = []
    names = vocabulary_names(session)
    for run in runs:
        setup, missing = _setup(parsed, run, context, names)
        for name, message in missing.items():
            problems.setdefault(name, message)
        figures = atlas_figures(run)
        if not figures:
            # Shown, not saved; one such run (llama-bench's pp512+tg128) keeps no other back.
            unsaved.append(f"{run.source}: no metric the Atlas keeps was measured; not saved")
        previews.append(_run_preview(run, setup, figures))
        if missing:
            continue
        for figure in figures:
            try:
                result = TeamResultIn(
                    system=setup["system"],
                    metric=figure.metric,
                    value=round(figure.value, 6),
                    unit=figure.unit,
                    hardware=setup.get("hardware"),
                    gpus=setup.get("gpus"),
                    model=setup.get("model"),
                    precision=setup.get("precision"),
                    concurrency=setup.get("concurrency"),
                    workload=setup.get("workload"),
                    setup=setup.get("setup"),
                    system_version=setup.get("system_version"),
                    date=setup.get("date"),
                    note=_note(parsed, run, figure.derived),
                )
            except ValidationError as exc:
                for error in exc.errors():
                    field = ".".join(str(p) for p in error["loc"])
                    problems.setdefault(field, f"{run.source}: {error['msg']}")
                continue
            results.append(result)
            owners.append(run.index)
    if runs and not results and not problems:
        problems["file"] = "no run in the file measured a metric the Atlas keeps: nothing to save"
    if results and not problems:
        for name, message in result_problems(session, results).items():
            index, _, field = name.partition(".")
            which = owners[int(index.strip("[]"))] if field else owners[0]
            where = runs[which].source  # "" for a file of one run
            problems.setdefault(field or name, f"{where}: {message}" if where else message)
    return {
        # The runs as parsed, so the context can be changed without the file (never shown).
        PARSED: {
            "name": parsed.name,
            "notes": list(parsed.notes),
            "runs": [run_record(run) for run in runs],
        },
        "format": parsed.format,
        "format_title": TOOLS[parsed.format],
        "notes": [*parsed.notes, *unsaved],
        "runs": previews,
        "results": [r.model_dump(exclude_none=True) for r in results],
        "result_runs": owners,
        "problems": problems,
        "ready": bool(results) and not problems,
    }


def run_record(run: ParsedRun) -> dict[str, Any]:
    """A parsed run as JSON (what `run_from_record` reads back)."""
    record: dict[str, Any] = {}
    for item in fields(run):
        value = getattr(run, item.name)
        if isinstance(value, dt.datetime):
            value = value.isoformat()
        elif isinstance(value, Mapping):
            value = dict(value)
        elif isinstance(value, tuple):
            value = list(value)
        record[item.name] = value
    return record


def run_from_record(record: dict[str, Any]) -> ParsedRun:
    values = dict(record)
    if values.get("measured_at"):
        values["measured_at"] = dt.datetime.fromisoformat(values["measured_at"])
    for name in ("derived", "notes"):
        values[name] = tuple(values.get(name) or ())
    return ParsedRun(**values)


def _setup(
    parsed: ParsedFile, run: ParsedRun, context: ImportContext, names: dict[str, Names]
) -> tuple[RunSetup, dict[str, str]]:
    """The run's context: the uploader's value, else the file's; and what is still missing
    or wrong. Hardware, model and workload are vocabulary slugs: a name the file gives is
    looked up among the entries' names and, when it is none of them, asked for, never guessed.
    """
    given = context.model_dump(exclude_none=True)
    engine_system = ENGINE_SYSTEMS.get(parsed.format) or RUN_ENGINES.get(run.engine or "")
    model = run.model.removeprefix("./") if run.model else None
    setup: dict[str, Any] = {
        "system": given.get("system") or engine_system,
        "gpus": given.get("gpus") or run.gpu_count or run.tensor_parallel,
        "precision": _precision(given.get("precision") or run.precision),
        "system_version": given.get("system_version") or run.engine_version,
        "concurrency": run.concurrency,
        "request_rate": run.request_rate,
        "request_rate_unlimited": run.request_rate_unlimited,
        "setup": _setup_line(parsed, run),
        "date": run.measured_at.date().isoformat() if run.measured_at else None,
        "input_tokens": run.configured_input_tokens or _rounded(run.mean_input_tokens),
        "output_tokens": run.configured_output_tokens or _rounded(run.mean_output_tokens),
    }
    problems: dict[str, str] = {}
    in_file = {"hardware": run.gpu_name, "model": model, "workload": None}
    for kind, from_file in in_file.items():
        slug, problem = _entry(names[kind], given.get(kind), from_file)
        setup[kind] = slug
        if from_file:
            setup[f"{kind}_in_file"] = from_file  # shown beside the entry, kept with the run
        if problem:
            problems[kind] = problem
    asks: dict[str, str] = {
        "system": "which inference server ran it? the file does not say",
        "hardware": "which hardware ran it? the file does not name the GPU",
        "precision": "which precision were the weights in? the file does not say",
    }
    for name, question in asks.items():
        if not setup[name] and name not in problems:
            problems[name] = question
    # Keys named in a loop (`hardware_in_file`): mypy cannot see that they make a RunSetup.
    return cast(RunSetup, {k: v for k, v in setup.items() if v not in (None, False)}), problems


def _entry(names: Names, given: str | None, from_file: str | None) -> tuple[str | None, str | None]:
    """(the slug, or what is wrong) for the name the uploader gave, else the file's."""
    listing = api_listing(names.kind)
    if given:
        slug = names.resolve(given)
        return (slug, None) if slug else (None, names.unknown(given, listing))
    if not from_file:
        return None, None
    # A Hugging Face id or a path names the model by its last part ("meta-llama/Llama-3.1-8B",
    # "models/llama-2-7b.Q4_0.gguf"); the whole name is tried first, as an alias may hold it.
    last = from_file.rsplit("/", 1)[-1]
    for candidate in (from_file, last, last.removesuffix(".gguf")):
        slug = names.resolve(candidate)
        if slug:
            return slug, None
    close = names.suggest(last, by_words=True)
    hint = f"did you mean {', '.join(close)}?" if close else f"choose {listing}"
    return None, (
        f"the file names the {names.kind} {from_file!r}, which is not an entry of the "
        f"Atlas's vocabulary: say which entry it is ({hint}; unlisted-{names.kind} if none is)"
    )


def _setup_line(parsed: ParsedFile, run: ParsedRun) -> str:
    """The run's setup in a few words, from the file's own settings."""
    parts = [run.test] if run.test else []
    if run.dataset:
        parts.append(f"{run.dataset} prompts")
    inputs = run.configured_input_tokens or _rounded(run.mean_input_tokens)
    outputs = run.configured_output_tokens or _rounded(run.mean_output_tokens)
    if inputs and outputs and not run.test:
        parts.append(f"~{inputs} in / {outputs} out tokens")
    if run.concurrency:
        parts.append(f"{run.concurrency} concurrent")
    elif run.request_rate:
        parts.append(f"{run.request_rate:g} req/s")
    elif run.request_rate_unlimited:
        parts.append("all requests at once")
    return f"{TOOLS[parsed.format].split(' (')[0]}: {', '.join(parts) or 'as run'}"


def _note(parsed: ParsedFile, run: ParsedRun, derived: bool) -> str:
    note = f"Imported from {parsed.name} ({run.source})"
    return note + "; derived as 1000 / mean TPOT" if derived else note


def _precision(text: str | None) -> str | None:
    """One spelling ("fp8" is FP8), so runs of one setup meet in one curve and context."""
    return canonical_precision(text) if text else None


def _rounded(value: float | None) -> int | None:
    return round(value) if value else None


def _run_preview(run: ParsedRun, setup: RunSetup, figures: list[AtlasFigure]) -> RunPreview:
    return {
        "index": run.index,
        "where": run.source,
        "setup": setup,
        "figures": [
            {"metric": f.metric, "value": f.value, "unit": f.unit, "derived": f.derived}
            for f in figures
        ],
        "metrics": dict(run.metrics),
        "raw": dict(run.raw),
        "notes": list(run.notes),
    }
