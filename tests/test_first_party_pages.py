"""First-party claims on the pages (issue 21): the cell panel shows since/how/page and the
docs version and read date; /sources shows what was read of a first-party source."""

from bs4 import BeautifulSoup
from fastapi.testclient import TestClient

from app.present.marks import claim_facts
from app.schemas import ClaimView, SourceRef


def page(client: TestClient, url: str) -> BeautifulSoup:
    response = client.get(url)
    assert response.status_code == 200, url
    return BeautifulSoup(response.text, "html.parser")


def test_the_cell_panel_shows_how_page_and_the_docs_read(client: TestClient) -> None:
    soup = page(client, "/matrix/cell?system=vllm&capability=prefix-caching")
    [item] = [li for li in soup.select(".claim-list > li") if "vLLM docs" in li.get_text()]
    facts = {
        div.select_one("dt").get_text(): div.select_one("dd").get_text(" ", strip=True)  # type: ignore[union-attr]
        for div in item.select(".claim-facts > div")
    }
    assert facts == {"How": "--enable-prefix-caching", "Page": "automatic_prefix_caching.md"}
    link = item.select_one(".claim-facts a")
    assert link is not None and str(link["href"]).startswith("https://github.com/vllm-project/")
    read = item.select_one(".docs-read")
    assert read is not None
    assert read.get_text(" ", strip=True) == "version v0.33.0; read 25 Nov 2026"


def test_an_article_claim_shows_no_docs_details(client: TestClient) -> None:
    soup = page(client, "/matrix/cell?system=sglang&capability=prefix-caching")
    assert soup.select(".claim-list > li")
    assert not soup.select(".claim-facts, .docs-read")


def test_sources_page_shows_what_was_read_of_a_first_party_source(client: TestClient) -> None:
    soup = page(client, "/sources")
    card = soup.select_one("#vllm-docs")
    assert card is not None
    meta = card.select_one(".meta")
    assert meta is not None
    text = meta.get_text(" ", strip=True)
    assert "project docs" in text and "version v0.33.0; read 25 Nov 2026" in text
    assert soup.select_one("#olla-servers-compared .docs-read") is None


def test_a_chained_claim_links_the_wrappers_page_and_the_engines(client: TestClient) -> None:
    source = SourceRef(slug="ray-serve-docs", short="Ray Serve docs", title="Ray", date="2026")
    claim = ClaimView(
        level="via",
        strength=None,
        note="Through vLLM.",
        source=source,
        page="https://github.com/ray-project/ray/blob/0718d5b/doc/source/serve/llm/quick-start.md",
        engine_page="https://github.com/vllm-project/vllm/blob/v0.33.0/docs/features/lora.md#x",
    )
    facts = BeautifulSoup(str(claim_facts(claim)), "html.parser")
    shown = [(div.dt.get_text(), div.a["href"]) for div in facts.select("div")]  # type: ignore[union-attr,index]
    assert shown == [("Page", claim.page), ("Engine's page", claim.engine_page)]
    schema = client.get("/openapi.json").json()["components"]["schemas"]["ClaimView"]
    assert {"engine_page", "outweighed"} <= set(schema["properties"])
