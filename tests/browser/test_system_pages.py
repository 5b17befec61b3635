"""The system and source pages in a real browser: rendering, keyboard use, accessibility."""

import time
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.accounts.conftest import add_users
from tests.browser.conftest import serving
from tests.conftest import SEED_DIR
from tests.databases import copy_of
from tests.team.sweep_data import H100, VLLM_SWEEP, import_file

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


def test_category_sections_open_and_close_from_the_keyboard(browser, live_url) -> None:
    page, _ = open_page(browser, f"{live_url}/systems/vllm")
    first = page.locator("#features details.category").first
    assert first.get_attribute("open") is None  # closed at first: the page is a contents list
    first.locator("summary").focus()
    page.keyboard.press("Enter")
    assert first.get_attribute("open") is not None
    assert first.locator("table.claims").is_visible()
    page.keyboard.press("Enter")
    assert first.get_attribute("open") is None


@pytest.mark.parametrize(("width", "screens"), [(1440, 6), (390, 14)])
def test_a_system_page_is_a_few_screens_until_a_part_is_opened(
    browser, live_url, width: int, screens: int
) -> None:
    page, _ = open_page(browser, f"{live_url}/systems/vllm", width=width)
    closed = page_height(page)
    page.evaluate("document.querySelectorAll('main details').forEach(d => d.open = true)")
    assert closed <= screens * 900 < page_height(page), (closed, page_height(page))
    page.context.close()


def test_a_link_to_a_capability_opens_its_group(browser, live_url) -> None:
    page, _ = open_page(browser, f"{live_url}/systems/vllm#cap-prefix-caching")
    row = page.locator("#cap-prefix-caching")
    assert row.is_visible() and row.evaluate("r => r.closest('details').open")
    page.goto(f"{live_url}/systems/vllm#sources")  # the same document: hashchange
    page.evaluate("location.hash = 'cap-tool-calling'")
    assert page.locator("#cap-tool-calling").is_visible()
    page.context.close()


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


def page_height(page) -> int:
    return int(page.evaluate("document.documentElement.scrollHeight"))


def section_heights(page) -> dict[str, int]:
    """Each top-level section of a system page: its height in pixels."""
    return dict(
        page.evaluate(
            "[...document.querySelectorAll('article.system-page > section')]"
            ".map(s => [s.id || s.className, Math.round(s.getBoundingClientRect().height)])"
        )
    )


def test_a_four_run_import_keeps_the_system_page_short(
    browser, database_url: str, tmp_path_factory: pytest.TempPathFactory, artifacts: Path
) -> None:
    url = copy_of(database_url, tmp_path_factory.mktemp("import-groups"), SEED_DIR)
    add_users(url, {"eddie": "editor"})
    with serving(url) as base:
        page, errors = open_page(browser, f"{base}/systems/vllm", width=1440)
        before, sections_before = page_height(page), section_heights(page)
        import_file(
            url,
            VLLM_SWEEP,
            system="vllm",
            hardware=H100,
            gpus=1,
            precision="FP8",
            system_version="0.11.2",
        )
        # Another process wrote: the server sees the new data version within a second.
        deadline = time.monotonic() + 10
        while page.locator(".import-group").count() == 0:
            assert time.monotonic() < deadline, "the import never showed on the page"
            page.wait_for_timeout(300)
            page.reload()
        after, sections_after = page_height(page), section_heights(page)
        group = page.locator(".import-group")
        assert group.count() == 1
        assert group.locator(".import-loads").inner_text() == "c=1, 4, 16, 64"
        print(f"vLLM system page at 1440 px: {before} px before the import, {after} px after")
        print(f"sections before: {sections_before}\nsections after: {sections_after}")
        assert after <= 1.5 * before
        assert errors == []
        # The group under test; whole system pages have their own accessibility test.
        results = Axe().run(page, context=".import-group")
        assert results.violations_count == 0, results.generate_report()
        page.screenshot(path=artifacts / "system-vllm-imported-1440-light.png", full_page=True)
        page.locator("#benchmarks").screenshot(
            path=artifacts / "system-vllm-imported-1440-light-benchmarks.png"
        )
        page.context.close()
        for scheme, width in (("dark", 1440), ("light", 390)):
            shot, shot_errors = open_page(browser, f"{base}/systems/vllm", scheme, width)
            assert shot.locator(".import-group").count() == 1 and shot_errors == []
            # Nothing in the group runs past the viewport on a phone.
            overflow = shot.evaluate(
                "Math.max(...[...document.querySelectorAll('.import-group, .import-group *')]"
                ".map(e => e.getBoundingClientRect().right))"
            )
            assert overflow <= width
            name = f"system-vllm-imported-{width}-{scheme}"
            shot.screenshot(path=artifacts / f"{name}.png", full_page=True)
            shot.locator("#benchmarks").screenshot(path=artifacts / f"{name}-benchmarks.png")
            shot.context.close()
        listing, listing_errors = open_page(browser, f"{base}/benchmarks", width=1440)
        assert listing.locator(".import-group").count() == 1 and listing_errors == []
        results = Axe().run(listing, context=".import-group")
        assert results.violations_count == 0, results.generate_report()
        listing.screenshot(path=artifacts / "benchmarks-imported-1440-light.png", full_page=True)
        listing.context.close()
