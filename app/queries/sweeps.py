"""Team sweeps: the runs of confirmed imports that measured one setup at several loads.

A point is one imported run: its per-user throughput (tok/s/user: the file's own figure,
or 1000 / mean TPOT) against its output throughput per GPU. Runs of one setup (system and
version, hardware, GPU count, precision) form a curve, whichever file or import they came
from; curves for one model and workload (input and output lengths) share a chart. Only
setups measured at two loads or more make a curve. See docs/charts.md.

Points come from the runs as imported (ImportRun: the file's numbers, normalised); a run
counts while the team still has at least one of the results it gave.
"""

import math
import statistics
from typing import Any

from sqlalchemy import select as sql_select
from sqlmodel import Session, col, exists

from app.measures.frontier import pareto_frontier
from app.measures.repeats import spread
from app.measures.service_level import joules_per_token
from app.models import BenchmarkResult, ImportBatch, ImportRun, Source
from app.params.benchmarks import BenchmarkParams, SweepParams
from app.queries.common import system_names
from app.queries.entries import vocabulary_choices
from app.queries.sweep_levels import ENERGY_ASSUMES, read_at_level, timelines, with_costs
from app.queries.sweep_models import (
    LevelView,
    RunRef,
    SweepChart,
    SweepCurve,
    SweepPage,
    SweepPoint,
)
from app.schemas import SourceRef
from app.writes.prices import prices

UNLISTED = "unlisted-"
UNLISTED_SEP = "|"
MAX_RUNS = 5000  # runs read, newest imports first
MAX_CHARTS = 6
MAX_CURVES = 8  # per chart: beyond that neither the colours nor the legend stay readable
MAX_POINTS = 48  # per curve
MAX_TIMELINES = 24
LENGTH_TOLERANCE = 0.1  # lengths within 10% are one workload (measured means: 511 and 512)
SWEEP_METRICS = ("throughput", "throughput-per-user", "tpot")
SINGLE = "measured at one load only (a curve needs two)"
Workload = tuple[str | None, int | None, int | None]  # model, input and output tokens


def shows_sweeps(params: BenchmarkParams) -> bool:
    """Whether /benchmarks, filtered so, has room for sweeps (all team-measured throughput)."""
    wanted = not params.metric or any(m in SWEEP_METRICS for m in params.metric)
    return params.origin != "published" and wanted


def team_sweeps(session: Session, filters: SweepParams) -> SweepPage:
    """The team's sweeps that pass `filters`, bounded, with what was left out and why."""
    rows = session.execute(_runs()).all()
    left_out: dict[str, int] = {}
    notes = (
        [f"only the newest {MAX_RUNS:,} imported runs were read"] if len(rows) > MAX_RUNS else []
    )
    names = {slug: name for slug, name in system_names(session).values()}
    points: list[tuple[dict[str, Any], SweepPoint]] = []
    for row in rows[:MAX_RUNS]:
        setup = row[0]
        if not _passes(setup, row[5], filters):
            continue
        point, missing = _point(setup, row[1], row[2:])
        if point is None:
            left_out[missing] = left_out.get(missing, 0) + 1
        else:
            points.append((setup, point))
    charts = _charts(points, names, left_out)
    # Runs name hardware and models by vocabulary slug (app/writes/imports.py); label by name.
    entries = {kind: dict(pairs) for kind, pairs in vocabulary_choices(session).items()}
    for chart in charts:
        chart.model_name = _entry_name(entries["model"], chart.model, chart.model_in_file)
        for curve in chart.curves:
            curve.hardware_name = _entry_name(
                entries["hardware"], curve.hardware, curve.hardware_in_file
            )
    level = filters.level()
    if level:
        for chart in charts:
            read_at_level(chart, level)
    cost_note = with_costs(charts, filters, prices(session))
    measured_power = any(p.gpu_watts for c in charts for curve in c.curves for p in curve.points)
    found = [t for chart in charts for t in timelines(chart, level)]
    found.sort(key=lambda t: (bool(t.note), t.system_name.lower()))
    return SweepPage(
        query=filters.query_string(),
        level=LevelView(**vars(level), description=level.describe()) if level else None,
        cost_note=cost_note,
        energy_note=ENERGY_ASSUMES if measured_power else "",
        timelines=found[:MAX_TIMELINES],
        charts=charts[:MAX_CHARTS],
        charts_left_out=max(len(charts) - MAX_CHARTS, 0),
        left_out=notes + [_plural(count, reason) for reason, count in left_out.items()],
    )


def _runs() -> Any:
    """Columns, not objects: a run's `raw` numbers (up to 250 a run) are never needed here."""
    batch, run = ImportBatch, ImportRun
    kept = exists().where(col(BenchmarkResult.import_run_id) == col(run.id))
    columns = (
        run.setup,
        run.metrics,
        batch.key,
        batch.file_name,
        run.location,
        Source.slug,
        Source.short,
        Source.title,
        Source.date,
        Source.kind,
    )
    return (
        sql_select(*map(col, columns))
        .join(batch, col(batch.id) == col(run.batch_id))
        .join(Source, col(Source.id) == col(batch.source_id))
        .where(col(batch.state) == "saved", kept)
        .order_by(col(batch.created_at).desc(), col(batch.id).desc(), col(run.position))
        .limit(MAX_RUNS + 1)
    )


def _passes(setup: dict[str, Any], source: str, f: SweepParams) -> bool:
    checks = (
        (f.system, setup.get("system")),
        (f.hardware, setup.get("hardware")),
        (f.model, setup.get("model")),
        (f.precision, setup.get("precision")),
        (f.source, source),
    )
    if any(allowed and value not in allowed for allowed, value in checks):
        return False
    concurrency = setup.get("concurrency")
    if f.cmin is not None and (concurrency is None or concurrency < f.cmin):
        return False
    return f.cmax is None or (concurrency is not None and concurrency <= f.cmax)


def _point(
    setup: dict[str, Any], metrics: dict[str, Any], where: tuple[Any, ...]
) -> tuple[SweepPoint | None, str]:
    """The run's point, or None and the reason it makes none."""
    output, tpot = metrics.get("output_throughput"), metrics.get("tpot_mean")
    per_user, gpus = metrics.get("output_throughput_per_user"), setup.get("gpus")
    if not output:
        return None, "lacked an output throughput"
    derived = 1000 / tpot if tpot else None
    # The parser fills in 1000 / mean TPOT when a file has no per-user figure of its own.
    if per_user and (derived is None or not math.isclose(per_user, derived, rel_tol=1e-9)):
        value, basis = float(per_user), "file"
    elif derived is not None:
        value, basis = derived, "tpot"
    else:
        return None, "lacked TPOT and a per-user throughput"
    if not gpus:
        return None, "had no GPU count (give one when importing)"
    key, file, location, slug, short, title, date, kind = where
    total = metrics.get("total_token_throughput")
    goodput, requests = metrics.get("request_goodput"), metrics.get("request_throughput")
    share = 100 * goodput / requests if goodput is not None and requests else None
    watts = metrics.get("gpu_power")
    return SweepPoint(
        load=_load(setup),
        concurrency=setup.get("concurrency"),
        request_rate=setup.get("request_rate"),
        per_user=value,
        per_user_from=basis,
        per_gpu=output / gpus,
        output_throughput=output,
        total_per_gpu=total / gpus if total else None,
        ttft_p99=metrics.get("ttft_p99"),
        tpot_p99=metrics.get("tpot_p99"),
        goodput=goodput,
        goodput_share=share,
        gpu_watts=watts,
        joules_per_output_token=joules_per_token(watts, output / gpus),
        import_id=key,
        file=file,
        where=location,
        source=SourceRef(slug=slug, short=short, title=title, date=date, kind=kind),
    ), ""


def _load(setup: dict[str, Any]) -> str:
    if setup.get("concurrency"):
        return f"{setup['concurrency']} concurrent"
    if setup.get("request_rate"):
        return f"{setup['request_rate']:g} req/s"
    return "all requests at once" if setup.get("request_rate_unlimited") else "load not stated"


SetupKey = tuple[Any, ...]  # (workload, system, system version, hardware, GPUs, precision)


def _charts(
    points: list[tuple[dict[str, Any], SweepPoint]], names: dict[str, str], left_out: dict[str, int]
) -> list[SweepChart]:
    """Points into curves, curves into charts, in the order first seen (newest first)."""
    workloads: list[Workload] = []
    curves: dict[SetupKey, list[SweepPoint]] = {}
    for setup, point in points:
        fields = ("system", "system_version", "hardware", "gpus", "precision")
        key = (_workload(workloads, setup), *(_named(setup, k) for k in fields))
        curves.setdefault(key, []).append(point)
    charts: dict[Workload, SweepChart] = {}
    for key, runs in curves.items():
        found = _merge_repeats(runs)  # repeats of one load are one point
        if len(found) < 2:
            left_out[SINGLE] = left_out.get(SINGLE, 0) + 1
            continue
        model, input_tokens, output_tokens = key[0]
        chart = charts.setdefault(
            key[0],
            SweepChart(
                model=_slug(model),
                model_in_file=_in_file(model),
                input_tokens=input_tokens,
                output_tokens=output_tokens,
                curves=[],
            ),
        )
        if len(chart.curves) < MAX_CURVES:
            chart.curves.append(_curve(key, found, names))
        else:
            chart.curves_left_out += 1
    for chart in charts.values():
        chart.curves.sort(key=lambda c: (c.system_name.lower(), c.label))
    return list(charts.values())


def _curve(key: SetupKey, found: list[SweepPoint], names: dict[str, str]) -> SweepCurve:
    _, system, version, hardware, gpus, precision = key
    merged = found
    return SweepCurve(
        system=system,
        system_name=str(names.get(system, system)),
        system_version=version,
        hardware=_slug(hardware),
        hardware_in_file=_in_file(hardware),
        gpus=gpus,
        precision=precision,
        points=_with_frontier(merged[:MAX_POINTS]),
        points_left_out=max(len(merged) - MAX_POINTS, 0),
    )


def _merge_repeats(found: list[SweepPoint]) -> list[SweepPoint]:
    """One point per load: the median of the runs at it, with their spread and count."""
    by_load: dict[tuple[Any, ...], list[SweepPoint]] = {}
    for point in found:
        by_load.setdefault((point.load, point.concurrency, point.request_rate), []).append(point)
    return [_merged(runs) for runs in by_load.values()]


def _merged(runs: list[SweepPoint]) -> SweepPoint:
    first = runs[0]  # the newest run: its file and source stand for the point
    refs = [RunRef(import_id=r.import_id, file=r.file, where=r.where) for r in runs]
    if len(runs) == 1:
        return first.model_copy(update={"runs": refs})
    per_gpu, per_user = spread([r.per_gpu for r in runs]), spread([r.per_user for r in runs])

    def median(name: str) -> float | None:
        values = [v for r in runs if (v := getattr(r, name)) is not None]
        return statistics.median(values) if values else None

    return first.model_copy(
        update={
            "per_gpu": per_gpu.median,
            "per_user": per_user.median,
            "n": per_gpu.n,
            "spread": per_gpu.kind,
            "per_gpu_low": per_gpu.low,
            "per_gpu_high": per_gpu.high,
            "per_user_low": per_user.low,
            "per_user_high": per_user.high,
            "output_throughput": median("output_throughput"),
            "total_per_gpu": median("total_per_gpu"),
            "ttft_p99": median("ttft_p99"),
            "tpot_p99": median("tpot_p99"),
            "goodput": median("goodput"),
            "goodput_share": median("goodput_share"),
            "gpu_watts": median("gpu_watts"),
            "joules_per_output_token": joules_per_token(median("gpu_watts"), per_gpu.median),
            "runs": refs,
        }
    )


def _workload(known: list[Workload], setup: dict[str, Any]) -> Workload:
    """The first known (model, input, output) this run's lengths are within 10% of; else new."""
    mine = (_named(setup, "model"), setup.get("input_tokens"), setup.get("output_tokens"))
    for workload in known:
        if workload[0] == mine[0] and _close(workload[1], mine[1]) and _close(workload[2], mine[2]):
            return workload
    known.append(mine)
    return mine


def _named(setup: dict[str, Any], field: str) -> Any:
    """A run's setup field; for an entry the vocabulary lacks (unlisted-hardware or -model),
    with the file's own name, so two models it does not list are not one curve."""
    value = setup.get(field)
    if isinstance(value, str) and value.startswith(UNLISTED) and setup.get(f"{field}_in_file"):
        return f"{value}{UNLISTED_SEP}{setup[f'{field}_in_file']}"
    return value


def _slug(key: str | None) -> str | None:
    return key.partition(UNLISTED_SEP)[0] if key else key


def _in_file(key: str | None) -> str | None:
    return key.partition(UNLISTED_SEP)[2] or None if key else None


def _entry_name(names: dict[str, str], slug: str | None, in_file: str | None) -> str | None:
    """'Llama 3.1 8B', or for an unlisted entry the file's name, said to be unlisted."""
    if in_file:
        return f"{in_file} (not in the vocabulary)"
    return names.get(slug, slug) if slug else None


def _close(a: int | None, b: int | None) -> bool:
    if a is None or b is None:
        return a is b
    return abs(a - b) <= LENGTH_TOLERANCE * max(a, b)


def _with_frontier(points: list[SweepPoint]) -> list[SweepPoint]:
    flags = pareto_frontier([(p.per_user, p.per_gpu) for p in points])
    marked = [p.model_copy(update={"on_frontier": f}) for p, f in zip(points, flags, strict=True)]
    return sorted(marked, key=lambda p: (p.per_user, p.per_gpu))


def _plural(count: int, reason: str) -> str:
    if reason == SINGLE:
        return f"{'1 setup was' if count == 1 else f'{count} setups were'} {reason}"
    return f"{'1 run' if count == 1 else f'{count} runs'} {reason}"
