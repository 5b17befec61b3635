"""Issue 13: the matrix reads at a glance — unknown is its own state, every mark explained."""

import csv
import io

from bs4 import BeautifulSoup
from fastapi.testclient import TestClient


def soup_of(response) -> BeautifulSoup:
    return BeautifulSoup(response.text, "html.parser")


def test_cells_no_source_speaks_to_are_marked_unknown_not_no(client: TestClient) -> None:
    soup = soup_of(client.get("/matrix"))
    unknown = soup.select("table.matrix td.lv-no-claim")
    assert unknown, "the seed leaves many cells without a claim"
    for td in unknown[:20]:
        assert "–" not in td.get_text()
        assert td.select_one(".visually-hidden").get_text() == "no source says"
        assert "lv-no" not in td["class"]


def test_every_matrix_page_has_a_legend_for_each_mark(client: TestClient) -> None:
    for url in ("/matrix", "/hardware", "/matrix?kind=proxy"):
        legend = soup_of(client.get(url)).select_one(".matrix-legend")
        text = legend.get_text(" ", strip=True)
        for words in ("supported", "partly", "experimental", "plugin", "not supported",
                      "no source says", "disagree", "own rating"):  # fmt: skip
            assert words in text, (url, words)
        assert legend.select_one("sup").get_text() == "1–3"


def test_each_row_says_how_many_capabilities_have_claims(client: TestClient) -> None:
    soup = soup_of(client.get("/matrix"))
    features = len(soup.select("thead th.cap"))
    row = soup.select_one("table.matrix tbody tr")
    claimed = len(row.select("td.lv")) - len(row.select("td.lv-no-claim"))
    assert row.select_one(".coverage").get_text() == f"claims on {claimed} of {features} features"
    hardware = soup_of(client.get("/hardware")).select_one("tbody .coverage").get_text()
    assert hardware.endswith("targets")


def test_min_coverage_hides_sparse_rows_and_is_kept_in_the_form(client: TestClient) -> None:
    everyone = soup_of(client.get("/matrix")).select("table.matrix tbody tr")
    soup = soup_of(client.get("/matrix?min_coverage=25"))
    dense = soup.select("table.matrix tbody tr")
    assert 0 < len(dense) < len(everyone)
    for row in dense:
        claimed, total = (int(w) for w in row.select_one(".coverage").get_text().split()[2::2])
        assert claimed * 100 >= 25 * total
    assert soup.select_one('select[name="min_coverage"] option[value="25"]').has_attr("selected")


def test_csv_export_spells_out_cells_without_claims(client: TestClient) -> None:
    rows = list(csv.reader(io.StringIO(client.get("/matrix.csv").text)))[1:]
    levels = {v.removesuffix(" (disputed)") for r in rows for v in r[2::2]}
    assert "no claim" in levels and "" not in levels and "none" not in levels


def test_json_export_spells_out_cells_without_claims(client: TestClient) -> None:
    body = client.get("/api/v1/matrix?view=hardware").json()
    cells = [c for r in body["rows"] for c in r["cells"]]
    assert {c["level"] for c in cells if not c["sources"]} == {"no-claim"}
    assert all(r["claimed"] <= r["claimable"] for r in body["rows"])
