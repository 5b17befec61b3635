"""Chart geometry for server-drawn SVG: pure numbers, so tests can check the drawing."""

import math
from dataclasses import dataclass, field, replace

# Okabe-Ito, without yellow and black: tells colours apart for common colour-vision
# deficiencies and keeps contrast on both light and dark backgrounds.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#999999")


def nice_ticks(maximum: float, count: int = 5) -> list[float]:
    """Round tick values from 0 to at least `maximum` (steps of 1, 2 or 5 x 10^k)."""
    if maximum <= 0:
        return [0.0, 1.0]
    raw = maximum / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    steps = math.ceil(maximum / step - 1e-9)
    return [round(i * step, 10) for i in range(steps + 1)]


def nice_range(low: float, high: float, count: int = 5) -> list[float]:
    """Round ticks spanning low..high, not forced to start at zero (for scatter plots)."""
    span = high - low or abs(high) or 1.0
    padded_low, padded_high = low - span * 0.15, high + span * 0.15
    raw = (padded_high - padded_low) / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    first = max(math.floor(padded_low / step), 0 if low >= 0 else -math.inf)
    last = math.ceil(padded_high / step)
    return [round(i * step, 10) for i in range(int(first), last + 1)]


def tick_label(value: float) -> str:
    if value >= 1000 and value == int(value):
        return f"{value / 1000:g}k" if value % 1000 else f"{int(value / 1000)}k"
    return f"{value:g}"


@dataclass(frozen=True)
class Tick:
    value: float
    position: float  # px along the axis
    label: str


@dataclass(frozen=True)
class Bar:
    label: str
    value: float  # the bar's length in data units (a range's midpoint)
    low: float | None
    high: float | None
    y: float
    length: float  # px
    error_from: float | None  # px, the range's ends
    error_to: float | None
    colour: str
    value_label: str
    title: str


@dataclass(frozen=True)
class BarChart:
    title: str
    unit: str
    width: int
    height: int
    plot_left: int
    plot_width: int
    bar_height: int
    bars: list[Bar]
    ticks: list[Tick]
    legend: list[tuple[str, str]] = field(default_factory=list)


@dataclass(frozen=True)
class BarInput:
    label: str
    value: float | None
    low: float | None
    high: float | None
    value_label: str
    colour_key: str


def colour_for(key: str, keys: list[str]) -> str:
    return PALETTE[sorted(set(keys)).index(key) % len(PALETTE)]


def bar_chart(title: str, unit: str, items: list[BarInput], width: int = 640) -> BarChart:
    """Horizontal bars from zero, one per item; ranges get an error bar over their span."""
    plot_left, right_pad, bar_height, gap, top = 150, 90, 22, 10, 8
    plot_width = width - plot_left - right_pad
    top_value = max(max(i.high or i.value or 0.0 for i in items), 0.0)
    ticks = nice_ticks(top_value)
    scale = plot_width / ticks[-1]
    keys = [i.colour_key for i in items]
    bars = []
    for index, item in enumerate(items):
        value = item.value if item.value is not None else ((item.low or 0) + (item.high or 0)) / 2
        has_range = item.low is not None and item.high is not None
        bars.append(
            Bar(
                label=item.label,
                value=value,
                low=item.low,
                high=item.high,
                y=top + index * (bar_height + gap),
                length=value * scale,
                error_from=item.low * scale if has_range else None,  # type: ignore[operator]
                error_to=item.high * scale if has_range else None,  # type: ignore[operator]
                colour=colour_for(item.colour_key, keys),
                value_label=item.value_label,
                title=f"{item.label}: {item.value_label}",
            )
        )
    plot_height = top + len(items) * (bar_height + gap)
    axis = [Tick(t, t * scale, tick_label(t)) for t in ticks]
    legend = [("bar", "value (midpoint for a range)")]
    if any(b.error_from is not None for b in bars):
        legend.append(("range", "range the source gives"))
    return BarChart(title, unit, width, plot_height + 40, plot_left, plot_width, bar_height,
                    bars, axis, legend)  # fmt: skip


@dataclass(frozen=True)
class Point:
    label: str
    x: float
    y: float
    cx: float
    cy: float
    colour: str
    title: str
    label_dy: float = 4.0  # nudged when labels would overlap


@dataclass(frozen=True)
class Scatter:
    title: str
    x_label: str
    y_label: str
    width: int
    height: int
    left: int
    top: int
    plot_width: int
    plot_height: int
    points: list[Point]
    x_ticks: list[Tick]
    y_ticks: list[Tick]


def scatter(
    title: str, x_label: str, y_label: str, points: list[tuple[str, float, float, str]]
) -> Scatter:
    """Points (label, x, y, colour key) on axes from zero; y grows upwards."""
    width, height, left, top, right, bottom = 640, 320, 70, 16, 150, 50
    plot_width, plot_height = width - left - right, height - top - bottom
    x_ticks = nice_range(min(p[1] for p in points), max(p[1] for p in points))
    y_ticks = nice_range(min(p[2] for p in points), max(p[2] for p in points))
    x_scale = plot_width / (x_ticks[-1] - x_ticks[0])
    y_scale = plot_height / (y_ticks[-1] - y_ticks[0])
    keys = [p[3] for p in points]
    drawn = [
        Point(label, x, y, left + (x - x_ticks[0]) * x_scale,
              top + plot_height - (y - y_ticks[0]) * y_scale,
              colour_for(key, keys), f"{label}: {x:g} ({x_label}), {y:g} ({y_label})")
        for label, x, y, key in points
    ]  # fmt: skip
    return Scatter(
        title, x_label, y_label, width, height, left, top, plot_width, plot_height,
        _nudge_labels(drawn),
        [Tick(t, left + (t - x_ticks[0]) * x_scale, tick_label(t)) for t in x_ticks],
        [Tick(t, top + plot_height - (t - y_ticks[0]) * y_scale, tick_label(t)) for t in y_ticks],
    )  # fmt: skip


def _nudge_labels(points: list[Point], gap: float = 14.0) -> list[Point]:
    """Push a label down when it would sit on top of a neighbour's (top to bottom)."""
    offsets = [4.0] * len(points)
    placed: list[int] = []
    for i in sorted(range(len(points)), key=lambda i: points[i].cy):
        for j in placed:
            near = abs(points[j].cx - points[i].cx) < 90
            if near and abs(points[j].cy + offsets[j] - points[i].cy - offsets[i]) < gap:
                offsets[i] = points[j].cy + offsets[j] + gap - points[i].cy
        placed.append(i)
    return [replace(p, label_dy=offsets[i]) for i, p in enumerate(points)]
