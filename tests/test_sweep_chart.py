"""The sweep chart's Pareto frontier and geometry (app/present/sweep_charts.py): pure numbers."""

import itertools
import math
import random
import re
from collections.abc import Sequence
from dataclasses import replace

import pytest

from app.measures.frontier import dominates, pareto_frontier
from app.measures.service_level import Level
from app.present.charts import colour_for
from app.present.service_level import chart_caption, point_label
from app.present.sweep_charts import (
    CAPTION_LINE,
    DASHES,
    LEVEL_BESIDE,
    LEVEL_RING,
    MARKER_SIZE,
    MARKERS,
    SeriesInput,
    gap,
    label_box,
    marker_path,
    sweep_chart,
)


def test_no_points_and_one_point() -> None:
    assert pareto_frontier([]) == []
    assert pareto_frontier([(3.0, 4.0)]) == [True]


def test_a_classic_sweep_is_all_frontier() -> None:
    # More concurrency: less per user, more per GPU; nothing beats anything on both.
    points = [(140.0, 139.0), (134.0, 524.0), (119.0, 1852.0), (92.0, 5618.0)]
    assert pareto_frontier(points) == [True, True, True, True]


def test_dominated_points_are_off_the_frontier() -> None:
    points = [(140.0, 139.0), (92.0, 5618.0), (54.8, 2411.0), (100.0, 100.0)]
    assert pareto_frontier(points) == [True, True, False, False]


def test_duplicates_do_not_dominate_each_other() -> None:
    assert pareto_frontier([(5.0, 5.0), (5.0, 5.0)]) == [True, True]
    # ...but a point beating both copies takes them off the frontier together.
    assert pareto_frontier([(5.0, 5.0), (5.0, 5.0), (6.0, 5.0)]) == [False, False, True]


@pytest.mark.parametrize(
    ("points", "expected"),
    [
        ([(5.0, 5.0), (5.0, 4.0)], [True, False]),  # same x, lower y
        ([(5.0, 5.0), (4.0, 5.0)], [True, False]),  # same y, lower x
        ([(5.0, 1.0), (1.0, 5.0)], [True, True]),  # a trade-off
        ([(0.0, 0.0), (0.0, 0.0), (0.0, 0.1)], [False, False, True]),
    ],
)
def test_ties_on_one_axis(points: list[tuple[float, float]], expected: list[bool]) -> None:
    assert pareto_frontier(points) == expected


def test_dominance_is_strict_on_one_axis() -> None:
    assert dominates((2, 2), (1, 2)) and dominates((2, 2), (2, 1)) and dominates((2, 2), (1, 1))
    assert not dominates((2, 2), (2, 2)) and not dominates((1, 3), (2, 2))


def test_the_frontier_matches_its_definition_on_random_sweeps() -> None:
    rng = random.Random(11)
    for _ in range(200):
        points = [
            (rng.randint(0, 6) * 1.0, rng.randint(0, 6) * 1.0) for _ in range(rng.randint(1, 9))
        ]
        flags = pareto_frontier(points)
        for point, on in zip(points, flags, strict=True):
            beaten = any(o[0] >= point[0] and o[1] >= point[1] and o != point for o in points)
            assert on is not beaten
        assert any(flags), "a non-empty set always has a frontier"
        # The frontier read left to right only goes down (or stays level).
        frontier = sorted(p for p, on in zip(points, flags, strict=True) if on)
        assert all(b[1] <= a[1] for a, b in itertools.pairwise(frontier))


def series(
    name: str, key: str, points: Sequence[tuple[float, float]], labels: bool = True
) -> SeriesInput:
    flags = pareto_frontier(points)
    return SeriesInput(
        name,
        key,
        [
            (x, y, on, f"c={i}" if labels else "", f"{name} {i}")
            for i, ((x, y), on) in enumerate(zip(points, flags, strict=True))
        ],
    )


VLLM = [(142.6, 138.6), (134.4, 524.3), (119.2, 1852.0), (92.0, 5617.9), (54.8, 2411.5)]
SGLANG = [(63.4, 31.0), (59.2, 114.3), (51.6, 395.1), (38.0, 1056.9)]


def test_points_sit_inside_the_plot_proportionally_from_zero() -> None:
    d = sweep_chart(
        "t", "x", "y", [series("vLLM", "vllm", VLLM), series("SGLang", "sglang", SGLANG)]
    )
    assert d.x_ticks[0].value == 0 and d.y_ticks[0].value == 0
    assert d.x_ticks[-1].value >= 142.6 and d.y_ticks[-1].value >= 5617.9
    for s in d.series:
        for m in s.marks:
            assert d.left <= m.cx <= d.left + d.plot_width
            assert d.top <= m.cy <= d.top + d.plot_height
    marks = d.series[0].marks
    x_scale = (marks[0].cx - d.left) / VLLM[0][0]
    y_scale = (d.top + d.plot_height - marks[3].cy) / VLLM[3][1]
    for (x, y), m in zip(VLLM, marks, strict=True):
        assert m.cx - d.left == pytest.approx(x * x_scale)
        assert d.top + d.plot_height - m.cy == pytest.approx(y * y_scale)
    # The ticks are where their values are.
    assert d.x_ticks[1].position - d.left == pytest.approx(d.x_ticks[1].value * x_scale)
    assert d.top + d.plot_height - d.y_ticks[1].position == pytest.approx(
        d.y_ticks[1].value * y_scale
    )


def test_the_line_joins_the_frontier_left_to_right_and_skips_dominated_points() -> None:
    d = sweep_chart("t", "x", "y", [series("vLLM", "vllm", VLLM)])
    [s] = d.series
    line = [tuple(map(float, pair.split(","))) for pair in s.line.split()]
    assert len(line) == 4 and line == sorted(line)
    dominated = next(m for m in s.marks if not m.on_frontier)
    assert (round(dominated.cx, 2), round(dominated.cy, 2)) not in line
    assert [m.on_frontier for m in s.marks] == [True, True, True, True, False]


def test_colours_follow_the_system_and_setups_of_one_system_differ_in_shape_and_dash() -> None:
    d = sweep_chart(
        "t",
        "x",
        "y",
        [
            series("vLLM H100", "vllm", VLLM),
            series("vLLM L40S", "vllm", SGLANG),
            series("SGLang", "sglang", SGLANG),
        ],
    )
    first, second, other = d.series
    assert first.colour == second.colour == colour_for("vllm") and other.colour == colour_for(
        "sglang"
    )
    assert (first.marker, first.dash) == (MARKERS[0], DASHES[0])
    assert (second.marker, second.dash) == (MARKERS[1], DASHES[1])
    assert other.marker == MARKERS[0]


@pytest.mark.parametrize("shape", [*MARKERS, "anything else"])
def test_markers_are_closed_paths_around_their_centre(shape: str) -> None:
    path = marker_path(shape, 100, 50)
    assert path.startswith("M") and path.endswith("Z")
    numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", path)]
    assert all(abs(n) < 120 for n in numbers)


def test_load_labels_do_not_overlap_and_stay_inside_on_the_right() -> None:
    # A cramped sweep: many points close together.
    crowded = [(100 - i * 0.5, 1000 + i * 8) for i in range(12)]
    d = sweep_chart("t", "x", "y", [series("vLLM", "vllm", crowded), series("S", "sglang", VLLM)])
    boxes = [label_box(m) for s in d.series for m in s.marks]
    assert all(box[2] <= d.width for box in boxes)
    for one, other in itertools.combinations(boxes, 2):
        assert not overlap(one, other), (one, other)


def overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_load_labels_cover_no_marker_and_no_other_label() -> None:
    # The top of two real sweeps: c=1 and c=4 a few pixels apart, c=64 and c=128 likewise.
    vllm = [(142.6, 139), (140.0, 420), (119.2, 1852), (92.0, 5618), (90.0, 5900)]
    sglang = [(141.0, 180), (139.5, 500), (120.0, 2408), (93.0, 7303), (91.0, 7500)]
    d = sweep_chart(
        "t", "x", "y", [series("vLLM", "vllm", vllm), series("SGLang", "sglang", sglang)]
    )
    marks = [m for s in d.series for m in s.marks]
    r = MARKER_SIZE
    markers = [(m.cx - r, m.cy - r, m.cx + r, m.cy + r) for m in marks]
    labels = [label_box(m) for m in marks]
    for i, box in enumerate(labels):
        assert box[0] >= 0 and box[2] <= d.width, marks[i]
        assert not [m for m in markers if overlap(box, m)], marks[i].label
        assert not [o for j, o in enumerate(labels) if j != i and overlap(box, o)], marks[i].label


def test_the_left_margin_fits_the_widest_y_tick() -> None:
    small = sweep_chart("t", "x", "y", [series("a", "vllm", [(1, 5), (2, 3)])])
    large = sweep_chart("t", "x", "y", [series("a", "vllm", [(1, 50_500), (2, 30_000)])])
    assert large.left > small.left
    assert (
        large.left - 6 - 7 * max(len(t.label) for t in large.y_ticks) >= 26
    )  # room for the y label


def test_a_level_on_neither_axis_labels_its_points_and_has_a_caption_not_a_line() -> None:
    # Goodput: each curve's interpolated point (here halfway between its 2nd and 3rd loads)
    # carries a label, placed like a load's; the caption above the plot moves the plot down.
    def at_goodput(name: str, key: str, points: list[tuple[float, float]]) -> SeriesInput:
        (x0, y0), (x1, y1) = points[1], points[2]
        middle = ((x0 + x1) / 2, (y0 + y1) / 2, f"{name} at the level")
        return replace(series(name, key, points), at_level=middle, at_level_label="80%")

    caption = ("level: goodput ≥ 80% of requests, which neither axis shows", "second line")
    plain = sweep_chart("t", "x", "y", [series("vLLM", "vllm", VLLM)])
    curves = [at_goodput("vLLM", "vllm", VLLM), at_goodput("SGLang", "sglang", SGLANG)]
    d = sweep_chart("t", "x", "y", curves, caption=caption)
    assert d.level_x is None
    assert [text for _, text in d.level_caption] == list(caption)
    assert d.top - plain.top == d.height - plain.height == 2 * CAPTION_LINE
    assert d.plot_height == plain.plot_height
    last_baseline = max(y for y, _ in d.level_caption)
    # The ring is where the interpolated values are on the axes.
    x_scale = d.plot_width / d.x_ticks[-1].value
    y_scale = d.plot_height / d.y_ticks[-1].value
    for s, points in zip(d.series, (VLLM, SGLANG), strict=True):
        assert s.level_mark is not None and s.level_label is not None
        cx, cy, _ = s.level_mark
        x, y = (points[1][0] + points[2][0]) / 2, (points[1][1] + points[2][1]) / 2
        assert cx - d.left == pytest.approx(x * x_scale)
        assert d.top + d.plot_height - cy == pytest.approx(y * y_scale)
        assert (s.level_label.label, s.level_label.cx, s.level_label.cy) == ("80%", cx, cy)
    marks = [m for s in d.series for m in s.marks]
    rings = [
        (
            s.level_mark[0] - LEVEL_RING,
            s.level_mark[1] - LEVEL_RING,
            s.level_mark[0] + LEVEL_RING,
            s.level_mark[1] + LEVEL_RING,
        )
        for s in d.series
        if s.level_mark
    ]
    markers = [
        (m.cx - MARKER_SIZE, m.cy - MARKER_SIZE, m.cx + MARKER_SIZE, m.cy + MARKER_SIZE)
        for m in marks
    ]
    labels = [label_box(m) for m in marks] + [
        label_box(s.level_label) for s in d.series if s.level_label
    ]
    for i, box in enumerate(labels):
        assert box[0] >= 0 and box[2] <= d.width and box[1] >= last_baseline + 3.5
        assert not [o for o in markers + rings if overlap(box, o)], box
        assert not [o for j, o in enumerate(labels) if j != i and overlap(box, o)], box


# The issue-23 scenario (tests/team/level_scenario.py): each curve's loads, and its point and
# label at three levels.
SCENARIO: list[tuple[str, str, list[tuple[float, float]]]] = [
    ("SGLang", "sglang", [(20, 2500), (31.25, 2000), (50, 1500), (80, 600)]),
    ("vLLM 0.10.1", "vllm", [(25, 2500), (40, 2000), (62.5, 1500), (100, 600)]),
    ("vLLM 0.11.2", "vllm", [(25, 3000), (40, 2400), (62.5, 1800), (100, 700)]),
]
AT_LEVELS: dict[str, list[tuple[tuple[float, float], str]]] = {
    "goodput=80": [((40.625, 1750), "80%"), ((51.25, 1750), "80%"), ((51.25, 2100), "80%")],
    "ttft_p99=500": [
        ((38.28125, 1812.5), "≤500 ms"),
        ((48.4375, 1812.5), "≤500 ms"),
        ((48.4375, 2175), "≤500 ms"),
    ],
    "ttft_p99=500&tpot_p99=40": [
        ((31.25 + 8 / 18 * 18.75, 2000 - 8 / 18 * 500), "TPOT ≤40 ms"),
        ((48.4375, 1812.5), "TTFT ≤500 ms"),
        ((48.4375, 2175), "TTFT ≤500 ms"),
    ],
    # SGLang's point is on the per-user line, unlabelled, just left of and below vLLM 0.10.1's.
    "ttft_p99=500&per_user=45": [
        ((45, 2000 - 13.75 / 18.75 * 500), ""),
        ((48.4375, 1812.5), "≤500 ms"),
        ((48.4375, 2175), "≤500 ms"),
    ],
}


@pytest.mark.parametrize("query", AT_LEVELS)
def test_each_level_label_sits_beside_its_own_point(query: str) -> None:
    # Two points on one height, one above them, load markers close by; a label one line off
    # would read as the label of the point above. Nothing overlaps, whatever the labels' length.
    d = sweep_chart(
        "t",
        "x",
        "y",
        [
            replace(
                series(name, key, [(float(x), float(y)) for x, y in points]),
                at_level=(*at, name),
                at_level_label=label,
            )
            for (name, key, points), (at, label) in zip(SCENARIO, AT_LEVELS[query], strict=True)
        ],
        caption=("a", "b", "c"),
    )
    rings = [(s.level_mark[0], s.level_mark[1]) for s in d.series if s.level_mark]
    for s, ring in zip(d.series, rings, strict=True):
        assert (s.level_label is None) == (not s.name.startswith("v") and "per_user" in query)
        if s.level_label is None:
            continue
        box = label_box(s.level_label)
        # Clearly nearer its own ring than any other, by a ring's radius at least.
        assert all(gap(box, ring) + LEVEL_RING <= gap(box, o) for o in rings if o != ring), s.name
        # Beside it, or (crowded out) joined to it by a leader from the ring's edge to the box.
        if gap(box, ring) <= LEVEL_BESIDE:
            assert s.level_leader is None, s.name
        else:
            assert s.level_leader is not None, s.name
            x1, y1, x2, y2 = s.level_leader
            assert math.dist(ring, (x1, y1)) == pytest.approx(LEVEL_RING + 1)
            assert gap(box, (x2, y2)) == pytest.approx(2)
    labels = [label_box(m) for s in d.series for m in s.marks] + [
        label_box(s.level_label) for s in d.series if s.level_label
    ]
    circles = [(x - LEVEL_RING, y - LEVEL_RING, x + LEVEL_RING, y + LEVEL_RING) for x, y in rings]
    for i, box in enumerate(labels):
        assert box[0] >= 0 and box[2] <= d.width and box[1] >= d.level_caption[-1][0] + 3.5
        assert not [o for j, o in enumerate(labels) if j != i and overlap(box, o)], box
        assert not [o for o in circles if overlap(box, o)], box


@pytest.mark.parametrize(
    ("level", "binding", "label"),
    [
        (Level(ttft_p99=500), "ttft_p99", "≤500 ms"),
        (Level(tpot_p99=37.5), "tpot_p99", "≤37.5 ms"),
        (Level(goodput=80), "goodput", "80%"),
        (Level(per_user=50, ttft_p99=500), "ttft_p99", "≤500 ms"),
        (Level(per_user=50, ttft_p99=500), "per_user", ""),  # on its line: no label
        (Level(ttft_p99=500, goodput=80), "goodput", "80%"),  # units differ: no name needed
        (Level(ttft_p99=500, tpot_p99=40), "ttft_p99", "TTFT ≤500 ms"),  # both ms: named
        (Level(ttft_p99=500, tpot_p99=40), "tpot_p99", "TPOT ≤40 ms"),
        (Level(ttft_p99=500), "", ""),  # no point drawn
    ],
)
def test_a_point_is_labelled_with_the_target_that_set_it(
    level: Level, binding: str, label: str
) -> None:
    assert point_label(level, binding) == label


def test_the_caption_names_the_level_and_says_which_point_sits_where() -> None:
    # Each line fits above the plot: about 6 px a character at 12.5 px, 640 px less the margin.
    one = chart_caption(Level(ttft_p99=500), ["ttft_p99", "ttft_p99"])
    assert one == (
        "level: p99 time to first token ≤ 500 ms, which neither axis shows",
        "“≤500 ms” marks where a curve reaches it, interpolated between two loads",
    )
    # bb1740d's goodput caption, word for word.
    assert chart_caption(Level(goodput=80), ["goodput"]) == (
        "level: goodput ≥ 80% of requests, which neither axis shows",
        "“80%” marks where a curve reaches it, interpolated between two loads",
    )
    mixed = chart_caption(Level(per_user=45, ttft_p99=500), ["ttft_p99", "per_user"])
    assert mixed[2] == "each cross is at its curve's tightest target (unlabelled: the dashed line)"
    # Every curve held by the per-user target: no label to explain, but the TTFT target is
    # still named and the caption says where the crosses went.
    held = chart_caption(Level(per_user=50, ttft_p99=500), ["per_user"] * 3)
    assert held == (
        "level: p99 time to first token ≤ 500 ms, which neither axis shows",
        "the per-user target is every curve's tightest: each cross is on its line",
    )
    two = chart_caption(Level(ttft_p99=500, tpot_p99=40), ["tpot_p99", "ttft_p99"])
    assert two == (
        "level: p99 TTFT ≤ 500 ms and p99 TPOT ≤ 40 ms, which neither axis shows",
        "each label marks where a curve reaches it, interpolated between two loads",
        "each cross is at its curve's tightest target, which its label names",
    )
    # A per-user level is its line; a level no curve reaches marks nothing to explain.
    assert chart_caption(Level(per_user=50), ["per_user"]) == ()
    assert chart_caption(Level(ttft_p99=5), []) == ()
    every = Level(per_user=45, ttft_p99=500, tpot_p99=40, goodput=80)
    busiest = chart_caption(every, ["per_user", "ttft_p99", "tpot_p99", "goodput"])
    assert len(busiest) == 3 and max(len(line) for line in busiest) <= 90, busiest
