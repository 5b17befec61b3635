"""Sweep charts: throughput per GPU against per-user throughput, one curve per setup.

Pure numbers, like app/present/charts.py: the drawing's geometry (positions, marker outlines,
the frontier's polyline; the frontier itself is app/measures/frontier.py), so tests can check
it without a template. The template (templates/macros/sweeps.html) only copies these numbers out.
"""

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from app.measures.frontier import Pair
from app.present.charts import Axes, Tick, colour_for, nice_ticks, tick_label

# Curves of one system share its colour (the same on every page); the setups of one system
# in a chart are told apart by the marker's shape and the line's dash, so nothing rests on
# colour alone.
MARKERS = ("circle", "square", "triangle", "diamond")
DASHES = ("", "7 4", "2 3", "9 3 2 3")
MARKER_SIZE = 5.0  # px from the centre to the edge
LABEL_GAP = 14.0  # px between two load labels stacked near each other
LABEL_CHAR = 8.4  # advance of one character of the 12.5 px load labels (wide fonts, "=")
LABEL_ASCENT, LABEL_DESCENT = 12.0, 3.5  # px above and below a label's baseline, as drawn
LEVEL_RING = 7.0  # px: the radius of the ring round an interpolated point
LEVEL_BESIDE = LEVEL_RING + 6  # px from its centre: a level label this near needs no leader
CAPTION_LINE = 17  # px between the caption's lines above the plot


@dataclass(frozen=True)
class SeriesInput:
    """One curve to draw: its legend name, its system's slug and its points."""

    name: str
    colour_key: str
    points: Sequence[tuple[float, float, bool, str, str]]  # x, y, on frontier, label, title
    at_level: tuple[float, float, str] | None = None  # x, y, title of the interpolated point
    # Per point (same order), the spread of repeated runs: x low, x high, y low, y high.
    errors: Sequence[tuple[float, float, float, float] | None] = ()
    # Written beside the interpolated point when the target it meets is on neither axis
    # (TTFT, TPOT, goodput), so the point says what it marks: "≤500 ms", "80%".
    at_level_label: str = ""


@dataclass(frozen=True)
class Mark:
    cx: float
    cy: float
    on_frontier: bool
    path: str  # the marker's outline (SVG path data)
    label: str  # the load, written beside the marker
    title: str
    label_x: float
    label_dy: float = 4.0
    label_anchor: str = "start"
    error: tuple[float, float, float, float] | None = None  # px: x from, x to, y from, y to


@dataclass(frozen=True)
class Series:
    name: str
    colour: str
    marker: str
    dash: str
    line: str  # polyline points through the frontier, left to right
    marks: list[Mark]
    swatch: str  # the marker's outline at the middle of a 28 x 12 legend swatch
    level_mark: tuple[float, float, str] | None = None  # cx, cy, title: the point at the level
    level_label: Mark | None = None  # its label, placed near it (at_level_label)
    # x1, y1, x2, y2: a thin line from the ring to its label, when crowding put the label
    # further than beside it.
    level_leader: tuple[float, float, float, float] | None = None


@dataclass(frozen=True)
class SweepDrawing(Axes):
    series: list[Series]
    level_x: float | None = None  # where a per-user target crosses the plot
    level_label: str = ""
    # A target on neither axis (TTFT, TPOT, goodput) has no line; these lines (baseline,
    # text), above the plot, say so and what its labelled points are.
    level_caption: tuple[tuple[float, str], ...] = ()


def marker_path(shape: str, cx: float, cy: float, r: float = MARKER_SIZE) -> str:
    """SVG path data for a marker of `shape` centred on (cx, cy)."""
    corners = {
        "square": [(-0.9, -0.9), (0.9, -0.9), (0.9, 0.9), (-0.9, 0.9)],
        "triangle": [(0, -1.15), (1.15, 0.92), (-1.15, 0.92)],
        "diamond": [(0, -1.25), (1.25, 0), (0, 1.25), (-1.25, 0)],
    }.get(shape)
    if corners is None:  # a circle: two arcs
        return (
            f"M{cx - r:.2f},{cy:.2f}a{r:g},{r:g} 0 1,0 {2 * r:g},0a{r:g},{r:g} 0 1,0 {-2 * r:g},0Z"
        )
    return "M" + "L".join(f"{cx + dx * r:.2f},{cy + dy * r:.2f}" for dx, dy in corners) + "Z"


def sweep_chart(
    title: str,
    x_label: str,
    y_label: str,
    series: Sequence[SeriesInput],
    width: int = 640,
    level: tuple[float, str] | None = None,
    caption: Sequence[str] = (),
) -> SweepDrawing:
    """Both axes from zero (a sweep's shape is read against the origin); y grows upwards.

    `level` (x, label) draws a per-user target as a vertical line; each series' `at_level`
    point is drawn as a ringed cross, labelled with its `at_level_label` if any. `caption`
    lines go above the plot (a target that no line can show)."""
    all_points = [p for s in series for p in s.points]
    bars = [e for s in series for e in s.errors if e]
    widest_x = max(
        [p[0] for p in all_points] + [e[1] for e in bars] + ([level[0]] if level else []),
        default=0.0,
    )
    tallest = max([p[1] for p in all_points] + [e[3] for e in bars], default=0.0)
    x_ticks = nice_ticks(widest_x * 1.04)
    y_ticks = nice_ticks(tallest * 1.04)
    widest = max(len(tick_label(t)) for t in y_ticks)
    left, top, right, bottom = int(widest * 7 + 40), 14 + CAPTION_LINE * len(caption), 20, 48
    height = 360 + CAPTION_LINE * len(caption)
    plot_width, plot_height = width - left - right, height - top - bottom

    def place(x: float, y: float) -> Pair:
        return left + x / x_ticks[-1] * plot_width, top + plot_height - y / y_ticks[
            -1
        ] * plot_height

    seen: dict[str, int] = {}
    drawn = []
    for item in series:
        nth = seen[item.colour_key] = seen.get(item.colour_key, -1) + 1
        shape, dash = MARKERS[nth % len(MARKERS)], DASHES[nth % len(DASHES)]
        marks = []
        errors = list(item.errors) or [None] * len(item.points)
        for (x, y, on_frontier, label, point_title), spread in zip(
            item.points, errors, strict=True
        ):
            cx, cy = place(x, y)
            near_right = cx > left + plot_width - LABEL_CHAR * len(label) - 12
            bar = None
            if spread:
                (x0, y0), (x1, y1) = place(spread[0], spread[2]), place(spread[1], spread[3])
                bar = (x0, x1, y0, y1)
            marks.append(
                Mark(
                    cx,
                    cy,
                    on_frontier,
                    marker_path(shape, cx, cy),
                    label,
                    point_title,
                    cx - 9 if near_right else cx + 9,
                    4.0,
                    "end" if near_right else "start",
                    bar,
                )
            )
        frontier = sorted((m.cx, m.cy) for m in marks if m.on_frontier)
        line = " ".join(f"{cx:.2f},{cy:.2f}" for cx, cy in frontier)
        at, at_label = None, None
        if item.at_level:
            at = (*place(item.at_level[0], item.at_level[1]), item.at_level[2])
            if item.at_level_label:
                at_label = Mark(at[0], at[1], True, "", item.at_level_label, at[2], at[0] + 11)
        drawn.append(
            Series(
                item.name,
                colour_for(item.colour_key),
                shape,
                dash,
                line,
                marks,
                marker_path(shape, 14, 6),
                at,
                at_label,
            )
        )
    return SweepDrawing(
        title,
        x_label,
        y_label,
        width,
        height,
        left,
        top,
        plot_width,
        plot_height,
        [Tick(t, place(t, 0)[0], tick_label(t)) for t in x_ticks],
        [Tick(t, place(0, t)[1], tick_label(t)) for t in y_ticks],
        _place_labels(drawn, (0, top - 14, width, top + plot_height)),
        place(level[0], 0)[0] if level else None,
        level[1] if level else "",
        tuple((14.0 + n * CAPTION_LINE, text) for n, text in enumerate(caption)),
    )


Box = tuple[float, float, float, float]  # left, top, right, bottom


def label_box(mark: Mark) -> Box:
    """The room a load label takes, as drawn (anchor, baseline)."""
    width = LABEL_CHAR * len(mark.label)
    x = mark.label_x - {"start": 0.0, "middle": width / 2, "end": width}[mark.label_anchor]
    y = mark.cy + mark.label_dy
    return x, y - LABEL_ASCENT, x + width, y + LABEL_DESCENT


def gap(box: Box, point: Pair) -> float:
    """How far a box's nearest edge is from a point (0 inside)."""
    dx = max(box[0] - point[0], 0.0, point[0] - box[2])
    dy = max(box[1] - point[1], 0.0, point[1] - box[3])
    return float((dx * dx + dy * dy) ** 0.5)


def _clear(box: Box, others: list[Box]) -> bool:
    return not any(
        box[0] < o[2] and o[0] < box[2] and box[1] < o[3] and o[1] < box[3] for o in others
    )


def _place_labels(series: list[Series], bounds: Box) -> list[Series]:
    """Put each load label beside its marker where it covers no other label and no marker:
    right, left, above or below (c=1 and c=4 sit close together at the top of a sweep), else
    right or left a line or more up or down; in a crowd with no room, below the labels above.
    The labels of interpolated points go first (one per curve, and the reason they are drawn),
    their rings kept clear too, each at the free spot nearest its own ring and clearly nearer
    it than any other (two rings a line apart would otherwise seem to share a label).
    `bounds` is the room labels may take: the chart less the x axis's tick labels and any
    caption above the plot."""
    marks = [(i, j, m) for i, s in enumerate(series) for j, m in enumerate(s.marks)]
    levels = [(i, -1, s.level_label) for i, s in enumerate(series) if s.level_label]
    r, ring = MARKER_SIZE + 1.5, LEVEL_RING + 1.5
    taken: list[Box] = [(m.cx - r, m.cy - r, m.cx + r, m.cy + r) for _, _, m in marks]
    # Every ring, labelled or not (one on the per-user line has no label but is no less a
    # ring for another curve's label to be mistaken for).
    rings = [(s.level_mark[0], s.level_mark[1]) for s in series if s.level_mark]
    taken += [(x - ring, y - ring, x + ring, y + ring) for x, y in rings]
    placed: dict[tuple[int, int], Mark] = {}
    leaders: dict[int, tuple[float, float, float, float]] = {}
    labels: list[Box] = []
    for i, j, mark in levels:
        placed[(i, j)] = chosen = _place_level_label(mark, taken, bounds, rings)
        taken.append(label_box(chosen))
        labels.append(label_box(chosen))
        if leader := _leader((mark.cx, mark.cy), label_box(chosen)):
            leaders[i] = leader
            taken += _along(leader)
    for i, j, mark in sorted(marks, key=lambda item: (item[2].cy, item[2].cx)):
        placed[(i, j)] = chosen = _place_one(mark, taken, labels, bounds)
        taken.append(label_box(chosen))
        labels.append(label_box(chosen))
    return [
        replace(
            s,
            marks=[placed[(i, j)] for j in range(len(s.marks))],
            level_label=placed.get((i, -1)),
            level_leader=leaders.get(i),
        )
        for i, s in enumerate(series)
    ]


def _leader(centre: Pair, box: Box) -> tuple[float, float, float, float] | None:
    """From a ring's edge to the nearest point of its label, when the label is further than
    beside the ring (LEVEL_BESIDE); None when it is beside it."""
    far = gap(box, centre)
    if far <= LEVEL_BESIDE:
        return None
    x, y = min(max(centre[0], box[0]), box[2]), min(max(centre[1], box[1]), box[3])
    ux, uy = (x - centre[0]) / far, (y - centre[1]) / far
    start = LEVEL_RING + 1
    return centre[0] + ux * start, centre[1] + uy * start, x - ux * 2, y - uy * 2


def _along(leader: tuple[float, float, float, float]) -> list[Box]:
    """The room a leader takes, as 2 px squares every 3 px along it."""
    x1, y1, x2, y2 = leader
    steps = max(int(math.dist((x1, y1), (x2, y2)) / 3), 1)
    points = [(x1 + (x2 - x1) * k / steps, y1 + (y2 - y1) * k / steps) for k in range(steps + 1)]
    return [(x - 1, y - 1, x + 1, y + 1) for x, y in points]


def _place_level_label(mark: Mark, taken: list[Box], bounds: Box, rings: list[Pair]) -> Mark:
    """An interpolated point's label at the free spot nearest its ring (any spot within a
    few px counts as near; among those, level with the ring, then on its right), clear of
    `taken` and nearer its own ring than any other of `rings` by a ring's radius. Rings of
    several curves crowd together at one level, so the four sides a load label tries are
    often all taken; this looks on a 2 px grid around the ring instead (4 px further out).
    A label further than beside its ring gets a leader, which must pass clear of markers and
    labels too."""
    width, centre = LABEL_CHAR * len(mark.label), (mark.cx, mark.cy)
    ring = LEVEL_RING + 1.5
    others = [
        b for b in taken if b != (mark.cx - ring, mark.cy - ring, mark.cx + ring, mark.cy + ring)
    ]

    def spots(reach: int, step: int) -> list[tuple[float, float, bool, int, float, int, int]]:
        """Spots for the label's left edge and baseline, up to about `reach` px off, `step`
        px apart, best first; beside the ring (LEVEL_BESIDE) is the same wherever it is."""
        found = []
        for dx in range(-int(width) - reach, reach + 1, step):
            for dy in range(-reach - 4, reach + 12, step):
                left, baseline = mark.cx + dx, mark.cy + dy
                box = (left, baseline - LABEL_ASCENT, left + width, baseline + LABEL_DESCENT)
                if (near := gap(box, centre)) >= LEVEL_RING + 4:  # clear of the ring's stroke
                    found.append(
                        (max(near, LEVEL_BESIDE), abs(dy - 4), dx < 0, abs(dx), near, dx, dy)
                    )
        return sorted(found)

    # Beside the ring first (a few hundred spots), then further on a coarser grid.
    grids = ((int(LEVEL_BESIDE) + 1, 2), (40, 4))
    for *_, near, dx, dy in itertools.chain.from_iterable(spots(*grid) for grid in grids):
        left, baseline = mark.cx + dx, mark.cy + dy
        box = (left, baseline - LABEL_ASCENT, left + width, baseline + LABEL_DESCENT)
        inside = bounds[0] <= box[0] and box[2] <= bounds[2] and bounds[1] <= box[1]
        own = all(near + LEVEL_RING <= gap(box, c) for c in rings if c != centre)
        if inside and box[3] <= bounds[3] and own and _clear(box, taken):
            leader = _leader(centre, box)
            if leader is None or _clear_all(_along(leader), others):
                # Anchored on the side towards the ring, so a label drawn wider than its
                # estimate grows away from the ring, not into it.
                x, anchor = (
                    (box[2], "end")
                    if box[2] <= mark.cx
                    else (left, "start")
                    if left >= mark.cx
                    else (left + width / 2, "middle")
                )
                return replace(mark, label_x=x, label_dy=float(dy), label_anchor=anchor)
    return _place_one(mark, taken, taken, bounds)  # a crowd with no room near the ring


def _clear_all(boxes: list[Box], others: list[Box]) -> bool:
    return all(_clear(box, others) for box in boxes)


def _place_one(mark: Mark, taken: list[Box], labels: list[Box], bounds: Box) -> Mark:
    """One load label beside its marker, clear of `taken`; in a crowd, clear of `labels` only."""
    right, left = (mark.cx + MARKER_SIZE + 4, "start"), (mark.cx - MARKER_SIZE - 4, "end")
    if mark.label_anchor == "end":  # too near the right edge to write on the right
        right, left = left, right
    sides = [
        (right[0], 4.0, right[1]),
        (left[0], 4.0, left[1]),
        (mark.cx, -(MARKER_SIZE + 5), "middle"),
        (mark.cx, MARKER_SIZE + 5 + LABEL_ASCENT, "middle"),
    ]
    for step in range(1, 7):  # then further up or down, on either side
        for dy in (4.0 - step * LABEL_GAP, 4.0 + step * LABEL_GAP):
            sides += [(right[0], dy, right[1]), (left[0], dy, left[1])]
    for x, dy, anchor in sides:
        candidate = replace(mark, label_x=x, label_dy=dy, label_anchor=anchor)
        box = label_box(candidate)
        inside = bounds[0] <= box[0] and box[2] <= bounds[2] and bounds[1] <= box[1]
        if inside and box[3] <= bounds[3] and _clear(box, taken):
            return candidate
    # A crowd: right of the point, down until clear of the labels.
    chosen = replace(mark, label_x=right[0], label_anchor=right[1])
    while not _clear(label_box(chosen), labels):  # dy only grows, so this ends
        chosen = replace(chosen, label_dy=chosen.label_dy + 2)
    return chosen
