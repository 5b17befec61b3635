"""Long tables come a page at a time: the matrix rows and the /benchmarks results table.

The test data fits on one page, so these tests shrink the page size.
"""

import csv
import io

import pytest
from bs4 import BeautifulSoup
from fastapi.testclient import TestClient

from app.queries.paging import paginate


def test_paginate_slices_clamps_and_reports_positions() -> None:
    rows, paging = paginate(list(range(23)), 2, 10)
    assert rows == list(range(10, 20))
    assert (paging.page, paging.pages, paging.total, paging.first_row, paging.last_row) == (
        2,
        3,
        23,
        11,
        20,
    )
    rows, paging = paginate(list(range(23)), 99, 10)
    assert rows == [20, 21, 22] and paging.page == 3, "past the end shows the last page"
    rows, paging = paginate([], 1, 10)
    assert rows == [] and (paging.pages, paging.first_row, paging.last_row) == (1, 0, 0)


def systems_on(html: str) -> list[str]:
    soup = BeautifulSoup(html, "html.parser")
    return [a["href"].rsplit("/", 1)[1] for a in soup.select("table.matrix tbody th a")]


@pytest.fixture
def small_matrix_pages(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("app.queries.matrix.MATRIX_PAGE_SIZE", 6)


def test_matrix_pages_split_the_rows_in_order(client: TestClient, small_matrix_pages: None) -> None:
    everything = client.get("/matrix.csv?sort=coverage&paging=a")  # CSV: every page, one file
    all_rows = [row["system"] for row in csv.DictReader(io.StringIO(everything.text))]
    assert len(all_rows) > 12
    pages = [client.get(f"/matrix?sort=coverage&page={n}&paging=a").text for n in (1, 2, 3)]
    shown = [systems_on(html) for html in pages]
    assert [len(s) for s in shown] == [6, 6, len(all_rows) - 12]
    assert shown[0] + shown[1] + shown[2] == all_rows, "pages follow the sort across pages"
    soup = BeautifulSoup(pages[1], "html.parser")
    pager = soup.select_one("nav.pager")
    assert pager.select_one('[aria-current="page"]').get_text() == "2"
    assert pager.select_one('a[rel="prev"]')["href"] == "/matrix?sort=coverage"
    assert pager.select_one('a[rel="next"]')["href"] == "/matrix?sort=coverage&page=3"
    count = soup.select_one("p.count").get_text(" ", strip=True)
    assert f"{len(all_rows)} of" in count and "showing 7–12" in count


def test_a_page_past_the_last_shows_the_last(client: TestClient, small_matrix_pages: None) -> None:
    last = client.get("/matrix?page=3&paging=b")
    past = client.get("/matrix?page=40&paging=b")
    assert past.status_code == 200 and systems_on(past.text) == systems_on(last.text)


def test_changing_a_filter_starts_again_from_the_first_page(
    client: TestClient, small_matrix_pages: None
) -> None:
    soup = BeautifulSoup(client.get("/matrix?status=active&page=2&paging=c").text, "html.parser")
    chip = soup.select_one(".active-filters a.chip")
    assert chip["href"] == "/matrix", "removing the filter drops the page number too"
    exports = soup.select_one("p.exports").get_text()
    assert "page" not in soup.select_one("p.exports a")["href"] and "CSV" in exports


def test_one_page_of_rows_has_no_pager(client: TestClient) -> None:
    html = client.get("/matrix?paging=d").text
    assert systems_on(html) and 'nav class="pager"' not in html


def result_ids(html: str) -> list[str]:
    soup = BeautifulSoup(html, "html.parser")
    return [tr["id"] for tr in soup.select("table.results tbody tr")]


def test_benchmark_results_table_pages_but_exports_hold_everything(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("app.routes.benchmarks.RESULTS_PAGE_SIZE", 50)
    total = len(client.get("/api/v1/benchmarks?sort=date").json()["results"])
    assert total > 100
    first = client.get("/benchmarks?sort=date&paging=e")
    second = client.get("/benchmarks?sort=date&page=2&paging=e")
    assert len(result_ids(first.text)) == 50 and len(result_ids(second.text)) == 50
    assert not set(result_ids(first.text)) & set(result_ids(second.text))
    soup = BeautifulSoup(second.text, "html.parser")
    assert soup.select_one('nav.pager [aria-current="page"]').get_text() == "2"
    exports = [a["href"] for a in soup.select("p.exports a")]
    assert exports == ["/benchmarks.csv?sort=date", "/api/v1/benchmarks?sort=date"]
    sort_link = soup.select_one('table.results thead a[href*="sort=-date"]')
    assert "page=" not in sort_link["href"], "re-sorting starts from the first page"


def test_a_page_of_results_charts_only_its_own_contexts_and_every_link_lands(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("app.routes.benchmarks.RESULTS_PAGE_SIZE", 20)
    whole = BeautifulSoup(client.get("/benchmarks?sort=date").text, "html.parser")
    pages = int(whole.select("nav.pager a")[-2].get_text()) if whole.select("nav.pager") else 1
    assert pages > 2
    charted: dict[str, str] = {}
    fewest = None
    for number in range(1, pages + 1):
        soup = BeautifulSoup(client.get(f"/benchmarks?sort=date&page={number}").text, "html.parser")
        cards = {a["id"]: a.get_text() for a in soup.select("article.context-card[id]")}
        links = {a["href"][1:] for a in soup.select('table.results a[href^="#ctx-"]')}
        assert links <= set(cards), f"page {number}: a row links to a chart not on its page"
        # A chart is the same whole chart on whichever page draws it.
        for anchor, text in cards.items():
            assert charted.setdefault(anchor, text) == text
        note = soup.select_one(".charted-note")
        count = soup.select_one(".results-bar .count").get_text()
        total_ranked = int(count.split("·")[-1].split()[0])
        assert (note is None) == (len(cards) == total_ranked)
        fewest = len(cards) if fewest is None else min(fewest, len(cards))
    assert len(charted) == total_ranked, "every ranked context is charted on some page"
    assert fewest is not None and fewest < total_ranked, "a page draws only its own charts"


def test_a_page_draws_at_most_its_chart_limit_and_other_rows_link_to_their_context(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("app.queries.benchmark_page.MAX_CHARTS", 2)
    # An unknown parameter of its own: other tests' pages sit in the render cache.
    soup = BeautifulSoup(client.get("/benchmarks?sort=date&charts=2").text, "html.parser")
    cards = {a["id"] for a in soup.select("article.context-card[id]")}
    assert len(cards) == 2
    note = soup.select_one(".charted-note").get_text(" ", strip=True)
    assert "Charts for 2 of the" in note and "link to their own context's page" in note
    away = soup.select('table.results tbody td:last-child a[href^="/benchmarks?"]')
    assert away, "rows past the limit link to their context's page"
    for link in away[:6]:
        row_id = link.find_parent("tr")["id"]
        target = BeautifulSoup(client.get(link["href"]).text, "html.parser")
        row = target.select_one(f"tr#{row_id}")
        assert row is not None, f"{link['href']} does not list {row_id}"
        # There the context is among the few the page charts, and the row's link lands on it.
        anchor = row.select_one('a[href^="#ctx-"]')
        assert anchor is not None and target.select_one(f"article{anchor['href']}") is not None


# The JSON lists come a page at a time too (the review's 178 MB /api/v1/benchmarks reply).


def test_api_benchmarks_pages_follow_next_to_every_result(client: TestClient) -> None:
    whole = client.get("/api/v1/benchmarks?sort=value").json()
    assert whole["page"] == 1 and whole["per_page"] == 1000 and whole["next"] is None
    assert whole["matched"] == len(whole["results"])
    seen: list[str] = []
    url: str | None = "/api/v1/benchmarks?sort=value&per_page=7"
    pages = 0
    while url is not None:
        body = client.get(url).json()
        assert len(body["results"]) <= 7 and body["matched"] == whole["matched"]
        # The contexts of a page group that page's results only.
        grouped = {r["result"]["id"] for c in body["contexts"] for r in c["results"]}
        assert grouped <= {r["id"] for r in body["results"]}
        seen += [r["id"] for r in body["results"]]
        url, pages = body["next"], pages + 1
    assert seen == [r["id"] for r in whole["results"]]
    assert pages == -(-whole["matched"] // 7) == body["pages"]


@pytest.mark.parametrize("query", ["per_page=0", "per_page=5001", "page=0"])
def test_api_benchmarks_page_size_is_bounded(client: TestClient, query: str) -> None:
    response = client.get(f"/api/v1/benchmarks?{query}")
    assert response.status_code == 422
    assert response.json()["detail"][0]["field"] in ("per_page", "page")


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/systems",
        "/api/v1/capabilities",
        "/api/v1/sources",
        "/api/v1/hardware",
        "/api/v1/models",
        "/api/v1/workloads",
    ],
)
def test_catalogue_lists_stay_arrays_and_link_their_next_page(
    client: TestClient, path: str
) -> None:
    whole = client.get(path)
    items = whole.json()
    assert isinstance(items, list) and "link" not in whole.headers
    assert whole.headers["x-total-count"] == str(len(items))
    got: list[object] = []
    url: str | None = f"{path}?per_page=2"
    while url is not None:
        response = client.get(url)
        assert len(response.json()) <= 2
        got += response.json()
        link = response.headers.get("link")
        url = link.split(">", 1)[0].lstrip("<") if link else None
        assert link is None or link.endswith('rel="next"')
    assert got == items
    assert client.get(f"{path}?per_page=1001").status_code == 422


def test_a_blank_count_is_no_answer_but_a_control_character_is_refused(
    client: TestClient,
) -> None:
    for blank in ("", "%20%20", "%09"):
        assert client.get(f"/api/v1/hardware?per_page={blank}").status_code == 200, blank
    # str.strip() takes \x1c (a file separator) for space; the schema says an integer.
    for odd in ("%1C", "%1C5"):
        refused = client.get(f"/api/v1/hardware?per_page={odd}")
        assert refused.status_code == 422, odd
        assert refused.json()["detail"][0]["field"] == "per_page"
