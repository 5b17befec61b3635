"""/changes and a system's history in Chromium: HTMX filtering and paging with the URL kept,
hostile text inert, no CSP violation, axe, screenshots."""

import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn
from axe_playwright_python.sync_playwright import Axe

from app.db import make_engine
from app.main import create_app
from app.seeding.prepare import seed
from app.seeding.yamlio import dump_yaml, read_yaml
from app.settings import Settings
from tests.browser.conftest import _free_port, wait_until
from tests.browser.test_accounts_browser import WATCH_CSP
from tests.conftest import SEED_DIR
from tests.databases import copy_of
from tests.history import team_history, write

pytestmark = pytest.mark.browser


def _reseed_with_edits(url: str, folder: Path) -> None:
    """A reseed that edits vLLM's summary and one of its best-for lines: seed revisions."""
    seed_dir = folder / "seed"
    shutil.copytree(SEED_DIR, seed_dir)
    path = seed_dir / "systems" / "vllm.yaml"
    system = read_yaml(path)
    system["summary"] = system["summary"].replace("general-purpose", "widely used")
    system["best_for"][1]["text"] = "Clusters that mix GPU vendors"
    path.write_text(dump_yaml(system))
    engine = make_engine(url)
    try:
        seed(engine, seed_dir)
    finally:
        engine.dispose()


@pytest.fixture(scope="module")
def history_url(tmp_path_factory: pytest.TempPathFactory, database_url: str) -> Iterator[str]:
    """A server of its own, on the seeded data plus team changes and a reseed."""
    folder = tmp_path_factory.mktemp("changes-browser")
    url = copy_of(database_url, folder, SEED_DIR)
    write(url, team_history)
    _reseed_with_edits(url, folder)
    port = _free_port()
    app = create_app(Settings(database_url=url, seed_dir=SEED_DIR))
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


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(WATCH_CSP)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.dialogs = []
    page.on("dialog", lambda d: (page.dialogs.append(d.message), d.dismiss()))
    yield page
    context.close()


def shown(page) -> int:
    return page.locator("#change_list li.change").count()


def test_filters_swap_the_list_and_keep_the_url(page, history_url: str) -> None:
    page.goto(f"{history_url}/changes")
    total = shown(page)
    page.evaluate("window.__stillHere = true")
    page.select_option('select[name="user"]', "ann")
    page.wait_for_url("**/changes?user=ann")
    wait_until(page, "document.querySelectorAll('#change_list li.change').length === 2")
    page.select_option('select[name="kind"]', "claim")
    page.wait_for_url("**/changes?user=ann&kind=claim")
    assert shown(page) == 2
    page.select_option('select[name="user"]', "seed")
    page.wait_for_url("**/changes?user=seed&kind=claim")
    wait_until(page, "!!document.querySelector('#change_list .empty-state')")
    assert page.evaluate("window.__stillHere") is True, "swapped by HTMX, not reloaded"
    page.reload()
    assert page.locator('select[name="user"]').input_value() == "seed"
    assert page.locator('select[name="kind"]').input_value() == "claim"
    page.goto(f"{history_url}/changes")
    assert shown(page) == total
    assert page.evaluate("window.__csp") == [] and page.dialogs == []


def test_older_changes_come_in_place(page, history_url: str) -> None:
    page.goto(f"{history_url}/changes?limit=3")
    first = page.locator("#change_list li.change").first.get_attribute("id")
    page.evaluate("window.__stillHere = true")
    page.click("text=Older changes →")
    page.wait_for_url("**/changes?before=*&limit=3")
    wait_until(page, f"!document.getElementById('{first}')")
    assert shown(page) == 3 and page.evaluate("window.__stillHere") is True
    page.click("text=← Newest changes")
    page.wait_for_url("**/changes?limit=3")
    page.locator(f"#{first}").wait_for()
    assert page.evaluate("window.__csp") == []


def test_hostile_text_stays_inert(page, history_url: str) -> None:
    page.goto(f"{history_url}/changes?user=bob")
    key = page.locator("#change_list .change-key").first.inner_text()
    assert key.startswith("<script>")
    page.goto(f"{history_url}/systems/vllm#history")
    assert page.dialogs == [] and page.evaluate("window.__csp") == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_screenshots_and_accessibility(
    browser, history_url: str, artifacts: Path, scheme: str
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
    page = context.new_page()
    page.goto(f"{history_url}/changes")
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()
    page.screenshot(path=artifacts / f"changes-{scheme}.png", full_page=True)
    page.goto(f"{history_url}/changes?kind=widget&system=vllm")
    page.screenshot(path=artifacts / f"changes-bad-filter-{scheme}.png")
    page.goto(f"{history_url}/systems/vllm")
    history = page.locator("section#history")
    history.scroll_into_view_if_needed()
    results = Axe().run(page, context="section#history")  # the page: test_system_pages
    assert results.violations_count == 0, results.generate_report()
    history.screenshot(path=artifacts / f"system-history-vllm-{scheme}.png")
    context.close()


def test_phone_sized_changes(browser, history_url: str, artifacts: Path) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(f"{history_url}/changes")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=artifacts / "changes-phone.png", full_page=True)
    context.close()
