"""Group benchmark results into comparable contexts; rank only inside one context."""

from collections import defaultdict
from dataclasses import replace

from pydantic import BaseModel

from app.measures.units import convert, convertible
from app.present.charts import (
    MEDIUM,
    NARROW,
    WIDE,
    BarChart,
    BarInput,
    Scatter,
    ScatterInput,
    bar_chart,
    scatter,
)
from app.present.formatting import figure, number
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


def context_chart(context: Context) -> tuple[BarChart, BarChart, BarChart]:
    """The bar charts for a ranked context: for a wide card, a narrower one, and stacked for
    phones (CSS shows one)."""
    items = [
        BarInput(
            label=_bar_label(r.result, context),
            value=r.value if r.low is None else None,
            low=r.low,
            high=r.high,
            value_label=figure(r.result),
            colour_key=r.result.system,
            team=r.result.source.kind == "team-measurement",
        )
        for r in context.results
    ]
    title = f"{context.metric_name} ({context.unit}) — {context.label()}"
    return (
        bar_chart(title, context.unit, items, width=WIDE),
        bar_chart(title, context.unit, items, width=MEDIUM),
        bar_chart(title, context.unit, items, width=NARROW, stacked=True),
    )


def _bar_label(result: BenchmarkView, context: Context) -> str:
    same_system = [r for r in context.results if r.result.system == result.system]
    if len(same_system) > 1 and result.source.kind == "team-measurement":
        # The team's run beside an article's figure for the same system: say which bar is whose.
        return f"{result.system_name} (team)"
    if len(same_system) > 1 and result.low is not None:
        return f"{result.system_name} (range)"
    return result.system_name


def throughput_vs_ttft(
    contexts: list[Context], charted: set[str] | None = None
) -> list[tuple[Context, Context, Scatter]]:
    """Scatter charts where one setting has both a throughput and a TTFT context; with
    `charted`, only for the settings of which a context is charted (a page of /benchmarks
    draws the scatters of its own rows, as it draws their bar charts)."""
    by_setting: dict[tuple[str, ...], dict[str, Context]] = defaultdict(dict)
    for c in contexts:
        if c.ranked:
            by_setting[setting_key(c)][c.metric] = c
    charts = []
    for metrics in by_setting.values():
        if charted is not None and not any(c.key in charted for c in metrics.values()):
            continue
        tput = next((metrics[m] for m in THROUGHPUT_METRICS if m in metrics), None)
        ttft = next((metrics[m] for m in TTFT_METRICS if m in metrics), None)
        if tput is None or ttft is None:
            continue
        # A point pairs two figures of one run: the same system and version, from the same
        # source, run by the same people on the same date; a key two figures share is no run.
        ttft_by_run: dict[tuple[str | None, ...], list[float]] = defaultdict(list)
        for r in ttft.results:
            ttft_by_run[run_key(r.result)].append(r.value)
        points = [
            ScatterInput(
                _bar_label(r.result, tput),
                found[0],
                r.value,
                r.result.system,
                team=r.result.source.kind == "team-measurement",
            )
            for r in tput.results
            if len(found := ttft_by_run.get(run_key(r.result), [])) == 1
        ]
        if len(points) >= 2:
            title = f"Throughput vs {ttft.metric_name} — {tput.label()}"
            x_label, y_label = f"{ttft.metric_name} ({ttft.unit})", f"throughput ({tput.unit})"
            chart = scatter(title, x_label, y_label, points)
            narrow = scatter(title, x_label, y_label, points, width=NARROW + 40)
            charts.append((tput, ttft, replace(chart, narrow=narrow)))
    return charts


def run_key(r: BenchmarkView) -> tuple[str | None, ...]:
    """What makes two figures of one setting come from one run."""
    return (r.system, r.system_version, r.source.slug, r.run_by, r.date)


def describe_ratio(r: RankedResult, context: Context) -> str:
    """'leader', or how far behind the leader this result is, in words."""
    if r.rank == 1:
        tied = sum(1 for other in context.results if other.rank == 1) > 1
        return "tied for best in this context" if tied else "best in this context"
    if r.behind_best is None:
        return ""
    # Only a rate is a speed; a higher percentage or count is just higher.
    speed = "/s" in context.unit or context.unit in ("tok/s", "req/s")
    word = ("faster" if speed else "higher") if context.better == "higher" else "lower"
    return f"the leader is {number(round(r.behind_best, 2))}× {word}"
