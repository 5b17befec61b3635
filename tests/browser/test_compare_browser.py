"""/compare in Chromium: build by typing and clicking, share the URL, keyboard, axe, print."""

from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe

pytestmark = pytest.mark.browser


def table_text(page) -> str:
    return page.locator("table.compare").inner_text()


def test_build_share_and_reopen(browser, live_url) -> None:
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_url)
    page = context.new_page()
    page.goto(f"{live_url}/compare?s=vllm&s=sglang")
    page.fill('form.add-system input[name="q"]', "llama")
    page.locator("#suggestions a", has_text="Add llama.cpp").click()
    page.wait_for_url(f"{live_url}/compare?s=vllm&s=sglang&s=llama-cpp")
    assert page.locator("thead .compare-name").all_inner_texts() == ["vLLM", "SGLang", "llama.cpp"]
    page.click("button[data-copy]")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == f"{live_url}/compare?s=vllm&s=sglang&s=llama-cpp"
    original = table_text(page)
    fresh = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
    fresh.goto(copied)
    assert table_text(fresh) == original
    assert fresh.title() == page.title()
    fresh.context.close()
    context.close()


def test_differences_only_toggle(browser, live_url) -> None:
    page = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
    page.goto(f"{live_url}/compare?s=vllm&s=sglang")
    before = page.locator("table.compare tbody tr").count()
    page.click("text=Differences only")
    page.wait_for_url("**diff=1")
    assert page.locator("table.compare tbody tr").count() < before
    assert page.locator("[aria-pressed=true]").inner_text() == "Show everything"
    page.context.close()


def test_keyboard_only(browser, live_url) -> None:
    page = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
    page.goto(f"{live_url}/compare?s=omlx&s=mlx-lm")
    page.focus('form.add-system input[name="q"]')
    page.keyboard.type("ollama")
    page.locator("#suggestions a", has_text="Add Ollama").wait_for()
    page.keyboard.press("Tab")  # the Find button
    page.keyboard.press("Tab")  # the first suggestion
    assert page.evaluate("document.activeElement.textContent").startswith("Add Ollama")
    page.keyboard.press("Enter")
    page.wait_for_url("**s=ollama")
    page.context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_accessibility_violations(browser, live_url, scheme) -> None:
    for path in (
        "/compare?s=vllm&s=sglang&s=llama-cpp",
        "/compare",
        "/compare?s=vllm&s=vllm",
        "/compare?s=llama-cpp&s=ollama&s=lm-studio&diff=1",
    ):
        page = browser.new_context(color_scheme=scheme).new_page()
        page.goto(f"{live_url}{path}")
        results = Axe().run(page)
        assert results.violations_count == 0, f"{path}: {results.generate_report()}"
        page.context.close()


def test_screenshots_desktop_phone_and_print(browser, live_url, artifacts: Path) -> None:
    url = f"{live_url}/compare?s=vllm&s=sglang&s=llama-cpp"
    for name, width in (("desktop", 1400), ("phone", 390)):
        page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
        page.goto(url)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.screenshot(path=artifacts / f"compare-{name}.png")
        page.context.close()
    page = browser.new_context(viewport={"width": 1000, "height": 1400}).new_page()
    page.goto(url)
    page.emulate_media(media="print")
    assert page.locator(".add-system").is_hidden()
    assert page.locator(".print-only").is_visible()
    page.screenshot(path=artifacts / "compare-print.png", full_page=True)
    page.context.close()


STICKY_PAGE = "/compare?s=llama-cpp&s=ollama&s=lm-studio"


def header_after_scrolling(page) -> dict:
    """Where the row of system names sits once the features are scrolled into view."""
    page.locator("tbody.capabilities").first.scroll_into_view_if_needed()
    page.evaluate("window.scrollBy(0, 600)")
    return page.evaluate(
        """() => {
        const cells = [...document.querySelectorAll('table.compare thead th')];
        const boxed = [];
        const table = document.querySelector('table.compare');
        for (let el = table.parentElement; el; el = el.parentElement) {
            const o = getComputedStyle(el).overflowY;
            if (o === 'auto' || o === 'scroll') boxed.push(el.tagName);
        }
        return {tops: cells.map(c => Math.round(c.getBoundingClientRect().top)),
                lefts: cells.map(c => Math.round(c.getBoundingClientRect().left)),
                scrollY: window.scrollY, boxed: boxed,
                width: document.documentElement.scrollWidth};
    }"""
    )


@pytest.mark.parametrize("width", [1440, 390])
def test_one_page_scroll_with_the_names_stuck_on_top(browser, live_url, width) -> None:
    page = browser.new_context(viewport={"width": width, "height": 800}).new_page()
    page.goto(f"{live_url}{STICKY_PAGE}")
    where = header_after_scrolling(page)
    assert where["boxed"] == []  # no scroll box of its own: the page scrolls
    assert where["scrollY"] > 1000
    assert all(0 <= top <= 2 for top in where["tops"]), where
    # Side by side on a phone too, and nothing wider than the screen.
    assert where["lefts"] == sorted(where["lefts"]) and len(set(where["lefts"])) == 3
    assert where["width"] <= width
    page.context.close()
