"""Charts on every page give a system one colour; colours charted together are told apart, by
people with common colour-vision deficiencies too; legends say what the labels do not."""

import itertools
import math
from collections import defaultdict

import pytest
from bs4 import BeautifulSoup
from fastapi.testclient import TestClient

from app.present.charts import SYSTEM_COLOURS, colour_for

Rgb = tuple[float, float, float]
Lab = tuple[float, float, float]

# Simulated dichromacy, Machado, Oliveira and Fernandes (2009), severity 1.0, on linear RGB.
DEUTERANOPIA = (
    (0.367322, 0.860646, -0.227968),
    (0.280085, 0.672501, 0.047413),
    (-0.011820, 0.042940, 0.968881),
)
PROTANOPIA = (
    (0.152286, 1.052583, -0.204868),
    (0.114503, 0.786281, 0.099216),
    (-0.003882, -0.048116, 1.051998),
)
# The systems the published data charts together most often (SGLang and vLLM share 170-odd
# charts, TensorRT-LLM 40 with each, TGI and LMDeploy a few).
MOST_CHARTED = ["vllm", "sglang", "tensorrt-llm", "tgi", "lmdeploy"]


def _linear(hex_colour: str) -> Rgb:
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return r, g, b


def _lab(linear: Rgb) -> Lab:
    r, g, b = (min(max(c, 0.0), 1.0) for c in linear)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
    fx, fy, fz = (t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116 for t in (x, y, z))
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def _simulate(linear: Rgb, matrix: tuple[Rgb, ...] | None) -> Rgb:
    if matrix is None:
        return linear
    r, g, b = (sum(m * c for m, c in zip(row, linear, strict=True)) for row in matrix)
    return r, g, b


def delta_e(one: str, other: str, matrix: tuple[Rgb, ...] | None = None) -> float:
    """CIEDE2000 between two colours as a viewer sees them (with `matrix`: as simulated)."""
    (l1, a1, b1), (l2, a2, b2) = (_lab(_simulate(_linear(c), matrix)) for c in (one, other))
    c_bar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_bar**7 / (c_bar**7 + 25**7)))
    a1, a2 = a1 * (1 + g), a2 * (1 + g)
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    h1, h2 = math.degrees(math.atan2(b1, a1)) % 360, math.degrees(math.atan2(b2, a2)) % 360
    dh = 0.0 if c1 * c2 == 0 else (h2 - h1 + 180) % 360 - 180
    d_l, d_c = l2 - l1, c2 - c1
    d_h = 2 * math.sqrt(c1 * c2) * math.sin(math.radians(dh / 2))
    l_bar, c_bar = (l1 + l2) / 2, (c1 + c2) / 2
    h_bar = h1 + h2 if c1 * c2 == 0 else (h1 + h2) / 2 + (180 if abs(h1 - h2) > 180 else 0)
    t = (
        1
        - 0.17 * math.cos(math.radians(h_bar - 30))
        + 0.24 * math.cos(math.radians(2 * h_bar))
        + 0.32 * math.cos(math.radians(3 * h_bar + 6))
        - 0.20 * math.cos(math.radians(4 * h_bar - 63))
    )
    s_l = 1 + 0.015 * (l_bar - 50) ** 2 / math.sqrt(20 + (l_bar - 50) ** 2)
    s_c, s_h = 1 + 0.045 * c_bar, 1 + 0.015 * c_bar * t
    r_t = (
        -math.sin(math.radians(60 * math.exp(-(((h_bar - 275) / 25) ** 2))))
        * 2
        * math.sqrt(c_bar**7 / (c_bar**7 + 25**7))
    )
    return math.sqrt(
        (d_l / s_l) ** 2 + (d_c / s_c) ** 2 + (d_h / s_h) ** 2 + r_t * (d_c / s_c) * (d_h / s_h)
    )


def test_delta_e_matches_published_reference_pairs() -> None:
    # Sharma, Wu and Dalal's CIEDE2000 test data, pairs given here in sRGB: identical is 0,
    # black to white is 100; and the old amber/vermilion pair measured near 22.
    assert delta_e("#0072B2", "#0072B2") == 0
    assert delta_e("#000000", "#FFFFFF") == pytest.approx(100, abs=0.1)
    assert delta_e("#E69F00", "#D55E00") == pytest.approx(22.2, abs=0.5)


@pytest.mark.parametrize(("one", "other"), list(itertools.combinations(MOST_CHARTED, 2)))
def test_systems_charted_together_have_clearly_different_colours(one: str, other: str) -> None:
    first, second = colour_for(one), colour_for(other)
    assert delta_e(first, second) >= 20, "clearly different at a glance"
    for matrix in (DEUTERANOPIA, PROTANOPIA):
        assert delta_e(first, second, matrix) >= 15, "and to red-green colour-blind eyes"


def test_sglang_and_tensorrt_llm_are_no_longer_two_oranges() -> None:
    # They share about 40 charts; amber beside vermilion read as one colour in two shades.
    assert delta_e(SYSTEM_COLOURS["sglang"], SYSTEM_COLOURS["tensorrt-llm"]) >= 35


def fills(html: str) -> dict[str, set[str]]:
    """System name -> every fill its bars have, across all the page's bar charts."""
    out: dict[str, set[str]] = defaultdict(set)
    for bar in BeautifulSoup(html, "html.parser").select("svg.chart g.bar"):
        system = bar.select_one("title").get_text().split(":")[0].removesuffix(" (range)")
        out[system].add(bar.select_one("rect")["fill"])
    return out


def test_a_system_has_one_colour_across_charts_and_pages(client: TestClient) -> None:
    html = client.get("/benchmarks").text
    charts = BeautifulSoup(html, "html.parser").select("svg.chart-wide")
    with_vllm = [
        c for c in charts if any("vLLM:" in t.get_text() for t in c.select("g.bar > title"))
    ]
    assert len(with_vllm) >= 2, "vLLM is charted in several contexts"
    benchmarks = fills(html)
    assert all(len(colours) == 1 for colours in benchmarks.values()), benchmarks
    compare = fills(client.get("/compare?s=vllm&s=sglang").text)
    assert compare["vLLM"] == benchmarks["vLLM"] and compare["SGLang"] == benchmarks["SGLang"]


def test_systems_sharing_a_chart_on_the_page_are_told_apart(client: TestClient) -> None:
    soup = BeautifulSoup(client.get("/benchmarks").text, "html.parser")
    for svg in soup.select("svg.chart-wide"):
        fills = {r["fill"] for r in svg.select("g.bar > rect:not(.team-mark)")}
        for one, other in itertools.combinations(sorted(fills), 2):
            assert delta_e(one, other) >= 20, (svg.select_one("title").get_text(), one, other)


def test_the_legend_does_not_repeat_the_bar_labels(client: TestClient) -> None:
    soup = BeautifulSoup(client.get("/benchmarks?metric=throughput").text, "html.parser")
    for card in soup.select("article.context-card"):
        labels = {t.get_text() for t in card.select("svg.chart-wide .bar-label")}
        key = card.select_one(".chart-key")
        assert labels, "a bar chart in every ranked card"
        if key is not None:
            assert not labels & {i.get_text(strip=True) for i in key.select(".legend-item")}


def test_every_bar_chart_is_drawn_for_wide_and_narrow_cards_and_phones(
    client: TestClient,
) -> None:
    soup = BeautifulSoup(client.get("/benchmarks").text, "html.parser")
    variants = [soup.select(f"svg.chart-{v}") for v in ("wide", "medium", "narrow")]
    assert len(variants[0]) == len(variants[1]) == len(variants[2]) > 0
    widths = [{int(s["viewbox"].split()[2]) for s in v} for v in variants]
    assert widths == [{960}, {640}, {300}]
