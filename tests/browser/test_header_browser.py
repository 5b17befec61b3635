"""The header in Chromium: one row at 1440 px for an admin (the longest menu), the page's
item marked, Catalogue and API tokens in the person's menu, and all of it usable at 390 px."""

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect
from sqlmodel import Session

from app.accounts import users as service
from app.db import make_engine, writer

pytestmark = pytest.mark.browser

PASSWORD = "correct horse battery staple"
# As long as a name may be (40 characters): the menu cuts it short rather than widen the row.
ADMIN = "header-admin-of-a-rather-long-team-name"

# How many rows the header's items stand in: items whose middles are within 20 px share one.
ROWS = """() => {
  const middles = [...document.querySelectorAll('.site-header nav > ul > li')]
    .map(li => { const r = li.getBoundingClientRect(); return r.top + r.height / 2; })
    .sort((a, b) => a - b);
  return middles.filter((m, i) => i === 0 || m - middles[i - 1] > 20).length;
}"""


@pytest.fixture(scope="module")
def admin(database_url: str) -> str:
    engine = make_engine(database_url)
    with Session(writer(engine)) as session, session.begin():
        if service.get_user(session, ADMIN) is None:
            service.add_user(session, ADMIN, "admin", PASSWORD)
    engine.dispose()
    return ADMIN


@pytest.mark.parametrize(("scheme", "width"), [("light", 1440), ("dark", 1440), ("light", 390)])
def test_the_header_fits_marks_the_page_and_opens_the_menu(
    browser, live_url: str, admin: str, scheme: str, width: int
) -> None:
    context = browser.new_context(color_scheme=scheme, viewport={"width": width, "height": 900})
    page = context.new_page()
    page.goto(f"{live_url}/login?next=/features/prefix-caching")
    page.fill("#name", admin)
    page.fill("#password", PASSWORD)
    page.click("form[action='/login'] button[type=submit]")
    page.wait_for_url("**/features/prefix-caching")
    expect(page.locator(".site-header [aria-current=page]")).to_have_text("Features")
    rows = page.evaluate(ROWS)
    # Phones: brand and search on one row, the links and the menu on the next.
    assert rows == (1 if width >= 1440 else 2)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.click(".account-menu summary")
    for name in ("Catalogue", "API tokens", "Imports", "Users", "Password"):
        link = page.locator(".account-menu").get_by_role("link", name=name)
        expect(link).to_be_visible()
        box = link.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= width, (name, box)
    expect(page.get_by_role("button", name="Sign out")).to_be_visible()
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()
    page.screenshot(path=f"test-artifacts/header-{scheme}-{width}.png")
    page.locator(".account-menu").get_by_role("link", name="Catalogue").click()
    page.wait_for_url("**/catalogue")
    expect(page.locator(".account-menu summary.is-current")).to_have_count(1)
    context.close()
