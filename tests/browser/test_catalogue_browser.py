"""An editor adds the team's own hardware in Chromium: from a hardware page to the form, a
problem shown beside its field, then saved and shown marked as the team's; no
Content-Security-Policy or accessibility violation."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.test_accounts_browser import open_watched, sign_in, violations
from tests.browser.test_team_forms_browser import EDITOR, PASSWORD, no_axe_violations
from tests.browser.test_team_forms_browser import team_url as team_url  # the fixture

pytestmark = pytest.mark.browser


def test_an_editor_adds_hardware_from_a_hardware_page(
    browser, team_url: str, artifacts: Path
) -> None:
    page, console = open_watched(browser)
    page.goto(f"{team_url}/login?next=/hardware/nvidia-rtx-4090")
    sign_in(page, team_url, EDITOR, PASSWORD)
    page.wait_for_url("**/hardware/nvidia-rtx-4090")
    page.locator(".catalogue-add a[href='/catalogue/hardware']").click()
    page.wait_for_url("**/catalogue/hardware")
    page.fill("#add-hardware-name", "NVIDIA H200 NVL")
    page.fill("#add-hardware-memory_gb", "a lot")
    page.fill("#add-hardware-aliases", "H200 NVL\nH200 NVL 141GB")
    page.locator("form.catalogue-form button[type=submit]").click()
    expect(page.locator("#add-hardware-memory_gb-note")).to_contain_text("Not a number")
    page.screenshot(path=str(artifacts / "catalogue-add-hardware-problem.png"), full_page=True)
    no_axe_violations(page)
    page.fill("#add-hardware-memory_gb", "141")
    page.select_option("#add-hardware-form_factor", "pcie")
    page.locator("form.catalogue-form button[type=submit]").click()
    page.wait_for_url("**/hardware/nvidia-h200-nvl")
    assert page.locator("h1").inner_text() == "NVIDIA H200 NVL"
    expect(page.locator(".team-badge")).to_have_text("team-added")
    page.screenshot(path=str(artifacts / "catalogue-team-hardware.png"), full_page=True)
    no_axe_violations(page)
    assert violations(page, console) == []
