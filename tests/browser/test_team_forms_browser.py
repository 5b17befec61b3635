"""An editor in Chromium: a team claim from the matrix cell panel that disputes a published
one, a team result from the system page, both seen where readers look; messages beside the
fields; no Content-Security-Policy violation and no accessibility violation on the forms."""

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect
from sqlmodel import Session

from app.accounts import users as service
from app.db import make_engine, writer
from app.main import create_app
from app.settings import Settings
from tests.browser.conftest import _free_port, wait_until
from tests.browser.test_accounts_browser import open_watched, sign_in, violations
from tests.conftest import SEED_DIR
from tests.databases import copy_of

pytestmark = pytest.mark.browser

EDITOR, PASSWORD = "browser-editor", "correct horse battery staple"
CELL = "vllm:openai-api"


@pytest.fixture(scope="module")
def team_url(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server of its own on a copy of the database: the team rows made here stay here."""
    url = copy_of(database_url, tmp_path_factory.mktemp("team-browser"), SEED_DIR)
    engine = make_engine(url)
    with Session(writer(engine)) as session, session.begin():
        service.add_user(session, EDITOR, "editor", PASSWORD)
    engine.dispose()
    app = create_app(Settings(database_url=url, seed_dir=SEED_DIR))
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        assert time.monotonic() < deadline, "the test server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


def no_axe_violations(page) -> None:
    # Away from the button just clicked: Pico's hover colour is not what the page shows.
    page.mouse.move(0, 0)
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()


def test_an_editor_adds_a_disputing_claim_and_a_result_and_sees_them(
    browser, team_url: str, artifacts: Path
) -> None:
    page, console = open_watched(browser)
    page.goto(f"{team_url}/login?next=/matrix")
    sign_in(page, team_url, EDITOR, PASSWORD)
    page.wait_for_url("**/matrix")

    # The matrix cell panel: the published sources say yes; the team says partly.
    cell = page.locator(f"a[data-cell='{CELL}']")
    assert "is-disputed" not in (cell.locator("xpath=..").get_attribute("class") or "")
    cell.click()
    panel = page.locator("#cell_detail:not([hidden])")
    panel.locator("#claim-openai-api-level").select_option("partial")
    panel.locator("#claim-openai-api-note").fill("Our gateway drops tool calls")
    page.evaluate("window.__stillHere = true")
    panel.locator("form.claim-form button[type=submit]").click()
    expect(page.locator(".done-banner.flash")).to_contain_text(
        "Added the team's claim on vLLM · OpenAI-compatible API: Partial."
    )
    assert page.evaluate("window.__stillHere") is None, "reloaded to show the change"
    assert page.url.endswith(f"/matrix?cell={CELL}")
    disputed = page.locator(f"td.is-disputed a[data-cell='{CELL}']")
    expect(disputed).to_have_count(1)
    team_claim = page.locator("#cell_detail .claim-list li", has=page.locator(".team-badge"))
    expect(team_claim).to_contain_text("Our gateway drops tool calls")
    expect(team_claim.locator(".team-badge")).to_have_text("team claim")
    page.screenshot(path=artifacts / "team-matrix-cell.png")
    page.locator(".done-banner.flash button").click()  # dismissed
    expect(page.locator(".done-banner.flash")).to_have_count(0)

    # The system page: a result with a mistake first, then put right.
    page.goto(f"{team_url}/systems/vllm")
    page.locator("#add-team-result summary").click()
    page.select_option("#tr-metric", "ttft-p50")
    wait_until(page, "document.querySelector('#tr-unit option[value=\"tok/s\"]').hidden")
    assert page.locator("#tr-unit").input_value() == "ms"  # the unit follows the metric
    page.fill("#tr-low", "180")
    page.fill("#tr-high", "95")
    page.fill("#tr-hardware", "1x H100 SXM")
    page.fill("#tr-model", "Llama 3.1 8B")
    page.fill("#tr-concurrency", "16")
    page.evaluate("window.__stillHere = true")
    page.click("#team_result_form button[type=submit]")
    expect(page.locator("#tr-figure-note")).to_have_text("'low' (180) is above 'high' (95).")
    assert page.evaluate("window.__stillHere") is True, "the form was swapped in place"
    assert page.locator("#tr-hardware").input_value() == "1x H100 SXM"
    assert page.locator("#tr-low").get_attribute("aria-invalid") == "true"
    # Hardware comes from the shared vocabulary: the count goes in a field of its own.
    expect(page.locator("#tr-hardware-note")).to_contain_text(
        "Not a known hardware name; did you mean nvidia-h100-sxm5-80gb"
    )
    page.locator("#team_result_form").scroll_into_view_if_needed()
    page.screenshot(path=artifacts / "team-result-did-you-mean.png")
    page.fill("#tr-hardware", "H100 SXM")
    page.fill("#tr-gpus", "1")
    page.fill("#tr-low", "")
    page.fill("#tr-high", "")
    page.fill("#tr-value", "142")
    page.click("#team_result_form button[type=submit]")
    expect(page.locator(".done-banner.flash")).to_contain_text(
        "Added a team result for vLLM: Time to first token, p50 142 ms."
    )
    row = page.locator("#benchmarks tr:target")
    expect(row).to_contain_text("142 ms")
    expect(row.locator(".team-badge")).to_have_text("team-measured")
    expect(row.locator("[data-label='Measured by']")).to_have_text(EDITOR)
    expect(row.locator("[data-label='Accelerator']")).to_have_text("1× NVIDIA H100 SXM5 80GB")
    claim_row = page.locator("#cap-openai-api")
    expect(claim_row.locator(".disputed-flag")).to_have_count(1)
    expect(claim_row.locator("details.team-edit summary")).to_contain_text("Team claim: Partial")
    page.screenshot(path=artifacts / "team-system-page.png")
    result_id = row.get_attribute("id").removeprefix("bench-")
    row = page.locator(f"#bench-{result_id}")
    # The capability groups are folded (issue 37): a link to the row opens its group.
    page.evaluate("location.hash = 'cap-openai-api'")
    claim_row.locator("details.team-edit summary").click()
    claim_row.scroll_into_view_if_needed()
    page.screenshot(path=artifacts / "team-system-page-claim.png")

    # Edit: a validation message beside the field, on the edit form's own page.
    row.locator("a", has_text="Edit").click()
    page.wait_for_url(f"**/team-results/{result_id}/edit?next=/systems/vllm")
    # A date picker (issue 37): no impossible date can be typed; the server's check of a date
    # sent anyway is in tests/team/.
    expect(page.locator("#tr-date")).to_have_attribute("type", "date")
    page.fill("#tr-value", "-142")
    page.click("#team_result_form button[type=submit]")
    expect(page.locator("#tr-figure-note")).to_have_text("Too low: the lowest allowed is 0.")
    no_axe_violations(page)
    page.screenshot(path=artifacts / "team-edit-form-invalid.png", full_page=True)

    # /benchmarks: the result among the published ones, marked as the team's.
    page.goto(f"{team_url}/benchmarks?system=vllm&metric=ttft-p50")
    team_row = page.locator(f"#result-{result_id}")
    expect(team_row.locator(".team-badge")).to_have_text("team-measured")
    expect(team_row.locator(".team-actions a", has_text="Edit")).to_have_count(1)
    no_axe_violations(page)
    assert violations(page, console) == []
    page.context.close()


def test_an_edit_made_meanwhile_shows_both_versions(browser, team_url: str, artifacts) -> None:
    page, console = open_watched(browser)
    page.goto(f"{team_url}/login?next=/team-results/new%3Fsystem%3Dsglang")
    sign_in(page, team_url, EDITOR, PASSWORD)
    page.wait_for_url("**/team-results/new?system=sglang")
    page.select_option("#tr-metric", "throughput")
    page.fill("#tr-value", "5100")
    page.fill("#tr-note", "first run")
    page.click("#team_result_form button[type=submit]")
    row = page.locator("#benchmarks tr:target")
    result_id = row.get_attribute("id").removeprefix("bench-")
    edit = f"{team_url}/team-results/{result_id}/edit"
    other = page.context.new_page()  # the same editor in a second tab
    other.goto(edit)
    page.goto(edit)
    other.fill("#tr-value", "5300")
    other.click("#team_result_form button[type=submit]")
    other.wait_for_url("**/systems/sglang#bench-*")
    page.fill("#tr-note", "second run, warm cache")
    page.click("#team_result_form button[type=submit]")
    clash = page.locator(".clash")
    expect(clash).to_contain_text("saved this result after you opened it")
    expect(page.locator(".clash-table tr.differs")).to_have_count(2)
    expect(page.locator("#team_result_form button[type=submit]")).to_have_text(
        "Save mine on top of version 2"
    )
    no_axe_violations(page)
    page.screenshot(path=artifacts / "team-edit-conflict.png", full_page=True)
    page.click("#team_result_form button[type=submit]")
    expect(page.locator(".done-banner.flash")).to_contain_text("(version 3)")
    assert violations(page, console) == []
    page.context.close()


def test_the_forms_in_the_dark_and_on_a_phone(browser, team_url: str, artifacts: Path) -> None:
    context = browser.new_context(color_scheme="dark", viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(f"{team_url}/login?next=/team-results/new")
    sign_in(page, team_url, EDITOR, PASSWORD)
    page.wait_for_url("**/team-results/new")
    page.select_option("#tr-system", "llama-cpp")
    page.click("#team_result_form button[type=submit]")
    expect(page.locator("#tr-metric-note")).to_have_text("Required.")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    no_axe_violations(page)
    page.screenshot(path=artifacts / "team-add-form-invalid-dark-phone.png", full_page=True)
    context.close()


def test_an_editor_gives_the_team_claim_on_a_cell_no_source_covers(
    browser, team_url: str, artifacts: Path
) -> None:
    page, console = open_watched(browser)
    page.goto(f"{team_url}/login?next=/hardware")
    sign_in(page, team_url, EDITOR, PASSWORD)
    page.wait_for_url("**/hardware")
    cell = page.locator("td.lv-no-claim a[data-cell='litellm:intel-gaudi']")
    expect(cell).to_have_count(1)
    cell.click()
    panel = page.locator("#cell_detail:not([hidden])")
    expect(panel).to_contain_text("No source says")
    panel.locator("#claim-intel-gaudi-level").select_option("no")
    panel.locator("#claim-intel-gaudi-note").fill("Tried on a Gaudi 2 node: not supported")
    page.screenshot(path=artifacts / "team-empty-cell-panel.png")
    panel.locator("form.claim-form button[type=submit]").click()
    expect(page.locator(".done-banner.flash")).to_contain_text(
        "Added the team's claim on LiteLLM · Intel Gaudi"
    )
    claimed = page.locator("td.lv-no a[data-cell='litellm:intel-gaudi']")
    expect(claimed).to_have_count(1)
    assert violations(page, console) == []
    page.context.close()
