"""The figure and claim pages in Chromium: reached from a results table and from the cell
panel beside the matrix, readable in light and dark and on a phone, no axe violations."""

import pytest
from axe_playwright_python.sync_playwright import Axe

pytestmark = pytest.mark.browser


def no_violations(page) -> None:
    violations = Axe().run(page).response["violations"]
    assert violations == [], [v["id"] for v in violations]


@pytest.mark.parametrize(("scheme", "width"), [("light", 1440), ("dark", 1440), ("light", 390)])
def test_a_figure_opens_from_the_results_table(browser, live_url, artifacts, scheme, width) -> None:
    context = browser.new_context(color_scheme=scheme, viewport={"width": width, "height": 900})
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{live_url}/benchmarks?system=tensorrt-llm&metric=throughput")
    page.locator("#result-bis-trtllm-l70b-throughput a.figure-link").click()
    page.wait_for_url("**/benchmarks/bis-trtllm-l70b-throughput")
    assert page.locator("h1").inner_text() == "TensorRT-LLM · Output throughput: 2,780 tok/s"
    assert page.locator("table.same-context tbody tr").count() == 2
    # Nothing scrolls sideways, on a phone either.
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.screenshot(path=str(artifacts / f"figure-{scheme}-{width}.png"), full_page=True)
    no_violations(page)
    context.close()


@pytest.mark.parametrize(("scheme", "width"), [("light", 1440), ("dark", 1440), ("light", 390)])
def test_a_claim_opens_from_the_cell_panel(browser, live_url, artifacts, scheme, width) -> None:
    context = browser.new_context(color_scheme=scheme, viewport={"width": width, "height": 900})
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{live_url}/matrix/cell?system=vllm&capability=prefix-caching")
    link = page.locator("a.claim-page-link[href$='/overview-early-2026']")
    link.click()
    page.wait_for_url("**/systems/vllm/claims/prefix-caching/overview-early-2026")
    assert "as Server overview says" in page.locator("h1").inner_text()
    # The article disagrees with the project's own docs: shown, outweighed, not disputed.
    assert page.locator(".dissent-flag").first.is_visible()
    assert page.locator(".disputed-flag").count() == 0
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.screenshot(path=str(artifacts / f"claim-{scheme}-{width}.png"), full_page=True)
    no_violations(page)
    context.close()
