"""/api/v1/matrix: filters, sorting, differences-only and errors."""

import pytest
from fastapi.testclient import TestClient

from tests.conftest import REAL_SEED_DIR

pytestmark = pytest.mark.database


def matrix(client: TestClient, query: str = "", view: str = "features") -> dict:
    response = client.get(f"/api/v1/matrix?view={view}&{query}")
    assert response.status_code == 200, response.text
    return response.json()


def slugs(body: dict) -> list[str]:
    return [row["system"]["slug"] for row in body["rows"]]


def cell(body: dict, system: str, capability: str) -> dict:
    row = next(r for r in body["rows"] if r["system"]["slug"] == system)
    columns = [c["slug"] for g in body["groups"] for c in g["columns"]]
    return row["cells"][columns.index(capability)]


@pytest.mark.data
def test_unfiltered_matrix_has_every_system_and_feature_column(real_client: TestClient) -> None:
    body = matrix(real_client)
    systems = {p.stem for p in (REAL_SEED_DIR / "systems").glob("*.yaml")}
    assert len(body["rows"]) == body["total_systems"] == len(systems)
    assert set(slugs(body)) == systems
    columns = [c["slug"] for g in body["groups"] for c in g["columns"]]
    assert "continuous-batching" in columns and "nvidia-cuda" not in columns
    assert slugs(body) == sorted(
        slugs(body),
        key=lambda s: next(
            r["system"]["name"].lower() for r in body["rows"] if r["system"]["slug"] == s
        ),
    )


def test_hardware_view_has_only_hardware_columns(client: TestClient) -> None:
    body = matrix(client, view="hardware")
    columns = {c["slug"] for g in body["groups"] for c in g["columns"]}
    assert {"nvidia-cuda", "amd-rocm", "apple-silicon", "browser-webgpu"} <= columns
    assert "prefix-caching" not in columns


def test_must_have_levels_narrow_progressively(client: TestClient) -> None:
    any_level = set(slugs(matrix(client, "need=prefix-caching")))
    partial = set(slugs(matrix(client, "need=prefix-caching:partial")))
    yes = set(slugs(matrix(client, "need=prefix-caching:yes")))
    assert yes <= partial <= any_level
    assert "sglang" in yes
    assert "ray-serve" in any_level and "ray-serve" not in partial  # via only
    body = matrix(client, "need=prefix-caching:yes")
    assert all(cell(body, s, "prefix-caching")["level"] == "yes" for s in yes)


def test_hardware_filter_keeps_only_systems_that_run_there(client: TestClient) -> None:
    body = matrix(client, "hw=amd-rocm&hw=apple-silicon", view="hardware")
    assert "llama-cpp" in slugs(body)
    assert "tensorrt-llm" not in slugs(body)
    for system in slugs(body):
        assert cell(body, system, "amd-rocm")["level"] in {"yes", "partial", "experimental", "via"}


def test_licence_kind_status_and_text_filters(client: TestClient) -> None:
    assert "lm-studio" in slugs(matrix(client, "licence=proprietary"))
    assert "vllm" not in slugs(matrix(client, "licence=proprietary"))
    assert set(slugs(matrix(client, "kind=proxy"))) == {"litellm", "olla"}
    assert "tgi" in slugs(matrix(client, "status=maintenance"))
    assert slugs(matrix(client, "q=radix")) == ["sglang"] or "sglang" in slugs(
        matrix(client, "q=radix")
    )


def test_sort_by_coverage_puts_the_broadest_first(client: TestClient) -> None:
    body = matrix(client, "sort=coverage")
    coverages = [r["coverage"] for r in body["rows"]]
    assert coverages == sorted(coverages, reverse=True)
    assert coverages[0] > coverages[-1]


def test_sort_by_matches_prefers_stronger_levels(client: TestClient) -> None:
    body = matrix(client, "need=structured-output&need=speculative-decoding&sort=matches")
    scores = [r["matches"] for r in body["rows"]]
    assert scores == sorted(scores, reverse=True)


def test_differences_only_drops_columns_where_all_rows_agree(client: TestClient) -> None:
    everything = matrix(client, "kind=proxy")
    diff = matrix(client, "kind=proxy&diff=1")
    all_cols = sum(len(g["columns"]) for g in everything["groups"])
    diff_cols = [c["slug"] for g in diff["groups"] for c in g["columns"]]
    assert 0 < len(diff_cols) < all_cols
    for capability in diff_cols:
        assert cell(diff, "olla", capability)["level"] != cell(diff, "litellm", capability)["level"]
    assert diff["hidden_columns"] == all_cols - len(diff_cols)


def test_column_groups_can_be_chosen(client: TestClient) -> None:
    body = matrix(client, "group=quantization&group=apis")
    assert [g["slug"] for g in body["groups"]] == ["quantization", "apis"]


def test_empty_result_names_the_filter_to_relax(client: TestClient) -> None:
    body = matrix(client, "kind=proxy&need=persistent-kv-cache:yes")
    assert body["rows"] == []
    # Dropping the need brings back both proxies; dropping the kind only oMLX.
    assert (body["relax"]["field"], body["relax"]["would_show"]) == ("need", 2)
    assert body["relax"]["query"] == "kind=proxy"


def test_disputed_cell_lists_every_source(client: TestClient) -> None:
    body = matrix(client)
    disputed = cell(body, "llama-cpp", "continuous-batching")
    assert disputed["disputed"] is True
    assert len(disputed["sources"]) >= 3


def test_unknown_values_are_422_with_allowed_values(client: TestClient) -> None:
    response = client.get("/api/v1/matrix?need=warp-drive&licence=free&sort=fast&view=grid")
    assert response.status_code == 422
    fields = {p["field"]: p for p in response.json()["detail"]}
    assert set(fields) == {"need", "licence", "sort", "view"}
    assert "features" in fields["view"]["allowed"]
    assert "prefix-caching" in fields["need"]["allowed"]
    assert fields["licence"]["allowed"] == ["permissive", "copyleft", "proprietary", "unknown"]
    response = client.get("/api/v1/matrix?licence=free&colour=red")
    assert [p["field"] for p in response.json()["detail"]] == ["licence"]


def test_unknown_minimum_level_is_422(client: TestClient) -> None:
    response = client.get("/api/v1/matrix?need=prefix-caching:mostly")
    assert response.status_code == 422
    assert "prefix-caching:yes" in response.json()["detail"][0]["allowed"]


def test_search_matches_system_names_before_any_text(client: TestClient) -> None:
    # Seven summaries mention vLLM; a search for "vllm" means the system called that.
    body = matrix(client, "q=vllm")
    assert slugs(body) == ["vllm"] and body["search_mode"] == "name"
    assert set(slugs(matrix(client, "q=llama"))) == {"llama-cpp", "ollama", "exllamav2"}


@pytest.mark.parametrize(
    ("query", "capability"), [("ROCm", "amd-rocm"), ("tool+calling", "tool-calling")]
)
def test_search_for_a_feature_or_hardware_keeps_the_systems_that_support_it(
    client: TestClient, query: str, capability: str
) -> None:
    body = matrix(client, f"q={query}", view="hardware" if capability == "amd-rocm" else "features")
    assert body["search_mode"] == "capability" and body["search_capabilities"] == [capability]
    every = matrix(client, view="hardware" if capability == "amd-rocm" else "features")
    supported = {
        s
        for s in slugs(every)
        if cell(every, s, capability)["level"] in {"yes", "partial", "experimental", "via"}
    }
    assert set(slugs(body)) == supported and supported


def test_search_falls_back_to_words_in_summaries(client: TestClient) -> None:
    body = matrix(client, "q=fork")
    assert body["search_mode"] == "text" and "aphrodite" in slugs(body)


def test_the_models_views_own_filters_are_checked_on_every_view(client: TestClient) -> None:
    # The schema lists them for /api/v1/matrix whatever the view: a bad value is refused there
    # too, a good one is accepted (and has no effect on the features view).
    refused = client.get("/api/v1/matrix?listed=-58800")
    assert refused.status_code == 422
    assert [p["field"] for p in refused.json()["detail"]] == ["listed"]
    fine = client.get("/api/v1/matrix?listed=true")
    assert fine.status_code == 200 and fine.json()["view"] == "features"
