"""GuideLLM benchmarks.json: a sweep in one file, both report generations."""

from datetime import UTC, datetime

import pytest

from tests.imports.helpers import parse

SWEEP = "guidellm/concurrency-sweep-benchmarks.json"
RATES = "guidellm/rate-sweep-v0.6-benchmarks.json"


def test_concurrency_sweep_gives_one_run_per_benchmark():
    parsed = parse(SWEEP)
    assert parsed.format == "guidellm"
    runs = parsed.runs
    assert [run.concurrency for run in runs] == [1, 4, 16, 64]
    assert [run.label for run in runs] == [
        "concurrent@1",
        "concurrent@4",
        "concurrent@16",
        "concurrent@64",
    ]
    assert [run.source for run in runs] == [f"benchmarks[{i}]" for i in range(4)]
    assert [run.index for run in runs] == [0, 1, 2, 3]
    assert [run.measured_concurrency for run in runs] == [1.0, 3.98, 15.6, 58.3]
    assert parsed.notes == ("per-request samples (requests) left out",)


def test_sweep_context_comes_from_the_report_configuration():
    run = parse(SWEEP).runs[2]
    assert run.tool_version == "0.7.3"
    assert run.model == "Qwen/Qwen2.5-7B-Instruct"
    assert run.backend == "openai_http"
    assert run.dataset == "synthetic_text"
    assert (run.gpu_name, run.gpu_count, run.engine) == ("NVIDIA L40S", 1, "vllm")  # labels
    assert run.extras["label.gpu"] == "NVIDIA L40S"
    assert (run.successful_requests, run.failed_requests) == (608, 1)
    assert run.mean_input_tokens == 512.0 and run.mean_output_tokens == 256.0
    assert run.measured_at == datetime.fromtimestamp(1772892000.0 + 160 + 6, UTC)


def test_units_latency_in_seconds_becomes_ms_and_itl_is_read_as_tpot():
    run = parse(SWEEP).runs[0]
    latency_s = (28.4 + 3.69 * 255) / 1000
    assert run.metrics["e2e_latency_mean"] == pytest.approx(latency_s * 1000)
    assert run.metric_sources["e2e_latency_mean"] == "metrics.request_latency.successful.mean"
    assert run.metrics["ttft_mean"] == pytest.approx(28.4)
    assert run.metrics["ttft_p99"] == pytest.approx(28.4 * (1 + 0.35 * 1.3))
    # GuideLLM's inter_token_latency_ms excludes the first token: vLLM's TPOT.
    assert run.metrics["tpot_mean"] == pytest.approx(3.69)
    assert "itl_mean" not in run.metrics
    assert run.metrics["output_throughput_per_user"] == pytest.approx(1000 / 3.69)
    assert run.metrics["output_throughput"] == pytest.approx(69.2)
    assert run.metrics["request_throughput"] == pytest.approx(0.27)
    # time_per_output_token_ms includes the first token: kept raw, not mapped.
    assert "time_per_output_token_ms.successful.mean" in run.raw


def test_raw_is_bounded_and_holds_no_per_request_data():
    for run in parse(SWEEP).runs:
        assert 0 < len(run.raw) <= 250
        assert not any(key.startswith("requests.") for key in run.raw)


def test_older_report_with_args_and_rate_strategies():
    runs = parse(RATES).runs
    assert [run.label for run in runs] == [
        "synchronous",
        "throughput",
        "constant@4.5",
        "poisson@9.0",
    ]
    synchronous, throughput, constant, poisson = runs
    assert synchronous.concurrency == 1 and synchronous.request_rate is None
    assert throughput.request_rate_unlimited and throughput.concurrency is None
    assert constant.request_rate == 4.5 and constant.concurrency is None
    assert poisson.request_rate == 9.0 and poisson.concurrency == 256
    assert synchronous.model == "ibm-granite/granite-3.3-8b-instruct"  # args.backend_kwargs
    assert synchronous.tool_version == "0.6.1"
    assert synchronous.dataset == "prompt_tokens=512,output_tokens=256"
    assert throughput.failed_requests == 2
