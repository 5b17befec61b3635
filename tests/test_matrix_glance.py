"""Issue 13: the matrix reads at a glance — unknown is its own state, every mark explained."""

import csv
import io

import pytest
from bs4 import BeautifulSoup
from fastapi.testclient import TestClient

from tests.conftest import REAL_SEED_DIR


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
        for words in (
            "supported",
            "partly",
            "experimental",
            "plugin",
            "not supported",
            "no source says",
            "disagree",
            "own rating",
        ):
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


def test_search_offers_features_and_hardware_named_like_it(client: TestClient) -> None:
    soup = soup_of(client.get("/matrix?q=tool+calling&kind=engine"))
    # No system is named so: the rows are the systems that support it, and the note says so.
    offer = soup.select_one(".capability-matches")
    assert offer.select_one('a[href="/features/tool-calling"]').get_text() == "Tool calling"
    one_click = offer.select_one("a.filter-link")["href"]
    assert one_click == "/matrix?need=tool-calling&kind=engine", "search swapped for must-have"
    hardware = soup_of(client.get("/hardware?q=rocm")).select_one(
        ".capability-matches a.filter-link"
    )
    assert hardware["href"] == "/hardware?hw=amd-rocm"
    assert soup_of(client.get("/matrix?q=vllm")).select_one(".capability-matches") is None


def test_picker_choice_folds_into_need_and_the_url_stays_tidy(client: TestClient) -> None:
    response = client.get(
        "/matrix?need=prefix-caching&add=tool-calling&at=yes", follow_redirects=False
    )
    assert response.status_code == 303
    assert response.headers["location"] == "/matrix?need=prefix-caching&need=tool-calling:yes"
    htmx = client.get(
        "/matrix?add=tool-calling&at=partial",
        headers={"HX-Request": "true", "HX-Target": "matrix_results"},
    )
    assert htmx.headers["HX-Push-Url"] == "/matrix?need=tool-calling:partial"
    hidden = soup_of(htmx).select('input[name="need"][form="matrix-form"]')
    assert [i["value"] for i in hidden] == ["tool-calling:partial"]


def test_active_filters_are_chips_in_words_that_remove_themselves(client: TestClient) -> None:
    soup = soup_of(client.get("/matrix?need=tool-calling:yes&hw=amd-rocm&licence=permissive&q=a"))
    chips = {a.get_text(" ", strip=True).split(" ×")[0]: a["href"] for a in soup.select("a.chip")}
    assert chips == {
        "Must have Tool calling (yes)": "/matrix?hw=amd-rocm&licence=permissive&q=a",
        "Runs on AMD GPUs (ROCm/HIP)": "/matrix?need=tool-calling:yes&licence=permissive&q=a",
        "Permissive licence": "/matrix?need=tool-calling:yes&hw=amd-rocm&q=a",
        "Search “a”": "/matrix?need=tool-calling:yes&hw=amd-rocm&licence=permissive",
        "Clear all filters": "/matrix",
    }
    assert soup_of(client.get("/matrix")).select("a.chip") == []


@pytest.mark.data
def test_empty_search_says_what_to_clear_in_plain_words(real_client: TestClient) -> None:
    # A term that names no system, feature or hardware, and appears in no summary.
    soup = soup_of(real_client.get("/matrix?q=quantum+teleport"))
    text = soup.select_one(".empty-state").get_text(" ", strip=True)
    systems = len(list((REAL_SEED_DIR / "systems").glob("*.yaml")))  # every one, unfiltered
    assert f"Clear the search “quantum teleport” to see {systems} systems" in text
    assert "q=" not in text


def test_cell_parameter_opens_the_panel_beside_the_matrix(client: TestClient) -> None:
    soup = soup_of(client.get("/matrix?group=batching&cell=llama-cpp:continuous-batching"))
    panel = soup.select_one("#cell_detail.is-panel")
    assert panel["role"] == "dialog" and not panel.has_attr("hidden")
    assert panel.select_one("h2").get_text() == "llama.cpp · Continuous batching"
    assert panel.select_one("a[data-close-cell]")["href"] == "/matrix?group=batching"
    assert soup.select_one('link[rel="alternate"]')["href"].endswith("group=batching")
    assert soup.select_one(".exports a")["href"] == "/matrix.csv?group=batching"
    closed = soup_of(client.get("/matrix?group=batching")).select_one("#cell_detail")
    assert closed.has_attr("hidden")


def test_a_cell_that_names_nothing_is_reported(client: TestClient) -> None:
    response = client.get("/matrix?cell=vllm:warp-drive")
    assert response.status_code == 422
    assert "cell=vllm:warp-drive" in soup_of(response).select_one(".problem-banner").get_text()


def test_shortened_summaries_end_at_a_word_boundary(client: TestClient) -> None:
    api = {s["name"]: s["summary"] for s in client.get("/api/v1/systems").json()}
    cards = soup_of(client.get("/")).select(".card-summary")
    cut = [c.get_text() for c in cards if c.get_text().endswith("…")]
    assert cut, "some summaries are long enough to be shortened"
    for text in cut:
        kept = text.removesuffix("…").rstrip()
        full = next(s for s in api.values() if s.startswith(kept))
        assert full[len(kept)] in " ,.;:", (kept, full)
