"""Charts in Chromium: readable on a phone, one colour per system across charts."""

import pytest

pytestmark = pytest.mark.browser

SMALLEST_TEXT = """() => {
  let smallest = Infinity;
  for (const svg of document.querySelectorAll('svg.chart')) {
    const box = svg.getBoundingClientRect();
    if (!box.width) continue;  // the layout this screen does not show
    const scale = box.width / svg.viewBox.baseVal.width;
    for (const text of svg.querySelectorAll('text')) {
      smallest = Math.min(smallest, parseFloat(getComputedStyle(text).fontSize) * scale);
    }
  }
  return smallest;
}"""


CLIPPED_TEXT = """() => [...document.querySelectorAll('svg.chart-wide')].flatMap(svg => {
  const box = svg.getBoundingClientRect();
  return [...svg.querySelectorAll('text')].filter(t => {
    const r = t.getBoundingClientRect();
    return r.left < box.left - 0.5 || r.right > box.right + 0.5;
  }).map(t => t.textContent);
})"""


@pytest.mark.parametrize("path", ["/benchmarks", "/compare?s=vllm&s=sglang"])
def test_chart_text_is_at_least_11px_on_a_phone(browser, live_url, path) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(f"{live_url}{path}")
    assert page.locator("svg.chart-narrow").first.is_visible()
    assert page.locator("svg.chart-wide").first.is_hidden()
    assert page.evaluate(SMALLEST_TEXT) >= 11
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    context.close()


def test_bar_labels_are_not_clipped(browser, live_url) -> None:
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    page.goto(f"{live_url}/benchmarks")
    clipped = page.evaluate(CLIPPED_TEXT)
    assert clipped == []
    context.close()
