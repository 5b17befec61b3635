"""/admin/webhooks in Chromium: add a receiver, see its secret once, send a test and see the
delivery log; no accessibility violations, no page wider than the screen."""

import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from tests.browser.test_accounts_browser import admin, sign_in  # noqa: F401  (admin: a fixture)

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(("scheme", "width"), [("light", 1440), ("dark", 1440), ("light", 390)])
def test_the_webhooks_page(browser, live_url, admin, artifacts, scheme, width) -> None:  # noqa: F811
    context = browser.new_context(color_scheme=scheme, viewport={"width": width, "height": 900})
    page = context.new_page()
    page.goto(f"{live_url}/login?next=/admin/webhooks")
    sign_in(page, live_url, admin)
    page.wait_for_url("**/admin/webhooks")
    page.fill("#hook-url", f"https://chat-{scheme}-{width}.example.invalid/hooks/atlas")
    page.fill("#hook-events", "claim.updated result.created import.confirmed")
    page.fill("#hook-description", "the team's chat channel")
    page.click("form[action='/admin/webhooks'] button[type=submit]")
    expect(page.locator("#new-secret-value")).to_have_value(re.compile(r"^\S{40,}$"))
    page.screenshot(path=artifacts / f"webhooks-added-{scheme}-{width}.png", full_page=True)
    article = page.locator("article.webhook").last
    article.locator("button", has_text="Send a test").click()
    expect(page.locator(".done-banner")).to_contain_text("test delivery")
    expect(page.locator("#new-secret-value")).to_have_count(0)
    page.reload()  # the sender has tried it by now or soon: the log shows the outcome
    expect(page.locator("article.webhook").last.locator("table.deliveries tbody tr")).to_have_count(
        1
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()
    page.screenshot(path=artifacts / f"webhooks-{scheme}-{width}.png", full_page=True)
    context.close()
