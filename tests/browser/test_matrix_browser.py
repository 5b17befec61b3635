"""The matrices in Chromium: HTMX filtering with URL state, history, cell panel, keyboard, axe."""

from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe

pytestmark = pytest.mark.browser


@pytest.fixture
def page(browser, live_url):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def rows(page) -> int:
    return page.locator("table.matrix tbody tr").count()


def test_filter_swaps_table_and_url_without_reload(page, live_url) -> None:
    page.goto(f"{live_url}/matrix")
    assert rows(page) == 27
    page.evaluate("window.__stillHere = true")
    page.locator("summary", has_text="Licence, kind, status").click()
    page.check('input[name="kind"][value="proxy"]')
    page.wait_for_url("**/matrix?kind=proxy")
    page.wait_for_function("document.querySelectorAll('table.matrix tbody tr').length === 2")
    assert page.evaluate("window.__stillHere") is True, "the page must not reload"
    assert page.locator(".count strong").inner_text() == "2"


def test_reload_and_back_restore_state(page, live_url) -> None:
    page.goto(f"{live_url}/hardware")
    page.locator("summary", has_text="Runs on").click()
    page.check('input[name="hw"][value="apple-silicon"]')
    page.wait_for_url("**/hardware?hw=apple-silicon")
    page.wait_for_function("document.querySelectorAll('table.matrix tbody tr').length < 27")
    filtered = rows(page)
    page.reload()
    assert rows(page) == filtered
    assert page.locator('input[name="hw"][value="apple-silicon"]').is_checked()
    page.go_back()
    page.wait_for_url(f"{live_url}/hardware")
    page.wait_for_function("document.querySelectorAll('table.matrix tbody tr').length === 27")
    assert not page.locator('input[name="hw"][value="apple-silicon"]').is_checked()


def test_disputed_cell_opens_both_sources(page, live_url) -> None:
    page.goto(f"{live_url}/matrix?group=batching")
    page.evaluate("window.__stillHere = true")
    row = page.locator("table.matrix tbody tr", has=page.locator("th a", has_text="llama.cpp"))
    row.locator("td.is-disputed a").first.click()
    panel = page.locator("#cell_detail")
    panel.locator(".claim-list li").first.wait_for()
    assert "Continuous batching" in panel.locator("h2").inner_text()
    levels = panel.locator(".claim-list .level").all_inner_texts()
    assert any("Yes" in t for t in levels) and any("No" in t for t in levels)
    assert panel.locator("a.cite").count() >= 3
    assert page.evaluate("window.__stillHere") is True


def test_keyboard_only_filtering_and_cell_panel(page, live_url) -> None:
    page.goto(f"{live_url}/matrix?group=apis")
    page.focus("#q")
    page.keyboard.type("olla")
    page.wait_for_url("**q=olla**")
    page.wait_for_function("document.querySelectorAll('table.matrix tbody tr').length < 27")
    page.keyboard.press("Tab")  # to the sort select
    page.keyboard.press("Tab")  # to differences-only
    page.keyboard.press("Space")
    page.wait_for_url("**diff=1**")
    link = page.locator("table.matrix td.lv a").first
    link.focus()
    page.keyboard.press("Enter")
    page.locator("#cell_detail .claim-list li").first.wait_for()
    # htmx focuses the panel's autofocus element once the swap settles.
    page.wait_for_function("document.activeElement.closest('#cell_detail') !== null")


A11Y_PATHS = [
    "/matrix",
    "/hardware",
    "/matrix?kind=proxy&need=mcp:yes",
    "/matrix/cell?system=vllm&capability=prefix-caching",
]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("path", A11Y_PATHS)
def test_no_accessibility_violations(browser, live_url, path, scheme) -> None:
    context = browser.new_context(color_scheme=scheme, viewport={"width": 1400, "height": 900})
    page = context.new_page()
    page.goto(f"{live_url}{path}")
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()
    context.close()


@pytest.mark.parametrize("view", ["matrix", "hardware"])
def test_screenshots_desktop_and_phone(browser, live_url, artifacts: Path, view) -> None:
    for name, width, scheme in (("desktop", 1400, "light"), ("desktop-dark", 1400, "dark"),
                                ("phone", 390, "light")):  # fmt: skip
        context = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
        page = context.new_page()
        page.goto(f"{live_url}/{view}")
        if name == "phone":
            page.locator(".matrix-scroll").evaluate("el => el.scrollLeft = 600")
            first = page.locator("table.matrix tbody th.system-col").first
            box = first.bounding_box()
            assert box and box["x"] >= 0 and box["x"] < 60, "system names stay in view"
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            page.locator(".matrix-scroll").scroll_into_view_if_needed()
        page.screenshot(path=artifacts / f"{view}-{name}.png")
        context.close()


def test_without_javascript_the_form_submits_and_reloads(browser, live_url) -> None:
    context = browser.new_context(
        java_script_enabled=False, viewport={"width": 1400, "height": 900}
    )
    page = context.new_page()
    page.goto(f"{live_url}/matrix")
    page.locator("summary", has_text="Licence, kind, status").click()
    page.check('input[name="licence"][value="proprietary"]')
    page.locator("summary", has_text="Must-have features").click()
    page.select_option(
        'select[aria-label="Prefix caching: minimum level"]', "prefix-caching:partial"
    )
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_url}/matrix?need=prefix-caching:partial&licence=proprietary")
    assert page.locator("table.matrix tbody tr").count() == 1
    page.locator("table.matrix td.lv a").first.click()
    page.wait_for_url("**/matrix/cell?**")
    assert page.locator("#cell_detail .claim-list li").count() >= 1
    context.close()
