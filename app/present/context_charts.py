"""The charts of ranked contexts: bars for one context (wide, medium, and stacked for
phones), a throughput-vs-TTFT scatter where one setting has both, and a result's distance
from the leader in words. Pure; the contexts are app/queries/contexts.py's read models.
"""

from collections import defaultdict
from dataclasses import replace

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
from app.queries.contexts import (
    THROUGHPUT_METRICS,
    TTFT_METRICS,
    Context,
    RankedResult,
    run_key,
    setting_key,
)
from app.schemas import BenchmarkView
from app.text import figure, number


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
