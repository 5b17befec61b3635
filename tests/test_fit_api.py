"""GET /api/v1/fit on the fixture seed: names as typed, every output, and refusals that name
the field. Numbers: decimal GB (10^9 bytes), worked by hand from Llama 3.1 8B's config
(32 layers, 8 KV heads of 128: 131,072 KV bytes per token in BF16)."""

import pytest
from fastapi.testclient import TestClient

LLAMA_KV = 32 * 2 * 128 * 8 * 2  # 131,072 bytes per token
# An FP8 checkpoint of Llama 3.1 8B keeps its embeddings and output head (2 × 128,256 × 4,096
# parameters) in BF16; the rest is FP8 with one FP32 scale per 128 × 128 block.
LLAMA_HEADS = 2 * 128_256 * 4096
LLAMA_FP8_GB = (LLAMA_HEADS * 2 + (8e9 - LLAMA_HEADS) * (8 + 32 / 128**2) / 8) / 1e9  # 9.05


def test_without_hardware_the_memory_needed_and_fits_null(client: TestClient) -> None:
    body = client.get("/api/v1/fit?model=llama-3.1-8b").json()
    assert body["kv_bytes_per_token"] == LLAMA_KV == 131_072
    # 8 B × 16 bits ÷ 8 = 16 GB; 8,192 tokens × 131,072 bytes = 1.07 GB; 1 GB reserve.
    assert body["weights_gb"] == 16.0
    assert body["kv_gb"] == pytest.approx(8192 * LLAMA_KV / 1e9)
    assert body["total_gb"] == pytest.approx(16 + 8192 * LLAMA_KV / 1e9 + 1)
    assert body["fits"] is None and body["min_gpus"] is None and body["usable_gb"] is None
    assert body["precision"] == "BF16" and body["gpus"] == 1 and body["context"] == 8192
    assert any("no hardware named" in line for line in body["assumed"])
    assert any("131,072 bytes" in line for line in body["basis"])


def test_on_named_hardware_every_output_is_given(client: TestClient) -> None:
    query = "model=Llama 3.1 8B&hardware=H100 SXM&context=32768&concurrency=4&gpus=2"
    body = client.get(f"/api/v1/fit?{query}").json()
    assert body["hardware"] == "nvidia-h100-sxm5-80gb" and body["candidates"] == []
    # Per GPU: 8 GB of weights, 4 KV heads' share: 32,768 × 4 × 65,536 bytes = 8.59 GB.
    per_gpu = body["per_gpu"]
    assert per_gpu["weights_gb"] == 8.0
    assert per_gpu["kv_gb"] == pytest.approx(32768 * 4 * LLAMA_KV / 2 / 1e9)
    assert per_gpu["usable_gb"] == pytest.approx(80 * 0.9)  # the maker's 80 GB: none reported
    assert body["usable_gb"] == pytest.approx(2 * 80 * 0.9)
    assert body["fits"] is True and body["min_gpus"] == 1
    # (72 - 1 - 8) GB ÷ (32,768 × 65,536 bytes) = 29.3 sequences.
    assert body["max_concurrency"] == 29
    assert body["max_context"] == 131_072
    assert any("80 GB as its maker names it" in line for line in body["assumed"])


def test_a_gguf_file_and_an_ollama_tag_bring_their_quantisation(client: TestClient) -> None:
    tag = client.get("/api/v1/fit?model=llama3.1:8b").json()
    assert (tag["model"], tag["precision"], tag["bits_per_weight"]) == (
        "llama-3.1-8b",
        "Q4_K_M",
        4.8944,
    )
    # 8 B × 4.8944 bits ÷ 8 = 4.89 GB (llama.cpp's measured Q4_K_M mix).
    assert tag["weights_gb"] == pytest.approx(4.8944)
    gguf = client.get("/api/v1/fit?model=Meta-Llama-3.1-8B-Q8_0.gguf&system=llama.cpp").json()
    assert (gguf["model"], gguf["precision"], gguf["system"]) == (
        "llama-3.1-8b",
        "Q8_0",
        "llama-cpp",
    )
    assert gguf["kv_cache_dtype"] == "fp16"
    assert any("--fit-target" in line for line in gguf["basis"])
    # An asked precision wins over the one the name implies.
    asked = client.get("/api/v1/fit?model=llama3.1:8b&precision=fp8").json()
    assert asked["weights_gb"] == pytest.approx(LLAMA_FP8_GB)


def test_a_derivative_uses_its_base_models_config(client: TestClient) -> None:
    body = client.get("/api/v1/fit?model=llama-3.1-8b-fp8").json()
    assert body["precision"] == "FP8" and body["weights_gb"] == pytest.approx(LLAMA_FP8_GB)
    assert any("embeddings and output head" in line for line in body["basis"])
    assert body["kv_bytes_per_token"] == LLAMA_KV


def test_an_unstated_variant_is_answered_for_its_smallest_part(client: TestClient) -> None:
    body = client.get("/api/v1/fit?model=llama-3.1-8b&hardware=H100").json()
    assert body["hardware"] == "nvidia-h100-sxm5-80gb"
    assert body["candidates"] == ["nvidia-h100-sxm5-80gb"]
    assert any("names more than one part" in line for line in body["assumed"])


def test_a_class_of_hardware_is_refused_with_its_accelerators(client: TestClient) -> None:
    response = client.get("/api/v1/fit?model=llama-3.1-8b&hardware=H100 or newer")
    assert response.status_code == 422
    problem = response.json()["detail"][0]
    assert problem["field"] == "hardware" and "nvidia-h100-sxm5-80gb" in problem["allowed"]


@pytest.mark.parametrize(
    ("query", "field", "status"),
    [
        ("model=llama-3.1-8b&gpus=0", "gpus", 422),
        ("model=llama-3.1-8b&concurrency=-3", "concurrency", 422),
        ("model=llama-3.1-8b&context=lots", "context", 422),
        ("model=llama-3.1-8b&memory_utilization=1.5", "memory_utilization", 422),
        ("model=llama-3.1-8b&context=200000", "context", 422),
        ("model=llama-3.1-8b&gpus=65", "gpus", 422),
        ("model=llama-3.1-8b&precision=Q9_Z", "precision", 422),
        ("model=llama-3.1-8b&kv_cache_dtype=int3", "kv_cache_dtype", 422),
        ("model=", "model", 422),
        ("model=deepseek-v3", "model", 404),  # config, but no parameter count in the fixture
        ("model=no-such-model", "model", 404),
        ("model=llama-3.1-8b&hardware=no-such-gpu", "hardware", 404),
        ("model=llama-3.1-8b&system=no-such-server", "system", 404),
    ],
)
def test_bad_input_names_the_field(client: TestClient, query: str, field: str, status: int) -> None:
    response = client.get(f"/api/v1/fit?{query}")
    assert response.status_code == status
    body = response.json()
    if status == 404:
        assert body["field"] == field and body["allowed"]
    else:
        assert body["detail"][0]["field"] == field


def test_context_beyond_native_says_what_the_model_supports(client: TestClient) -> None:
    problem = client.get("/api/v1/fit?model=llama-3.1-8b&context=200000").json()["detail"][0]
    assert problem["allowed"] == ["1 to 131072"] and "131,072" in problem["message"]


def test_a_gpu_count_that_does_not_split_the_heads_is_a_question(client: TestClient) -> None:
    response = client.get("/api/v1/fit?model=llama-3.1-8b&gpus=3&hardware=H100 SXM")
    assert response.status_code == 200
    body = response.json()
    # 32 attention heads and 8 KV heads: 3 divides neither; 2 and 4 do; one H100 holds it.
    assert body["fits"] is False and body["min_gpus"] == 1
    assert "3 does not divide the 32 attention heads" in body["split_problem"]
    assert "nearest counts that can are 2 and 4" in body["split_problem"]
    assert "pipeline" in body["split_problem"].lower()
    assert body["max_concurrency"] is None
    assert body["per_gpu"]["weights_gb"] == pytest.approx(16 / 3)
    assert client.get("/api/v1/fit?model=llama-3.1-8b&gpus=2").json()["split_problem"] is None


def test_kv_cache_types_are_in_the_schema(client: TestClient) -> None:
    from typing import get_args

    from app.decision.fit import KV_BYTES
    from app.params.fit import KvCacheDtype

    assert set(get_args(KvCacheDtype)) == set(KV_BYTES)
    body = client.get("/api/v1/fit?model=llama-3.1-8b&kv_cache_dtype=fp8").json()
    assert body["kv_cache_dtype"] == "fp8" and body["kv_bytes_per_token"] == LLAMA_KV // 2
    refused = client.get("/api/v1/fit?model=llama-3.1-8b&kv_cache_dtype=int3").json()
    assert "q8_0" in refused["detail"][0]["allowed"]


def test_absurd_but_valid_numbers_are_answered(client: TestClient) -> None:
    body = client.get(
        "/api/v1/fit?model=llama-3.1-8b&hardware=H100 SXM&gpus=32&concurrency=1000000"
        "&context=131072"
    ).json()
    assert body["fits"] is False and body["max_concurrency"] < 1_000_000
    assert body["min_gpus"] is None  # even 64 GPUs do not hold a million sequences
