"""The team's entries in Chromium: the list with an entry in use, the delete page that says
what uses it, an edit refused because someone saved first, a saved import opened by a reader
who is not signed in, and /changes with the import as one entry; at 1440 px light and dark
and at 390 px, with screenshots, no axe or Content-Security-Policy violation and nothing
wider than the window."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.test_accounts_browser import open_watched, sign_in, violations
from tests.browser.test_team_forms_browser import EDITOR, PASSWORD, no_axe_violations
from tests.browser.test_team_forms_browser import team_url as team_url  # the fixture

pytestmark = pytest.mark.browser
SWEEP = (
    Path(__file__).parents[1] / "imports" / "fixtures" / "vllm-bench" / "sweep-append-result.json"
)
VIEWS = [("light", 1440), ("dark", 1440), ("light", 390)]


def _fits(page, width: int) -> None:
    wide = page.evaluate(
        "[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right"
        f" > {width} + 1).map(e => e.tagName + '.' + e.className)"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= width, wide


@pytest.fixture(scope="module")
def made(browser, team_url: str) -> dict[str, str]:
    """An entry in use, an import saved: made once, through the forms, as the editor."""
    page, _ = open_watched(browser)
    page.goto(f"{team_url}/login?next=/catalogue/hardware")
    sign_in(page, team_url, EDITOR, PASSWORD)
    page.wait_for_url("**/catalogue/hardware")
    page.fill("#add-hardware-name", "Browser Catalogue GPU")
    page.fill("#add-hardware-memory_gb", "96")
    page.locator("form.catalogue-form button[type=submit]").click()
    page.wait_for_url("**/hardware/browser-catalogue-gpu")
    same = {"Origin": team_url, "Sec-Fetch-Site": "same-origin"}
    result = {
        "metric": "throughput",
        "unit": "tok/s",
        "value": "2450",
        "gpus": "1",
        "hardware": "Browser Catalogue GPU",
        "model": "Llama 3.1 8B",
        "precision": "FP16",
        "concurrency": "32",
        "date": "2026-11-20",
    }
    saved = page.request.post(
        f"{team_url}/systems/vllm/team-results", form=result, headers=same, max_redirects=0
    )
    assert saved.status == 303, saved.text()
    upload = {
        "file": {"name": SWEEP.name, "mimeType": "application/json", "buffer": SWEEP.read_bytes()},
        "system": "vllm",
        "hardware": "H100 SXM",
        "gpus": "1",
        "precision": "FP8",
        "model": "llama-3.1-8b",
    }
    sent = page.request.post(f"{team_url}/imports", multipart=upload, headers=same, max_redirects=0)
    assert sent.status == 303, sent.text()
    where = sent.headers["location"]
    done = page.request.post(f"{team_url}{where}/confirm", headers=same, max_redirects=0)
    assert done.status == 303, done.text()
    page.context.close()
    return {"gpu": "browser-catalogue-gpu", "import": where}


@pytest.mark.parametrize(("scheme", "width"), VIEWS)
def test_the_team_entries_and_their_edit_and_delete_pages(
    browser, team_url: str, made: dict[str, str], artifacts: Path, scheme: str, width: int
) -> None:
    page, console = open_watched(browser, width=width)
    page.emulate_media(color_scheme=scheme)
    page.goto(f"{team_url}/login?next=/catalogue")
    sign_in(page, team_url, EDITOR, PASSWORD)
    page.wait_for_url("**/catalogue")
    row = page.locator(f"#team-hardware-{made['gpu']}")
    expect(row).to_contain_text("1 result")
    _fits(page, width)
    no_axe_violations(page)
    page.screenshot(path=str(artifacts / f"team-catalogue-{scheme}-{width}.png"), full_page=True)

    row.get_by_role("link", name="Withdraw").click()
    page.wait_for_url(f"**/catalogue/hardware/{made['gpu']}/delete")
    expect(page.locator("main")).to_contain_text("cannot be deleted while something uses it")
    _fits(page, width)
    no_axe_violations(page)
    page.screenshot(path=str(artifacts / f"team-entry-delete-{scheme}-{width}.png"), full_page=True)

    # Someone saves the entry while this form is open: the save is refused, nothing lost.
    page.goto(f"{team_url}/catalogue/hardware/{made['gpu']}/edit")
    version = page.locator("form.catalogue-form [name=version]").input_value()
    same = {"Origin": team_url, "Sec-Fetch-Site": "same-origin"}
    other = page.request.post(
        f"{team_url}/catalogue/hardware/{made['gpu']}/edit",
        form={
            "version": version,
            "name": "Browser Catalogue GPU",
            "memory_gb": str(96 + int(version)),
        },
        headers=same,
        max_redirects=0,
    )
    assert other.status == 303
    page.fill("#edit-hardware-vendor", "Mine")
    page.locator("form.catalogue-form button[type=submit]").click()
    # Both versions side by side, what was typed kept (issue 37).
    expect(page.locator(".clash[role=alert]")).to_contain_text("Nothing was overwritten")
    expect(page.locator("#edit-hardware-vendor")).to_have_value("Mine")
    _fits(page, width)
    no_axe_violations(page)
    page.screenshot(path=str(artifacts / f"team-entry-stale-{scheme}-{width}.png"), full_page=True)
    assert violations(page, console) == []
    page.context.close()


@pytest.mark.parametrize(("scheme", "width"), VIEWS)
def test_a_reader_opens_a_saved_import_and_sees_it_once_in_changes(
    browser, team_url: str, made: dict[str, str], artifacts: Path, scheme: str, width: int
) -> None:
    page, console = open_watched(browser, width=width)
    page.emulate_media(color_scheme=scheme)
    page.goto(f"{team_url}/changes")
    item = page.locator(f"li.change-import:has(a[href='{made['import']}'])")
    expect(item).to_have_count(1)
    _fits(page, width)
    no_axe_violations(page)
    page.screenshot(path=str(artifacts / f"changes-import-{scheme}-{width}.png"), full_page=True)
    item.locator(f"a[href='{made['import']}']").click()
    page.wait_for_url(f"**{made['import']}")
    expect(page.locator("h1")).to_have_text(SWEEP.name)
    expect(page.locator("table.import-runs tbody tr")).to_have_count(4)
    expect(page.locator("form")).to_have_count(1)  # the header's search, nothing to change
    _fits(page, width)
    no_axe_violations(page)
    page.screenshot(path=str(artifacts / f"import-reader-{scheme}-{width}.png"), full_page=True)
    assert violations(page, console) == []
    page.context.close()
