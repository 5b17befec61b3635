"""The team sweep chart in Chromium: drawn, legible in light and dark, no axe violations."""

import threading
import time
from collections.abc import Iterator

import pytest
import uvicorn
from axe_playwright_python.sync_playwright import Axe

from app.main import create_app
from app.settings import Settings
from tests.accounts.conftest import add_users
from tests.browser.conftest import _free_port
from tests.conftest import SEED_DIR
from tests.databases import copy_of
from tests.team.sweep_data import (
    GUIDELLM,
    H100,
    VLLM_8QPS,
    VLLM_SWEEP,
    faster_vllm_sweep,
    import_file,
)

pytestmark = pytest.mark.browser

OVERLAPPING_TEXT = """() => {
  const boxes = [...document.querySelectorAll('svg.chart-sweep text')]
    .map(t => [t.textContent, t.getBoundingClientRect()]);
  const clash = [];
  boxes.forEach(([a, r], i) => boxes.slice(i + 1).forEach(([b, s]) => {
    const x = Math.min(r.right, s.right) - Math.max(r.left, s.left);
    const y = Math.min(r.bottom, s.bottom) - Math.max(r.top, s.top);
    if (x > 1 && y > 1) clash.push(a + ' / ' + b);
  }));
  return clash;
}"""


@pytest.fixture(scope="module")
def sweep_url(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server of its own on a copy of the database, with three sweeps imported."""
    url = copy_of(database_url, tmp_path_factory.mktemp("sweep-browser"), SEED_DIR)
    add_users(url, {"eddie": "editor"})
    fp8 = {"hardware": H100, "precision": "FP8", "gpus": 1}
    import_file(url, GUIDELLM, precision="BF16")  # the older chart: drawn second
    import_file(url, VLLM_SWEEP, system="vllm", system_version="0.11.2", **fp8)
    import_file(url, VLLM_8QPS, system="vllm", **fp8)
    import_file(
        url,
        VLLM_SWEEP,
        name="sglang-sweep.json",
        data=faster_vllm_sweep(1.3),
        system="sglang",
        system_version="0.5.4",
        **fp8,
    )
    import_file(
        url,
        VLLM_SWEEP,
        name="vllm-tp2.json",
        data=faster_vllm_sweep(1.6),
        system="vllm",
        system_version="0.11.2",
        **(fp8 | {"gpus": 2}),
    )
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


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_sweep_chart_is_drawn_and_legible(browser, sweep_url: str, scheme: str) -> None:
    context = browser.new_context(color_scheme=scheme, viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.goto(f"{sweep_url}/benchmarks")
    sweeps = page.locator("section#team_sweeps")
    assert sweeps.locator("svg.chart-sweep").count() == 2
    first = sweeps.locator("article.sweep-card").first
    assert first.locator("g.sweep-point").count() == 13
    assert first.locator("table.sweep-table tr.sweep-curve").count() == 3
    assert first.locator("table.sweep-table tr:is(.on-frontier, .dominated)").count() == 13
    assert page.evaluate(OVERLAPPING_TEXT) == []
    # The section under test: the whole /benchmarks page has its own accessibility test
    # (test_benchmarks_browser), and axe over all of it took a minute here.
    results = Axe().run(page, context="section#team_sweeps")
    assert results.violations_count == 0, results.generate_report()
    first.screenshot(path=f"/tmp/sweep-{scheme}.png")
    sweeps.screenshot(path=f"/tmp/sweep-section-{scheme}.png")
    context.close()


def test_the_sweep_chart_on_a_phone(browser, sweep_url: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 900})
    page = context.new_page()
    page.goto(f"{sweep_url}/benchmarks")
    card = page.locator("article.sweep-card").first
    card.scroll_into_view_if_needed()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    card.screenshot(path="/tmp/sweep-phone.png")
    context.close()
