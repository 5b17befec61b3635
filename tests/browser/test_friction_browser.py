"""/benchmarks where a filter cannot help, in Chromium at 1440 px light and dark and 390 px:
an empty result names the filter that emptied it and links the nearest filters with
results; a service level says it reads team sweeps only. Axe finds nothing."""

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

WIDTHS = [("light", 1440), ("dark", 1440), ("light", 390)]


@pytest.mark.parametrize(("scheme", "width"), WIDTHS)
def test_an_empty_result_leads_on(browser, live_url: str, scheme: str, width: int) -> None:
    context = browser.new_context(color_scheme=scheme, viewport={"width": width, "height": 900})
    page = context.new_page()
    # A platform as /decide names it, with no accelerator of it in the data: not a 422.
    response = page.goto(f"{live_url}/benchmarks?hardware=google-tpu&metric=throughput")
    assert response is not None and response.status == 200
    ways = page.locator(".nearer-filters li")
    expect(ways.first).to_be_visible()
    page.locator(".empty-state").scroll_into_view_if_needed()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()
    page.screenshot(path=f"test-artifacts/benchmarks-empty-{scheme}-{width}.png")
    # Following "without the accelerator filter" gives results.
    page.locator(".nearer-filters li", has_text="accelerator").get_by_role(
        "link", name="Without the accelerator filter"
    ).click()
    expect(page.locator("table.results tbody tr").first).to_be_visible()
    context.close()


@pytest.mark.parametrize(("scheme", "width"), WIDTHS)
def test_a_service_level_says_what_it_cannot_read(
    browser, live_url: str, scheme: str, width: int
) -> None:
    context = browser.new_context(color_scheme=scheme, viewport={"width": width, "height": 900})
    page = context.new_page()
    page.goto(f"{live_url}/benchmarks?metric=throughput&per_user=20")
    note = page.locator(".level-unused")
    expect(note).to_contain_text("could not apply to")
    note.scroll_into_view_if_needed()
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()
    page.screenshot(path=f"test-artifacts/benchmarks-level-{scheme}-{width}.png")
    context.close()
