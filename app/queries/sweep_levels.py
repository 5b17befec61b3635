"""Team sweeps read at a service level: each curve's interpolated figure, its rank among
curves of one setup and whether it is within noise of the next; costs per million tokens at
each load; and each setup's timeline across versions. Pure: it fills in the read models
app/queries/sweeps.py has built, with the numbers of app/measures/.
"""

from typing import Any

from app.measures.repeats import Spread, within_noise
from app.measures.service_level import (
    Level,
    LevelPoint,
    at_level,
    cost_per_million,
    joules_per_token,
)
from app.measures.versions import VersionFigure, steps
from app.models import HardwarePrice
from app.params.benchmarks import SweepParams
from app.queries.benchmarks import version_key
from app.queries.sweep_models import (
    AtLevel,
    NearestPoint,
    PriceView,
    SweepChart,
    SweepCurve,
    SweepPoint,
    Timeline,
    TimelineEntry,
)


def read_at_level(chart: SweepChart, level: Level) -> None:
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


def with_costs(
    charts: list[SweepChart], filters: SweepParams, listed: dict[str, HardwarePrice]
) -> str:
    """Costs per million tokens on every curve whose hardware has a price (`listed`, by
    hardware slug, or the URL's price); the note to show."""
    override = filters.price if len(filters.hardware) == 1 else None
    priced = 0
    for chart in charts:
        for curve in chart.curves:
            if override is not None and curve.hardware == filters.hardware[0]:
                curve.price = PriceView(
                    usd_per_gpu_hour=override, basis="given in the URL", given_in="the URL (price=)"
                )
            elif curve.hardware in listed and not curve.hardware_in_file:
                row = listed[curve.hardware]
                curve.price = PriceView(
                    usd_per_gpu_hour=row.usd_per_gpu_hour,
                    basis=row.basis,
                    given_in="the instance's price list",
                )
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
    notes.append(
        COST_ASSUMES
        if priced
        else "no price per GPU-hour is set for this hardware, so no cost is shown"
    )
    return "; ".join(notes)


def timelines(chart: SweepChart, level: Level) -> list[Timeline]:
    """Each setup of `chart` measured in a stated version, across its versions."""
    groups: dict[tuple[Any, ...], list[SweepCurve]] = {}
    for curve in chart.curves:
        if curve.system_version:
            key = (
                curve.system,
                curve.hardware,
                curve.hardware_in_file,
                curve.gpus,
                curve.precision,
            )
            groups.setdefault(key, []).append(curve)
    out = []
    for curves in groups.values():
        curves.sort(key=lambda c: version_key(c.system_version or ""))
        if level:
            basis = f"at the service level {level.describe()}"
            figures = [_at_level_figure(c) for c in curves]
        else:
            load = _common_load(curves)
            basis = (
                f"at {load}, the heaviest load every version ran"
                if load
                else "no load was run in every version"
            )
            figures = [_at_load_figure(c, load) for c in curves]
        found, note = steps([f for f, _, _ in figures])
        entries = [
            TimelineEntry(
                version=step.figure.version,
                per_gpu=step.figure.value,
                per_gpu_low=step.figure.low,
                per_gpu_high=step.figure.high,
                n=n,
                change=step.change,
                threshold=step.threshold,
                flag=step.flag,
                note=why,
            )
            for step, (_, n, why) in zip(found, figures, strict=True)
        ]
        first = curves[0]
        setup = first.label.split(" · ", 1)[1] + f" · {chart.label}"
        out.append(
            Timeline(
                system=first.system,
                system_name=first.system_name,
                setup=setup,
                basis=basis,
                entries=entries,
                note=note,
            )
        )
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
