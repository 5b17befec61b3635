"""Goodput as the service level and energy per token (issue 23) in Chromium: the scenario's
vLLM and SGLang sweeps (they carry goodput) and a two-load AIPerf sweep with GPU telemetry,
read at goodput=80; light, dark and a phone; no axe violations, no overlapping text."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, BrowserContext, Locator, Page

from tests.accounts.conftest import add_users
from tests.browser.conftest import serving
from tests.browser.test_sweeps_browser import OVERLAPPING_TEXT
from tests.conftest import SEED_DIR
from tests.databases import copy_of
from tests.team import level_scenario as sc
from tests.team import test_energy_http as energy
from tests.team.sweep_data import VLLM_SWEEP, import_file

pytestmark = pytest.mark.browser
SHOTS = Path("/tmp/shots-goodput-energy")
PAGE = f"/benchmarks?model={sc.LLAMA}&goodput=80"


@pytest.fixture(scope="module")
def served_url(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    url = copy_of(database_url, tmp_path_factory.mktemp("goodput-energy"), SEED_DIR)
    add_users(url, {"eddie": "editor"})
    for name, loads, given in sc.FILES:
        context = {**sc.CONTEXT, **given, "gpus": 1}
        import_file(url, VLLM_SWEEP, name=name, data=sc.sweep_file(loads), **context)
    telemetry = {
        "system": "vllm",
        "system_version": "0.13.0",
        "hardware": sc.H100,
        "precision": "FP8",
        "model": sc.LLAMA,
    }
    import_file(url, energy.REAL, **telemetry)
    import_file(url, energy.REAL, name="c4.json", data=energy.second_load(), **telemetry)
    with serving(url) as served:
        yield served


VIEWS = [("light", 1440), ("dark", 1440), ("light", 390)]


@pytest.mark.parametrize(("scheme", "width"), VIEWS)
def test_goodput_level_and_energy_are_legible(
    browser, served_url: str, scheme: str, width: int
) -> None:
    context, page, sweeps = open_sweeps(browser, f"{served_url}{PAGE}", scheme, width)
    text = sweeps.inner_text()
    assert "requests within the run's goodput targets ≥ 80 %" in text
    assert "2,100" in text  # vLLM 0.11.2 at goodput=80, by hand in level_scenario.py
    assert f"{energy.C1_JOULES:.3g} J per output token" in text
    assert "cooling are not counted" in sweeps.locator(".energy-assumptions").inner_text()
    assert page.locator("input[name=goodput]").first.input_value() == "80"
    # Goodput is on neither axis: no level line, a caption saying so, and each curve's
    # interpolated point labelled, all inside the chart (OVERLAPPING_TEXT: clear of other text).
    assert_level_labelled(sweeps, ["80%"] * 3)
    assert_legible(page, width, sweeps, f"benchmarks-{width}-{scheme}.png")
    context.close()


def open_sweeps(
    browser: Browser, url: str, scheme: str, width: int
) -> tuple[BrowserContext, Page, Locator]:
    context = browser.new_context(color_scheme=scheme, viewport={"width": width, "height": 1000})
    page = context.new_page()
    page.goto(url)
    return context, page, page.locator("section#team_sweeps")


def assert_legible(page: Page, width: int, part: Locator, shot: str) -> None:
    """No text over other text, no sideways scroll on a phone, no axe violation; `part` shot."""
    assert page.evaluate(OVERLAPPING_TEXT) == []
    if width < 400:
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()
    SHOTS.mkdir(exist_ok=True)
    part.screenshot(path=str(SHOTS / shot))


def assert_level_labelled(sweeps: Locator, labels: list[str]) -> None:
    """The chart at a level no axis shows: no level line, a caption saying so, each curve's
    interpolated point labelled, caption and labels inside the chart."""
    chart = sweeps.locator("svg.chart-sweep").filter(has=sweeps.page.locator("g.sweep-at-level"))
    assert chart.locator(".sweep-level line").count() == 0
    caption = chart.locator(".sweep-level-caption").text_content() or ""
    assert "which neither axis shows" in caption
    drawn = chart.locator("text.sweep-level-label")
    assert drawn.all_text_contents() == labels
    frame = chart.bounding_box()
    for label in drawn.all() + chart.locator(".sweep-level-caption text").all():
        box = label.bounding_box()
        assert (
            frame
            and box
            and frame["x"] <= box["x"] <= box["x"] + box["width"] <= frame["x"] + frame["width"]
        )


@pytest.mark.parametrize(("scheme", "width"), VIEWS)
def test_a_ttft_level_is_labelled_like_goodput(
    browser, served_url: str, scheme: str, width: int
) -> None:
    at_ttft = f"{served_url}/benchmarks?model={sc.LLAMA}&ttft_p99=500"
    context, page, sweeps = open_sweeps(browser, at_ttft, scheme, width)
    assert "p99 TTFT ≤ 500 ms" in sweeps.inner_text()
    assert "2,175" in sweeps.inner_text()  # vLLM 0.11.2 at ttft_p99=500, level_scenario.py
    assert_level_labelled(sweeps, ["≤500 ms"] * 3)
    card = sweeps.locator("article.sweep-card").filter(has=page.locator("g.sweep-at-level"))
    assert_legible(page, width, card, f"ttft-{width}-{scheme}.png")
    context.close()


def test_decide_shows_energy_beside_the_measured_figure(browser, served_url: str) -> None:
    context = browser.new_context(viewport={"width": 1440, "height": 1000})
    page = context.new_page()
    page.goto(f"{served_url}/decide?hardware=nvidia-datacenter&priority=throughput&per_user=50")
    measured = page.locator("section#measured")
    assert "J per output token" in measured.inner_text()
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()
    measured.screenshot(path=str(SHOTS / "decide-measured-1440.png"))
    context.close()
