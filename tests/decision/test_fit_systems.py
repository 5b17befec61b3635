"""Each server's own accounting (app/decision/fit_systems.py), checked by hand."""

from dataclasses import replace

import pytest

from app.decision.fit import FitAsk, fit, kv_tokens_per_layer
from app.decision.fit_systems import accounting, sglang_fraction
from tests.decision.test_fit import GEMMA_3_27B, GPT_OSS_120B, H100, LLAMA_31_8B


def _ask(system: str, memory_gb: float, **more: int) -> FitAsk:
    how = accounting(system, memory_gb, more.get("gpus", 1))
    return FitAsk(
        16,
        "BF16",
        memory_utilization=how.memory_utilization,
        reserve_gb=how.reserve_gb,
        window_extra_tokens=how.window_extra_tokens,
        margin_gb=how.margin_gb,
        **more,
    )


def test_vllm_keeps_a_window_plus_one_step_so_short_contexts_save_nothing() -> None:
    # On an 80 GB H100 the API server schedules 8,192 tokens a step: a 1,024-token window
    # holds min(1,024 - 1 + 8,192 + 16, context) tokens, all of an 8k request.
    ask = _ask("vllm", 85.0, context=8192)
    assert ask.window_extra_tokens == 8192 - 1 + 16
    assert kv_tokens_per_layer(GEMMA_3_27B, 8192, ask.window_extra_tokens) == (8192, 8192)
    # At 128k the window saves: 1,024 + 8,207 = 9,231 tokens in 52 of 62 layers.
    assert kv_tokens_per_layer(GEMMA_3_27B, 131_072, ask.window_extra_tokens) == (131_072, 9231)
    # One layer's token: 2 × 128 × 16 heads × 2 bytes = 8,192 bytes. The general answer
    # holds (10 × 8,192 + 52 × 1,024) tokens, vLLM all 62 layers at 8,192.
    general = fit(GEMMA_3_27B, FitAsk(16, "BF16", context=8192))
    assert general.kv_gb == pytest.approx((10 * 8192 + 52 * 1024) * 8192 / 1e9)
    assert fit(GEMMA_3_27B, ask).kv_gb == pytest.approx(62 * 8192 * 8192 / 1e9)


def test_vllm_steps_are_smaller_below_70_gib() -> None:
    assert accounting("vllm", 24.15, 1).window_extra_tokens == 2048 - 1 + 16
    assert accounting("vllm", 85.52, 1).memory_utilization == 0.92


def test_sglang_derives_its_static_fraction_from_a_reservation() -> None:
    # 85.52 GB = 81,558 MiB; reserved = 512 + 8,192 × 1.5 + 512 × 2 + 1/8 × 1,024 = 13,952 MiB,
    # so (81,558 - 13,952) / 81,558 = 0.829.
    fraction, reserved = sglang_fraction(85.52, 1)
    assert fraction == 0.829
    assert reserved == pytest.approx(13_952 * 1024 * 1024 / 1e9)
    # A 24 GB L4: 23,032 MiB, tier 2,048 / 80: 512 + 3,072 + 160 + 128 = 3,872 MiB.
    assert sglang_fraction(24.15, 1)[0] == round((23031.7 - 3872) / 23031.7, 3)
    # Over 60 GB the reservation is at least 10 GB: 8 × H100 adds only TP/8 × 1,024.
    assert sglang_fraction(85.52, 8)[0] == round((81558.2 - 14848) / 81558.2, 3)


def test_sglang_has_no_separate_reserve_and_counts_weights_in_the_fraction() -> None:
    ask = _ask("sglang", 85.0)
    answer = fit(LLAMA_31_8B, ask, H100)
    assert ask.reserve_gb == 0
    assert answer.per_gpu.usable_gb == pytest.approx(85.0 * ask.memory_utilization)


def test_llama_cpp_keeps_its_fit_margin_free_and_a_window_plus_ubatch() -> None:
    ask = _ask("llama-cpp", 85.0)
    assert ask.memory_utilization == 1.0
    assert ask.margin_gb == pytest.approx(1.073741824)
    answer = fit(GPT_OSS_120B, replace(ask, bits_per_weight=4.25, precision="MXFP4"), H100)
    assert answer.per_gpu.usable_gb == pytest.approx(85.0 - 1.073741824)
    # gpt-oss's 128-token window holds 128 + 512 tokens in llama.cpp's SWA cache.
    assert kv_tokens_per_layer(GPT_OSS_120B, 8192, ask.window_extra_tokens)[1] == 640


def test_ollama_is_llama_cpp_underneath_and_says_so() -> None:
    how = accounting("ollama", 24.0, 1)
    assert how.margin_gb == accounting("llama-cpp", 24.0, 1).margin_gb
    assert any("llama-server" in line for line in how.basis)


def test_vllm_reserves_what_its_profile_measured() -> None:
    # Llama 3 8B on one H100 (vllm#10511): 1.79 GiB non-torch + 1.26 GiB activation peak.
    dense = accounting("vllm", 85.52, 1)
    assert dense.reserve_gb == pytest.approx((1.79 + 1.26) * 2**30 / 1e9)  # 3.27 GB
    # At TP 2 the same log shows 3.58 GiB non-torch: NCCL's 1.79 GiB more on each GPU.
    assert accounting("vllm", 85.52, 2).reserve_gb == pytest.approx(4.84 * 2**30 / 1e9)
    # gpt-oss-120b at TP 1 (vllm#27508): 79.22 × 0.95 − 65.97 − 1.71 = 7.58 GiB.
    moe = accounting("vllm", 85.52, 4, moe=True)
    assert moe.reserve_gb == pytest.approx((7.58 + 1.79) * 2**30 / 1e9)  # 10.06 GB
    assert any("vllm/pull/10511" in line for line in moe.basis)
    assert any("3.3 GB" in line and "8.1 GB" in line for line in moe.assumed)
