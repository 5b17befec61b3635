"""A team sweep chart's drawing from its read model: one series per curve, each point
labelled with its load and titled in words, and at a service level each curve's interpolated
point with the label and caption of a target neither axis shows. Pure; the geometry is
app/present/sweep_charts.py."""

from collections.abc import Iterable

from app.measures.service_level import Level
from app.present.service_level import OFF_AXIS, chart_caption, point_label
from app.present.sweep_charts import SeriesInput, SweepDrawing, sweep_chart
from app.queries.sweep_models import LevelView, SweepChart, SweepCurve, SweepPoint

X_LABEL, Y_LABEL = "Per-user throughput (tok/s/user)", "Throughput per GPU (tok/s/GPU)"


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
        series.append(
            SeriesInput(
                curve.label,
                curve.system,
                [
                    (p.per_user, p.per_gpu, p.on_frontier, _short_load(p), _point_title(curve, p))
                    for p in curve.points
                ],
                mark,
                [_error(p) for p in curve.points],
                point_label(target, binding),
            )
        )
    line = (level.per_user, f"{level.per_user:g} tok/s/user") if level and level.per_user else None
    return sweep_chart(
        f"Sweep: {chart.label}",
        X_LABEL,
        Y_LABEL,
        series,
        level=line,
        caption=chart_caption(target, bindings),
    )


def _error(p: SweepPoint) -> tuple[float, float, float, float] | None:
    """A repeated load's spread: per-user low and high, per-GPU low and high."""
    if p.n < 2 or None in (p.per_user_low, p.per_user_high, p.per_gpu_low, p.per_gpu_high):
        return None
    return (
        p.per_user_low or 0.0,
        p.per_user_high or 0.0,
        p.per_gpu_low or 0.0,
        p.per_gpu_high or 0.0,
    )


def _level_mark(curve: SweepCurve, level: Level) -> tuple[float, float, str] | None:
    at = curve.at_level
    if not at or at.per_gpu is None or at.per_user is None:
        return None
    between = " and ".join(at.between or [])
    if point_label(level, at.binding):
        between += ", " + OFF_AXIS[at.binding].where.format(f"{getattr(level, at.binding):g}")
    title = (
        f"{curve.label} at the service level: {at.per_gpu:,.0f} tok/s per GPU "
        f"(interpolated between {between})"
    )
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
        repeats = (
            f"; median of {p.n} runs, {p.spread} {p.per_gpu_low:,.0f}–"
            f"{p.per_gpu_high:,.0f} tok/s per GPU"
        )
    return (
        f"{curve.label}, {p.load}: {p.per_user:,.1f} tok/s/user, "
        f"{p.per_gpu:,.0f} tok/s per GPU ({frontier}{repeats})"
    )
