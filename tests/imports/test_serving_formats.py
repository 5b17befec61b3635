"""vLLM bench serve and SGLang bench_serving: the fork and its parent, read side by side."""

from datetime import datetime

import pytest

from tests.imports.helpers import parse

VLLM_SINGLE = "vllm-bench/openai-8.0qps-Llama-3.1-8B-Instruct-20260302-141503.json"
VLLM_SWEEP = "vllm-bench/sweep-append-result.json"
SGLANG_SWEEP = "sglang-bench/sglang-oai_0304_640_2048_256.jsonl"
SGLANG_AGAINST_VLLM = "sglang-bench/vllm_0305_1000_sharegpt.jsonl"


def test_vllm_single_run_reads_values_in_normalised_units():
    parsed = parse(VLLM_SINGLE)
    assert parsed.format == "vllm-bench"
    (run,) = parsed.runs
    assert run.tool == "vllm-bench" and run.index == 0
    assert run.model == "meta-llama/Llama-3.1-8B-Instruct"
    assert run.measured_at == datetime(2026, 3, 2, 14, 15, 3)  # local time, no zone
    assert run.measured_at.tzinfo is None
    assert run.backend == "openai"
    assert run.request_rate == 8.0 and not run.request_rate_unlimited
    assert run.concurrency is None  # max_concurrency null: no limit was set
    assert (run.successful_requests, run.failed_requests) == (498, 2)
    assert run.mean_input_tokens == pytest.approx(1024.0)
    assert run.mean_output_tokens == pytest.approx((498 * 512 - 37) / 498)
    assert run.metrics["output_throughput"] == pytest.approx(2411.523)
    assert run.metrics["request_throughput"] == pytest.approx(4.7107)
    assert run.metrics["ttft_mean"] == pytest.approx(187.42)
    assert run.metrics["ttft_p99"] == pytest.approx(356.098)
    assert run.metrics["itl_p99"] == pytest.approx(41.7)
    assert run.metrics["e2e_latency_mean"] == pytest.approx(9513.17)  # from mean_e2el_ms
    assert "ttft_p95" not in run.metrics  # vLLM writes only the percentiles it was asked for
    assert run.metric_sources["ttft_p99"] == "p99_ttft_ms"


def test_vllm_per_user_throughput_is_derived_from_mean_tpot_and_marked():
    (run,) = parse(VLLM_SINGLE).runs
    assert run.metrics["output_throughput_per_user"] == pytest.approx(1000 / 18.25)
    assert run.derived == ("output_throughput_per_user",)
    assert run.metric_sources["output_throughput_per_user"] == "1000 / mean_tpot_ms"
    assert any("1000 / mean TPOT" in note for note in run.notes)


def test_vllm_metadata_pairs_become_hints_and_arrays_are_dropped():
    parsed = parse(VLLM_SINGLE)
    (run,) = parsed.runs
    assert run.gpu_name == "NVIDIA H100 80GB HBM3"
    assert run.gpu_count == 1
    assert run.tensor_parallel == 1
    assert run.engine_version == "0.11.2"
    assert run.extras["gpu"] == "NVIDIA H100 80GB HBM3"
    # The non-detailed file still carries latencies and queue_times arrays: left out.
    assert parsed.notes == ("per-request arrays left out: latencies, queue_times",)
    assert "latencies" not in run.raw and "queue_times" not in run.raw
    assert run.raw["std_ttft_ms"] == pytest.approx(39.358)
    assert all(isinstance(value, float) for value in run.raw.values())


def test_vllm_append_result_sweep_gives_one_run_per_line():
    runs = parse(VLLM_SWEEP).runs
    assert [run.concurrency for run in runs] == [1, 4, 16, 64]
    assert [run.line for run in runs] == [1, 2, 3, 4]
    assert [run.source for run in runs] == ["line 1", "line 2", "line 3", "line 4"]
    assert all(run.request_rate is None and run.request_rate_unlimited for run in runs)
    throughputs = [run.metrics["output_throughput"] for run in runs]
    assert throughputs == sorted(throughputs)
    per_user = [run.metrics["output_throughput_per_user"] for run in runs]
    assert per_user == pytest.approx([1000 / 7.012, 1000 / 7.44, 1000 / 8.391, 1000 / 10.87])
    assert runs[3].measured_at == datetime(2026, 3, 3, 9, 31, 11)
    assert "request_rate" not in runs[0].extras  # "inf" is read, not kept as metadata


def test_sglang_sweep_reads_server_info_and_keeps_measured_concurrency_apart():
    parsed = parse(SGLANG_SWEEP)
    assert parsed.format == "sglang-bench"
    runs = parsed.runs
    assert [run.concurrency for run in runs] == [1, 4, 16, 64]
    assert [run.measured_concurrency for run in runs] == [0.99, 3.94, 15.71, 61.2]
    first = runs[0]
    assert first.request_rate is None and first.request_rate_unlimited  # JSON Infinity
    assert first.model == "Qwen/Qwen3-32B-FP8"
    assert (first.engine, first.engine_version) == ("sglang", "0.5.4")
    assert first.precision == "fp8"  # quantization wins over dtype "auto"
    assert first.kv_cache_dtype == "fp8_e4m3"
    assert first.tensor_parallel == 2
    assert first.gpu_count is None  # server_info gives tp_size, not the GPUs: not guessed
    assert first.label == "h100-fp8" and first.dataset == "random"
    assert (first.configured_input_tokens, first.configured_output_tokens) == (2048, 256)
    assert first.measured_at is None  # SGLang writes no date


def test_sglang_key_names_map_to_the_shared_metrics():
    run = parse(SGLANG_SWEEP).runs[3]
    assert run.metrics["total_token_throughput"] == pytest.approx(19023.926)  # total_throughput
    assert run.metric_sources["total_token_throughput"] == "total_throughput"
    assert run.metrics["e2e_latency_p90"] == pytest.approx(8394.645)  # p90_e2e_latency_ms
    assert run.metrics["ttft_p95"] == pytest.approx(2061.44)
    assert run.metrics["input_throughput"] == pytest.approx(16910.227)
    assert run.metrics["output_throughput_per_user"] == pytest.approx(1000 / 26.3)
    assert run.successful_requests == 640 and run.failed_requests is None
    assert run.raw["server_info.dp_size"] == 1.0


def test_sglang_against_another_server_has_no_model_and_a_fixed_rate():
    (run,) = parse(SGLANG_AGAINST_VLLM).runs
    assert run.backend == "vllm"
    assert run.model is None and run.engine is None  # no server_info: nothing to read
    assert run.request_rate == 4.0 and not run.request_rate_unlimited
    assert run.dataset == "sharegpt"
    assert run.configured_input_tokens is None  # random_*_len are not used by sharegpt
    assert run.metrics["itl_p95"] == pytest.approx(29.7)
    assert "total_token_throughput" not in run.metrics  # older copy: no total_throughput


def test_sglang_native_backend_names_the_server_without_server_info():
    # datacrunch's runs use `--backend sglang` (POST /generate) and carry no server_info.
    runs = parse("../real/sglang-bench/datacrunch-llama-3.3-70b-online.jsonl").runs
    assert runs and all(run.backend == "sglang" and run.engine == "sglang" for run in runs)
    assert parse(SGLANG_SWEEP).runs[0].backend == "sglang-oai"  # OpenAI API: any server
    (other,) = parse(SGLANG_AGAINST_VLLM).runs
    assert other.engine is None
