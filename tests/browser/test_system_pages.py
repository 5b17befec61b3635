"""The system and source pages in a real browser: rendering, keyboard use, accessibility."""

from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe

pytestmark = pytest.mark.browser


def open_page(browser, url: str, scheme: str = "light", width: int = 1280):
    context = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url)
    return page, errors


@pytest.mark.parametrize("slug", ["vllm", "llama-cpp"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_system_page_renders_cleanly(browser, live_url, artifacts: Path, slug, scheme) -> None:
    page, errors = open_page(browser, f"{live_url}/systems/{slug}", scheme)
    assert page.locator("h1").inner_text() in {"vLLM", "llama.cpp"}
    assert page.locator("#features details.category").count() >= 5
    assert page.locator("#benchmarks tbody tr").count() >= 5
    # htmx is served from our own static folder and loads without errors.
    assert page.evaluate("typeof window.htmx") == "object"
    assert errors == []
    page.screenshot(path=artifacts / f"system-{slug}-{scheme}.png", full_page=True)
    page.context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("path", ["/systems/vllm", "/sources", "/", "/systems/nope"])
def test_pages_have_no_accessibility_violations(browser, live_url, path, scheme) -> None:
    page, _ = open_page(browser, f"{live_url}{path}", scheme)
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()
    page.context.close()


def test_keyboard_reaches_content_through_the_skip_link(browser, live_url) -> None:
    page, _ = open_page(browser, f"{live_url}/systems/vllm")
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.textContent")
    assert focused.strip() == "Skip to content"
    page.keyboard.press("Enter")
    assert page.url.endswith("#main")


def test_category_sections_collapse_from_the_keyboard(browser, live_url) -> None:
    page, _ = open_page(browser, f"{live_url}/systems/vllm")
    summary = page.locator("#features details.category summary").first
    summary.focus()
    page.keyboard.press("Enter")
    assert page.locator("#features details.category").first.get_attribute("open") is None


def test_phone_sized_system_page(browser, live_url, artifacts: Path) -> None:
    page, errors = open_page(browser, f"{live_url}/systems/llama-cpp", width=390)
    assert page.locator("h1").is_visible()
    page_width = page.evaluate("document.documentElement.scrollWidth")
    assert page_width <= 390, "the page itself must not scroll sideways; tables scroll inside"
    page.screenshot(path=artifacts / "system-llama-cpp-phone.png", full_page=False)
    assert errors == []
    page.context.close()


def test_phone_sees_the_summary_first_and_facts_fit(browser, live_url) -> None:
    page, _ = open_page(browser, f"{live_url}/systems/vllm", width=390)
    glance_top = page.locator(".glance").bounding_box()["y"]
    assert glance_top < 500, "the summary at a glance opens the page"
    for table in ("table.facts", "table.claims", "table.benchmarks"):
        fits = page.evaluate(
            f"[...document.querySelectorAll('{table}')]"
            ".every(t => t.scrollWidth <= t.parentElement.clientWidth + 1)"
        )
        assert fits, f"{table} is wider than a phone"
    page.context.close()


def test_a_caveat_shows_its_text_on_keyboard_focus(browser, live_url) -> None:
    page, _ = open_page(browser, f"{live_url}/systems/llama-cpp")
    mark = page.locator("a.caveat").first
    mark.focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")  # focus arrives from the keyboard, so :focus-visible applies
    shown = page.evaluate("getComputedStyle(document.activeElement, '::after').content")
    assert "chat-assistant" in shown or "vendor" in shown or "estimate" in shown, shown
    page.context.close()
