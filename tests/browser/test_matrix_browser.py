"""The matrices in Chromium: HTMX filtering with URL state, history, cell panel, keyboard, axe."""

from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.browser.conftest import wait_until

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
    assert rows(page) == 17
    page.evaluate("window.__stillHere = true")
    page.locator("summary", has_text="Licence, kind, status").click()
    page.check('input[name="kind"][value="proxy"]')
    page.wait_for_url("**/matrix?kind=proxy")
    wait_until(page, "document.querySelectorAll('table.matrix tbody tr').length === 2")
    assert page.evaluate("window.__stillHere") is True, "the page must not reload"
    assert page.locator(".count strong").inner_text() == "2"


def test_reload_and_back_restore_state(page, live_url) -> None:
    page.goto(f"{live_url}/hardware")
    page.locator("summary", has_text="Runs on").click()
    page.check('input[name="hw"][value="apple-silicon"]')
    page.wait_for_url("**/hardware?hw=apple-silicon")
    wait_until(page, "document.querySelectorAll('table.matrix tbody tr').length < 17")
    filtered = rows(page)
    page.reload()
    assert rows(page) == filtered
    assert page.locator('input[name="hw"][value="apple-silicon"]').is_checked()
    page.go_back()
    page.wait_for_url(f"{live_url}/hardware")
    wait_until(page, "document.querySelectorAll('table.matrix tbody tr').length === 17")
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
    wait_until(page, "document.querySelectorAll('table.matrix tbody tr').length < 17")
    page.keyboard.press("Tab")  # to the sort select
    page.keyboard.press("Tab")  # to differences-only
    page.keyboard.press("Space")
    page.wait_for_url("**diff=1**")
    link = page.locator("table.matrix td.lv a").first
    link.focus()
    page.keyboard.press("Enter")
    page.locator("#cell_detail .claim-list li").first.wait_for()
    # htmx focuses the panel's autofocus element once the swap settles.
    wait_until(page, "document.activeElement.closest('#cell_detail') !== null")


A11Y_PATHS = [
    "/matrix",
    "/hardware",
    "/matrix?kind=proxy&need=mcp:yes",
    "/matrix?q=tool+calling&min_coverage=10&cell=vllm:prefix-caching",
    "/matrix/cell?system=vllm&capability=prefix-caching",
    "/features/prefix-caching",
    "/features/nope",
    "/features",
    "/models",
    "/search?q=llama",
]  # /benchmarks: test_benchmarks_browser


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
    for name, width, scheme in (
        ("desktop", 1400, "light"),
        ("desktop-dark", 1400, "dark"),
        ("phone", 390, "light"),
    ):
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
    assert page.locator("#need-find").is_hidden(), "type-to-find needs JavaScript"
    page.select_option("#add", "prefix-caching")
    page.select_option("#at", "partial")
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_url}/matrix?need=prefix-caching:partial&licence=proprietary")
    assert page.locator("table.matrix tbody tr").count() == 1
    page.locator("table.matrix td.lv a").first.click()
    page.wait_for_url("**/matrix/cell?**")
    assert page.locator("#cell_detail .claim-list li").count() >= 1
    context.close()


def test_without_javascript_chips_remove_filters_and_the_picker_adds(browser, live_url) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{live_url}/matrix?need=prefix-caching:partial&licence=proprietary")
    page.select_option("#add", "tool-calling")
    page.get_by_role("button", name="Add", exact=True).click()
    page.wait_for_url("**need=prefix-caching:partial&need=tool-calling&licence=proprietary")
    page.locator("a.chip", has_text="Proprietary licence").click()
    page.wait_for_url(f"{live_url}/matrix?need=prefix-caching:partial&need=tool-calling")
    context.close()


def test_picker_finds_a_feature_by_typing_and_adds_it_as_a_chip(page, live_url) -> None:
    page.goto(f"{live_url}/matrix")
    page.evaluate("window.__stillHere = true")
    page.fill("#need-find", "tool call")
    assert page.locator("#add").input_value() == "tool-calling"
    assert page.locator("#add option[value='prefix-caching']").evaluate("o => o.hidden")
    page.select_option("#at", "yes")
    assert "need=" not in page.url, "choosing alone changes nothing until Add"
    page.get_by_role("button", name="Add", exact=True).click()
    page.wait_for_url("**/matrix?need=tool-calling:yes")
    chip = page.locator("a.chip", has_text="Must have Tool calling (yes)")
    chip.wait_for()
    assert page.evaluate("window.__stillHere") is True
    assert page.locator("#add").input_value() == "", "the picker is ready for the next one"
    page.fill("#need-find", "prefix")
    page.get_by_role("button", name="Add", exact=True).click()
    page.wait_for_url("**/matrix?need=tool-calling:yes&need=prefix-caching")
    page.locator("a.chip", has_text="Must have Prefix caching").click()
    page.wait_for_url("**/matrix?need=tool-calling:yes")


def test_search_offers_the_feature_it_names(page, live_url) -> None:
    page.goto(f"{live_url}/matrix")
    page.fill("#q", "tool calling")
    offer = page.locator(".capability-matches a.filter-link").first
    offer.wait_for()
    offer.click()
    page.wait_for_url("**/matrix?need=tool-calling")
    assert page.locator("#q").input_value() == ""
    assert rows(page) > 0


def test_cell_panel_has_a_url_escape_closes_it_and_focus_returns(page, live_url) -> None:
    page.goto(f"{live_url}/matrix?group=batching")
    cell = page.locator('a[data-cell="llama-cpp:continuous-batching"]')
    cell.click()
    panel = page.locator("#cell_detail")
    panel.locator(".claim-list li").first.wait_for()
    page.wait_for_url("**/matrix?group=batching&cell=llama-cpp:continuous-batching")
    box = panel.bounding_box()
    assert box and 0 <= box["y"] < 900 and box["x"] + box["width"] <= 1400, "opens in view"
    wait_until(page, "document.activeElement.closest('#cell_detail') !== null")
    page.keyboard.press("Escape")
    page.wait_for_url("**/matrix?group=batching")
    assert panel.is_hidden()
    assert page.evaluate("document.activeElement.dataset.cell") == "llama-cpp:continuous-batching"


def test_back_closes_the_cell_panel_and_its_url_reopens_it(page, live_url) -> None:
    page.goto(f"{live_url}/matrix?group=batching")
    page.locator('a[data-cell="vllm:continuous-batching"]').click()
    page.wait_for_url("**cell=vllm:continuous-batching")
    page.locator("#cell_detail .claim-list li").first.wait_for()
    url = page.url
    page.go_back()
    page.wait_for_url(f"{live_url}/matrix?group=batching")
    page.locator("#cell_detail").wait_for(state="hidden")
    page.goto(url)
    assert "vLLM · Continuous batching" in page.locator("#cell_detail h2").inner_text()
    wait_until(page, "document.activeElement.id === 'cell-heading'")
    page.keyboard.press("Escape")
    page.wait_for_url(f"{live_url}/matrix?group=batching")
    assert page.locator("#cell_detail").is_hidden()


def test_an_outweighed_article_is_labelled_in_the_panel_not_disputed(
    browser, live_url, artifacts: Path
) -> None:
    # vLLM's docs say yes to prefix caching; the overview's "no" is shown, labelled, no flag.
    for name, width, scheme in (
        ("desktop", 1440, "light"),
        ("desktop-dark", 1440, "dark"),
        ("phone", 390, "light"),
    ):
        context = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
        page = context.new_page()
        page.goto(f"{live_url}/matrix?group=memory&cell=vllm:prefix-caching")
        panel = page.locator("#cell_detail")
        flag = panel.locator(".dissent-flag")
        flag.wait_for()
        assert flag.inner_text().startswith("An article disagrees (Jan 2026)")
        assert panel.locator(".disputed-flag").count() == 0
        box = flag.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= width
        flag.scroll_into_view_if_needed()
        page.screenshot(path=artifacts / f"cell-dissent-{name}.png")
        context.close()
