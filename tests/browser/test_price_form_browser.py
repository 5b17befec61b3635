"""An editor sets an accelerator's price per GPU-hour on its page (issue 37), in Chromium at
1440 px light and dark and at 390 px: a bad number is said in words beside the field, a good
one is saved and shown. Axe finds nothing, and the page never scrolls sideways."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.test_accounts_browser import sign_in
from tests.browser.test_team_forms_browser import EDITOR, PASSWORD, no_axe_violations
from tests.browser.test_team_forms_browser import team_url as team_url  # the fixture

pytestmark = pytest.mark.browser

WIDTHS = [("light", 1440), ("dark", 1440), ("light", 390)]
H100 = "nvidia-h100-sxm5-80gb"


@pytest.mark.parametrize(("scheme", "width"), WIDTHS)
def test_an_editor_sets_a_price_and_a_bad_one_is_said_in_words(
    browser, team_url: str, artifacts: Path, scheme: str, width: int
) -> None:
    context = browser.new_context(color_scheme=scheme, viewport={"width": width, "height": 900})
    page = context.new_page()
    page.goto(f"{team_url}/login?next=/hardware/{H100}")
    sign_in(page, team_url, EDITOR, PASSWORD)
    page.wait_for_url(f"**/hardware/{H100}")

    page.fill("#hp-usd_per_gpu_hour", "cheap")
    page.fill("#hp-basis", "")
    page.click("form.price-form button[type=submit]")
    note = page.locator("#hp-usd_per_gpu_hour-note")
    expect(note).to_have_text("Not a number; type dollars per GPU-hour such as 2.49.")
    expect(page.locator("#hp-basis-note")).to_contain_text("Say where the price comes from")
    expect(page.locator("#hp-usd_per_gpu_hour")).to_have_value("cheap")
    page.locator("#price").scroll_into_view_if_needed()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    no_axe_violations(page)
    page.screenshot(path=artifacts / f"price-refused-{scheme}-{width}.png")

    price = {"light": "2.49", "dark": "3.1"}[scheme] if width > 400 else "2.75"
    page.fill("#hp-usd_per_gpu_hour", price)
    page.fill("#hp-basis", "on-demand list price, example cloud, 2026-12")
    page.click("form.price-form button[type=submit]")
    expect(page.locator(".price-now")).to_contain_text(f"${price}")
    expect(page.locator("[aria-invalid=true]")).to_have_count(0)
    page.locator("#price").scroll_into_view_if_needed()
    no_axe_violations(page)
    page.screenshot(path=artifacts / f"price-saved-{scheme}-{width}.png")
    context.close()
