"""An editor in Chromium imports a vLLM sweep: upload, a preview that names what the file
lacks beside the fields, the context given from the vocabulary, confirm, and the results on
/benchmarks marked as the team's; no Content-Security-Policy or accessibility violation."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.test_accounts_browser import open_watched, sign_in, violations
from tests.browser.test_team_forms_browser import EDITOR, PASSWORD, no_axe_violations
from tests.browser.test_team_forms_browser import team_url as team_url  # the fixture
from tests.team.test_import_api import SWEEP

pytestmark = pytest.mark.browser


def test_an_editor_imports_a_sweep_from_upload_to_benchmarks(
    browser, team_url: str, artifacts: Path
) -> None:
    page, console = open_watched(browser)
    page.goto(f"{team_url}/login?next=/imports")
    sign_in(page, team_url, EDITOR, PASSWORD)
    page.wait_for_url("**/imports")

    page.set_input_files("#imp-file", str(SWEEP))
    page.select_option("#imp-system", "vllm")
    page.screenshot(path=artifacts / "import-upload.png", full_page=True)
    page.click("form.import-form button[type=submit]")
    page.wait_for_url("**/imports/*")

    # The preview: four runs, nothing saved, and what the file does not say is asked for.
    expect(page.locator("table.import-runs tbody tr")).to_have_count(4)
    banner = page.locator(".problem-banner")
    expect(banner).to_contain_text("which hardware ran it?")
    expect(banner).to_contain_text("which precision were the weights in?")
    expect(banner).to_contain_text("'meta-llama/Llama-3.1-8B-Instruct'")
    expect(page.locator("#ctx-model-note")).to_contain_text("did you mean llama-3.1-8b")
    expect(page.locator(".confirm-import button")).to_be_disabled()
    first_model = page.locator("table.import-runs tbody tr").first.locator("td").nth(2)
    expect(first_model).to_contain_text("the file says “meta-llama/Llama-3.1-8B-Instruct”")
    page.screenshot(path=artifacts / "import-preview-asks.png", full_page=True)

    page.fill("#ctx-hardware", "H100 SXM")
    page.fill("#ctx-gpus", "1")
    page.fill("#ctx-precision", "fp8")
    page.fill("#ctx-model", "llama-3.1-8b")
    page.click("form.team-form:not(.import-offer) button[type=submit]")
    expect(page.locator(".problem-banner")).to_have_count(0)
    save = page.locator(".confirm-import button")
    expect(save).to_be_enabled()
    expect(page.locator("table.import-runs tbody tr").first).to_contain_text("1× NVIDIA H100 SXM5")
    no_axe_violations(page)
    page.screenshot(path=artifacts / "import-preview-ready.png", full_page=True)

    count = int(save.inner_text().split()[1])
    save.click()
    # The benchmarks page, showing only the team's results from this import.
    page.wait_for_url(re.compile(r"/benchmarks\?.*source=import-[0-9a-f]+"))
    assert "origin=team" in page.url
    expect(page.locator(".done-banner.flash")).to_contain_text(
        f"Saved {count} team results from {SWEEP.name}."
    )
    # One entry per run of the file (issue 37), its figures folded under it until opened.
    runs = page.locator("li.run-group")
    expect(runs).to_have_count(4)
    figures = page.locator("li.run-group details.run-figures tbody tr")
    assert figures.count() == count
    expect(figures.first).to_be_hidden()
    runs.first.locator("summary").click()
    expect(runs.first.locator("tbody tr").first).to_be_visible()
    no_axe_violations(page)
    page.screenshot(path=artifacts / "import-saved-benchmarks.png", full_page=True)
    for scheme, width in (("light", 1440), ("dark", 1440), ("light", 390)):
        page.emulate_media(color_scheme=scheme)
        page.set_viewport_size({"width": width, "height": 900})
        page.locator("#import-runs").scroll_into_view_if_needed()
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        no_axe_violations(page)
        page.screenshot(path=artifacts / f"import-runs-{scheme}-{width}.png")
    assert violations(page, console) == []
    page.context.close()
