"""Chart geometry for server-drawn SVG: pure numbers, so tests can check the drawing."""

import math
import zlib
from dataclasses import dataclass, field, replace

# Okabe-Ito (without yellow and black) followed by Paul Tol's muted hues: told apart under
# the common colour-vision deficiencies, and mid-light enough to read on light and dark pages.
PALETTE = (
    "#0072B2",
    "#E69F00",
    "#009E73",
    "#CC79A7",
    "#56B4E9",
    "#D55E00",
    "#44AA99",
    "#AA4499",
    "#999933",
    "#CC6677",
    "#6677CC",
    "#888888",
)

# One colour per system in every chart on every page, so vLLM is the same blue on
# /benchmarks, /compare and its own page. The systems most often charted together get
# distinct colours by hand; any other slug falls back to a hash of itself (stable across
# processes and databases, unlike Python's hash()). See docs/charts.md.
# TensorRT-LLM is green, not vermilion: it shares most of its charts with SGLang's amber, and
# the two oranges were near twins. LMDeploy, charted with both, takes Paul Tol's wine, which
# red-green colour-blind eyes still tell from that green (tests/test_chart_colours.py pins
# the distances).
SYSTEM_COLOURS = {
    "vllm": PALETTE[0],
    "sglang": PALETTE[1],
    "tensorrt-llm": PALETTE[2],
    "ollama": PALETTE[3],
    "tgi": PALETTE[4],
    "llama-cpp": PALETTE[5],
    "lmdeploy": "#882255",
    "mlc-llm": PALETTE[7],
    "exllamav2": PALETTE[10],
    "mlx-lm": PALETTE[9],
    "lm-studio": PALETTE[8],
    "deepspeed-mii": PALETTE[11],
    "omlx": PALETTE[6],
    "powerinfer": PALETTE[10],
    "vllm-metal": PALETTE[4],
    "ctranslate2": PALETTE[11],
}

# Rough advance of one character of the 13 px chart font, to give labels the room they need.
CHAR_WIDTH = 7.4
MAX_LABEL_CHARS = 30

# The widths each bar chart is drawn at; CSS shows the one nearest the card's own width, so
# bars fill the card and text stays near 13 px (docs/charts.md).
WIDE, MEDIUM, NARROW = 960, 640, 300
TEAM_NOTE = "hatched, dashed outline: the team's own measurement"


def nice_ticks(maximum: float, count: int = 5) -> list[float]:
    """Round tick values from 0 to at least `maximum` (steps of 1, 2 or 5 x 10^k)."""
    if maximum <= 0:
        return [0.0, 1.0]
    raw = maximum / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    steps = math.ceil(maximum / step - 1e-9)
    return [round(i * step, 10) for i in range(steps + 1)]


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
    team: bool = False  # the team's own measurement: drawn hatched, with a dashed outline


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
    # What the bars' labels do not say already (hatching, ranges); the labels name the systems.
    legend: list[tuple[str, str]] = field(default_factory=list)
    stacked: bool = False  # labels above the bars (the phone layout)


@dataclass(frozen=True)
class BarInput:
    label: str
    value: float | None
    low: float | None
    high: float | None
    value_label: str
    colour_key: str  # the system's slug
    team: bool = False


def colour_for(key: str) -> str:
    """The system's colour: the same in every chart, whatever else the chart shows."""
    return SYSTEM_COLOURS.get(key) or PALETTE[zlib.crc32(key.encode()) % len(PALETTE)]


def shorten(text: str, limit: int) -> str:
    """`text` cut at a word boundary to at most `limit` characters, with an ellipsis."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1].rsplit(" ", 1)[0] if " " in text[: limit - 1] else text[: limit - 1]
    return cut.rstrip(" ,;:-(") + "…"


def text_width(text: str) -> float:
    return len(text) * CHAR_WIDTH


def bar_chart(
    title: str, unit: str, items: list[BarInput], width: int = 640, stacked: bool = False
) -> BarChart:
    """Horizontal bars from zero, one per item; ranges get an error bar over their span.

    The label column and the right margin are as wide as the longest label and figure, so
    nothing is clipped; labels longer than MAX_LABEL_CHARS are shortened (the bar's
    <title> keeps the full text). `stacked` puts each label above its bar, for phones.
    """
    limit = int((width - 8) / CHAR_WIDTH) if stacked else MAX_LABEL_CHARS
    labels = [shorten(i.label, limit) for i in items]
    label_room = 16 if stacked else 0
    plot_left = 4 if stacked else int(max(map(text_width, labels), default=0) + 16)
    right_pad = int(max((text_width(i.value_label) for i in items), default=0) + 14)
    bar_height, gap, top = (18, 8, 4) if stacked else (22, 10, 8)
    plot_width = width - plot_left - right_pad
    top_value = max(max(i.high or i.value or 0.0 for i in items), 0.0)
    ticks = nice_ticks(top_value)
    scale = plot_width / ticks[-1]
    row = label_room + bar_height + gap
    bars = [
        _bar(item, labels[index], top + index * row + label_room, scale)
        for index, item in enumerate(items)
    ]
    axis = [Tick(t, t * scale, tick_label(t)) for t in ticks]
    legend = []
    if any(b.team for b in bars):
        legend.append(("team", TEAM_NOTE))
    if any(b.error_from is not None for b in bars):
        legend.append(("range", "range the source gives (bar at its midpoint)"))
    return BarChart(
        title,
        unit,
        width,
        top + len(items) * row + 40,
        plot_left,
        plot_width,
        bar_height,
        bars,
        axis,
        legend,
        stacked,
    )


def _bar(item: BarInput, label: str, y: float, scale: float) -> Bar:
    value = item.value if item.value is not None else ((item.low or 0) + (item.high or 0)) / 2
    has_range = item.low is not None and item.high is not None
    return Bar(
        label=label,
        value=value,
        low=item.low,
        high=item.high,
        y=y,
        length=value * scale,
        error_from=item.low * scale if has_range else None,  # type: ignore[operator]
        error_to=item.high * scale if has_range else None,  # type: ignore[operator]
        colour=colour_for(item.colour_key),
        value_label=item.value_label,
        title=f"{item.label}: {item.value_label}",
        team=item.team,
    )


@dataclass(frozen=True)
class Point:
    label: str
    x: float
    y: float
    cx: float
    cy: float
    colour: str
    title: str
    label_dy: float = 4.0  # baseline below the point's centre
    team: bool = False  # the team's own run: drawn as a ring, not a dot
    label_dx: float = 10.0  # where the label starts (or ends, anchored "end") from the centre
    label_anchor: str = "start"

    @property
    def leader(self) -> bool:
        """Whether the label sits far enough from its point to need a line to it."""
        return abs(self.label_dy - 4.0) > 8


@dataclass(frozen=True)
class Axes:
    """A chart's frame in SVG units: its size, the plot area's corner and size, the ticks."""

    title: str
    x_label: str
    y_label: str
    width: int
    height: int
    left: int
    top: int
    plot_width: int
    plot_height: int
    x_ticks: list[Tick]
    y_ticks: list[Tick]


@dataclass(frozen=True)
class Scatter(Axes):
    points: list[Point]
    legend: list[tuple[str, str]] = field(default_factory=list)
    narrow: "Scatter | None" = None  # the same points drawn for a phone


@dataclass(frozen=True)
class ScatterInput:
    label: str
    x: float
    y: float
    colour_key: str  # the system's slug
    team: bool = False


def scatter(
    title: str, x_label: str, y_label: str, points: list[ScatterInput], width: int = 640
) -> Scatter:
    """Points on axes that both start at zero, so a 9% gap looks like 9%; y grows upwards.
    Narrower than 500 units (a phone's), labels find room inside the plot rather than in a
    margin on the right."""
    height, left, top, right, bottom = 320, 70, 16, 150 if width >= 500 else 14, 50
    plot_width, plot_height = width - left - right, height - top - bottom
    x_ticks = nice_ticks(max(p.x for p in points))
    y_ticks = nice_ticks(max(p.y for p in points))
    x_scale, y_scale = plot_width / x_ticks[-1], plot_height / y_ticks[-1]
    drawn = [
        Point(
            p.label,
            p.x,
            p.y,
            left + p.x * x_scale,
            top + plot_height - p.y * y_scale,
            colour_for(p.colour_key),
            f"{p.label}: {p.x:g} ({x_label}), {p.y:g} ({y_label})",
            team=p.team,
        )
        for p in points
    ]
    legend = [("dot", "a published figure"), ("ring", "the team's own run")]
    return Scatter(
        title,
        x_label,
        y_label,
        width,
        height,
        left,
        top,
        plot_width,
        plot_height,
        [Tick(t, left + t * x_scale, tick_label(t)) for t in x_ticks],
        [Tick(t, top + plot_height - t * y_scale, tick_label(t)) for t in y_ticks],
        _nudge_labels(drawn, width),
        legend if any(p.team for p in points) else [],
    )


POINT_R = 6.0
POINT_CHAR = 9.0  # the point labels are 13 px and bold (wide fonts)
Box = tuple[float, float, float, float]  # left, top, right, bottom


def point_label_box(p: Point) -> Box:
    width = POINT_CHAR * len(p.label)
    x = p.cx + p.label_dx - (width if p.label_anchor == "end" else 0)
    return x, p.cy + p.label_dy - 12, x + width, p.cy + p.label_dy + 3.5


def _nudge_labels(points: list[Point], right_edge: float = 640.0) -> list[Point]:
    """Put each label where it covers no point and no other label: right of its point, else
    left, else further up or down on either side (with a line back to the point)."""
    r = POINT_R + 1
    taken: list[Box] = [(p.cx - r, p.cy - r, p.cx + r, p.cy + r) for p in points]
    placed: dict[int, Point] = {}
    for i in sorted(range(len(points)), key=lambda i: (points[i].cy, points[i].cx)):
        p, chosen = points[i], None
        for step in range(12):
            for dy in dict.fromkeys((4.0 + step * 16, 4.0 - step * 16)):
                for dx, anchor in ((10.0, "start"), (-10.0, "end")):
                    candidate = replace(p, label_dx=dx, label_dy=dy, label_anchor=anchor)
                    box = point_label_box(candidate)
                    if box[0] >= 0 and box[2] <= right_edge and not _covers(box, taken):
                        chosen = candidate
                        break
                if chosen:
                    break
            if chosen:
                break
        placed[i] = chosen or p
        taken.append(point_label_box(placed[i]))
    return [placed[i] for i in range(len(points))]


def _covers(box: Box, others: list[Box]) -> bool:
    return any(box[0] < o[2] and o[0] < box[2] and box[1] < o[3] and o[1] < box[3] for o in others)
