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
        2, 3, 23, 11, 20,
    )  # fmt: skip
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
