"""/benchmarks in Chromium: HTMX filtering with URL state, sorting, charts, axe, screenshots."""

from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.browser.conftest import wait_until

pytestmark = pytest.mark.browser


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def test_filtering_swaps_results_and_pushes_the_url(page, live_url) -> None:
    page.goto(f"{live_url}/benchmarks")
    page.evaluate("window.__stillHere = true")
    page.check('input[name="metric"][value="throughput"]')
    page.wait_for_url("**/benchmarks?metric=throughput")
    wait_until(page, "document.querySelectorAll('table.results tbody tr').length < 40")
    assert page.evaluate("window.__stillHere") is True
    assert page.locator("svg.chart g.bar").count() >= 3
    page.reload()
    assert page.locator('input[name="metric"][value="throughput"]').is_checked()
    page.go_back()
    page.wait_for_url(f"{live_url}/benchmarks")
    # Going back reloads the URL (no htmx history cache), so the form matches it again.
    wait_until(
        page,
        "!document.querySelector('input[name=metric][value=throughput]').checked"
        " && document.querySelectorAll('table.results tbody tr').length > 100",
    )


def test_sorting_by_a_column_header(page, live_url) -> None:
    page.goto(f"{live_url}/benchmarks?metric=ttft-p50")
    page.click('th[aria-sort] a:has-text("Figure")')
    page.wait_for_url("**sort=value**")
    figures = page.locator("table.results tbody td.figure").all_inner_texts()
    numbers = [float(f.split()[0].replace(",", "").lstrip("~")) for f in figures]
    assert numbers == sorted(numbers)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_accessibility_violations(browser, live_url, artifacts: Path, scheme) -> None:
    context = browser.new_context(color_scheme=scheme, viewport={"width": 1400, "height": 900})
    page = context.new_page()
    page.goto(f"{live_url}/benchmarks?metric=throughput&metric=ttft-p50&metric=cache-hit-rate")
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()
    page.locator("article.context-card").first.screenshot(
        path=artifacts / f"chart-bars-{scheme}.png"
    )
    scatter = page.locator("article.context-card", has=page.locator("circle")).first
    scatter.screenshot(path=artifacts / f"chart-scatter-{scheme}.png")
    page.screenshot(path=artifacts / f"benchmarks-{scheme}.png")
    context.close()


def test_phone_layout(browser, live_url, artifacts: Path) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 900})
    page = context.new_page()
    page.goto(f"{live_url}/benchmarks?metric=decode-throughput")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.locator("article.context-card").first.scroll_into_view_if_needed()
    page.screenshot(path=artifacts / "benchmarks-phone.png")
    context.close()


@pytest.mark.parametrize(
    ("path", "results"), [("/matrix?kind=engine", "table.matrix"), ("/benchmarks", ".context-card")]
)
def test_phone_filters_are_a_drawer_that_counts_them(browser, live_url, path, results) -> None:
    """On a phone the results come first; "Filters (n)" opens the form, and n follows it."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(f"{live_url}{path}")
    drawer = page.locator("details.filter-drawer")
    assert drawer.evaluate("d => d.open") is False
    toggle = drawer.locator("summary.drawer-toggle")
    assert toggle.is_visible() and not page.locator("form.filters").is_visible()
    before = toggle.inner_text()
    assert before == ("Filters (1)" if "kind=" in path else "Filters")
    first_result = page.locator(results).first.bounding_box()
    assert first_result and first_result["y"] < 1400, "results within two screens"
    toggle.focus()
    page.keyboard.press("Enter")  # opens from the keyboard
    checkbox = page.locator("form.filters input[type=checkbox] >> visible=true").first
    checkbox.wait_for(state="visible")
    checkbox.check()
    wait_until(page, f"document.querySelector('.drawer-count').textContent !== {before[8:]!r}")
    assert toggle.inner_text() != before
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    context.close()
