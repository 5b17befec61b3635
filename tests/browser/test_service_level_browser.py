"""The issue-23 scenario in Chromium: the sweep chart at per_user=50 with its level line,
interpolated points and error bars, the version timeline, /decide citing the team's
measurements and /compare at the level; light, dark and a phone; no axe violations."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from sqlmodel import Session

from app.accounts import users as accounts
from app.accounts.models import Role
from app.db import make_engine, writer
from app.writes.prices import PriceIn, set_price
from tests.accounts.conftest import add_users
from tests.browser.conftest import serving
from tests.browser.test_sweeps_browser import OVERLAPPING_TEXT
from tests.conftest import SEED_DIR
from tests.databases import copy_of
from tests.team import level_scenario as sc
from tests.team.sweep_data import VLLM_SWEEP, import_file

pytestmark = pytest.mark.browser
SHOTS = Path("/tmp/shots-level23")
LEVEL = f"/benchmarks?model={sc.LLAMA}&per_user=50"
# Each page and the part of it this change adds (the pages are long on the fixture seed).
PAGES = {
    "benchmarks": (LEVEL, "section#team_sweeps"),
    "decide": ("/decide?hardware=nvidia-datacenter&priority=throughput&per_user=50", "main"),
    "system": ("/systems/vllm", "section#versions"),
    "compare": ("/compare?s=vllm&s=sglang&per_user=50", "section#team_sweeps"),
}


@pytest.fixture(scope="module")
def level_url(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server of its own with the scenario's sweeps imported and an H100 price set."""
    url = copy_of(database_url, tmp_path_factory.mktemp("level-browser"), SEED_DIR)
    add_users(url, {"eddie": "editor"})
    for name, loads, given in sc.FILES:
        context = {**sc.CONTEXT, **given, "gpus": 1}
        import_file(url, VLLM_SWEEP, name=name, data=sc.sweep_file(loads), **context)
    engine = make_engine(url)
    with Session(writer(engine)) as session, session.begin():
        user = accounts.get_user(session, "eddie")
        assert user is not None and user.id is not None
        who = accounts.SignedIn(user.id, user.name, Role(user.role), "test", "")
        price = PriceIn(usd_per_gpu_hour=sc.PRICE, basis="on-demand list price, example")
        assert set_price(session, who, sc.H100_SLUG, price) is not None
    engine.dispose()
    with serving(url) as served:
        yield served


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_level_is_drawn_and_legible(browser, level_url: str, scheme: str) -> None:
    context = browser.new_context(color_scheme=scheme, viewport={"width": 1440, "height": 1000})
    page = context.new_page()
    page.goto(f"{level_url}{LEVEL}")
    sweeps = page.locator("section#team_sweeps")
    card = sweeps.locator("article.sweep-card").first
    assert card.locator(".sweep-level line").count() == 1
    assert card.locator("g.sweep-at-level").count() == 3
    assert card.locator("g.sweep-error").count() == 1
    assert "2,133" in card.locator("tr.sweep-at-level-row").first.inner_text() or "2,133" in (
        card.inner_text()
    )
    assert "$0.324 per M output tokens" in sweeps.inner_text()
    assert "Improvement" in sweeps.locator(".timeline-card").first.inner_text()
    assert page.evaluate(OVERLAPPING_TEXT) == []
    # The sweeps under test; the whole /benchmarks page has its own accessibility test.
    results = Axe().run(page, context="section#team_sweeps")
    assert results.violations_count == 0, results.generate_report()
    SHOTS.mkdir(exist_ok=True)
    for name, (path, part) in PAGES.items():
        page.goto(f"{level_url}{path}")
        page.locator(part).first.screenshot(path=str(SHOTS / f"{name}-1440-{scheme}.png"))
    context.close()


def test_decide_cites_the_measurements(browser, level_url: str) -> None:
    context = browser.new_context(viewport={"width": 1440, "height": 1000})
    page = context.new_page()
    page.goto(f"{level_url}{PAGES['decide'][0]}")
    measured = page.locator("section#measured")
    assert "2,133" in measured.inner_text() and "0.324" in measured.inner_text()
    assert page.locator("li.pick", has_text="2,133 tok/s per GPU").count() >= 1
    results = Axe().run(page, context="section#measured")
    assert results.violations_count == 0, results.generate_report()
    context.close()


def test_the_pages_on_a_phone(browser, level_url: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 900})
    page = context.new_page()
    for name, (path, part) in PAGES.items():
        page.goto(f"{level_url}{path}")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, name
        page.locator(part).first.screenshot(path=str(SHOTS / f"{name}-390.png"))
    context.close()
