"""Charts on every page give a system one colour, and their legends use the bars' colours."""

from collections import defaultdict

from bs4 import BeautifulSoup
from fastapi.testclient import TestClient


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


def test_legend_swatches_match_the_bars(client: TestClient) -> None:
    soup = BeautifulSoup(client.get("/benchmarks?metric=throughput").text, "html.parser")
    card = soup.select_one("article.context-card")
    bar_fills = {r["fill"] for r in card.select("svg.chart-wide g.bar rect")}
    swatches = {r["fill"] for r in card.select(".legend .legend-swatch rect")}
    assert swatches == bar_fills


def test_every_bar_chart_has_a_phone_layout(client: TestClient) -> None:
    soup = BeautifulSoup(client.get("/benchmarks").text, "html.parser")
    wide, narrow = soup.select("svg.chart-wide"), soup.select("svg.chart-narrow")
    assert len(wide) == len(narrow) > 0
    assert all(int(s["viewbox"].split()[2]) <= 360 for s in narrow)
