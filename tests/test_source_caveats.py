"""Sources carry caveats (seed → database → pages and API) and are cited by one name everywhere."""

from pathlib import Path

from bs4 import BeautifulSoup
from fastapi.testclient import TestClient

from app.seeding.load import load_seed
from tests.test_seed_errors import problems_for, replace_in


def soup_of(client: TestClient, url: str) -> BeautifulSoup:
    response = client.get(url)
    assert response.status_code == 200
    return BeautifulSoup(response.text, "html.parser")


def test_the_three_weak_sources_carry_their_caveats(client: TestClient) -> None:
    kinds = {
        s["slug"]: {c["kind"] for c in s["caveats"]} for s in client.get("/api/v1/sources").json()
    }
    assert "machine-written" in kinds["overview-early-2026"]
    assert "vendor-interest" in kinds["olla-servers-compared"]
    assert "estimates" in kinds["genai-in-depth-serving-frameworks"]
    assert kinds["best-inference-servers-2026"] == set()


def test_sources_page_names_each_source_as_it_is_cited(client: TestClient) -> None:
    sources = {s["slug"]: s for s in client.get("/api/v1/sources").json()}
    soup = soup_of(client, "/sources")
    card = soup.select_one("article#olla-servers-compared")
    assert card.select_one("h2").get_text(strip=True) == sources["olla-servers-compared"]["short"]
    assert sources["olla-servers-compared"]["title"] in card.select_one(".full-title").get_text()
    assert "vendor" in card.select_one(".caveats").get_text(" ", strip=True).lower()
    assert not soup.select_one("article#best-inference-servers-2026 .caveats")
    # Systems covered are named, not given as slugs.
    covered = [a.get_text() for a in card.select(".systems-covered a")]
    assert "llama.cpp" in covered and "llama-cpp" not in covered


def test_every_citation_of_a_source_with_caveats_carries_the_mark(client: TestClient) -> None:
    soup = soup_of(client, "/systems/llama-cpp")
    cites = soup.select('a.cite[href="/sources#overview-early-2026"]')
    assert cites
    for cite in cites:
        mark = cite.find_next_sibling()
        assert mark is not None and "caveat" in mark.get("class", [])
        assert "machine-written" in mark.select_one(".visually-hidden").get_text()
        assert mark["data-tip"]
    clean = soup.select('a.cite[href="/sources#best-inference-servers-2026"]')
    assert clean and all(
        not (c.find_next_sibling() and "caveat" in c.find_next_sibling().get("class", []))
        for c in clean
    )


def test_citations_use_the_short_name_with_the_title_on_hover(client: TestClient) -> None:
    sources = {s["slug"]: s for s in client.get("/api/v1/sources").json()}
    for url in ("/compare?s=vllm&s=sglang", "/systems/vllm"):
        soup = soup_of(client, url)
        for cite in soup.select("a.cite"):
            source = sources[cite["href"].split("#")[1]]
            assert cite.get_text().startswith(source["short"]), url
            assert cite["title"].startswith(source["title"]), url
        listed = soup.select(".source-list li > a:not(.caveat)")
        assert listed and all(a.get_text() == sources[a["href"][9:]]["short"] for a in listed)


def test_an_unknown_caveat_kind_is_refused(seed_copy: Path) -> None:
    replace_in(seed_copy / "sources.yaml", "kind: vendor-interest", "kind: sponsored")
    problems = problems_for(seed_copy)
    assert any("sources.yaml" in p and "vendor-interest" in p for p in problems), problems


def test_caveats_are_optional(seed_copy: Path) -> None:
    path = seed_copy / "sources.yaml"
    lines = path.read_text().splitlines()
    kept = [
        line for line in lines if not line.startswith(("  caveats:", "    - kind:", "      text:"))
    ]
    path.write_text("\n".join(kept) + "\n")
    assert all(not s.caveats for s in load_seed(seed_copy).sources.values())


def test_the_guided_flow_marks_its_reasons_sources_too(client: TestClient) -> None:
    soup = soup_of(client, "/decide?hardware=apple-silicon&scale=single-user")
    marks = soup.select("a.cite + a.caveat")
    marked = {mark.find_previous_sibling("a")["href"] for mark in marks}
    assert "/sources#genai-in-depth-serving-frameworks" in marked
    assert "/sources#best-inference-servers-2026" not in marked
