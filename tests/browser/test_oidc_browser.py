"""Signing in through the team's OpenID Connect provider in Chromium, once: /login's button,
the provider's page (tests/accounts/oidc_provider.py runs a real one), and back signed in."""

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from app.main import create_app
from app.settings import Settings
from tests.accounts.oidc_provider import GROUP_SETTINGS, oidc_provider
from tests.browser.conftest import _free_port
from tests.conftest import SEED_DIR
from tests.databases import copy_of

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def oidc_site(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("oidc-browser")
    with oidc_provider(folder) as issuer:
        port = _free_port()
        base = f"http://127.0.0.1:{port}"
        settings = Settings(  # type: ignore[call-arg]
            database_url=copy_of(database_url, folder, SEED_DIR),
            seed_dir=SEED_DIR,
            public_url=base,
            atlas_oidc_issuer=issuer,
            atlas_oidc_client_id="inference-atlas",
            atlas_oidc_client_secret="client-secret",
            atlas_oidc_name="Acme SSO",
            **GROUP_SETTINGS,
        )
        server = uvicorn.Server(
            uvicorn.Config(create_app(settings), host="127.0.0.1", port=port, log_level="warning")
        )
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        deadline = time.monotonic() + 15
        while not server.started:
            assert time.monotonic() < deadline, "the test server did not start"
            time.sleep(0.05)
        yield base
        server.should_exit = True
        thread.join(timeout=10)


@pytest.mark.parametrize(("scheme", "width"), [("light", 1440), ("dark", 1440), ("light", 390)])
def test_the_login_page_offers_the_provider(browser, oidc_site, scheme, width, artifacts) -> None:
    context = browser.new_context(color_scheme=scheme, viewport={"width": width, "height": 900})
    page = context.new_page()
    page.goto(f"{oidc_site}/login")
    expect(page.get_by_role("button", name="Sign in with Acme SSO")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()
    page.screenshot(path=artifacts / f"login-oidc-{scheme}-{width}.png", full_page=True)
    context.close()


def test_signing_in_through_the_provider(browser, oidc_site, artifacts: Path) -> None:
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    page.goto(f"{oidc_site}/login?next=/changes")
    page.get_by_role("button", name="Sign in with Acme SSO").click()
    page.wait_for_url("**/oauth2/authorize?**")
    page.get_by_role("button", name="eddie-sub").click()  # the provider's own page
    try:
        page.wait_for_url(f"{oidc_site}/changes", timeout=8000)
    except Exception:
        raise AssertionError(page.url + page.inner_text("main")) from None
    expect(page.locator(".signed-in-as")).to_have_text("eddie")
    expect(page.get_by_role("status").first).to_contain_text("Signed in as eddie, an editor")
    page.screenshot(path=artifacts / "login-oidc-signed-in.png")
    me = page.evaluate("fetch('/api/v1/me').then(r => r.json())")
    assert me == {"name": "eddie", "role": "editor", "via": "oidc"}
    context.close()
