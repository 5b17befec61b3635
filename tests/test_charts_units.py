"""Unit normalisation and the SVG charts' geometry."""

import itertools

import pytest

from app.measures.units import convert, convertible
from app.present.charts import (
    CHAR_WIDTH,
    PALETTE,
    POINT_R,
    TEAM_NOTE,
    BarInput,
    ScatterInput,
    bar_chart,
    colour_for,
    nice_ticks,
    point_label_box,
    scatter,
)


def test_time_and_memory_units_convert() -> None:
    assert convert(1450, "ms", "s") == pytest.approx(1.45)
    assert convert(28, "min", "s") == 1680
    assert convert(6, "GB", "MB") == 6000
    assert convert(5, "tok/s", "tok/s") == 5


def test_units_of_different_kinds_do_not_convert() -> None:
    assert not convertible("%", "x")
    with pytest.raises(ValueError, match="cannot convert ms to MB"):
        convert(1, "ms", "MB")


@pytest.mark.parametrize("maximum", [0.9, 7, 198, 1450, 2780, 16200, 14000])
def test_ticks_start_at_zero_cover_the_data_and_step_evenly(maximum: float) -> None:
    ticks = nice_ticks(maximum)
    assert ticks[0] == 0 and ticks[-1] >= maximum
    steps = {round(b - a, 9) for a, b in itertools.pairwise(ticks)}
    assert len(steps) == 1
    assert ticks[-2] < maximum, "no empty tick beyond the data"


def test_bar_lengths_are_proportional_to_values() -> None:
    items = [
        BarInput(name, value, None, None, str(value), name)
        for name, value in [("a", 2780), ("b", 2460), ("c", 2400)]
    ]
    chart = bar_chart("t", "tok/s", items)
    ratios = {round(b.length / b.value, 9) for b in chart.bars}
    assert len(ratios) == 1
    assert max(b.length for b in chart.bars) <= chart.plot_width
    top_tick = chart.ticks[-1]
    assert top_tick.position == pytest.approx(chart.plot_width)
    assert top_tick.value >= 2780


def test_ranges_draw_error_bars_over_their_span() -> None:
    chart = bar_chart(
        "t",
        "%",
        [
            BarInput("sglang", None, 85, 95, "85–95%", "sglang"),
            BarInput("vllm", None, 15, 25, "15–25%", "vllm"),
        ],
    )
    sglang, vllm = chart.bars
    scale = sglang.length / 90
    assert sglang.error_from == pytest.approx(85 * scale)
    assert sglang.error_to == pytest.approx(95 * scale)
    assert vllm.length == pytest.approx(20 * scale)
    assert ("range", "range the source gives (bar at its midpoint)") in chart.legend


def test_the_systems_most_often_charted_get_distinct_colours() -> None:
    slugs = ["vllm", "sglang", "llama-cpp", "ollama", "tgi", "tensorrt-llm", "lmdeploy"]
    chart = bar_chart("t", "x", [BarInput(s, 1, None, None, "1", s) for s in slugs])
    assert len({b.colour for b in chart.bars}) == len(slugs)


def test_a_system_keeps_its_colour_whatever_else_is_charted() -> None:
    alone = bar_chart("t", "x", [BarInput("vLLM", 1, None, None, "1", "vllm")])
    crowd = bar_chart("t", "x", [BarInput(n, 1, None, None, "1", n) for n in ("a", "b", "vllm")])
    dots = scatter(
        "t", "x", "y", [ScatterInput("q", 1, 2, "zz-new"), ScatterInput("vLLM", 2, 3, "vllm")]
    )
    assert alone.bars[0].colour == crowd.bars[2].colour == dots.points[1].colour == "#0072B2"
    assert colour_for("zz-new") == colour_for("zz-new") in PALETTE, "unknown slugs hash stably"


def test_the_legend_says_only_what_the_labels_do_not() -> None:
    plain = [
        BarInput("vLLM", 1, None, None, "1", "vllm"),
        BarInput("SGLang", 2, None, None, "2", "sglang"),
    ]
    assert bar_chart("t", "x", plain).legend == [], "the labels already name the systems"
    team = BarInput("vLLM (team)", 3, None, None, "3", "vllm", team=True)
    chart = bar_chart("t", "x", [*plain, team])
    assert [b.team for b in chart.bars] == [False, False, True]
    assert chart.legend == [("team", TEAM_NOTE)]


def test_labels_get_the_room_they_need_and_long_ones_end_at_a_word() -> None:
    long = "Text Generation Inference with a very long qualifier attached"
    chart = bar_chart("t", "x", [BarInput(long, 10, None, None, "10,000 tok/s", "tgi")])
    label = chart.bars[0].label
    assert label.endswith("…") and long.startswith(label[:-1]) and long[len(label) - 1] == " "
    assert chart.plot_left >= len(label) * CHAR_WIDTH, "the label column fits the label"
    right = chart.width - chart.plot_left - chart.plot_width
    assert right >= len("10,000 tok/s") * CHAR_WIDTH, "the figure fits right of the bar"
    assert long in chart.bars[0].title


def test_phone_layout_puts_labels_above_full_width_bars() -> None:
    items = [BarInput(n, v, None, None, str(v), n) for n, v in (("vllm", 5), ("sglang", 4))]
    narrow = bar_chart("t", "x", items, width=340, stacked=True)
    assert narrow.stacked and narrow.plot_left < 10
    assert narrow.bars[1].y - narrow.bars[0].y > narrow.bar_height + 16


def test_scatter_places_points_on_both_axes_from_zero() -> None:
    points = [ScatterInput("a", 680, 2780, "a"), ScatterInput("b", 740, 2400, "b")]
    chart = scatter("t", "ttft (ms)", "tok/s", points)
    a, b = chart.points
    assert a.cx < b.cx, "lower TTFT sits further left"
    assert a.cy < b.cy, "more throughput sits higher (smaller y)"
    # From zero, a 14% gap in throughput is drawn as 14% of the height, not the whole plot.
    assert chart.x_ticks[0].value == chart.y_ticks[0].value == 0
    assert chart.x_ticks[-1].value >= 740 and chart.y_ticks[-1].value >= 2780
    bottom = chart.top + chart.plot_height
    assert (bottom - b.cy) / (bottom - a.cy) == pytest.approx(2400 / 2780)
    for tick in chart.x_ticks:
        assert chart.left <= tick.position <= chart.left + chart.plot_width + 1e-6


def test_team_points_are_marked_and_explained() -> None:
    published = scatter("t", "x", "y", [ScatterInput("a", 1, 2, "a"), ScatterInput("b", 2, 3, "b")])
    assert published.legend == [] and not any(p.team for p in published.points)
    both = [
        ScatterInput("vLLM", 1, 2, "vllm"),
        ScatterInput("vLLM (team)", 2, 3, "vllm", team=True),
    ]
    mixed = scatter("t", "x", "y", both)
    assert [p.team for p in mixed.points] == [False, True]
    assert [kind for kind, _text in mixed.legend] == ["dot", "ring"]


def test_scatter_labels_cover_no_point_and_no_other_label() -> None:
    # Four systems within 10% of each other on both axes, as on /benchmarks' H100 scatter.
    points = [(710, 2460), (740, 2400), (680, 2780), (700, 2650), (715, 2450)]
    chart = scatter(
        "t", "x", "y", [ScatterInput(f"System {i}", x, y, "a") for i, (x, y) in enumerate(points)]
    )
    r = POINT_R
    dots = [(p.cx - r, p.cy - r, p.cx + r, p.cy + r) for p in chart.points]
    labels = [point_label_box(p) for p in chart.points]
    for i, box in enumerate(labels):
        assert box[0] >= 0 and box[2] <= chart.width
        others = dots + labels[:i] + labels[i + 1 :]
        assert not any(
            box[0] < o[2] and o[0] < box[2] and box[1] < o[3] and o[1] < box[3] for o in others
        ), chart.points[i]
