"""Format detection reads the content, never the name; format= overrides it."""

import pytest

from app.importers import FORMATS, ResultFileError, detect_format, parse_result_file
from tests.imports.helpers import FIXTURES, parse, refused

GOOD = [
    ("vllm-bench/openai-8.0qps-Llama-3.1-8B-Instruct-20260302-141503.json", "vllm-bench", 1),
    ("vllm-bench/sweep-append-result.json", "vllm-bench", 4),
    ("sglang-bench/sglang-oai_0304_640_2048_256.jsonl", "sglang-bench", 4),
    ("sglang-bench/vllm_0305_1000_sharegpt.jsonl", "sglang-bench", 1),
    ("llama-bench/rtx4090-llama3.1-8b-q4km.json", "llama-bench", 3),
    ("llama-bench/m2max-qwen2.5-7b-q8.jsonl", "llama-bench", 3),
    ("genai-perf/profile_export_genai_perf.json", "genai-perf", 1),
    ("genai-perf/config-v2_genai_perf.json", "genai-perf", 1),
    ("aiperf/profile_export_aiperf.json", "aiperf", 1),
    ("aiperf/records-layout_profile_export_aiperf.json", "aiperf", 1),
    ("guidellm/concurrency-sweep-benchmarks.json", "guidellm", 4),
    ("guidellm/rate-sweep-v0.6-benchmarks.json", "guidellm", 4),
]


@pytest.mark.parametrize(("fixture", "tool", "runs"), GOOD)
def test_each_fixture_is_detected_and_parsed(fixture, tool, runs):
    parsed = parse(fixture)
    assert parsed.format == tool
    assert len(parsed.runs) == runs
    assert {run.tool for run in parsed.runs} == {tool}
    assert parsed.format_title  # a readable name for previews


@pytest.mark.parametrize(("fixture", "tool", "runs"), GOOD)
def test_the_file_name_plays_no_part(fixture, tool, runs):
    # Name every file as another tool's usual output: detection must not care.
    parsed = parse_result_file("benchmarks.json", (FIXTURES / fixture).read_bytes())
    assert parsed.format == tool
    assert parsed.name == "benchmarks.json"


@pytest.mark.parametrize(("fixture", "tool", "runs"), GOOD)
def test_format_override_with_the_right_format_gives_the_same_runs(fixture, tool, runs):
    assert parse(fixture, format=tool) == parse(fixture)


def test_format_override_accepts_the_usual_spellings():
    parsed = parse("sglang-bench/vllm_0305_1000_sharegpt.jsonl", format=" SGLang ")
    assert parsed.format == "sglang-bench"
    assert parse("llama-bench/m2max-qwen2.5-7b-q8.jsonl", format="llama.cpp").format == (
        "llama-bench"
    )


def test_format_override_wins_over_detection_and_says_what_is_missing():
    # An SGLang file read as vLLM: SGLang writes no total_token_throughput but vLLM's
    # parser only needs completed/request_throughput/output_throughput, so it parses; a
    # llama-bench file read as vLLM does not.
    as_vllm = parse("sglang-bench/vllm_0305_1000_sharegpt.jsonl", format="vllm-bench")
    assert as_vllm.format == "vllm-bench"
    assert as_vllm.runs[0].tool == "vllm-bench"
    error = refused("llama-bench/m2max-qwen2.5-7b-q8.jsonl", format="vllm-bench")
    assert error.kind == "missing-field"
    assert (error.line, error.path) == (1, "completed")
    assert "vLLM" in error.message


def test_an_unknown_format_name_lists_the_known_ones():
    error = refused("aiperf/profile_export_aiperf.json", format="locust")
    assert error.kind == "unknown-format-name"
    assert "'locust'" in error.message
    assert all(slug in error.message for slug in FORMATS)


def test_detect_format_alone_returns_the_slug():
    from app.importers.reading import decode, load_records

    data = (FIXTURES / "aiperf/profile_export_aiperf.json").read_bytes()
    records = load_records("x", decode("x", data))
    assert detect_format("x", records) == "aiperf"


def test_errors_are_one_type_with_a_location():
    with pytest.raises(ResultFileError) as caught:
        parse("bad/missing-field-append.json")
    assert str(caught.value).startswith(
        "missing-field-append.json: line 2, field output_throughput:"
    )
