"""The vocabulary over HTTP: the API lists, one entry's page and JSON twin, names that redirect
to slugs, and /benchmarks filtering on it with a count beside each choice."""

from collections import Counter

import pytest
from bs4 import BeautifulSoup
from fastapi.testclient import TestClient

from app.seeding.load import load_seed
from tests.conftest import REAL_SEED_DIR

HTMX = {"HX-Request": "true", "HX-Target": "benchmark_results"}


def soup_of(response) -> BeautifulSoup:
    return BeautifulSoup(response.text, "html.parser")


def by_slug(client: TestClient, path: str) -> dict[str, dict]:
    return {e["slug"]: e for e in client.get(path).json()}


# -- API --------------------------------------------------------------------------------------
def test_hardware_lists_each_entry_with_its_names_and_figures(client: TestClient) -> None:
    hardware = by_slug(client, "/api/v1/hardware")
    sxm5 = hardware["nvidia-h100-sxm5-80gb"]
    assert (sxm5["name"], sxm5["vague"], sxm5["figures"], sxm5["memory_gb"]) == (
        "NVIDIA H100 SXM5 80GB",
        False,
        12,
        80,
    )
    assert "H100 SXM" in sxm5["aliases"] and sxm5["sources"] == ["best-inference-servers-2026"]
    bare = hardware["nvidia-h100-unspecified"]
    assert bare["vague"] and "NVIDIA H100" in bare["aliases"] and bare["memory_gb"] is None
    # Every figure that names its hardware is counted under exactly one entry.
    results = client.get("/api/v1/benchmarks").json()["results"]
    assert sum(e["figures"] for e in hardware.values()) == sum(1 for r in results if r["hardware"])


@pytest.mark.data
def test_models_and_workloads_list_their_entries(real_client: TestClient) -> None:
    models = by_slug(real_client, "/api/v1/models")
    assert models["llama-3-70b"]["parameters_b"] == 70 and models["llama-3-70b"]["figures"] == 7
    assert models["deepseek-v3"]["kind"] == "moe"
    assert models["deepseek-v3"]["architecture"] == "DeepseekV3ForCausalLM"
    assert models["unnamed-7b"]["vague"] and models["unnamed-7b"]["parameters_b"] == 7
    workloads = by_slug(real_client, "/api/v1/workloads")
    assert workloads["prefill-pp512"]["input_tokens"] == 512
    published = real_client.get("/api/v1/benchmarks?origin=published").json()["results"]
    # Every figure in seed/ is published, and each entry counts exactly the figures naming it.
    rows = load_seed(REAL_SEED_DIR).benchmarks
    assert sorted(r["id"] for r in published) == sorted(r.id for f in rows.values() for r in f)
    for kind, entries in (("model", models), ("workload", workloads)):
        named = Counter(r[kind] for r in published if r[kind])
        assert {slug: e["figures"] for slug, e in entries.items() if e["figures"]} == named, kind
    assert all(r["workload"] for r in published), "every published figure has a workload"


def test_one_entry_has_its_figures_and_a_name_redirects_to_its_slug(client: TestClient) -> None:
    body = client.get("/api/v1/hardware/nvidia-h100-sxm5-80gb").json()
    assert body["entry"]["slug"] == "nvidia-h100-sxm5-80gb" and body["systems"] == 3
    assert {r["system"] for r in body["figures"]} == {"tensorrt-llm", "sglang", "vllm"}
    assert all(r["gpus"] == 1 for r in body["figures"])
    moved = client.get("/api/v1/hardware/H100 SXM", follow_redirects=False)
    assert moved.status_code == 308
    assert moved.headers["location"] == "/api/v1/hardware/nvidia-h100-sxm5-80gb"


def test_an_unknown_slug_gets_404_with_the_closest(client: TestClient) -> None:
    response = client.get("/api/v1/models/llama-3-7b")
    assert response.status_code == 404
    body = response.json()
    assert body["field"] == "model" and "llama-3-70b" in body["suggestions"]
    page = client.get("/hardware/nvidia-h100-sxmm")
    assert page.status_code == 404
    assert "/hardware/nvidia-h100-sxm5-80gb" in {
        a["href"] for a in soup_of(page).select(".did-you-mean a")
    }


# -- pages ------------------------------------------------------------------------------------
def test_the_hardware_page_lists_its_figures_and_says_when_it_is_vague(client: TestClient) -> None:
    soup = soup_of(client.get("/hardware/nvidia-h100-unspecified"))
    assert soup.select_one("h1").get_text() == "NVIDIA H100, variant not stated"
    assert soup.select_one(".vague-note")
    rows = soup.select("table.entry-figures tbody tr")
    assert len(rows) == 18
    assert soup.select_one('link[rel="alternate"]')["href"] == (
        "/api/v1/hardware/nvidia-h100-unspecified"
    )
    sharp = soup_of(client.get("/hardware/nvidia-h100-sxm5-80gb"))
    assert sharp.select_one(".vague-note") is None


def test_every_figure_links_its_hardware_and_model(client: TestClient) -> None:
    soup = soup_of(client.get("/benchmarks?system=lmdeploy&metric=throughput"))
    row = soup.select_one("#result-bis-lmdeploy-l3-70b-int4-throughput")
    links = {a["href"] for a in row.select("a.vocab")}
    assert links == {"/hardware/nvidia-a100-80gb", "/models/llama-3-70b"}
    system = soup_of(client.get("/systems/powerinfer"))
    cell = system.select_one("#bench-seg-powerinfer-4090-avg td[data-label=Accelerator]")
    assert cell.get_text(" ", strip=True) == "1× NVIDIA GeForce RTX 4090"


# -- /benchmarks on the vocabulary -------------------------------------------------------------
def test_an_old_link_with_a_hardware_name_redirects_to_the_slug(client: TestClient) -> None:
    response = client.get("/benchmarks?hardware=NVIDIA+H100+SXM5+80GB", follow_redirects=False)
    assert response.status_code in (301, 302, 303, 307, 308)
    assert response.headers["location"].endswith("?hardware=nvidia-h100-sxm5-80gb")


def test_figures_describing_the_same_setup_meet_in_one_context(client: TestClient) -> None:
    # Two articles give few-shot cache-hit rates for SGLang and vLLM; before the vocabulary
    # their workload text differed in case only and they stood apart.
    body = client.get("/api/v1/benchmarks?workload=few-shot-shared-prefix").json()
    [context] = body["contexts"]
    assert {r["result"]["source"]["slug"] for r in context["results"]} == {
        "best-inference-servers-2026",
        "serving-engine-guide-18-tools",
    }
    # The Reddit prompt-processing comparison: one test, now one ranked context.
    body = client.get("/api/v1/benchmarks?metric=prompt-throughput&hardware=nvidia-rtx-4090")
    [context] = body.json()["contexts"]
    assert context["ranked"] and [r["result"]["system"] for r in context["results"]] == [
        "exllamav2",
        "llama-cpp",
    ]


def test_each_filter_choice_shows_how_many_results_it_gives(client: TestClient) -> None:
    soup = soup_of(client.get("/benchmarks?metric=throughput"))
    counts = {
        label.select_one("input")["value"]: label.select_one(".facet-count").get_text(" ")
        for label in soup.select("label.facet:has(input[name=hardware])")
    }
    assert counts["nvidia-h100-sxm5-80gb"].startswith("3 ")
    assert counts["nvidia-rtx-4090"].startswith("2 ")
    # A choice that would give nothing says so rather than offering an empty page.
    assert counts["apple-silicon-unspecified"].startswith("0 ")
    zero = soup.select_one("label.facet:has(input[value=apple-silicon-unspecified]) .facet-count")
    assert "none" in zero["class"] and "No figure" in zero["title"]
    # Ticking a metric does not shrink the metric list's own counts.
    metric = soup.select_one("label.facet:has(input[value=cold-start]) .facet-count")
    assert metric.get_text(" ").startswith("8 ")


def test_the_counts_follow_an_htmx_swap_without_duplicating_ids(client: TestClient) -> None:
    fragment = soup_of(client.get("/benchmarks?metric=throughput&model=llama-3-70b", headers=HTMX))
    assert fragment.select_one("form") is None
    spans = fragment.select('[hx-swap-oob="true"].facet-count')
    assert len(spans) > 20
    full = soup_of(client.get("/benchmarks?metric=throughput&model=llama-3-70b"))
    ids = [tag["id"] for tag in full.select("[id]")]
    assert len(ids) == len(set(ids)), "the full page holds each count once"
    by_id = {s["id"]: s.get_text(" ") for s in spans}
    for label in full.select("label.facet"):
        count = label.select_one(".facet-count")
        assert by_id[count["id"]] == count.get_text(" ")


def test_a_hugging_face_id_finds_its_model_page(client: TestClient) -> None:
    """A repository id holds a slash; the page and the API still answer it with the entry."""
    for path in (
        "/models/meta-llama/Llama-3.3-70B-Instruct",
        "/api/v1/models/meta-llama/Llama-3.3-70B-Instruct",
    ):
        moved = client.get(path, follow_redirects=False)
        assert moved.status_code == 308, path
        assert moved.headers["location"].endswith("/models/llama-3.3-70b-instruct"), path
    gguf = client.get("/models/Llama-3.3-70B-Instruct-Q4_K_M.gguf", follow_redirects=False)
    assert gguf.headers["location"] == "/models/llama-3.3-70b-instruct"
    assert client.get("/api/v1/models/meta-llama/Llama-9-1B").status_code == 404
