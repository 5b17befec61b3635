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
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel, Field, computed_field
from sqlalchemy import select as sql_select
from sqlmodel import Session, col, exists

from app.measures.frontier import pareto_frontier
from app.measures.repeats import Spread, spread, within_noise
from app.measures.service_level import (
    Level,
    LevelPoint,
    at_level,
    cost_per_million,
    joules_per_token,
)
from app.measures.versions import VersionFigure, steps
from app.models import BenchmarkResult, ImportBatch, ImportRun, Source
from app.params.benchmarks import BenchmarkParams, SweepParams
from app.present.service_level import OFF_AXIS, chart_caption, point_label
from app.present.sweep_charts import SeriesInput, SweepDrawing, sweep_chart
from app.queries.benchmarks import version_key
from app.queries.common import system_names
from app.queries.entries import vocabulary_choices
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
X_LABEL, Y_LABEL = "Per-user throughput (tok/s/user)", "Throughput per GPU (tok/s/GPU)"


class RunRef(BaseModel):
    import_id: str
    file: str
    where: str


class SweepPoint(BaseModel):
    load: str  # "16 concurrent", "4.5 req/s", "all requests at once"
    concurrency: int | None
    request_rate: float | None
    per_user: float  # tok/s/user
    per_user_from: str  # "file", or "tpot" when it is 1000 / mean TPOT
    per_gpu: float  # output tok/s per GPU
    output_throughput: float  # tok/s, all GPUs
    total_per_gpu: float | None = None  # input and output tok/s per GPU, when the file gives it
    ttft_p99: float | None = None  # ms
    tpot_p99: float | None = None  # ms
    goodput: float | None = None  # requests/s that met the run's own goodput targets
    # Its share of the request throughput, in per cent: what a `goodput` level reads.
    goodput_share: float | None = None
    # Repeats: several runs of the setup at this load make one point of medians; the spread of
    # the per-GPU and per-user figures is min–max (two to four runs) or the IQR (five or more).
    n: int = 1
    spread: str = "one run"
    per_gpu_low: float | None = None
    per_gpu_high: float | None = None
    per_user_low: float | None = None
    per_user_high: float | None = None
    runs: list[RunRef] = []  # every run behind the point (one for a single run)
    # US dollars per million tokens at this load; None (never 0) without a price.
    cost_per_million_output_tokens: float | None = None
    cost_per_million_total_tokens: float | None = None
    # Energy, where the file carries GPU power (AIPerf/GenAI-Perf telemetry); None without it.
    gpu_watts: float | None = None  # mean board power per GPU that worked, W
    joules_per_output_token: float | None = None
    on_frontier: bool = False
    import_id: str
    file: str
    where: str  # the run's place in its file
    source: SourceRef


class NearestPoint(BaseModel):
    load: str
    per_gpu: float
    per_user: float | None
    ttft_p99: float | None
    tpot_p99: float | None
    goodput: float | None = None  # % of requests within the run's goodput targets


class AtLevel(BaseModel):
    """The curve at the page's service level (app/measures/service_level.py)."""

    per_gpu: float | None  # output tok/s per GPU, interpolated; None when not reached
    reached: bool
    between: list[str] | None  # the two measured loads it lies between
    note: str = ""  # why there is no figure
    nearest: NearestPoint | None = None  # when not reached: the closest measured load
    per_user: float | None = None  # where the interpolated point sits on the chart's x axis
    rank: int | None = None  # among curves of one hardware, model, precision and workload
    ranked_among: int = 0
    # With repeats at the bracketing loads, the spread interpolated the same way, and whether
    # it overlaps the spread of the curve ranked next to this one.
    per_gpu_low: float | None = None
    per_gpu_high: float | None = None
    within_noise: bool = False
    total_per_gpu: float | None = None  # input and output tok/s per GPU, interpolated alike
    cost_per_million_output_tokens: float | None = None
    cost_per_million_total_tokens: float | None = None
    # Power per GPU interpolated like the throughput, over the throughput there; None unless
    # both bracketing loads carry a power reading.
    joules_per_output_token: float | None = None
    # The target the figure is read at (several targets: the tightest), for the chart only:
    # it decides whether the interpolated point sits on the per-user line or needs a label
    # (app/present/service_level.py, OFF_AXIS).
    binding: str = Field(default="", exclude=True)


class PriceView(BaseModel):
    """The price behind a curve's costs, and what a cost assumes."""

    usd_per_gpu_hour: float
    basis: str
    given_in: str  # "the instance's price list" or "the URL (price=)"


class LevelView(BaseModel):
    per_user: float | None
    ttft_p99: float | None
    tpot_p99: float | None
    goodput: float | None = None  # % of requests within each run's own goodput targets
    description: str  # '≥ 50 tok/s/user'


class SweepCurve(BaseModel):
    system: str
    system_name: str
    system_version: str | None
    hardware: str | None  # a vocabulary slug
    hardware_in_file: str | None = None  # the file's name, for an unlisted-hardware entry
    hardware_name: str | None = None
    gpus: int
    precision: str | None
    points: list[SweepPoint]  # by per-user throughput
    points_left_out: int = 0
    at_level: AtLevel | None = None  # only when the page asks for a service level
    price: PriceView | None = None  # per GPU-hour, when one is set for the hardware

    @computed_field  # type: ignore[prop-decorator]
    @property
    def label(self) -> str:
        """'vLLM 0.10.1 · NVIDIA H100 ×8 · FP8'"""
        name = (
            f"{self.system_name} {self.system_version}" if self.system_version else self.system_name
        )
        hardware = self.hardware_name or self.hardware or "hardware not stated"
        parts = [name, f"{hardware} ×{self.gpus}"]
        return " · ".join(parts + ([self.precision] if self.precision else []))


class SweepChart(BaseModel):
    model: str | None  # a vocabulary slug
    model_in_file: str | None = None  # the file's name, for an unlisted-model entry
    model_name: str | None = None
    input_tokens: int | None
    output_tokens: int | None
    curves: list[SweepCurve]
    curves_left_out: int = 0

    @computed_field  # type: ignore[prop-decorator]
    @property
    def label(self) -> str:
        """'Llama 3.1 8B · ~1024 in / 512 out tokens'"""
        lengths = f"~{self.input_tokens or '?'} in / {self.output_tokens or '?'} out tokens"
        return f"{self.model_name or self.model or 'model not stated'} · {lengths}"


class TimelineEntry(BaseModel):
    version: str
    per_gpu: float | None  # at the level, or at the timeline's load
    per_gpu_low: float | None = None
    per_gpu_high: float | None = None
    n: int = 1  # runs behind the figure (at the level: the fewest at the two loads)
    change: float | None = None  # from the version before: +0.2 is 20% more per GPU
    threshold: float | None = None  # the spread (or 10% without repeats) a change must pass
    flag: str = ""  # "improvement", "regression", or "" (within the spread)
    note: str = ""  # why there is no figure


class Timeline(BaseModel):
    """One setup (system, hardware, GPU count, precision, model, workload) across versions."""

    system: str
    system_name: str
    setup: str  # 'NVIDIA H100 SXM5 80GB ×1 · FP8 · Llama 3.1 8B · ~1024 in / 511 out tokens'
    basis: str  # 'at the service level …' or 'at 64 concurrent, the heaviest load all ran'
    entries: list[TimelineEntry]  # in version order, oldest first
    note: str = ""  # 'measured in one version only; a timeline needs two'


class SweepPage(BaseModel):
    query: str
    level: LevelView | None = None
    cost_note: str = ""  # why costs are absent or what they assume
    energy_note: str = ""  # what energy per token assumes, when any point has one
    timelines: list[Timeline] = []  # setups measured in two versions or more come first
    charts: list[SweepChart]
    charts_left_out: int = 0
    left_out: list[str] = []  # runs and setups that make no point or curve, and why


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
            _read_at_level(chart, level)
    cost_note = _with_costs(session, charts, filters)
    measured_power = any(p.gpu_watts for c in charts for curve in c.curves for p in curve.points)
    timelines = [t for chart in charts for t in _timelines(chart, level)]
    timelines.sort(key=lambda t: (bool(t.note), t.system_name.lower()))
    return SweepPage(
        query=filters.query_string(),
        level=LevelView(**vars(level), description=level.describe()) if level else None,
        cost_note=cost_note,
        energy_note=ENERGY_ASSUMES if measured_power else "",
        timelines=timelines[:MAX_TIMELINES],
        charts=charts[:MAX_CHARTS],
        charts_left_out=max(len(charts) - MAX_CHARTS, 0),
        left_out=notes + [_plural(count, reason) for reason, count in left_out.items()],
    )


def _runs() -> Any:
    """Columns, not objects: a run's `raw` numbers (up to 250 a run) are never needed here."""
    batch, run = ImportBatch, ImportRun
    kept = exists().where(col(BenchmarkResult.import_run_id) == col(run.id))
    columns = (run.setup, run.metrics, batch.key, batch.file_name, run.location, Source.slug,
               Source.short, Source.title, Source.date, Source.kind)  # fmt: skip
    return (
        sql_select(*map(col, columns))
        .join(batch, col(batch.id) == col(run.batch_id))
        .join(Source, col(Source.id) == col(batch.source_id))
        .where(col(batch.state) == "saved", kept)
        .order_by(col(batch.created_at).desc(), col(batch.id).desc(), col(run.position))
        .limit(MAX_RUNS + 1)
    )  # fmt: skip


def _passes(setup: dict[str, Any], source: str, f: SweepParams) -> bool:
    checks = ((f.system, setup.get("system")), (f.hardware, setup.get("hardware")),
              (f.model, setup.get("model")), (f.precision, setup.get("precision")),
              (f.source, source))  # fmt: skip
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
        chart = charts.setdefault(key[0], SweepChart(
            model=_slug(model), model_in_file=_in_file(model), input_tokens=input_tokens,
            output_tokens=output_tokens, curves=[]
        ))  # fmt: skip
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

    return first.model_copy(update={
        "per_gpu": per_gpu.median, "per_user": per_user.median, "n": per_gpu.n,
        "spread": per_gpu.kind, "per_gpu_low": per_gpu.low, "per_gpu_high": per_gpu.high,
        "per_user_low": per_user.low, "per_user_high": per_user.high,
        "output_throughput": median("output_throughput"), "total_per_gpu": median("total_per_gpu"),
        "ttft_p99": median("ttft_p99"), "tpot_p99": median("tpot_p99"),
        "goodput": median("goodput"), "goodput_share": median("goodput_share"),
        "gpu_watts": median("gpu_watts"),
        "joules_per_output_token": joules_per_token(median("gpu_watts"), per_gpu.median),
        "runs": refs,
    })  # fmt: skip


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


def _read_at_level(chart: SweepChart, level: Level) -> None:
    """Each curve at `level`; ranks within one hardware and precision (the chart is one model
    and workload), highest per-GPU throughput first."""
    for curve in chart.curves:
        found = at_level([_level_point(p) for p in curve.points], level)
        nearest = found.nearest
        x = low = high = total = joules = None
        if found.between:
            first, second = (_by_load(curve, load) for load in found.between)
            w0, w1 = found.weights
            x = w0 * first.per_user + w1 * second.per_user
            if first.total_per_gpu and second.total_per_gpu:
                total = w0 * first.total_per_gpu + w1 * second.total_per_gpu
            if first.gpu_watts and second.gpu_watts:
                watts = w0 * first.gpu_watts + w1 * second.gpu_watts
                joules = joules_per_token(watts, found.per_gpu)
            if first.n > 1 or second.n > 1:
                low = w0 * (first.per_gpu_low or first.per_gpu) + w1 * (
                    second.per_gpu_low or second.per_gpu
                )
                high = w0 * (first.per_gpu_high or first.per_gpu) + w1 * (
                    second.per_gpu_high or second.per_gpu
                )
        curve.at_level = AtLevel(
            per_gpu=found.per_gpu,
            reached=found.reached,
            between=list(found.between) if found.between else None,
            note=found.why,
            nearest=NearestPoint(**vars(nearest)) if nearest else None,
            per_user=level.per_user if found.binding == "per_user" and found.reached else x,
            per_gpu_low=low,
            per_gpu_high=high,
            total_per_gpu=total if found.reached else None,
            joules_per_output_token=joules if found.reached else None,
            binding=found.binding,
        )
    groups: dict[tuple[Any, ...], list[SweepCurve]] = {}
    for curve in chart.curves:
        key = (curve.hardware, curve.hardware_in_file, curve.precision)
        groups.setdefault(key, []).append(curve)
    for group in groups.values():
        reached = [c for c in group if c.at_level and c.at_level.per_gpu is not None]
        reached.sort(key=lambda c: -(c.at_level.per_gpu or 0.0) if c.at_level else 0.0)
        for position, curve in enumerate(reached, start=1):
            assert curve.at_level is not None
            curve.at_level.rank, curve.at_level.ranked_among = position, len(reached)
        spreads = [_level_spread(c.at_level) for c in reached if c.at_level]
        for i, curve in enumerate(reached):
            neighbours = spreads[max(i - 1, 0) : i] + spreads[i + 1 : i + 2]
            mine = spreads[i]
            if curve.at_level and (mine.n > 1 or any(n.n > 1 for n in neighbours)):
                curve.at_level.within_noise = any(within_noise(mine, n) for n in neighbours)


ENERGY_ASSUMES = (
    "energy per output token = mean GPU board power per GPU (W) ÷ output tokens per second per "
    "GPU, from the power the benchmark tool's telemetry (DCGM) sampled during the run on the "
    "GPUs that worked, taken to hold for each GPU of the setup; the host, CPUs, network and "
    "cooling are not counted, and runs without telemetry have none"
)
COST_ASSUMES = (
    "cost per million tokens = price per GPU-hour ÷ (tokens per second per GPU × 3600) × 10⁶: "
    "the GPUs busy all hour at that load, and nothing but the GPUs paid for"
)


def _with_costs(session: Session, charts: list[SweepChart], filters: SweepParams) -> str:
    """Costs per million tokens on every curve whose hardware has a price; the note to show."""
    listed = prices(session)
    override = filters.price if len(filters.hardware) == 1 else None
    priced = 0
    for chart in charts:
        for curve in chart.curves:
            if override is not None and curve.hardware == filters.hardware[0]:
                curve.price = PriceView(usd_per_gpu_hour=override, basis="given in the URL",
                                        given_in="the URL (price=)")  # fmt: skip
            elif curve.hardware in listed and not curve.hardware_in_file:
                row = listed[curve.hardware]
                curve.price = PriceView(usd_per_gpu_hour=row.usd_per_gpu_hour, basis=row.basis,
                                        given_in="the instance's price list")  # fmt: skip
            if curve.price is None:
                continue
            priced += 1
            usd = curve.price.usd_per_gpu_hour
            for p in curve.points:
                p.cost_per_million_output_tokens = cost_per_million(usd, p.per_gpu)
                p.cost_per_million_total_tokens = cost_per_million(usd, p.total_per_gpu)
            if curve.at_level and curve.at_level.reached:
                at = curve.at_level
                at.cost_per_million_output_tokens = cost_per_million(usd, at.per_gpu)
                at.cost_per_million_total_tokens = cost_per_million(usd, at.total_per_gpu)
    if not any(chart.curves for chart in charts):
        return ""
    notes = []
    if filters.price is not None and override is None:
        notes.append("price= is used only when exactly one hardware is filtered; it was not")
    notes.append(COST_ASSUMES if priced else "no price per GPU-hour is set for this hardware, "
                 "so no cost is shown")  # fmt: skip
    return "; ".join(notes)


def _timelines(chart: SweepChart, level: Level) -> list[Timeline]:
    """Each setup of `chart` measured in a stated version, across its versions."""
    groups: dict[tuple[Any, ...], list[SweepCurve]] = {}
    for curve in chart.curves:
        if curve.system_version:
            key = (curve.system, curve.hardware, curve.hardware_in_file, curve.gpus,
                   curve.precision)  # fmt: skip
            groups.setdefault(key, []).append(curve)
    out = []
    for curves in groups.values():
        curves.sort(key=lambda c: version_key(c.system_version or ""))
        if level:
            basis = f"at the service level {level.describe()}"
            figures = [_at_level_figure(c) for c in curves]
        else:
            load = _common_load(curves)
            basis = (f"at {load}, the heaviest load every version ran" if load
                     else "no load was run in every version")  # fmt: skip
            figures = [_at_load_figure(c, load) for c in curves]
        found, note = steps([f for f, _, _ in figures])
        entries = [
            TimelineEntry(version=step.figure.version, per_gpu=step.figure.value,
                          per_gpu_low=step.figure.low, per_gpu_high=step.figure.high, n=n,
                          change=step.change, threshold=step.threshold, flag=step.flag, note=why)
            for step, (_, n, why) in zip(found, figures, strict=True)
        ]  # fmt: skip
        first = curves[0]
        setup = first.label.split(" · ", 1)[1] + f" · {chart.label}"
        out.append(Timeline(system=first.system, system_name=first.system_name, setup=setup,
                            basis=basis, entries=entries, note=note))  # fmt: skip
    return out


def _at_level_figure(curve: SweepCurve) -> tuple[VersionFigure, int, str]:
    at = curve.at_level
    version = curve.system_version or ""
    if at is None or at.per_gpu is None:
        return VersionFigure(version, None), 0, at.note if at else ""
    n = min((_by_load(curve, load).n for load in at.between or []), default=1)
    return VersionFigure(version, at.per_gpu, at.per_gpu_low, at.per_gpu_high), n, ""


def _common_load(curves: list[SweepCurve]) -> str | None:
    loads = [{p.load: p for p in c.points} for c in curves]
    common = [p for p in curves[0].points if all(p.load in each for each in loads)]
    common.sort(key=lambda p: (p.concurrency or 0, p.request_rate or 0.0))
    return common[-1].load if common else None


def _at_load_figure(curve: SweepCurve, load: str | None) -> tuple[VersionFigure, int, str]:
    version = curve.system_version or ""
    point = next((p for p in curve.points if p.load == load), None)
    if point is None:
        return VersionFigure(version, None), 0, "not run at this load"
    return VersionFigure(version, point.per_gpu, point.per_gpu_low, point.per_gpu_high), point.n, ""


def _level_spread(at: AtLevel) -> Spread:
    value = at.per_gpu or 0.0
    low, high = at.per_gpu_low, at.per_gpu_high
    if low is None or high is None:
        return Spread(value, value, value, 1, "one run")
    return Spread(value, low, high, 2, "interpolated")


def _level_point(p: SweepPoint) -> LevelPoint:
    return LevelPoint(p.load, p.per_gpu, p.per_user, p.ttft_p99, p.tpot_p99, p.goodput_share)


def _by_load(curve: SweepCurve, load: str) -> SweepPoint:
    return next(p for p in curve.points if p.load == load)


def _plural(count: int, reason: str) -> str:
    if reason == SINGLE:
        return f"{'1 setup was' if count == 1 else f'{count} setups were'} {reason}"
    return f"{'1 run' if count == 1 else f'{count} runs'} {reason}"


def sweep_drawing(chart: SweepChart, level: LevelView | None = None) -> SweepDrawing:
    """The chart's geometry: one series per curve, each point labelled with its load; at a
    service level, each curve's interpolated point, and a per-user target's line. TTFT, TPOT
    and goodput are on neither axis, so they get no line: the points such a target sets are
    labelled instead, and a caption above the plot says what they are."""
    target = (
        Level(level.per_user, level.ttft_p99, level.tpot_p99, level.goodput) if level else Level()
    )
    series, bindings = [], []
    for curve in chart.curves:
        mark = _level_mark(curve, target)
        binding = curve.at_level.binding if mark and curve.at_level else ""
        bindings += [binding] if mark else []
        series.append(SeriesInput(curve.label, curve.system, [
            (p.per_user, p.per_gpu, p.on_frontier, _short_load(p), _point_title(curve, p))
            for p in curve.points
        ], mark, [_error(p) for p in curve.points], point_label(target, binding)))  # fmt: skip
    line = (level.per_user, f"{level.per_user:g} tok/s/user") if level and level.per_user else None
    return sweep_chart(
        f"Sweep: {chart.label}", X_LABEL, Y_LABEL, series, level=line,
        caption=chart_caption(target, bindings),
    )  # fmt: skip


def _error(p: SweepPoint) -> tuple[float, float, float, float] | None:
    """A repeated load's spread: per-user low and high, per-GPU low and high."""
    if p.n < 2 or None in (p.per_user_low, p.per_user_high, p.per_gpu_low, p.per_gpu_high):
        return None
    return (p.per_user_low or 0.0, p.per_user_high or 0.0, p.per_gpu_low or 0.0,
            p.per_gpu_high or 0.0)  # fmt: skip


def _level_mark(curve: SweepCurve, level: Level) -> tuple[float, float, str] | None:
    at = curve.at_level
    if not at or at.per_gpu is None or at.per_user is None:
        return None
    between = " and ".join(at.between or [])
    if point_label(level, at.binding):
        between += ", " + OFF_AXIS[at.binding].where.format(f"{getattr(level, at.binding):g}")
    title = (f"{curve.label} at the service level: {at.per_gpu:,.0f} tok/s per GPU "
             f"(interpolated between {between})")  # fmt: skip
    return at.per_user, at.per_gpu, title


def sweep_drawings(
    charts: Iterable[SweepChart], level: LevelView | None = None
) -> list[SweepDrawing]:
    return [sweep_drawing(c, level) for c in charts]


def _short_load(p: SweepPoint) -> str:
    if p.concurrency:
        return f"c={p.concurrency}"
    return f"{p.request_rate:g} req/s" if p.request_rate else "max"


def _point_title(curve: SweepCurve, p: SweepPoint) -> str:
    frontier = "on the frontier" if p.on_frontier else "dominated"
    repeats = ""
    if p.n > 1:
        repeats = (f"; median of {p.n} runs, {p.spread} {p.per_gpu_low:,.0f}–"
                   f"{p.per_gpu_high:,.0f} tok/s per GPU")  # fmt: skip
    return (f"{curve.label}, {p.load}: {p.per_user:,.1f} tok/s/user, "
            f"{p.per_gpu:,.0f} tok/s per GPU ({frontier}{repeats})")  # fmt: skip
