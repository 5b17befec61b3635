"""Layout in Chromium: nothing scrolls sideways that should not, the filters offer only
choices that give results, a pinned matrix column stays in view, marks and chart text are
readable, and bars fill their card."""

from collections.abc import Iterator

import pytest

from tests.browser.conftest import wait_until

pytestmark = pytest.mark.browser

# The page, and every box on it that is not a deliberate sideways scroller (the matrix, a
# scatter plot on a phone), as (selector, scrollWidth, clientWidth) where it overflows.
OVERFLOWING = """(allowed) => {
  const out = [];
  const d = document.documentElement;
  if (d.scrollWidth > d.clientWidth) out.push(['document', d.scrollWidth, d.clientWidth]);
  const boxes = 'main .matrix-scroll, main .table-wrap, main .chart-scroll';
  for (const e of document.querySelectorAll(boxes)) {
    if (allowed.some(s => e.matches(s))) continue;
    const name = e.className + ' ' + (e.getAttribute('aria-label') || '');
    if (e.scrollWidth > e.clientWidth + 1) out.push([name, e.scrollWidth, e.clientWidth]);
  }
  return out;
}"""


@pytest.fixture
def context_at(browser) -> Iterator[object]:
    made = []

    def make(width: int, scheme: str = "light") -> object:
        context = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
        made.append(context)
        page = context.new_page()
        page.set_default_timeout(15_000)
        return page

    yield make
    for context in made:
        context.close()


@pytest.mark.parametrize("path", ["/benchmarks", "/systems/vllm", "/matrix?need=prefix-caching"])
def test_nothing_scrolls_sideways_at_1440(context_at, live_url: str, path: str) -> None:
    page = context_at(1440)
    page.goto(f"{live_url}{path}")
    # The matrix is 88 columns wide by design: its own box scrolls, the page does not.
    assert page.evaluate(OVERFLOWING, [".matrix-scroll:has(table.matrix)"]) == []


@pytest.mark.parametrize("path", ["/benchmarks", "/systems/vllm", "/matrix?need=prefix-caching"])
def test_the_page_does_not_scroll_sideways_on_a_phone(context_at, live_url: str, path: str) -> None:
    page = context_at(390)
    page.goto(f"{live_url}{path}")
    width = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert width[0] <= width[1], width


def test_a_pinned_column_stays_beside_the_system_column(context_at, live_url: str) -> None:
    page = context_at(1440)
    page.goto(f"{live_url}/matrix?need=prefix-caching")
    page.evaluate("document.querySelector('.matrix-scroll').scrollLeft = 3000")
    wait_until(page, "document.querySelector('.matrix-scroll').scrollLeft > 1000")
    system, pinned, box = page.evaluate(
        """() => [document.querySelector('tbody tr th.system-col'),
                  document.querySelector('tbody tr td.pin-1'),
                  document.querySelector('.matrix-scroll')].map(e => {
                    const r = e.getBoundingClientRect(); return [r.left, r.right]; })"""
    )
    assert box[0] <= system[0] and abs(pinned[0] - system[1]) < 1.5, (system, pinned)
    assert pinned[1] < box[1]
    # Nothing shows through a pinned cell: the cell on top at its centre is the cell itself.
    assert page.evaluate(
        """() => { const td = document.querySelector('tbody tr td.pin-1');
                   const r = td.getBoundingClientRect();
                   const x = r.left + r.width / 2, y = r.top + r.height / 2;
                   return td.contains(document.elementFromPoint(x, y)); }"""
    )


def test_the_metric_filter_offers_only_metrics_with_figures(context_at, live_url: str) -> None:
    page = context_at(1440)
    page.goto(f"{live_url}/benchmarks?system=powerinfer")
    visible = page.evaluate(
        """() => [...document.querySelectorAll('#benchmark-form input[name=metric]')]
                 .filter(i => i.closest('label').offsetParent !== null).map(i => i.value)"""
    )
    assert "generation-speed" in visible and "ttft-p50" not in visible
    assert "ease-score" not in visible
    # Unticking the system over HTMX brings every metric with a figure back.
    page.uncheck('input[name="system"][value="powerinfer"]')
    page.wait_for_url(f"{live_url}/benchmarks")
    wait_until(
        page,
        "document.querySelector('#benchmark-form input[name=metric][value=ttft-p50]')"
        ".closest('label').offsetParent !== null",
    )


def test_marks_and_chart_text_are_readable(context_at, live_url: str) -> None:
    page = context_at(1440)
    page.goto(f"{live_url}/benchmarks?metric=throughput")
    sizes = page.evaluate(
        """() => {
          const px = e => parseFloat(getComputedStyle(e).fontSize);
          const scale = svg => svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
          const charts = [...document.querySelectorAll('svg.chart')]
            .filter(s => s.getBoundingClientRect().width > 0);
          return {
            caveat: [...document.querySelectorAll('.caveat')].map(px),
            chart: charts.flatMap(s => [...s.querySelectorAll('text')].map(t => px(t) * scale(s))),
            fill: charts.filter(s => s.matches('.chart-wide, .chart-medium')).map(s =>
              s.getBoundingClientRect().width / s.closest('article').getBoundingClientRect().width),
          };
        }"""
    )
    assert sizes["caveat"] and min(sizes["caveat"]) >= 12
    assert sizes["chart"] and min(sizes["chart"]) >= 11.5
    # The bars use the card's width: the chart spans it (less the card's padding).
    assert sizes["fill"] and min(sizes["fill"]) > 0.9
    page.goto(f"{live_url}/matrix")
    ratings = page.evaluate(
        "[...document.querySelectorAll('td.lv sup')]"
        ".map(e => parseFloat(getComputedStyle(e).fontSize))"
    )
    assert ratings and min(ratings) >= 12
