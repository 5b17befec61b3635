"""GenAI-Perf and AIPerf (both layouts): one parser, units taken from each block."""

import json
from datetime import UTC, datetime

import pytest

from app.importers import ResultFileError, parse_result_file
from tests.imports.helpers import FIXTURES, parse

GENAI_OLD = "genai-perf/profile_export_genai_perf.json"
GENAI_NEW = "genai-perf/config-v2_genai_perf.json"
AIPERF = "aiperf/profile_export_aiperf.json"
AIPERF_RECORDS = "aiperf/records-layout_profile_export_aiperf.json"


def test_genai_perf_with_flat_arguments():
    parsed = parse(GENAI_OLD)
    assert parsed.format == "genai-perf"
    (run,) = parsed.runs
    assert run.model == "mistralai/Mistral-7B-Instruct-v0.3"
    assert run.concurrency == 16
    assert run.backend == "triton" and run.engine == "tensorrtllm"
    assert run.metrics["request_throughput"] == pytest.approx(3.912)  # written as a string
    assert run.metrics["ttft_mean"] == pytest.approx(61.3)
    assert run.metrics["ttft_median"] == pytest.approx(61.3 * (1 - 0.05 * 0.35))  # p50
    # Its inter_token_latency is (latency - TTFT) / (tokens - 1): vLLM's TPOT.
    assert run.metrics["tpot_mean"] == pytest.approx(15.88)
    assert "itl_mean" not in run.metrics
    assert run.metrics["output_throughput_per_user"] == pytest.approx(1000 / 15.88)
    assert run.derived == ("output_throughput_per_user",)  # per_request is not per user
    assert (run.configured_input_tokens, run.configured_output_tokens) == (550, 256)
    assert run.mean_output_tokens == pytest.approx(256.0)
    assert run.raw["output_token_throughput_per_request.avg"] == pytest.approx(62.6)


def test_genai_perf_with_config_classes_and_telemetry():
    (run,) = parse(GENAI_NEW).runs
    assert run.model == "llama-3.3-70b-instruct"
    assert run.concurrency == 8  # perf_analyzer.stimulus.concurrency
    assert run.backend == "chat"
    assert run.engine is None  # endpoint.backend is a default outside Triton runs
    assert run.gpu_count == 2 and run.gpu_name is None  # telemetry counts, never names
    assert run.successful_requests == 120
    assert run.metrics["output_throughput_per_user"] == pytest.approx(39.2)
    assert run.derived == ()
    assert (run.configured_input_tokens, run.configured_output_tokens) == (2000, 256)


def test_aiperf_flat_layout_with_gpu_telemetry():
    parsed = parse(AIPERF)
    assert parsed.format == "aiperf"
    (run,) = parsed.runs
    assert run.tool_version == "0.13.0"
    assert run.model == "deepseek-ai/DeepSeek-R1-Distill-Llama-70B"
    assert run.concurrency == 64
    assert (run.gpu_name, run.gpu_count) == ("NVIDIA H200", 4)
    assert (run.successful_requests, run.failed_requests) == (400, 3)
    assert run.measured_at == datetime(2026, 3, 6, 10, 12, 0, 981133, tzinfo=UTC)
    assert run.metrics["tpot_mean"] == pytest.approx(38.41)
    assert run.metrics["itl_p99"] == pytest.approx(38.5 * (1 + 2.2 * 0.3))  # inter_chunk_latency
    assert run.metrics["output_throughput"] == pytest.approx(6419.8)
    assert run.metrics["output_throughput_per_user"] == pytest.approx(26.1)
    assert run.raw["benchmark_duration.avg"] == pytest.approx(62.38)  # raw keeps the file's unit
    assert run.extras["cli_command"].startswith("aiperf profile")


def test_aiperf_records_layout_with_short_tags():
    parsed = parse(AIPERF_RECORDS)
    assert parsed.format == "aiperf"
    (run,) = parsed.runs
    assert run.model == "Qwen/Qwen3-0.6B"
    assert run.concurrency == 8
    assert run.metrics["ttft_mean"] == pytest.approx(95.44)  # from records.ttft
    assert run.metric_sources["ttft_mean"] == "records.ttft.avg"
    assert run.metrics["request_throughput"] == pytest.approx(4.668)
    assert run.successful_requests == 50
    assert run.measured_at == datetime(2025, 10, 21, 15, 40, 2, 118344)  # no schema: as written
    assert (run.configured_input_tokens, run.configured_output_tokens) == (512, 128)


@pytest.mark.parametrize(
    ("unit", "written", "ms"),
    [
        ("ms", 412.6, 412.6),
        ("s", 0.4126, 412.6),
        ("sec", 0.4126, 412.6),
        ("ns", 412_600_000, 412.6),
    ],
)
def test_the_block_unit_decides_the_conversion(unit, written, ms):
    data = json.loads((FIXTURES / AIPERF).read_text())
    data["time_to_first_token"] = {"unit": unit, "avg": written, "p99": written * 2}
    (run,) = parse_result_file("x.json", json.dumps(data).encode()).runs
    assert run.metrics["ttft_mean"] == pytest.approx(ms)
    assert run.metrics["ttft_p99"] == pytest.approx(2 * ms)


def test_a_rate_in_requests_per_minute_is_converted():
    data = json.loads((FIXTURES / AIPERF).read_text())
    data["request_throughput"] = {"unit": "requests/min", "avg": 384.72}
    (run,) = parse_result_file("x.json", json.dumps(data).encode()).runs
    assert run.metrics["request_throughput"] == pytest.approx(6.412)


def test_a_throughput_block_with_a_latency_unit_is_refused():
    data = json.loads((FIXTURES / AIPERF).read_text())
    data["output_token_throughput"] = {"unit": "ms", "avg": 6419.8}
    with pytest.raises(ResultFileError) as caught:
        parse_result_file("x.json", json.dumps(data).encode())
    assert caught.value.kind == "unknown-unit"
    assert caught.value.path == "output_token_throughput.unit"
    assert "'ms'" in caught.value.message


def test_a_sweep_range_in_the_config_does_not_hide_the_runs_own_concurrency():
    # GenAI-Perf's analyze.sweep_parameters.concurrency is a {min, max} range of a sweep; the
    # run's own load is perf_analyzer.stimulus.concurrency, placed after it in the file.
    data = json.loads((FIXTURES / GENAI_NEW).read_text())
    config = data["input_config"]
    swept = {"analyze": {"sweep_parameters": {"concurrency": {"min": 1, "max": 256}}}}
    data["input_config"] = swept | {k: v for k, v in config.items() if k != "analyze"}
    (run,) = parse_result_file("x_genai_perf.json", json.dumps(data).encode()).runs
    assert run.concurrency == 8
    del data["input_config"]["perf_analyzer"]
    (bare,) = parse_result_file("x_genai_perf.json", json.dumps(data).encode()).runs
    assert bare.concurrency is None  # a range is never read as the run's load
