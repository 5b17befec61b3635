"""/decide in Chromium: by clicking, by keyboard, without JavaScript; shared URLs; axe."""

from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.browser.conftest import wait_until

pytestmark = pytest.mark.browser


def picks(page) -> list[str]:
    return page.locator(".picks .pick-name").all_inner_texts()


def test_walk_the_flow_by_clicking_and_share_the_result(browser, live_url) -> None:
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    page.goto(f"{live_url}/decide")
    page.evaluate("window.__stillHere = true")
    for value, url in (
        ("nvidia-datacenter", "**/decide?hardware=nvidia-datacenter"),
        ("high-throughput", "**scale=high-throughput"),
        ("rag", "**workload=rag"),
    ):
        page.click(f'input[value="{value}"]')
        page.click(".question-form button[type=submit]")  # an answer counts on "Next"
        page.wait_for_url(url)
    assert page.evaluate("window.__stillHere") is True, "HTMX swaps; no page reload"
    assert picks(page)[0] == "SGLang"
    page.click(".question-form a[role=button]")
    page.wait_for_url("**skip=model")
    url = page.url
    shown = picks(page)
    fresh = browser.new_context().new_page()
    fresh.goto(url)
    assert picks(fresh) == shown
    fresh.context.close()
    context.close()


def test_why_not_by_clicking_in_place(browser, live_url, artifacts: Path) -> None:
    page = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
    page.goto(f"{live_url}/decide?hardware=nvidia-datacenter&scale=production&workload=rag")
    page.evaluate("window.__stillHere = true")
    second = picks(page)[1]
    page.locator(".picks li.pick").nth(1).locator("a.why-link").click()
    page.wait_for_url("**why=**")
    heading = page.locator("#why-not h3")
    heading.wait_for()
    assert heading.inner_text() == f"Why not {second}?"
    assert page.evaluate("window.__stillHere") is True, "HTMX swaps; no page reload"
    assert page.locator("#why-not h4").first.inner_text() in ("For", "Against")
    page.screenshot(path=artifacts / "decide-why-not.png", full_page=True)
    page.locator("#why-not a", has_text="Close").click()
    wait_until(page, "!location.search.includes('why=')")
    assert page.locator("#why-not").count() == 0
    page.context.close()


def test_a_tie_is_said_plainly(browser, live_url) -> None:
    page = browser.new_context().new_page()
    page.goto(f"{live_url}/decide?interface=api")
    note = page.locator(".tie-note").inner_text()
    assert "don't separate" in note and "vLLM" in note
    assert picks(page)[0] == "vLLM", "the sourced default order, not the alphabet"
    page.context.close()


@pytest.mark.parametrize(
    ("name", "query"),
    [
        ("one-answer", "hardware=nvidia-consumer"),
        ("three-answers", "hardware=apple-silicon&scale=single-user&workload=coding-agent"),
        (
            "all-answers",
            "hardware=amd-instinct&scale=production&workload=agents&model=moe"
            "&quantization=fp8&priority=throughput&interface=api&needs=multi-gpu&stack=docker",
        ),
    ],
)
def test_screens_after_one_three_and_all_answers(browser, live_url, artifacts, name, query) -> None:
    page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    page.goto(f"{live_url}/decide?{query}")
    assert picks(page), "a ranking from the first answer on"
    assert page.locator(".scale-line").is_visible()
    page.screenshot(path=artifacts / f"decide-{name}.png", full_page=True)
    page.context.close()


def test_keyboard_only(browser, live_url) -> None:
    """Arrow keys choose without leaving the question; Next moves on and focus follows to the
    new question's heading, from which one Tab reaches its first option (WCAG 3.2.2, 2.4.3)."""
    page = browser.new_context().new_page()
    page.goto(f"{live_url}/decide")
    page.focus('input[value="nvidia-datacenter"]')
    page.keyboard.press("ArrowDown")  # selects its finer "H100 or newer", and nothing more
    page.wait_for_timeout(300)
    assert page.url.endswith("/decide"), "choosing an answer does not submit it"
    assert page.locator('input[value="nvidia-hopper-or-newer"]').is_checked()
    page.locator(".question-form button[type=submit]").focus()
    page.keyboard.press("Enter")
    page.wait_for_url("**hardware=nvidia-hopper-or-newer")
    wait_until(page, "document.activeElement && document.activeElement.id === 'question-heading'")
    heading = page.evaluate("document.activeElement.textContent")
    assert heading == "How many people will use it at once?"
    # Focus moves on htmx:afterSwap; htmx wires the swapped-in form up a moment later (as it
    # settles). A key pressed in between submits the form natively, a full page load that
    # moves no focus: on a loaded CI machine this test once got there first.
    wait_until(
        page,
        "(document.querySelector('.question-form') || {})['htmx-internal-data']"
        "?.initHash !== undefined",
    )
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.name") == "scale"
    page.keyboard.press("Space")
    page.keyboard.press("Enter")  # Enter on a radio submits its form
    page.wait_for_url("**scale=**")
    wait_until(page, "document.activeElement.id === 'question-heading'")
    assert picks(page)
    page.context.close()


def test_the_default_order_is_shown_before_the_first_answer(browser, live_url) -> None:
    page = browser.new_context().new_page()
    page.goto(f"{live_url}/decide")
    assert page.locator("#result-heading").inner_text() == "Before your first answer"
    assert picks(page)[0] == "vLLM", "the sourced default order"
    assert page.locator(".picks .because a.cite").count() >= 1
    page.context.close()


def test_without_javascript(browser, live_url) -> None:
    page = browser.new_context(java_script_enabled=False).new_page()
    page.goto(f"{live_url}/decide")
    page.check('input[value="apple-silicon"]')
    page.click("text=Next")
    page.wait_for_url("**/decide?hardware=apple-silicon")
    page.click(".question-form a[role=button]")
    page.wait_for_url("**skip=scale")
    page.check('input[value="coding-agent"]')
    page.click("text=Next")
    page.wait_for_url("**workload=coding-agent**")
    assert picks(page)[0] == "oMLX"
    page.context.close()


A11Y_PAGES = (
    ("start", "/decide"),
    ("apple", "/decide?hardware=apple-silicon&workload=coding-agent"),
    ("rag", "/decide?hardware=nvidia-datacenter&scale=high-throughput&workload=rag"),
    ("tie", "/decide?model=dense&priority=throughput"),
    ("why", "/decide?scale=production&workload=rag&why=vllm"),
)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_accessibility_violations(browser, live_url, artifacts: Path, scheme) -> None:
    for name, path in A11Y_PAGES:
        page = browser.new_context(
            color_scheme=scheme, viewport={"width": 1400, "height": 1000}
        ).new_page()
        page.goto(f"{live_url}{path}")
        results = Axe().run(page)
        assert results.violations_count == 0, f"{path}: {results.generate_report()}"
        page.screenshot(path=artifacts / f"decide-{name}-{scheme}.png", full_page=True)
        page.context.close()
