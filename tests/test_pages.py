"""HTML pages, asserted through their structure (CSS selectors), never substrings."""

from bs4 import BeautifulSoup
from fastapi.testclient import TestClient

from app.settings import PROJECT_ROOT


def page(client: TestClient, url: str, status: int = 200) -> BeautifulSoup:
    response = client.get(url)
    assert response.status_code == status
    assert response.headers["content-type"].startswith("text/html")
    return BeautifulSoup(response.text, "html.parser")


def test_system_page_shows_the_systems_data(client: TestClient) -> None:
    api = client.get("/api/v1/systems/vllm").json()
    soup = page(client, "/systems/vllm")
    assert soup.select_one("h1").get_text(strip=True) == "vLLM"
    assert soup.select_one("title").get_text().startswith("vLLM")
    badges = [b.get_text(strip=True) for b in soup.select(".system-header .badge")]
    assert "Apache-2.0" in badges and "Active" in badges
    categories = [h.get_text(strip=True) for h in soup.select("#features details.category h3")]
    assert categories == [g["name"] for g in api["features"]]
    rows = soup.select("#benchmarks table.benchmarks tbody tr")
    assert len(rows) == len(api["benchmarks"])
    assert (
        soup.select_one('link[rel="alternate"][type="application/json"]')["href"]
        == "/api/v1/systems/vllm"
    )


def test_disputed_cells_list_every_source(client: TestClient) -> None:
    soup = page(client, "/systems/llama-cpp")
    row = soup.select_one("#cap-continuous-batching")
    assert "is-disputed" in row["class"]
    levels = [li.select_one(".level")["class"][1] for li in row.select(".claim-list > li")]
    assert "level-no" in levels and "level-yes" in levels
    cited = {a["href"] for a in row.select("a.cite")}
    assert len(cited) >= 3


def test_every_claim_on_the_page_cites_a_source(client: TestClient) -> None:
    soup = page(client, "/systems/sglang")
    claims = soup.select(".claim-list > li")
    assert claims
    assert all(li.select_one('a.cite[href^="/sources#"]') for li in claims)


def test_levels_are_labelled_in_text_not_only_colour(client: TestClient) -> None:
    soup = page(client, "/systems/omlx")
    for level in soup.select(".level"):
        assert level.get_text(strip=True)[1:].strip(), level


def test_unknown_system_page_is_a_404_that_names_it(client: TestClient) -> None:
    soup = page(client, "/systems/not-a-server", status=404)
    assert "'not-a-server'" in soup.select_one(".error-detail").get_text()
    links = {a["href"] for a in soup.select(".slug-list a")}
    assert "/systems/vllm" in links


def test_sources_page_lists_each_source_with_its_counts(client: TestClient) -> None:
    api = client.get("/api/v1/sources").json()
    soup = page(client, "/sources")
    cards = soup.select("article.source-card")
    assert [c["id"] for c in cards] == [s["slug"] for s in api]
    first_counts = [dd.get_text(strip=True) for dd in cards[0].select(".contributions dd")]
    assert first_counts[0] == str(api[0]["claim_count"])


def test_overview_links_every_system(client: TestClient) -> None:
    systems = client.get("/api/v1/systems").json()
    soup = page(client, "/")
    links = {a["href"] for a in soup.select(".system-card h4 a")}
    assert links == {f"/systems/{s['slug']}" for s in systems}
    footer = soup.select_one(".site-footer").get_text(" ", strip=True)
    assert f"{len(systems)} systems" in footer


def test_pages_vary_on_htmx_headers(client: TestClient) -> None:
    response = client.get("/systems/vllm")
    assert "HX-Request" in response.headers["vary"]


def test_static_vendor_files_are_served(client: TestClient) -> None:
    """Every script and stylesheet a page links is served, byte for byte, with its type."""
    soup = page(client, "/")
    linked = [s["src"] for s in soup.select("script[src]")]
    linked += [link["href"] for link in soup.select('link[rel="stylesheet"][href]')]
    assert any("/static/vendor/htmx" in url for url in linked)
    assert any("/static/css/app.css" in url for url in linked)
    for url in linked:
        response = client.get(url)
        assert response.status_code == 200, url
        path = PROJECT_ROOT / url.split("?", 1)[0].lstrip("/")
        assert response.content == path.read_bytes(), url
        wanted = "text/css" if path.suffix == ".css" else "javascript"
        assert wanted in response.headers["content-type"], url


def test_overview_offers_every_view(client: TestClient) -> None:
    soup = page(client, "/")
    targets = {a["href"].split("?")[0] for a in soup.select(".entry-points a")}
    assert targets == {"/decide", "/matrix", "/hardware", "/compare", "/benchmarks"}
    for href in (a["href"] for a in soup.select(".entry-points a")):
        assert client.get(href).status_code == 200


def test_system_page_opens_with_a_summary_at_a_glance(client: TestClient) -> None:
    api = client.get("/api/v1/systems/vllm").json()
    soup = page(client, "/systems/vllm")
    glance = soup.select_one(".system-header .glance")
    terms = [dt.get_text(strip=True) for dt in glance.select("dt")]
    assert terms == [
        "Kind",
        "Licence",
        "Status",
        "Latest version in the sources",
        "Language",
        "Repository",
    ]
    versions = [f["value"] for f in api["facts"] if f["attribute"] == "version"]
    assert glance.select("dd")[3].get_text(strip=True) in versions
    assert glance.select_one("dd a")["href"] == api["repository"]
    strengths = [li.contents[0].strip() for li in glance.select(".sourced-list li")]
    # The best supported lines first, each with its mark when it has one.
    assert strengths == [line["text"] for line in api["best_for_summary"][:3]]
    cautioned = [line for line in api["best_for_summary"][:3] if line["caution"]]
    assert len(glance.select(".caution-note")) == len(cautioned)
    chips = [a["href"] for a in glance.select(".hardware-chips a")]
    assert "#cap-nvidia-cuda" in chips and all(soup.select_one(h) for h in chips)
    figures = glance.select(".key-figures li")
    assert 0 < len(figures) <= 3 and all(li.select_one("a.cite") for li in figures)


def test_facts_show_each_attribute_once_with_all_its_sources(client: TestClient) -> None:
    api = client.get("/api/v1/systems/vllm").json()
    soup = page(client, "/systems/vllm")
    rows = soup.select("table.facts tbody tr")
    attributes = list(dict.fromkeys(f["attribute"] for f in api["facts"]))
    assert [tr["id"] for tr in rows] == [f"fact-{a}" for a in attributes]
    version = soup.select_one("#fact-version")
    values = [v.get_text(strip=True) for v in version.select(".fact-value")]
    expected = list(dict.fromkeys(f["value"] for f in api["facts"] if f["attribute"] == "version"))
    assert values == expected
    cited = len(soup.select("table.facts .fact-source a.cite"))
    assert cited == len(api["facts"])
    repository = soup.select_one("#fact-repository .fact-value a")
    assert repository["href"] == api["repository"]
