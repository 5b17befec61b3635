"""/decide's finer answers in Chromium (issue 36 part 6): the NVIDIA generations and the
question about the model's family and attention, as a person sees them at 1440 px light and
dark and at 390 px; axe reports nothing."""

from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe

pytestmark = pytest.mark.browser

PAGES = (
    ("hardware", "/decide?step=hardware"),
    (
        "traits",
        "/decide?hardware=nvidia-hopper-or-newer&scale=high-throughput&workload=agents"
        "&model=moe&step=traits",
    ),
    ("named", "/decide?model=deepseek-v3&hardware=H200"),
)


@pytest.mark.parametrize(("scheme", "width"), [("light", 1440), ("dark", 1440), ("light", 390)])
def test_the_new_options_read_well_and_pass_axe(
    browser, live_url, artifacts: Path, scheme, width
) -> None:
    for name, path in PAGES:
        page = browser.new_context(
            color_scheme=scheme, viewport={"width": width, "height": 1000}
        ).new_page()
        page.goto(f"{live_url}{path}")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        results = Axe().run(page)
        assert results.violations_count == 0, f"{path}: {results.generate_report()}"
        page.screenshot(
            path=artifacts / f"decide-options-{name}-{scheme}-{width}.png", full_page=True
        )
        page.context.close()


def test_ticking_a_trait_moves_the_ranking_in_place(browser, live_url) -> None:
    page = browser.new_context(viewport={"width": 1440, "height": 900}).new_page()
    page.goto(f"{live_url}/decide?model=moe&step=traits")
    page.evaluate("window.__stillHere = true")
    heading = page.locator("#question-heading")
    assert heading.inner_text() == "Anything particular about the model?"
    page.check('input[name="traits"][value="mla"]')
    page.check('input[name="traits"][value="deepseek"]')
    page.click(".question-form button[type=submit]")
    page.wait_for_url("**traits=deepseek&traits=mla**")
    assert page.evaluate("window.__stillHere") is True, "HTMX swaps; no page reload"
    steps = page.locator(".steps li", has_text="Anything particular about the model?")
    assert "DeepSeek" in steps.inner_text()
    page.context.close()
