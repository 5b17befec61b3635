"""Unit normalisation and the SVG charts' geometry."""

import itertools

import pytest

from app.charts import BarInput, bar_chart, nice_ticks, scatter
from app.units import convert, convertible


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
    items = [BarInput(name, value, None, None, str(value), name)
             for name, value in [("a", 2780), ("b", 2460), ("c", 2400)]]  # fmt: skip
    chart = bar_chart("t", "tok/s", items)
    ratios = {round(b.length / b.value, 9) for b in chart.bars}
    assert len(ratios) == 1
    assert max(b.length for b in chart.bars) <= chart.plot_width
    top_tick = chart.ticks[-1]
    assert top_tick.position == pytest.approx(chart.plot_width)
    assert top_tick.value >= 2780


def test_ranges_draw_error_bars_over_their_span() -> None:
    chart = bar_chart("t", "%", [BarInput("sglang", None, 85, 95, "85–95%", "sglang"),
                                 BarInput("vllm", None, 15, 25, "15–25%", "vllm")])  # fmt: skip
    sglang, vllm = chart.bars
    scale = sglang.length / 90
    assert sglang.error_from == pytest.approx(85 * scale)
    assert sglang.error_to == pytest.approx(95 * scale)
    assert vllm.length == pytest.approx(20 * scale)
    assert ("range", "range the source gives") in chart.legend


def test_bars_get_distinct_colours() -> None:
    chart = bar_chart("t", "x", [BarInput(s, 1, None, None, "1", s) for s in "abcde"])
    assert len({b.colour for b in chart.bars}) == 5


def test_scatter_places_points_on_both_axes() -> None:
    chart = scatter("t", "ttft (ms)", "tok/s", [("a", 680, 2780, "a"), ("b", 740, 2400, "b")])
    a, b = chart.points
    assert a.cx < b.cx, "lower TTFT sits further left"
    assert a.cy < b.cy, "more throughput sits higher (smaller y)"
    assert chart.x_ticks[0].value <= 680 and chart.x_ticks[-1].value >= 740
    assert chart.y_ticks[0].value <= 2400 and chart.y_ticks[-1].value >= 2780
    for tick in chart.x_ticks:
        assert chart.left <= tick.position <= chart.left + chart.plot_width + 1e-6


def test_scatter_labels_do_not_overlap() -> None:
    chart = scatter(
        "t", "x", "y", [("a", 710, 2460, "a"), ("b", 740, 2400, "b"), ("c", 680, 2780, "c")]
    )
    ys = sorted(p.cy + p.label_dy for p in chart.points)
    assert all(b - a >= 14 - 1e-6 for a, b in itertools.pairwise(ys))
