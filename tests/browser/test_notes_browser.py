"""Team notes in Chromium: an editor annotates a published claim on the system page (a message
beside the field first), and a figure on /benchmarks; a reader sees both; after a reseed
without them, the claim and the figure show as withdrawn with their notes. No
Content-Security-Policy or accessibility violation on the way."""

import shutil
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import uvicorn
from playwright.sync_api import expect
from sqlmodel import Session

from app.accounts import users as service
from app.db import make_engine, writer
from app.main import create_app
from app.seeding.prepare import seed
from app.settings import Settings
from tests.browser.conftest import _free_port, wait_until
from tests.browser.test_accounts_browser import open_watched, sign_in, violations
from tests.browser.test_team_forms_browser import no_axe_violations
from tests.conftest import SEED_DIR
from tests.databases import copy_of
from tests.team.test_withdrawn import without_claim, without_figure

pytestmark = pytest.mark.browser

EDITOR, PASSWORD = "note-editor", "correct horse battery staple"
CLAIM = {"system": "vllm", "capability": "prefix-caching", "source": "overview-early-2026"}
ADD = "#note-new-c-vllm-prefix-caching-overview-early-2026"
FIGURE = "ov-vllm-h100-peak"
DOCS = "https://docs.vllm.ai/en/latest/features/automatic_prefix_caching.html"


@dataclass
class Server:
    url: str
    database: str


@pytest.fixture(scope="module")
def server(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server of its own on a copy of the database: this module reseeds it."""
    url = copy_of(database_url, tmp_path_factory.mktemp("notes-browser"), SEED_DIR)
    engine = make_engine(url)
    with Session(writer(engine)) as session, session.begin():
        service.add_user(session, EDITOR, "editor", PASSWORD)
    engine.dispose()
    app = create_app(Settings(database_url=url, seed_dir=SEED_DIR))
    port = _free_port()
    uv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=uv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not uv.started:
        assert time.monotonic() < deadline, "the test server did not start"
        time.sleep(0.05)
    yield Server(f"http://127.0.0.1:{port}", url)
    uv.should_exit = True
    thread.join(timeout=10)


def test_an_editor_adds_a_note_to_a_published_claim_and_a_reader_sees_it(
    browser, server: Server, artifacts: Path
) -> None:
    page, console = open_watched(browser)
    page.goto(f"{server.url}/login?next=/systems/vllm%23cap-prefix-caching")
    sign_in(page, server.url, EDITOR, PASSWORD)
    page.wait_for_url("**/systems/vllm#cap-prefix-caching")

    # The link becomes the form in place (HTMX), and a problem comes back beside its field.
    page.evaluate("window.__stillHere = true")
    page.click(ADD)
    form = page.locator(f"form{ADD}")
    expect(form.locator("textarea[name=text]")).to_be_visible()
    form.locator("input[name=link]").fill("javascript:alert(1)")
    form.locator("button[type=submit]").click()
    expect(page.locator(f"{ADD}-link-note")).to_have_text(
        "Not a web address; allowed: http:// or https:// and a host name."
    )
    expect(page.locator(f"{ADD}-text-note")).to_have_text("Required.")
    assert page.evaluate("window.__stillHere") is True, "the form was swapped in place"
    no_axe_violations(page)
    form.scroll_into_view_if_needed()
    page.screenshot(path=artifacts / "notes-claim-form-invalid.png")

    form.locator("textarea[name=text]").fill(
        "Wrong for current vLLM: automatic prefix caching is on by default since V1.\n"
        "Our nightly run hits 80 % of prefixes."
    )
    form.locator("input[name=link]").fill(
        "https://docs.vllm.ai/en/latest/features/automatic_prefix_caching.html"
    )
    form.locator("button[type=submit]").click()
    expect(page.locator(".done-banner.flash")).to_contain_text(
        "Added a team note on vLLM · Prefix caching, as Server overview says."
    )
    note = page.locator("li.team-note:target")
    expect(note.locator(".note-badge")).to_have_text("team note")
    expect(note.locator(".note-by")).to_contain_text(EDITOR)
    link = note.locator("a.note-link")  # a long address is cut short on the page, not in the href
    expect(link).to_have_text("docs.vllm.ai/en/latest/features/automatic_prefix_caching.ht…")
    expect(link).to_have_attribute("href", DOCS)
    page.locator(".done-banner.flash button").click()
    page.locator("#cap-prefix-caching").scroll_into_view_if_needed()
    page.screenshot(path=artifacts / "notes-claim-editor.png")
    no_axe_violations(page)
    assert violations(page, console) == []
    page.context.close()

    # A reader (no account) sees it beside the claim, on the page and in the matrix cell panel.
    reader, console = open_watched(browser)
    reader.goto(f"{server.url}/systems/vllm#cap-prefix-caching")
    row = reader.locator("#cap-prefix-caching")
    expect(row.locator(".team-note .note-text")).to_contain_text("Our nightly run hits 80 %")
    expect(row.locator("a.note-add")).to_have_count(0)
    row.scroll_into_view_if_needed()
    reader.screenshot(path=artifacts / "notes-claim-reader.png")
    reader.goto(f"{server.url}/matrix?cell=vllm:prefix-caching")
    expect(reader.locator("#cell_detail .team-note .note-text")).to_contain_text("80 %")
    reader.screenshot(path=artifacts / "notes-cell-panel.png")
    no_axe_violations(reader)
    assert violations(reader, console) == []
    reader.context.close()


def test_a_note_on_a_figure_and_the_withdrawn_rows_after_a_reseed(
    browser, server: Server, artifacts: Path, tmp_path: Path
) -> None:
    page, console = open_watched(browser)
    page.goto(f"{server.url}/login?next=/benchmarks%3Fsystem%3Dvllm")
    sign_in(page, server.url, EDITOR, PASSWORD)
    page.wait_for_url("**/benchmarks?system=vllm")
    page.click(f"#result-{FIGURE} a.note-add")
    form = page.locator(f"form#note-new-r-{FIGURE}")
    form.locator("textarea[name=text]").fill(
        "A peak from a comparison table, not a sustained rate."
    )
    form.locator("button[type=submit]").click()
    expect(page.locator(".done-banner.flash")).to_contain_text("Added a team note on vLLM")
    expect(page.locator(f"#result-{FIGURE} + tr.notes-row .note-text")).to_contain_text("A peak")
    page.context.close()

    copy = tmp_path / "seed"
    shutil.copytree(SEED_DIR, copy)
    without_claim(copy, **CLAIM)
    without_figure(copy, FIGURE)
    engine = make_engine(server.database)
    seed(engine, copy)
    engine.dispose()

    reader, console = open_watched(browser)
    reader.goto(f"{server.url}/systems/vllm#cap-prefix-caching")
    wait_until(reader, "document.querySelector('#cap-prefix-caching .withdrawn-badge') !== null")
    gone = reader.locator("#cap-prefix-caching li.is-withdrawn")
    expect(gone.locator(".withdrawn-note")).to_have_text(" no longer in the published data")
    expect(gone.locator(".team-note .note-text")).to_contain_text("Our nightly run")
    expect(reader.locator("#cap-prefix-caching .disputed-flag")).to_have_count(0)
    reader.locator("#cap-prefix-caching").scroll_into_view_if_needed()
    reader.screenshot(path=artifacts / "notes-withdrawn-claim.png")
    figure = reader.locator(f"#bench-{FIGURE}")
    expect(figure.locator(".withdrawn-badge")).to_have_text("withdrawn")
    figure.scroll_into_view_if_needed()
    reader.screenshot(path=artifacts / "notes-withdrawn-figure.png")
    no_axe_violations(reader)
    reader.goto(f"{server.url}/benchmarks?system=vllm&system=sglang")
    row = reader.locator(f"#result-{FIGURE}")
    expect(row).to_contain_text("Withdrawn: no longer in the published data, so not ranked.")
    row.scroll_into_view_if_needed()
    reader.screenshot(path=artifacts / "notes-withdrawn-benchmarks.png")
    no_axe_violations(reader)
    assert violations(reader, console) == []
    reader.context.close()


def test_notes_in_the_dark_and_on_a_phone(browser, server: Server, artifacts: Path) -> None:
    context = browser.new_context(color_scheme="dark", viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(f"{server.url}/systems/vllm#cap-prefix-caching")
    expect(page.locator("#cap-prefix-caching .team-note")).to_have_count(1)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    no_axe_violations(page)
    page.locator("#cap-prefix-caching .team-note").scroll_into_view_if_needed()
    page.screenshot(path=artifacts / "notes-dark-phone.png")
    context.close()
