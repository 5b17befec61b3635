"""The fit arithmetic (app/decision/fit.py) against sums done by hand from each model's
config.json facts. Numbers: decimal GB (10^9 bytes)."""

from dataclasses import replace

import pytest

from app.decision.fit import Device, FitAsk, FitError, ModelShape, fit, kv_bytes_per_token

LLAMA_31_8B = ModelShape(
    "Llama 3.1 8B", 8.03, layers=32, attention_heads=32, kv_heads=8, head_dim=128, context=131_072
)
LLAMA_31_70B = ModelShape(
    "Llama 3.1 70B", 70.6, layers=80, attention_heads=64, kv_heads=8, head_dim=128, context=131_072
)
DEEPSEEK_V3 = ModelShape(
    "DeepSeek-V3",
    671,
    layers=61,
    attention_heads=128,
    kv_heads=128,
    head_dim=192,
    v_head_dim=128,
    kv_lora_rank=512,
    qk_rope_head_dim=64,
    context=163_840,
)
# 62 layers, every sixth global: 10 full, 52 with a 1,024-token window.
GEMMA_3_27B = ModelShape(
    "gemma-3-27b-it",
    27.4,
    layers=62,
    attention_heads=32,
    kv_heads=16,
    head_dim=128,
    sliding_window=1024,
    sliding_window_layers=52,
    context=131_072,
)
# 36 layers alternating: 18 with a 128-token window, 18 full.
GPT_OSS_120B = ModelShape(
    "gpt-oss-120b",
    116.8,
    layers=36,
    attention_heads=64,
    kv_heads=8,
    head_dim=64,
    sliding_window=128,
    sliding_window_layers=18,
    context=131_072,
)
# The same models with the config facts that split a quantised checkpoint into its parts.
OSS_LAYOUT = {"hidden_size": 2880, "vocab_size": 201_088}
GPT_OSS_120B_PARTS = replace(GPT_OSS_120B, parameters_b=116.83, experts=128, **OSS_LAYOUT)
GPT_OSS_20B_PARTS = replace(
    GPT_OSS_120B_PARTS,
    name="gpt-oss-20b",
    parameters_b=20.91,
    layers=24,
    experts=32,
    sliding_window_layers=12,
)
DEEPSEEK_V3_PARTS = replace(DEEPSEEK_V3, hidden_size=7168, vocab_size=129_280, experts=256)
GIB = 2**30
H100 = Device("NVIDIA H100 SXM5 80GB", 85.0)  # 79.2 GiB as the device reports it
H200 = Device("NVIDIA H200", 150.7)  # 143,771 MiB
RTX_4090 = Device("NVIDIA GeForce RTX 4090", 25.4)  # 24,564 MiB
BF16 = FitAsk(16, "BF16")


def test_kv_per_token_counts_kv_heads_not_the_hidden_size() -> None:
    # 32 layers × 2 (K, V) × 128 head dim × 8 KV heads × 2 bytes; the hidden size (4,096)
    # in place of 8 × 128 would be four times too much.
    assert kv_bytes_per_token(LLAMA_31_8B) == 131_072
    assert kv_bytes_per_token(LLAMA_31_70B) == 327_680
    assert kv_bytes_per_token(LLAMA_31_8B, dtype_bytes=1) == 65_536  # FP8 KV halves it


def test_mla_keeps_one_latent_per_token_whole_on_every_gpu() -> None:
    # 61 × (512 + 64) × 2 bytes, not 61 × 2 × 128 heads × 192 × 2 (47 times more).
    assert kv_bytes_per_token(DEEPSEEK_V3) == 70_272
    one, eight = (fit(DEEPSEEK_V3, FitAsk(8, "FP8", gpus=g, context=8192)) for g in (1, 8))
    assert one.per_gpu.kv_gb == pytest.approx(eight.per_gpu.kv_gb)  # not divided by TP
    assert one.per_gpu.kv_gb == pytest.approx(70_272 * 8192 / 1e9)


def test_sliding_window_layers_hold_only_their_window() -> None:
    answer = fit(GEMMA_3_27B, FitAsk(16, "BF16", context=32_768))
    per_layer_token = 2 * 128 * 16 * 2
    expected = (10 * 32_768 + 52 * 1024) * per_layer_token
    assert answer.kv_gb == pytest.approx(expected / 1e9)  # 3.12 GB
    naive = 62 * 32_768 * per_layer_token / 1e9  # every layer full: 16.6 GB
    assert naive / answer.kv_gb > 5
    assert kv_bytes_per_token(GEMMA_3_27B) == 62 * per_layer_token  # the logical figure


def test_llama_8b_bf16_on_one_h100_with_the_arithmetic_shown() -> None:
    answer = fit(LLAMA_31_8B, FitAsk(16, "BF16", context=8192, concurrency=16), H100)
    assert answer.weights_gb == pytest.approx(16.06)
    assert answer.kv_gb == pytest.approx(131_072 * 8192 * 16 / 1e9)  # 17.18 GB
    assert answer.per_gpu.usable_gb == pytest.approx(85.0 * 0.9)
    assert answer.fits is True and answer.min_gpus == 1
    # (76.5 − 1 reserve − 16.06 weights) GB ÷ (131,072 × 8,192) bytes per sequence = 55.
    assert answer.max_concurrency == 55
    assert any("131,072 bytes" in line for line in answer.basis)
    assert any("16.06 GB" in line for line in answer.basis)


def test_llama_70b_needs_two_h100_in_bf16_and_fp8_fits_one() -> None:
    bf16 = fit(LLAMA_31_70B, FitAsk(16, "BF16", context=8192), H100)
    assert bf16.fits is False and bf16.min_gpus == 2  # 141.2 GB of weights
    fp8 = fit(LLAMA_31_70B, FitAsk(8, "FP8", context=8192), H100)
    assert fp8.fits is True and fp8.per_gpu.weights_gb == pytest.approx(70.6)
    split = fit(LLAMA_31_70B, FitAsk(16, "BF16", gpus=2, context=8192), H100)
    assert split.per_gpu.weights_gb == pytest.approx(70.6) and split.fits is True
    # 8 KV heads ÷ 2: each GPU holds half of every layer's KV.
    assert split.per_gpu.kv_gb == pytest.approx(327_680 * 8192 / 2 / 1e9)


def test_deepseek_v3_needs_eight_h200_not_eight_h100() -> None:
    ask = FitAsk(8, "FP8", gpus=8, context=8192)
    assert fit(DEEPSEEK_V3, ask, H100).fits is False  # 83.9 GB of weights per GPU
    on_h200 = fit(DEEPSEEK_V3, ask, H200)
    assert on_h200.fits is True and on_h200.min_gpus == 8
    assert on_h200.per_gpu.weights_gb == pytest.approx(671 / 8)


def test_gpt_oss_120b_does_not_fit_one_rtx_4090_but_its_kv_is_small() -> None:
    mxfp4 = FitAsk(4.25, "MXFP4", context=8192)  # 32 values in 17 bytes
    answer = fit(GPT_OSS_120B, mxfp4, RTX_4090)
    assert answer.fits is False and answer.weights_gb == pytest.approx(62.05, abs=0.01)
    full, window = 18 * 8192, 18 * 128
    assert answer.kv_gb == pytest.approx((full + window) * 2 * 64 * 8 * 2 / 1e9)  # 0.31 GB
    assert answer.max_concurrency == 0 and answer.max_context == 0
    assert answer.min_gpus == 4  # 64 attention heads, 8 KV heads: 2 is too few, 3 divides neither


def test_a_gguf_quantisation_at_its_measured_bits_per_weight() -> None:
    # llama.cpp's quantize README measures Q4_K_M at 4.8944 bits per weight on Llama 3.1 8B.
    answer = fit(LLAMA_31_8B, FitAsk(4.8944, "Q4_K_M", context=4096), RTX_4090)
    assert answer.weights_gb == pytest.approx(4.91, abs=0.01)
    assert answer.fits is True


def test_more_gpus_than_kv_heads_replicate_whole_heads() -> None:
    answer = fit(LLAMA_31_70B, FitAsk(16, "BF16", gpus=16, context=8192))
    assert answer.per_gpu.kv_gb == pytest.approx(327_680 * 8192 / 8 / 1e9)  # one of 8 heads
    assert answer.kv_gb == pytest.approx(16 * answer.per_gpu.kv_gb)  # replication included


def test_max_context_at_a_concurrency_is_the_longest_that_fits() -> None:
    ask = FitAsk(16, "BF16", context=8192, concurrency=8)
    answer = fit(LLAMA_31_8B, ask, H100)
    assert answer.max_context is not None
    room = (76.5 - 1 - 16.06) * 1e9 / (131_072 * 8)
    assert answer.max_context == pytest.approx(room, abs=1)


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        ({"gpus": 0}, "gpus", "at least 1"),
        ({"concurrency": -3}, "concurrency", "at least 1"),
        ({"context": 200_000}, "context", "native context of 131,072"),
        ({"kv_cache_dtype": "fp7"}, "kv_cache_dtype", "allowed: bf16"),
        ({"memory_utilization": 1.5}, "memory_utilization", "at most 1"),
    ],
)
def test_bad_asks_name_the_field_and_what_is_allowed(
    changes: dict[str, object], field: str, words: str
) -> None:
    with pytest.raises(FitError) as raised:
        fit(LLAMA_31_8B, replace(BF16, **changes), H100)  # type: ignore[arg-type]
    assert raised.value.field == field and words in str(raised.value)


def test_a_count_that_does_not_split_the_heads_is_answered_not_refused() -> None:
    # 3 divides neither Llama 3.1 8B's 32 attention heads nor its 8 KV heads.
    answer = fit(LLAMA_31_8B, FitAsk(16, "BF16", gpus=3, context=8192), H100)
    assert answer.fits is False and answer.min_gpus == 1  # one H100 holds it already
    assert answer.split_problem is not None
    assert "3 does not divide the 32 attention heads" in answer.split_problem
    assert "the nearest counts that can are 2 and 4" in answer.split_problem
    assert "--split-mode layer" in answer.split_problem  # llama.cpp, sourced
    assert "--pipeline-parallel-size" in answer.split_problem  # vLLM, sourced
    assert answer.max_concurrency is None and answer.max_context is None
    # Shown split by layers: 16.06 GB ÷ 3 of weights, 131,072 × 8,192 bytes ÷ 3 of KV.
    assert answer.per_gpu.weights_gb == pytest.approx(16.06 / 3)
    assert answer.per_gpu.kv_gb == pytest.approx(131_072 * 8192 / 3 / 1e9)
    assert any("no tensor-parallel split at 3 GPUs" in line for line in answer.basis)
    # Without hardware too: the question is answered, and the answer is no.
    assert fit(LLAMA_31_8B, FitAsk(16, "BF16", gpus=3)).fits is False


def test_more_gpus_than_kv_heads_must_be_a_multiple_of_them() -> None:
    # Llama 3.1 70B: 64 attention heads, 8 KV heads. 12 divides neither 64 nor a multiple of 8.
    answer = fit(LLAMA_31_70B, FitAsk(16, "BF16", gpus=12, context=8192), H100)
    assert answer.split_problem is not None and answer.fits is False
    assert "12 does not divide the 64 attention heads" in answer.split_problem
    assert "nearest counts that can are 8 and 16" in answer.split_problem
    assert answer.min_gpus == 2


def test_gpt_oss_counts_only_its_experts_in_mxfp4() -> None:
    # BF16: embeddings + head 2 × 201,088 × 2,880 = 1.158 B; attention per layer 2 × 2,880 ×
    # 64 × 64 (q, o) + 2 × 2,880 × 8 × 64 (k, v) = 26.54 M, × 36 = 0.956 B; router 2,880 ×
    # 128 × 36 = 0.013 B. The other 114.70 B are experts at 4.25 bits (32 values, one E8M0
    # scale). The model card gives 116.83 B parameters and a 60.8 GiB checkpoint.
    bf16 = 2 * 201_088 * 2880 + 36 * (2 * 2880 * 64 * 64 + 2 * 2880 * 8 * 64) + 2880 * 128 * 36
    expected = bf16 * 2 + (116.83e9 - bf16) * 4.25 / 8
    answer = fit(GPT_OSS_120B_PARTS, FitAsk(4.25, "MXFP4"))
    assert answer.weights_gb == pytest.approx(expected / 1e9)
    assert answer.weights_gb * 1e9 / GIB == pytest.approx(60.8, abs=0.1)  # the card's size
    assert any("attention" in line and "BF16" in line for line in answer.basis)
    # gpt-oss-20b: 20.91 B parameters, 24 layers, 32 experts; the card says 12.8 GiB.
    small = fit(GPT_OSS_20B_PARTS, FitAsk(4.25, "MXFP4"))
    assert small.weights_gb * 1e9 / GIB == pytest.approx(12.8, abs=0.1)
    # Every parameter at 4.25 bits would be 3.1 GB short of the published checkpoint.
    assert answer.weights_gb - 116.83 * 4.25 / 8 > 3


def test_deepseek_v3_fp8_keeps_embeddings_head_and_router_in_bf16() -> None:
    # 0.9 B embedding and 0.9 B head (README_WEIGHTS.md): 2 × 129,280 × 7,168; router 7,168 ×
    # 256 × 61; the rest FP8 with one FP32 scale per 128 × 128 block.
    bf16 = 2 * 129_280 * 7168 + 7168 * 256 * 61
    expected = bf16 * 2 + (671e9 - bf16) * (8 + 32 / 128**2) / 8
    answer = fit(DEEPSEEK_V3_PARTS, FitAsk(8, "FP8", gpus=8))
    assert answer.weights_gb == pytest.approx(expected / 1e9)  # 673.13 GB, not 671
    assert answer.per_gpu.weights_gb == pytest.approx(expected / 8 / 1e9)
    assert any("README_WEIGHTS.md" in line for line in answer.basis)


def test_awq_keeps_embeddings_and_head_unquantised() -> None:
    llama = replace(LLAMA_31_8B, hidden_size=4096, vocab_size=128_256)
    heads = 2 * 128_256 * 4096  # 1.05 B in BF16
    answer = fit(llama, FitAsk(4 + 20 / 128, "AWQ"))
    assert answer.weights_gb == pytest.approx((heads * 2 + (8.03e9 - heads) * 4.15625 / 8) / 1e9)
    assert any("AutoAWQ" in line for line in answer.basis)
    # BF16 and GGUF types stay one part: GGUF's measured bits already average the file's mix.
    assert fit(llama, FitAsk(4.8944, "Q4_K_M")).weights_gb == pytest.approx(8.03 * 4.8944 / 8)
    # Without the vocabulary and hidden size the split cannot be made, and the basis says so.
    plain = fit(LLAMA_31_8B, FitAsk(8, "FP8"))
    assert plain.weights_gb == pytest.approx(8.03)
    assert any("cannot be split out" in line for line in plain.basis)


def test_absurd_but_valid_numbers_are_answered_at_once() -> None:
    answer = fit(LLAMA_31_8B, FitAsk(16, "BF16", context=131_072, concurrency=10**9), H100)
    assert answer.fits is False and answer.min_gpus is None
    assert answer.kv_gb > 1e9
