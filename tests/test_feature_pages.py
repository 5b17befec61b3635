"""/features/{slug} and /api/v1/capabilities/{slug}: one capability across every system."""

from bs4 import BeautifulSoup
from fastapi.testclient import TestClient


def soup_of(response) -> BeautifulSoup:
    return BeautifulSoup(response.text, "html.parser")


def test_feature_page_lists_disputes_then_claims_then_unknowns(client: TestClient) -> None:
    api = client.get("/api/v1/capabilities/prefix-caching").json()
    soup = soup_of(client.get("/features/prefix-caching"))
    assert soup.select_one("h1").get_text() == "Prefix caching"
    headings = [h.get_text() for h in soup.select("main h2")]
    expected = ["Sources disagree"] * bool(api["disputed"]) + ["What the sources say"]
    assert headings == [*expected, "No source says"] if api["unknown"] else expected
    shown = [a["href"].rsplit("/", 1)[1] for a in soup.select("table.feature-claims th a")]
    assert shown == [r["system"]["slug"] for r in api["disputed"] + api["claimed"]]
    unknown = [a["href"].rsplit("/", 1)[1] for a in soup.select(".unknown-list a")]
    assert unknown == [s["slug"] for s in api["unknown"]]
    total = len(shown) + len(unknown)
    assert total == api["total_systems"] == len(client.get("/api/v1/systems").json())


def test_unknowns_are_never_shown_as_no(client: TestClient) -> None:
    soup = soup_of(client.get("/features/tool-calling"))
    for li in soup.select(".unknown-list li"):
        assert li.select_one(".level-no-claim").get_text() == "unknown"
        assert li.select_one(".level-no") is None
    assert "not “no”" in soup.select_one(".unknown-systems .hint").get_text()


def test_every_claim_is_listed_with_its_source(client: TestClient) -> None:
    api = client.get("/api/v1/capabilities/continuous-batching").json()
    soup = soup_of(client.get("/features/continuous-batching"))
    row = soup.select_one("#system-llama-cpp")
    claims = next(r for r in api["disputed"] + api["claimed"] if r["system"]["slug"] == "llama-cpp")
    cites = [a["href"] for a in row.select("a.cite")]
    assert cites == [f"/sources#{c['source']['slug']}" for c in claims["claims"]]


def test_disputed_rows_come_first(client: TestClient) -> None:
    for slug in ("continuous-batching", "prefix-caching", "amd-rocm", "apple-silicon"):
        api = client.get(f"/api/v1/capabilities/{slug}").json()
        assert all(r["disputed"] for r in api["disputed"])
        assert not any(r["disputed"] for r in api["claimed"])


def test_hardware_targets_have_pages_too(client: TestClient) -> None:
    soup = soup_of(client.get("/features/amd-rocm"))
    assert "Hardware target" in soup.select_one(".eyebrow").get_text()
    assert soup.select_one('link[rel="alternate"]')["href"] == "/api/v1/capabilities/amd-rocm"


def test_matrix_headers_and_cell_panel_link_to_feature_pages(client: TestClient) -> None:
    soup = soup_of(client.get("/matrix"))
    header = soup.select_one("thead th.cap a")
    assert header["href"].startswith("/features/")
    hardware = soup_of(client.get("/hardware")).select_one("thead th.cap a")["href"]
    assert client.get(hardware).status_code == 200
    cell = soup_of(client.get("/matrix/cell?system=vllm&capability=prefix-caching"))
    assert cell.select_one('#cell_detail a[href="/features/prefix-caching"]')


def test_unknown_feature_is_a_404_that_suggests_the_closest(client: TestClient) -> None:
    response = client.get("/features/prefix-cache")
    assert response.status_code == 404
    soup = soup_of(response)
    suggestion = soup.select_one(".did-you-mean a")
    assert suggestion["href"] == "/features/prefix-caching"
    assert suggestion.get_text() == "Prefix caching", "names, not slugs"
    body = client.get("/api/v1/capabilities/toolcalling").json()
    assert body["suggestions"][0] == "tool-calling" and "tool-calling" in body["allowed"]


def test_unknown_system_suggests_by_name(client: TestClient) -> None:
    soup = soup_of(client.get("/systems/vlm"))
    assert soup.select_one(".did-you-mean a")["href"] == "/systems/vllm"
    assert soup.select_one(".did-you-mean a").get_text() == "vLLM"
