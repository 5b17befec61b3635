"""Group benchmark results into comparable contexts; rank only inside one context."""

from collections import defaultdict

from pydantic import BaseModel

from app.measures.units import convert, convertible
from app.schemas import BenchmarkView

THROUGHPUT_METRICS = ("throughput", "decode-throughput")
TTFT_METRICS = ("ttft-p50", "ttft")
WITHDRAWN = "withdrawn"
NOT_SPEED = ("gpu-utilisation",)
"""Absolute metrics that are no speed: never ranked, so never "the leader is 1.13× faster"."""


class RankedResult(BaseModel):
    result: BenchmarkView
    value: float  # in the context's unit; a range's midpoint
    low: float | None
    high: float | None
    rank: int | None
    behind_best: float | None  # how many times better the leader is (1.0 for the leader)


class Context(BaseModel):
    key: str
    metric: str
    metric_name: str
    metric_kind: str
    better: str
    unit: str
    # The setting, on the shared vocabulary: slugs, with names for labels.
    hardware: str | None
    hardware_name: str | None = None
    gpus: int | None = None
    model: str | None
    model_name: str | None = None
    precision: str | None
    concurrency: int | None
    workload: str | None
    workload_name: str | None = None
    results: list[RankedResult]
    ranked: bool
    why_not_ranked: str | None

    def label(self) -> str:
        hardware = self.hardware_name or "hardware not stated"
        if self.gpus:
            hardware = f"{self.gpus}× {hardware}"
        parts = [hardware, self.model_name or "model not stated"]
        if self.precision:
            parts.append(self.precision)
        if self.concurrency:
            parts.append(f"{self.concurrency} concurrent")
        # "Cold start · … · Cold start" says nothing twice: the metric already names it.
        if self.workload_name and self.workload_name.lower() != self.metric_name.lower():
            parts.append(self.workload_name)
        return " · ".join(parts)


SETTING = ("hardware", "gpus", "model", "precision", "concurrency", "workload")
"""What a context is, besides its metric: figures that agree on all of these meet."""


def setting_key(r: BenchmarkView | Context) -> tuple[str, ...]:
    return tuple(str(value) if (value := getattr(r, name)) is not None else "" for name in SETTING)


def context_key(r: BenchmarkView) -> tuple[str, ...]:
    return (r.metric, *setting_key(r))


def group_contexts(results: list[BenchmarkView], units: dict[str, str]) -> list[Context]:
    """Contexts in first-seen order; `units` maps metric -> the unit to compare in.

    A figure whose unit cannot be converted to the metric's unit (a ratio given as a
    percentage) forms its own context rather than being forced onto the same scale.
    """
    grouped: dict[tuple[str, ...], list[BenchmarkView]] = defaultdict(list)
    for result in results:
        unit = units[result.metric]
        unit = unit if convertible(result.unit, unit) else result.unit
        # Withdrawn figures (no longer published, kept for the team's notes) gather apart:
        # listed with their context, never ranked or charted against current ones.
        gone = (WITHDRAWN,) if result.withdrawn else ()
        grouped[(*context_key(result), *gone, unit)].append(result)
    return [_context(key[:-1], members, key[-1]) for key, members in grouped.items()]


def _context(key: tuple[str, ...], members: list[BenchmarkView], unit: str) -> Context:
    first = members[0]
    normalised = [_normalise(r, unit) for r in members]
    why = _why_not_ranked(first, members)
    if why is None:
        normalised = _rank(normalised, first.better)
    return Context(
        key="|".join(key),
        metric=first.metric,
        metric_name=first.metric_name,
        metric_kind=first.metric_kind,
        better=first.better,
        unit=unit,
        **{name: getattr(first, name) for name in SETTING},
        hardware_name=first.hardware_name,
        model_name=first.model_name,
        workload_name=first.workload_name,
        results=normalised,
        ranked=why is None,
        why_not_ranked=why,
    )


def _normalise(r: BenchmarkView, unit: str) -> RankedResult:
    def conv(v: float | None) -> float | None:
        return None if v is None else convert(v, r.unit, unit)

    low, high = conv(r.low), conv(r.high)
    value = conv(r.value)
    point = value if value is not None else ((low or 0.0) + (high or 0.0)) / 2
    return RankedResult(result=r, value=point, low=low, high=high, rank=None, behind_best=None)


def _why_not_ranked(first: BenchmarkView, members: list[BenchmarkView]) -> str | None:
    if first.withdrawn:
        return "Withdrawn: no longer in the published data, so not ranked."
    if first.metric_kind == "relative":
        return (
            "These are ratios against different baselines, not measurements; they are not ranked."
        )
    if first.metric_kind == "rating":
        return "These are editorial positions, not measurements."
    if first.metric in NOT_SPEED:
        return "These say how busy the hardware was, not how fast the system is; not ranked."
    if len({m.system for m in members}) < 2:
        return "Only one system was measured in this context."
    if not first.hardware:
        return "The source does not state the hardware, so these cannot be compared."
    return None


def _rank(results: list[RankedResult], better: str) -> list[RankedResult]:
    ordered = sorted(results, key=lambda r: r.value, reverse=better == "higher")
    best = ordered[0].value
    out: list[RankedResult] = []
    for position, r in enumerate(ordered, start=1):
        behind = None
        if best and r.value:
            behind = best / r.value if better == "higher" else r.value / best
        # Equal figures share a rank.
        rank = out[-1].rank if out and out[-1].value == r.value else position
        out.append(r.model_copy(update={"rank": rank, "behind_best": behind}))
    return out


def run_key(r: BenchmarkView) -> tuple[str | None, ...]:
    """What makes two figures of one setting come from one run."""
    return (r.system, r.system_version, r.source.slug, r.run_by, r.date)
