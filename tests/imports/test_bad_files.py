"""Each kind of bad file gets one clear error, naming the line or field, and no runs."""

import gzip
import io
import json
import tarfile

import pytest

from app.importers import DEFAULT_MAX_BYTES, ResultFileError, parse_result_file, read_limited
from tests.imports.helpers import FIXTURES, refused


def test_not_json():
    error = refused("bad/console-output.txt")
    assert error.kind == "not-json" and error.line == 1
    assert "Serving Benchmark Result" in error.message


def test_llama_bench_markdown_gets_a_hint_to_rerun_with_json():
    error = refused("bad/llama-bench-table.md")
    assert error.kind == "not-json"
    assert "-o json" in error.message


def test_truncated_json_names_the_line_where_it_stops():
    error = refused("bad/truncated_genai_perf.json")
    assert error.kind == "truncated"
    text = (FIXTURES / "bad/truncated_genai_perf.json").read_text()
    assert error.line == text.rstrip().count("\n") + 1
    assert "truncated" in error.message


def test_truncated_json_lines_name_the_last_line():
    error = refused("bad/truncated-append.json")
    assert (error.kind, error.line) == ("truncated", 3)


def test_a_broken_line_in_json_lines_is_named():
    error = refused("bad/broken-line.jsonl")
    assert (error.kind, error.line) == ("not-json", 2)
    assert "Expecting ':' delimiter" in error.message


def test_a_file_of_no_known_tool_lists_what_it_has_and_what_is_read():
    error = refused("bad/package.json")
    assert error.kind == "unknown-format"
    assert "name, version, private, scripts, dependencies" in error.message
    for tool in ("vLLM", "SGLang", "llama-bench", "GenAI-Perf", "AIPerf", "GuideLLM"):
        assert tool in error.message


def test_a_file_of_another_tool_is_named():
    error = refused("bad/llmperf_summary.json")
    assert error.kind == "unknown-format"
    assert "llmperf" in error.message


@pytest.mark.parametrize(
    ("value", "says"),
    [
        (
            {"metadata": {"x_request_id": "a", "benchmark_phase": "profiling"}, "metrics": {}},
            "profile_export.jsonl",
        ),
        (
            {"time_to_first_token": {"unit": "ms", "mean": 9.0, "cv": 0.1, "ci_low": 8.0}},
            "aggregate",
        ),
        ({"service_kind": "openai", "experiments": []}, "profile_export_genai_perf.json"),
        (
            {"elapsed_time": 10.0, "num_requests": 100, "tokens_per_second": 900.0},
            "vllm bench throughput",
        ),
        ({"metadata": {}, "benchmarks": []}, "empty benchmarks list"),
    ],
)
def test_near_misses_of_supported_tools_say_which_file_to_use(value, says):
    with pytest.raises(ResultFileError) as caught:
        parse_result_file("x.json", json.dumps(value).encode())
    assert caught.value.kind == "unknown-format"
    assert says in caught.value.message


def test_a_missing_required_field_names_the_field_and_the_line():
    error = refused("bad/missing-field-append.json")
    assert (error.kind, error.line, error.path) == ("missing-field", 2, "output_throughput")


def test_a_missing_metric_in_a_sweep_names_the_benchmark():
    error = refused("bad/missing-metric_benchmarks.json")
    assert error.kind == "missing-field"
    assert error.path == "benchmarks[2].metrics.output_tokens_per_second.successful"


def test_negative_throughput():
    error = refused("bad/negative-throughput.json")
    assert (error.kind, error.path) == ("bad-value", "output_throughput")
    assert "-12.5 tok/s" in error.message and "negative" in error.message


def test_zero_ttft_names_its_line_and_field():
    error = refused("bad/zero-ttft.jsonl")
    assert (error.kind, error.line, error.path) == ("bad-value", 3, "mean_ttft_ms")


def test_zero_successful_requests():
    error = refused("bad/zero-success.json")
    assert (error.kind, error.path) == ("bad-value", "completed")
    assert "no request succeeded" in error.message


def test_nan():
    error = refused("bad/nan.jsonl")
    assert (error.kind, error.line, error.path) == ("bad-value", 2, "p99_tpot_ms")
    assert "NaN" in error.message


def test_an_unknown_unit_names_the_field_and_unit():
    error = refused("bad/unknown-unit_profile_export_aiperf.json")
    assert (error.kind, error.path) == ("unknown-unit", "time_to_first_token.unit")
    assert "'ticks'" in error.message


@pytest.mark.parametrize(
    ("fixture", "says"),
    [("bad/results.zip", "zip archive"), ("bad/results.json.gz", "gzip")],
)
def test_archives_are_refused_with_a_hint_to_unpack(fixture, says):
    error = refused(fixture)
    assert error.kind == "binary"
    assert says in error.message
    assert "unpack" in error.message or "decompress" in error.message


def test_a_tar_archive_is_refused():
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        data = (FIXTURES / "aiperf/profile_export_aiperf.json").read_bytes()
        info = tarfile.TarInfo("profile_export_aiperf.json")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    with pytest.raises(ResultFileError) as caught:
        parse_result_file("run.tar", buffer.getvalue())
    assert caught.value.kind == "binary" and "tar" in caught.value.message


def test_binary_content_names_the_nul_byte():
    error = refused("bad/profile.bin")
    assert error.kind == "binary"
    assert "offset 7" in error.message


@pytest.mark.parametrize("fixture", ["bad/empty.json", "bad/blank-lines.jsonl"])
def test_empty_files(fixture):
    assert refused(fixture).kind == "empty"


def test_an_empty_json_list_has_no_runs():
    with pytest.raises(ResultFileError) as caught:
        parse_result_file("x.json", b"[]")
    assert caught.value.kind == "empty"


def test_invalid_utf8_names_the_byte_offset():
    error = refused("bad/latin1.json")
    data = (FIXTURES / "bad/latin1.json").read_bytes()
    offset = data.index(b"\xe9")
    assert error.kind == "encoding"
    assert f"offset {offset}" in error.message and "0xE9" in error.message


def test_utf16_is_named():
    data = (FIXTURES / "aiperf/profile_export_aiperf.json").read_text().encode("utf-16")
    with pytest.raises(ResultFileError) as caught:
        parse_result_file("x.json", data)
    assert caught.value.kind == "encoding" and "UTF-16" in caught.value.message


def test_a_utf8_byte_order_mark_is_accepted():
    data = b"\xef\xbb\xbf" + (FIXTURES / "llama-bench/m2max-qwen2.5-7b-q8.jsonl").read_bytes()
    assert len(parse_result_file("x.jsonl", data).runs) == 3


def test_the_vllm_side_file_is_ignored_with_a_message():
    error = refused(
        "vllm-bench/openai-infqps-concurrency4-Llama-3.1-8B-Instruct-20260303-091811.pytorch.json"
    )
    assert error.kind == "side-file" and error.ignorable
    assert "side file" in error.message and ".pytorch" in error.message


def test_the_side_file_is_refused_even_with_a_format_override():
    name = (
        "vllm-bench/openai-infqps-concurrency4-Llama-3.1-8B-Instruct-20260303-091811.pytorch.json"
    )
    assert refused(name, format="vllm-bench").kind == "side-file"


def test_other_errors_are_not_ignorable():
    assert not refused("bad/zero-success.json").ignorable


def test_size_limit_is_checked_before_anything_else():
    # Binary garbage over the limit: the message is about size, so nothing was parsed.
    data = b"\x00" * (DEFAULT_MAX_BYTES + 1)
    with pytest.raises(ResultFileError) as caught:
        parse_result_file("huge.json", data)
    assert caught.value.kind == "too-large"
    assert "50.0 MB" in caught.value.message and "limit" in caught.value.message


def test_size_limit_is_a_parameter():
    data = (FIXTURES / "aiperf/profile_export_aiperf.json").read_bytes()
    with pytest.raises(ResultFileError) as caught:
        parse_result_file("x.json", data, max_bytes=1000)
    assert caught.value.kind == "too-large"
    assert f"{len(data):,} bytes" in caught.value.message and "1,000 bytes" in caught.value.message
    assert parse_result_file("x.json", data, max_bytes=len(data)).runs


def test_read_limited_stops_at_the_limit():
    stream = io.BytesIO(b"{" + b" " * 5000)
    with pytest.raises(ResultFileError) as caught:
        read_limited(stream, "up.json", max_bytes=1000)
    assert caught.value.kind == "too-large"
    assert stream.tell() == 1001  # it never read the whole upload
    assert read_limited(io.BytesIO(b"{}"), "up.json", max_bytes=1000) == b"{}"


def test_runs_per_file_are_capped():
    with pytest.raises(ResultFileError) as caught:
        parse_result_file(
            "x.json", (FIXTURES / "vllm-bench/sweep-append-result.json").read_bytes(), max_runs=3
        )
    assert caught.value.kind == "too-many-runs" and "3 runs" in caught.value.message


def test_the_default_cap_is_ten_thousand_runs():
    line = (FIXTURES / "llama-bench/m2max-qwen2.5-7b-q8.jsonl").read_text().splitlines()[0]
    data = ("\n".join([line] * 10_001) + "\n").encode()
    with pytest.raises(ResultFileError) as caught:
        parse_result_file("many.jsonl", data)
    assert caught.value.kind == "too-many-runs" and "10,000" in caught.value.message


def test_a_sweep_over_the_cap_is_refused():
    with pytest.raises(ResultFileError) as caught:
        parse_result_file(
            "x.json",
            (FIXTURES / "guidellm/concurrency-sweep-benchmarks.json").read_bytes(),
            max_runs=2,
        )
    assert caught.value.kind == "too-many-runs"


def test_deep_nesting_is_refused_without_crashing():
    data = b"[" * 200_000 + b"]" * 200_000
    with pytest.raises(ResultFileError) as caught:
        parse_result_file("deep.json", data)
    assert caught.value.kind == "too-deep"


def test_gzip_of_a_good_file_is_still_refused():
    data = gzip.compress((FIXTURES / "aiperf/profile_export_aiperf.json").read_bytes())
    with pytest.raises(ResultFileError) as caught:
        parse_result_file("profile_export_aiperf.json", data)
    assert caught.value.kind == "binary"


def test_a_line_cut_off_in_the_middle_of_json_lines_is_named():
    lines = (FIXTURES / "llama-bench/m2max-qwen2.5-7b-q8.jsonl").read_text().splitlines()
    data = "\n".join([lines[0], lines[1][:80], lines[2]]).encode()
    with pytest.raises(ResultFileError) as caught:
        parse_result_file("x.jsonl", data)
    assert (caught.value.kind, caught.value.line) == ("not-json", 2)
    assert "cut off" in caught.value.message


def test_a_negative_request_count_is_refused():
    data = json.loads((FIXTURES / "aiperf/profile_export_aiperf.json").read_text())
    data["error_request_count"]["avg"] = -3.0
    with pytest.raises(ResultFileError) as caught:
        parse_result_file("x.json", json.dumps(data).encode())
    assert (caught.value.kind, caught.value.path) == ("bad-value", "error_request_count.avg")


def test_a_missing_field_says_what_was_expected_and_which_versions_write_it():
    error = refused("bad/missing-field-append.json")
    assert "output tokens per second" in error.message
    assert "benchmark_serving.py" in error.message and "vllm bench serve" in error.message
    sweep = refused("bad/missing-metric_benchmarks.json")
    assert "v0.2 to v0.8" in sweep.message
    for message in (error.message, sweep.message):
        assert "which every" not in message
