"""/matrix and /hardware as HTML: page vs HTMX fragment, URL state, exports equal the screen."""

import csv
import io

from bs4 import BeautifulSoup
from fastapi.testclient import TestClient

HTMX = {"HX-Request": "true", "HX-Target": "matrix_results"}


def soup_of(response) -> BeautifulSoup:
    return BeautifulSoup(response.text, "html.parser")


def screen(soup: BeautifulSoup) -> tuple[list[str], list[list[str]]]:
    """(column headers, rows of [system, level, level, ...]) as the table shows them, in the
    data's column order (a must-have's column is drawn first; data-order says where it was)."""
    table = soup.select_one("table.matrix")
    headers = table.select("thead tr.cap-row th.cap")
    order = sorted(range(len(headers)), key=lambda i: int(headers[i]["data-order"]))
    columns = [headers[i].get_text(strip=True) for i in order]
    rows = []
    for tr in table.select("tbody tr"):
        system = tr.select_one("th a")["href"].rsplit("/", 1)[1]
        levels = [td["class"][1].removeprefix("lv-") for td in tr.select("td.lv")]
        rows.append([system, *(levels[i] for i in order)])
    return columns, rows


def test_a_must_haves_column_is_pinned_beside_the_system_column(client: TestClient) -> None:
    soup = soup_of(client.get("/matrix?need=speculative-decoding&need=prefix-caching"))
    table = soup.select_one("table.matrix")
    assert "has-pinned" in table["class"]
    first = table.select("thead tr.cap-row th.cap")[:3]
    assert [th["id"] for th in first[:2]] == ["col-prefix-caching", "col-speculative-decoding"]
    assert [c for c in first[0]["class"] if c.startswith("pin")] == ["pin", "pin-1"]
    assert {"pin", "pin-2", "pin-last", "is-highlighted"} <= set(first[1]["class"])
    assert "pin" not in first[2]["class"]
    group = table.select_one("tr.group-row th")
    assert group.get_text(strip=True) == "Must-haves" and group["colspan"] == "2"
    for tr in table.select("tbody tr"):
        cells = tr.select("td")
        assert {"pin", "pin-1"} <= set(cells[0]["class"]) and "pin-2" in cells[1]["class"]
        for cell, capability in zip(
            cells, ["prefix-caching", "speculative-decoding"], strict=False
        ):
            if link := cell.select_one("a[data-cell]"):  # a cell no source fills has no link
                assert link["data-cell"].endswith(f":{capability}")
    # Each column is drawn once: moved, not copied.
    assert len(soup.select("#col-prefix-caching")) == 1
    assert len(table.select("thead tr.cap-row th.cap")) == len(tr.select("td"))
    # A search that finds a feature pins its column too; no must-have, no pinning.
    found = soup_of(client.get("/matrix?q=prefix+caching")).select_one("table.matrix")
    assert found.select_one("thead th.cap.pin-1")["id"] == "col-prefix-caching"
    plain = soup_of(client.get("/matrix")).select_one("table.matrix")
    assert "has-pinned" not in plain["class"] and not plain.select(".pin")


def test_full_page_and_htmx_fragment(client: TestClient) -> None:
    full = client.get("/matrix?kind=proxy")
    assert full.status_code == 200
    page = soup_of(full)
    assert page.select_one("form#matrix-form") and page.select_one("h1")
    fragment = client.get("/matrix?kind=proxy", headers=HTMX)
    part = soup_of(fragment)
    assert part.select_one("form") is None and part.select_one("h1") is None
    assert part.select_one("section#matrix_results")
    assert screen(part) == screen(page)
    assert fragment.headers["HX-Push-Url"] == "/matrix?kind=proxy"
    assert "HX-Request" in fragment.headers["vary"] and "HX-Request" in full.headers["vary"]


def test_boosted_or_history_restore_requests_get_the_full_page(client: TestClient) -> None:
    for extra in ({"HX-Boosted": "true"}, {"HX-History-Restore-Request": "true"}):
        soup = soup_of(client.get("/matrix", headers={**HTMX, **extra}))
        assert soup.select_one("form#matrix-form")


def test_unknown_target_gets_the_full_page(client: TestClient) -> None:
    soup = soup_of(client.get("/matrix", headers={"HX-Request": "true", "HX-Target": "elsewhere"}))
    assert soup.select_one("h1")


def test_plain_form_submission_redirects_to_the_tidy_url(client: TestClient) -> None:
    response = client.get(
        "/matrix?q=&need=&need=prefix-caching:yes&need=&sort=name&kind=proxy",
        follow_redirects=False,
    )
    assert response.status_code == 303
    assert response.headers["location"] == "/matrix?need=prefix-caching:yes&kind=proxy"


def test_cold_load_of_a_url_renders_that_state(client: TestClient) -> None:
    soup = soup_of(client.get("/hardware?hw=amd-rocm&sort=coverage&diff=1"))
    assert soup.select_one('input[name="hw"][value="amd-rocm"]').has_attr("checked")
    assert soup.select_one('select[name="sort"] option[value="coverage"]').has_attr("selected")
    assert soup.select_one('input[name="diff"]').has_attr("checked")
    _, rows = screen(soup)
    assert rows and all(r[0] != "tensorrt-llm" for r in rows)


def test_must_haves_ride_along_with_the_form(client: TestClient) -> None:
    soup = soup_of(client.get("/matrix?need=prefix-caching:yes&need=structured-output"))
    hidden = soup.select('input[type="hidden"][name="need"][form="matrix-form"]')
    assert [i["value"] for i in hidden] == ["prefix-caching:yes", "structured-output"]


def test_csv_export_equals_the_screen(client: TestClient) -> None:
    query = "need=speculative-decoding&group=decoding&diff=1&sort=coverage"
    columns, rows = screen(soup_of(client.get(f"/matrix?{query}")))
    response = client.get(f"/matrix.csv?{query}")
    assert response.headers["content-type"].startswith("text/csv")
    table = list(csv.reader(io.StringIO(response.text)))
    header, body = table[0], table[1:]
    level_columns = header[2::2]
    assert len(level_columns) == len(columns)
    assert [[r[0], *(v.removesuffix(" (disputed)") for v in r[2::2])] for r in body] == [
        [r[0], *(lv.replace("no-claim", "no claim") for lv in r[1:])] for r in rows
    ]
    assert all(r[3] for r in body if r[2] != "no claim"), "every claimed cell lists its sources"


def test_json_export_equals_the_screen(client: TestClient) -> None:
    query = "hw=apple-silicon&sort=name"
    columns, rows = screen(soup_of(client.get(f"/hardware?{query}")))
    body = client.get(f"/api/v1/matrix?view=hardware&{query}").json()
    assert [c["name"] for g in body["groups"] for c in g["columns"]] == columns
    assert [[r["system"]["slug"], *(c["level"] for c in r["cells"])] for r in body["rows"]] == rows


def test_page_links_its_exports_and_json_twin(client: TestClient) -> None:
    soup = soup_of(client.get("/matrix?kind=proxy"))
    assert (
        soup.select_one('link[rel="alternate"]')["href"]
        == "/api/v1/matrix?view=features&kind=proxy"
    )
    hrefs = {a.get_text(): a["href"] for a in soup.select(".exports a")}
    assert hrefs == {
        "CSV": "/matrix.csv?kind=proxy",
        "JSON": "/api/v1/matrix?view=features&kind=proxy",
    }


def test_bad_parameters_show_a_message_naming_them(client: TestClient) -> None:
    response = client.get("/matrix?need=warp-drive&kind=spaceship")
    assert response.status_code == 422
    banner = soup_of(response).select_one(".problem-banner")
    items = [li.get_text(" ", strip=True) for li in banner.select("li")]
    assert any("need=warp-drive" in i and "prefix-caching" in i for i in items)
    assert any("kind=spaceship" in i and "engine" in i for i in items)
    assert soup_of(response).select("table.matrix tbody tr"), "the rest of the page still works"
    assert client.get("/matrix.csv?kind=spaceship").status_code == 422


def test_empty_result_offers_the_best_relaxation_in_words(client: TestClient) -> None:
    soup = soup_of(client.get("/matrix?kind=proxy&need=persistent-kv-cache:yes"))
    link = soup.select_one(".empty-state a")
    assert link["href"] == "/matrix?kind=proxy"
    assert link.get_text().startswith("Remove the filter “Must have ")
    assert "need=" not in soup.select_one(".empty-state").get_text(), "no parameter syntax"


def test_cell_detail_full_page_and_fragment(client: TestClient) -> None:
    url = "/matrix/cell?system=llama-cpp&capability=continuous-batching"
    full = soup_of(client.get(url))
    assert full.select_one("header.site-header")
    claims = full.select("#cell_detail .claim-list li")
    assert len(claims) >= 3
    assert {a["href"] for a in full.select("#cell_detail a.cite")} >= {
        "/sources#overview-early-2026",
        "/sources#genai-in-depth-serving-frameworks",
    }
    part = soup_of(client.get(url, headers={"HX-Request": "true", "HX-Target": "cell_detail"}))
    assert part.select_one("header.site-header") is None
    assert len(part.select("#cell_detail .claim-list li")) == len(claims)


def test_cell_detail_unknown_values_are_404s(client: TestClient) -> None:
    assert client.get("/matrix/cell?system=nope&capability=prefix-caching").status_code == 404
    response = client.get("/matrix/cell?system=vllm&capability=nope")
    assert response.status_code == 404
    assert "'nope'" in soup_of(response).select_one(".error-detail").get_text()


def test_a_licence_filter_shows_each_rows_licence(client: TestClient) -> None:
    soup = BeautifulSoup(client.get("/matrix?licence=proprietary").text, "html.parser")
    licences = [s.get_text() for s in soup.select("table.matrix tbody .row-licence")]
    assert licences and all(licences)
    plain = BeautifulSoup(client.get("/matrix").text, "html.parser")
    assert plain.select("table.matrix tbody .row-licence") == []


def test_the_cell_panel_explains_the_rating_mark_it_shares_with_the_matrix(
    client: TestClient,
) -> None:
    rated = client.get("/matrix/cell?system=llama-cpp&capability=amd-rocm").text
    soup = BeautifulSoup(rated, "html.parser")
    assert [m.get_text() for m in soup.select(".claim-list sup.strength")] == ["1"]
    assert "1 (basic) to 3 (strong)" in soup.select_one(".rating-note").get_text()
    unrated = client.get("/matrix/cell?system=llama-cpp&capability=nvidia-cuda").text
    assert BeautifulSoup(unrated, "html.parser").select_one(".rating-note") is None
