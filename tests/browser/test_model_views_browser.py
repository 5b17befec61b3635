"""The models matrix and a model page in Chromium (issue 35): a filter swaps the table and the
URL, a cell opens its registry rows in the panel, the fit slot stays a link when /fit/panel does
not answer; light, dark and phone screenshots; no axe violations."""

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.browser.conftest import wait_until

pytestmark = pytest.mark.browser

SHOTS = [("light", 1440), ("dark", 1440), ("light", 390)]


def _no_violations(page) -> None:
    violations = Axe().run(page).response["violations"]
    assert violations == [], [(v["id"], [n["target"] for n in v["nodes"]]) for v in violations]


def test_models_matrix_filters_and_opens_a_cell(browser, live_url, artifacts) -> None:
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{live_url}/matrix?view=models")
    page.evaluate("window.__stillHere = true")
    page.locator("summary", has_text="Kind").click()
    page.check('input[name="arch_kind"][value="moe"]')
    page.wait_for_url("**/matrix?view=models&arch_kind=moe")
    wait_until(page, "document.querySelectorAll('table.matrix tbody th[scope=row]').length === 1")
    assert page.evaluate("window.__stillHere") is True, "the page must not reload"
    page.locator('a[data-cell="tgi:DeepseekV3ForCausalLM"]').click()
    panel = page.locator("#cell_detail.is-open")
    panel.locator(".claim-list li").first.wait_for()
    assert "by v3.1.0" in panel.inner_text()
    assert "cell=tgi:DeepseekV3ForCausalLM" in page.url
    _no_violations(page)
    context.close()


@pytest.mark.parametrize(("scheme", "width"), SHOTS)
def test_model_views_look_right(browser, live_url, artifacts, scheme, width) -> None:
    context = browser.new_context(color_scheme=scheme, viewport={"width": width, "height": 900})
    page = context.new_page()
    page.set_default_timeout(10_000)
    for path, name in [
        ("/matrix?view=models", "models-matrix"),
        ("/matrix?view=models&cell=tgi:LlamaForCausalLM", "models-matrix-cell"),
        ("/models/llama-3.1-8b", "model-page"),
    ]:
        page.goto(f"{live_url}{path}")
        if name == "model-page":  # the fit panel has loaded in place of its link, never an error
            page.wait_for_load_state("networkidle")
            slot = page.locator("#fit-panel")
            assert slot.locator("table").count() > 0
            assert "error" not in slot.inner_text().lower()
        page.screenshot(path=str(artifacts / f"{name}-{scheme}-{width}.png"), full_page=True)
        _no_violations(page)
    context.close()
