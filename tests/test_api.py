"""The JSON API: shapes, counts that match the database, and errors that name the value."""

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, func
from sqlmodel import Session, select

from app.models import BenchmarkResult, Capability, Claim, System

pytestmark = pytest.mark.database


def count(engine: Engine, model: type) -> int:
    with Session(engine) as session:
        return session.exec(select(func.count()).select_from(model)).one()


def test_systems_lists_every_system(client: TestClient, engine: Engine) -> None:
    body = client.get("/api/v1/systems").json()
    assert len(body) == count(engine, System)
    vllm = next(s for s in body if s["slug"] == "vllm")
    assert vllm["licence"] == "Apache-2.0"
    assert vllm["licence_family"] == "permissive"


def test_system_detail_has_claims_benchmarks_and_sources(client: TestClient) -> None:
    body = client.get("/api/v1/systems/vllm").json()
    cells = [c for g in body["features"] + body["hardware"] for c in g["cells"]]
    assert any(c["capability"] == "continuous-batching" and c["level"] == "yes" for c in cells)
    for cell in cells:
        assert cell["claims"], cell["capability"]
        assert all(claim["source"]["slug"] for claim in cell["claims"])
    assert {b["system"] for b in body["benchmarks"]} == {"vllm"}
    assert len(body["sources"]) == 6  # the five articles and vLLM's own docs


def test_a_first_party_claim_carries_how_page_and_the_docs_read(client: TestClient) -> None:
    body = client.get("/api/v1/systems/vllm").json()
    cells = {c["capability"]: c for g in body["features"] + body["hardware"] for c in g["cells"]}
    [docs] = [c for c in cells["prefix-caching"]["claims"] if c["source"]["slug"] == "vllm-docs"]
    assert (docs["level"], docs["since"], docs["how"]) == ("yes", None, "--enable-prefix-caching")
    assert docs["page"].endswith("/automatic_prefix_caching.md")
    source = docs["source"]
    assert (source["kind"], source["version"], source["commit"], source["read"]) == (
        "project-docs",
        "v0.33.0",
        None,
        "2026-11-25",
    )
    # An article's claim has none of these.
    article = next(c for c in cells["prefix-caching"]["claims"] if c["source"]["kind"] == "article")
    assert (article["since"], article["how"], article["page"]) == (None, None, None)
    schema = client.get("/openapi.json").json()["components"]["schemas"]
    assert {"since", "how", "page"} <= set(schema["ClaimView"]["properties"])
    assert {"version", "commit", "read"} <= set(schema["SourceRef"]["properties"])


def test_every_claim_appears_once_across_system_details(client: TestClient, engine: Engine) -> None:
    total = 0
    for system in client.get("/api/v1/systems").json():
        body = client.get(f"/api/v1/systems/{system['slug']}").json()
        total += sum(
            len(c["claims"]) for g in body["features"] + body["hardware"] for c in g["cells"]
        )
    assert total == count(engine, Claim)


def test_unknown_system_is_a_404_naming_the_slug(client: TestClient) -> None:
    response = client.get("/api/v1/systems/vllmm")
    assert response.status_code == 404
    body = response.json()
    assert body["value"] == "vllmm"
    assert "'vllmm'" in body["detail"]
    assert "vllm" in body["allowed"]


def test_capabilities(client: TestClient, engine: Engine) -> None:
    body = client.get("/api/v1/capabilities").json()
    assert len(body) == count(engine, Capability)
    kinds = {c["slug"]: c["kind"] for c in body}
    assert kinds["nvidia-cuda"] == "hardware"
    assert kinds["prefix-caching"] == "feature"


def test_sources_count_their_contributions(client: TestClient, engine: Engine) -> None:
    body = client.get("/api/v1/sources").json()
    assert len(body) == 9  # six for claims and figures, three for the model data
    docs = next(s for s in body if s["slug"] == "vllm-docs")
    assert (docs["kind"], docs["version"], docs["read"]) == (
        "project-docs",
        "v0.33.0",
        "2026-11-25",
    )
    assert sum(s["claim_count"] for s in body) == count(engine, Claim)
    assert sum(s["benchmark_count"] for s in body) == count(engine, BenchmarkResult)
    assert [s["date"] for s in body] == sorted((s["date"] for s in body), reverse=True)


def test_openapi_lists_the_api(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert {
        "/api/v1/systems",
        "/api/v1/systems/{slug}",
        "/api/v1/capabilities",
        "/api/v1/sources",
    } <= set(paths)
    assert "/systems/{slug}" not in paths
