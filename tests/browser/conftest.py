"""A live server and headless Chromium (Debian's) for browser tests."""

import os
import shutil
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from app.main import create_app
from app.settings import PROJECT_ROOT, Settings
from tests.conftest import IN_CI, SEED_DIR

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = PROJECT_ROOT / "test-artifacts"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def live_url(database_url: str) -> Iterator[str]:
    """The app served by uvicorn on a free port, in a background thread."""
    port = _free_port()
    # Links a page writes start with ATLAS_PUBLIC_URL: here, where this server listens.
    public_url = f"http://127.0.0.1:{port}"
    settings = Settings(database_url=database_url, seed_dir=SEED_DIR, public_url=public_url)
    app = create_app(settings)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


@contextmanager
def serving(url: str) -> Iterator[str]:
    """The app on `url`'s database (a copy a test changes), on a free port for the block's
    length."""
    with serving_app(create_app(Settings(database_url=url, seed_dir=SEED_DIR))) as live:
        yield live


@contextmanager
def serving_app(app: Any) -> Iterator[str]:
    """`app` on a free port for the block's length."""
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=_free_port(), log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        assert time.monotonic() < deadline, "the test server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{server.config.port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


SCREENSHOTS = os.environ.get("ATLAS_SCREENSHOTS", "") not in ("", "0")
"""Screenshots are for people to look at (`make screenshots`); a plain run asserts without
taking them: full-page shots of the longer pages took about a quarter of the tier's time."""


@pytest.fixture(scope="session", autouse=True)
def screenshots_only_when_asked() -> Iterator[None]:
    from playwright.sync_api import Locator, Page

    if SCREENSHOTS:
        yield
        return
    taken = {Page: Page.screenshot, Locator: Locator.screenshot}
    for kind in taken:
        kind.screenshot = lambda self, *args, **kwargs: b""  # type: ignore[method-assign]
    try:
        yield
    finally:
        for kind, screenshot in taken.items():
            kind.screenshot = screenshot  # type: ignore[method-assign]


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    if not (Path(CHROMIUM).exists() or shutil.which("chromium")):
        message = f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)"
        if IN_CI:
            pytest.fail(message)  # under CI a skipped browser test would hide a broken setup
        pytest.skip(message)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        browser.new_context = _reduced_motion_contexts(browser.new_context)  # type: ignore[method-assign]
        yield browser
        browser.close()


def _reduced_motion_contexts(new_context: Callable[..., Any]) -> Callable[..., Any]:
    # Pico turns its colour transitions off under reduced motion. Without it, axe can read an
    # input halfway from the light to the dark scheme just after emulate_media switches.
    def reduced(**options: Any) -> Any:
        options.setdefault("reduced_motion", "reduce")
        return new_context(**options)

    return reduced


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


def wait_until(page: object, expression: str, timeout_ms: float = 10_000) -> None:
    """Poll a JavaScript expression until it is truthy. Playwright's wait_for_function
    evaluates its predicate with eval inside the page, which our Content-Security-Policy
    (no 'unsafe-eval') refuses; page.evaluate goes through the debugger and is allowed."""
    from playwright.sync_api import Error

    deadline = time.monotonic() + timeout_ms / 1000
    while True:
        try:
            if page.evaluate(expression):  # type: ignore[attr-defined]
                return
        except Error as exc:  # a navigation replaced the page mid-evaluation: look again
            if "context was destroyed" not in str(exc):
                raise
        if time.monotonic() > deadline:
            raise AssertionError(f"still false after {timeout_ms:g} ms: {expression}")
        page.wait_for_timeout(50)  # type: ignore[attr-defined]
