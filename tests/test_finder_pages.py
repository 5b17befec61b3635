"""/features, /models, /workloads, /accelerators and the header's /search, with their JSON twins."""

import pytest
from bs4 import BeautifulSoup
from fastapi.testclient import TestClient


def soup_of(response) -> BeautifulSoup:
    assert response.status_code == 200, response.text
    return BeautifulSoup(response.text, "html.parser")


def test_features_index_lists_every_capability_grouped_with_coverage(client: TestClient) -> None:
    api = client.get("/api/v1/features").json()
    capabilities = {c["slug"] for c in client.get("/api/v1/capabilities").json()}
    listed = {f["slug"] for g in api["groups"] for f in g["features"]}
    assert listed == capabilities
    assert {g["kind"] for g in api["groups"]} == {"feature", "hardware"}
    rocm = next(f for g in api["groups"] for f in g["features"] if f["slug"] == "amd-rocm")
    matrix = client.get("/api/v1/matrix?view=hardware&q=ROCm").json()
    assert rocm["supported"] == matrix["paging"]["total"] > 0
    assert rocm["claimed"] >= rocm["supported"]
    soup = soup_of(client.get("/features"))
    links = {a["href"] for a in soup.select(".coverage-list a")}
    assert links == {f"/features/{slug}" for slug in capabilities}
    assert soup.select_one('link[rel=alternate][type="application/json"]')["href"] == (
        "/api/v1/features"
    )
    assert soup.select_one('nav[aria-label=Main] a[aria-current="page"]')["href"] == "/features"


@pytest.mark.parametrize(
    ("path", "kind", "api"),
    [
        ("/models", "model", "models"),
        ("/workloads", "workload", "workloads"),
        ("/accelerators", "hardware", "hardware"),
    ],
)
def test_vocabulary_indexes_link_every_entry(client: TestClient, path, kind, api) -> None:
    entries = client.get(f"/api/v1/{api}").json()
    soup = soup_of(client.get(path))
    rows = soup.select("table.entries tbody th[scope=row] a")
    entry_path = "/hardware" if kind == "hardware" else path
    shown = [a["href"] for a in rows]
    assert shown == [f"{entry_path}/{e['slug']}" for e in entries if not e["withdrawn"]]
    assert client.get(shown[0]).status_code == 200


def test_search_goes_straight_to_an_exact_name(client: TestClient) -> None:
    cases = [
        ("vllm", "/systems/vllm"),
        ("vLLM", "/systems/vllm"),
        ("llama.cpp", "/systems/llama-cpp"),
        ("H100 SXM5 80GB", "/hardware/nvidia-h100-sxm5-80gb"),
        ("prefix caching", "/features/prefix-caching"),
    ]
    for q, page in cases:
        response = client.get("/search", params={"q": q}, follow_redirects=False)
        assert response.status_code == 303 and response.headers["location"] == page, q


def test_search_lists_several_kinds_exact_first(client: TestClient) -> None:
    soup = soup_of(client.get("/search", params={"q": "llama"}))
    kinds = {b.get_text() for b in soup.select(".search-hits .badge")}
    assert {"system", "model"} <= kinds
    body = client.get("/api/v1/search", params={"q": "h100"}).json()
    exact = [h["exact"] for h in body["hits"]]
    assert exact == sorted(exact, reverse=True) and body["go_to"] is None
    assert {h["url"] for h in body["hits"]} >= {"/hardware/nvidia-h100-sxm5-80gb"}


def test_search_with_no_hit_says_so_and_offers_the_matrix(client: TestClient) -> None:
    soup = soup_of(client.get("/search", params={"q": "zzzz"}))
    assert "Nothing is named like" in soup.select_one(".empty").get_text()
    assert soup.select_one(".empty a")["href"] == "/matrix?q=zzzz"


def test_every_page_has_the_header_search_box(client: TestClient) -> None:
    form = soup_of(client.get("/benchmarks")).select_one("header form[role=search]")
    assert form["action"] == "/search" and form.select_one("input[name=q]")
