"""Sign-in, sign-out and the users page in Chromium; no page breaks the Content-Security-Policy."""

import re
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect
from sqlmodel import Session

from app.accounts import users as service
from app.db import make_engine, writer
from tests.browser.conftest import wait_until

pytestmark = pytest.mark.browser

PASSWORD = "correct horse battery staple"
ADMIN = "browser-admin"

# Every Content-Security-Policy violation the page reports, whatever caused it.
WATCH_CSP = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample || ""}`.trim());
});
"""

MAIN_PAGES = [
    "/",
    "/matrix",
    "/matrix?cell=vllm:prefix-caching",
    "/hardware",
    "/benchmarks",
    "/compare?s=vllm&s=sglang&s=llama-cpp",
    "/decide?hardware=nvidia-datacenter&scale=production&workload=rag",
    "/systems/vllm",
    "/features/prefix-caching",
    "/sources",
    "/login",
    "/systems/nope",
]


@pytest.fixture(scope="module")
def admin(database_url: str) -> str:
    """An admin in the live server's database (added once; the other tests ignore users)."""
    engine = make_engine(database_url)
    with Session(writer(engine)) as session, session.begin():
        if service.get_user(session, ADMIN) is None:
            service.add_user(session, ADMIN, "admin", PASSWORD)
    engine.dispose()
    return ADMIN


def open_watched(browser, width: int = 1280):
    context = browser.new_context(viewport={"width": width, "height": 900})
    context.add_init_script(WATCH_CSP)
    page = context.new_page()
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda exc: console.append(str(exc)))
    return page, console


def violations(page, console: list[str]) -> list[str]:
    reported = page.evaluate("window.__csp")
    return reported + [m for m in console if "Content Security Policy" in m]


def sign_in(page, live_url: str, name: str, password: str = PASSWORD) -> None:
    page.fill("#name", name)
    page.fill("#password", password)
    page.click("form[action='/login'] button[type=submit]")


def test_the_violation_watch_sees_a_violation(browser, live_url) -> None:
    """The check below is only worth something if it can fail."""
    page, console = open_watched(browser)
    page.goto(f"{live_url}/sources")
    page.evaluate("document.body.insertAdjacentHTML('beforeend', '<p style=\"color: red\">x</p>')")
    wait_until(page, "window.__csp.length > 0")
    assert any("style-src" in v for v in violations(page, console))
    page.context.close()


@pytest.mark.parametrize("path", MAIN_PAGES)
def test_main_pages_break_no_content_security_policy(browser, live_url, path: str) -> None:
    page, console = open_watched(browser)
    page.goto(f"{live_url}{path}")
    page.wait_for_load_state("networkidle")
    assert violations(page, console) == []
    assert page.evaluate("typeof window.htmx") == "object"
    page.context.close()


def test_htmx_swaps_work_under_the_policy(browser, live_url) -> None:
    page, console = open_watched(browser)
    page.goto(f"{live_url}/decide")
    page.evaluate("window.__stillHere = true")
    page.click('input[value="apple-silicon"]')
    page.click(".question-form button[type=submit]")  # an answer counts on "Next"
    page.wait_for_url("**/decide?hardware=apple-silicon")
    page.click('input[value="single-user"]')
    page.click(".question-form button[type=submit]")
    page.wait_for_url("**scale=single-user")
    assert page.evaluate("window.__stillHere") is True, "swapped by HTMX, not reloaded"
    assert page.locator(".picks .pick-name").count() > 0
    assert page.locator(".score-bar rect").count() > 0  # the bars drawn without style=
    page.goto(f"{live_url}/matrix")
    page.evaluate("window.__stillHere = true")
    page.locator("a[data-cell]").first.click()
    page.wait_for_url("**cell=**")
    page.locator("#cell_detail:not([hidden]) #cell-heading").wait_for()
    assert page.evaluate("window.__stillHere") is True
    assert violations(page, console) == []
    page.context.close()


def test_the_api_docs_run_under_the_policy(browser, live_url, artifacts: Path) -> None:
    page, console = open_watched(browser)
    page.goto(f"{live_url}/docs")
    operation = page.locator(".opblock", has_text="/api/v1/sources").first
    operation.locator(".opblock-summary").click()
    page.locator("button.try-out__btn").first.click()
    page.locator("button.execute").first.click()
    page.locator(".responses-table .response-col_status", has_text="200").first.wait_for()
    assert violations(page, console) == []
    page.screenshot(path=artifacts / "docs-try-it-out.png")
    page.context.close()


def test_sign_in_manage_users_and_sign_out(browser, live_url, admin, artifacts: Path) -> None:
    page, console = open_watched(browser)
    page.goto(f"{live_url}/admin/users")
    # Anonymous: sent to sign in, with the way back in the URL.
    page.wait_for_url("**/login?next=%2Fadmin%2Fusers")
    assert page.locator("h1").inner_text() == "Sign in"
    page.screenshot(path=artifacts / "accounts-sign-in.png", full_page=True)

    sign_in(page, live_url, admin, "not my password at all")
    expect(page.locator("[role=alert]")).to_have_text(
        "Wrong name or password (or the account is disabled)."
    )
    assert page.locator("#name").input_value() == admin
    page.screenshot(path=artifacts / "accounts-sign-in-refused.png", full_page=True)

    sign_in(page, live_url, admin)
    page.wait_for_url("**/admin/users")
    assert page.locator(".signed-in-as").inner_text() == admin
    assert page.locator("h1").inner_text() == "Users"
    assert page.locator(f"#user-{ADMIN} th").inner_text().startswith(admin)

    # A new user with a short password and a typo: the form comes back with both messages.
    page.fill("#new-name", "new-editor")
    page.select_option("#new-role", "editor")
    page.fill("#new-password", "too short")
    page.fill("#new-repeat", "too shorT")
    page.click(".add-user button[type=submit]")
    expect(page.locator("#new-password-note")).to_have_text(
        "The password is 9 characters long; use at least 12."
    )
    expect(page.locator("#new-repeat-note")).to_have_text("The two passwords differ.")
    assert page.locator("#new-name").input_value() == "new-editor"
    assert page.locator("#new-role").input_value() == "editor"
    page.locator(".add-user").scroll_into_view_if_needed()
    page.screenshot(path=artifacts / "accounts-add-user-invalid.png", full_page=True)

    page.fill("#new-password", "a long enough password")
    page.fill("#new-repeat", "a long enough password")
    page.click(".add-user button[type=submit]")
    expect(page.locator(".done-banner")).to_have_text("Added new-editor as editor.")
    row = page.locator("#user-new-editor")
    row.locator("select").select_option("viewer")
    row.locator("button", has_text="Change").click()
    expect(page.locator(".done-banner")).to_have_text("new-editor is now viewer.")
    page.locator("#user-new-editor button", has_text="Disable").click()
    expect(page.locator(".done-banner")).to_contain_text("Disabled new-editor")
    expect(page.locator("#user-new-editor .badge")).to_have_text("disabled")
    page.screenshot(path=artifacts / "accounts-users.png", full_page=True)

    # The last admin cannot disable themselves (the users page would have nobody to run it).
    page.locator(f"#user-{ADMIN} button", has_text="Disable").click()
    expect(page.locator("[role=alert]")).to_contain_text("only active admin")

    page.click(".account-menu summary")  # Sign out is in the menu under one's name
    page.click("form.sign-out button")
    page.wait_for_url("**/logout?next=%2Fadmin%2F**")  # says so, offers the way back
    assert "You are signed out" in page.locator("[role=status]").inner_text()
    assert page.locator(".signed-in-as").count() == 0
    assert page.locator(".account a").inner_text() == "Sign in"
    page.goto(f"{live_url}/admin/users")
    page.wait_for_url("**/login?next=%2Fadmin%2Fusers")
    assert violations(page, console) == []
    page.context.close()


def test_phone_sized_sign_in(browser, live_url, artifacts: Path) -> None:
    page, _ = open_watched(browser, width=390)
    page.goto(f"{live_url}/login")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=artifacts / "accounts-sign-in-phone.png", full_page=True)
    page.context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_account_pages_have_no_accessibility_violations(browser, live_url, admin, scheme) -> None:
    context = browser.new_context(color_scheme=scheme)
    page = context.new_page()
    page.goto(f"{live_url}/login?next=/admin/users")
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()
    sign_in(page, live_url, admin)
    page.wait_for_url("**/admin/users")
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()
    page.screenshot(path=f"test-artifacts/accounts-users-{scheme}.png", full_page=True)
    context.close()


@pytest.mark.parametrize(("scheme", "width"), [("light", 1440), ("dark", 1440), ("light", 390)])
def test_tokens_page_makes_a_token_shown_once(browser, live_url, admin, scheme, width) -> None:
    context = browser.new_context(
        color_scheme=scheme,
        viewport={"width": width, "height": 900},
        permissions=["clipboard-read", "clipboard-write"],
    )
    page = context.new_page()
    page.goto(f"{live_url}/login?next=/account/tokens")
    sign_in(page, live_url, admin)
    page.wait_for_url("**/account/tokens")
    page.fill("#token-label", f"browser {scheme} {width}")
    page.fill("#token-expires", "30")
    page.click("form[action='/account/tokens'] button[type=submit]")
    expect(page.locator("#new-token-value")).to_have_value(re.compile(r"^atl_\S{40,}$"))
    page.get_by_role("button", name="Copy the token").click()
    expect(page.get_by_role("button", name="Token copied")).to_be_visible()
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == page.locator("#new-token-value").input_value()
    wide = page.evaluate(
        "[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right"
        f" > {width} + 1).map(e => e.tagName + '.' + e.className)"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= width, wide
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()
    page.screenshot(path=f"test-artifacts/tokens-{scheme}-{width}.png", full_page=True)
    context.close()
