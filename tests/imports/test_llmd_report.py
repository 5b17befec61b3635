"""The llm-d Benchmark Report v0.2: read (JSON and llm-d-benchmark's own YAML), written from a
team run, valid against the schema llm-d publishes, and read back to the same figures."""

import json
from pathlib import Path
from typing import Any

import pytest

from app.importers import ParsedRun, ResultFileError, parse_result_file
from app.present.llmd_report import llmd_report

HERE = Path(__file__).parent
REAL = HERE / "real"
# llm-d/llm-d-benchmark llmdbenchmark/analysis/benchmark_report/br_v0_2_json_schema.json
# @8bc9f1ddd873a24f1657d6cca2e0d0fb6947dd36 (Apache-2.0)
SCHEMA = json.loads((HERE / "llmd_br_v0_2_json_schema.json").read_text())


def problems(value: Any, schema: dict[str, Any], path: str = "$") -> list[str]:
    """What in `value` breaks `schema`: the JSON Schema keywords this schema uses ($ref,
    anyOf/oneOf, type, enum, required, properties, additionalProperties, items, minimum)."""
    if "$ref" in schema:
        return problems(value, SCHEMA["$defs"][schema["$ref"].rsplit("/", 1)[-1]], path)
    for key in ("anyOf", "oneOf"):
        if key in schema:
            options = schema[key]
            if "discriminator" in schema and isinstance(value, dict):
                ref = schema["discriminator"]["mapping"].get(value.get("kind"))
                options = [{"$ref": ref}] if ref else options
            if not any(not problems(value, option, path) for option in options):
                return [f"{path}: matches none of {key}"]
            return []
    kinds = {
        "object": dict,
        "array": list,
        "string": str,
        "integer": int,
        "number": (int, float),
        "boolean": bool,
        "null": type(None),
    }
    if "type" in schema and not isinstance(value, kinds[schema["type"]]):
        return [f"{path}: not {schema['type']}"]
    if "enum" in schema and value not in schema["enum"]:
        return [f"{path}: {value!r} not in {schema['enum']}"]
    if "minimum" in schema and value < schema["minimum"]:
        return [f"{path}: below {schema['minimum']}"]
    found: list[str] = []
    if isinstance(value, dict):
        found += [f"{path}.{k}: required" for k in schema.get("required", []) if k not in value]
        properties = schema.get("properties", {})
        for key, item in value.items():
            if key in properties:
                found += problems(item, properties[key], f"{path}.{key}")
            elif schema.get("additionalProperties") is False:
                found.append(f"{path}.{key}: not allowed")
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            found += problems(item, schema["items"], f"{path}[{i}]")
    return found


def test_the_checker_finds_what_the_schema_forbids() -> None:
    assert problems({"version": "0.2", "run": {"uid": "x"}, "results": {}}, SCHEMA) == []
    assert problems({"version": "0.2", "results": {}}, SCHEMA) == ["$.run: required"]
    bad = {"version": "0.2", "run": {"uid": "x", "colour": 1}, "results": {}}
    assert problems(bad, SCHEMA) == ["$.run.colour: not allowed"]


def test_llm_ds_own_example_report_is_read_from_yaml() -> None:
    path = REAL / "llmd-report" / "br_v0_2_example.yaml"
    (run,) = parse_result_file(path.name, path.read_bytes()).runs
    assert run.tool == "llmd-report" and run.tool_version == "0.2"
    assert (run.model, run.engine, run.gpu_name) == (
        "Qwen/Qwen3-0.6B",
        "llm-d",
        "NVIDIA-H100-80GB-HBM3",
    )
    assert run.gpu_count == 16  # 8 accelerators x 2 replicas
    assert run.request_rate == 10.0 and run.concurrency is None  # concurrency: .inf
    assert run.configured_input_tokens == 2148 and run.successful_requests == 500
    assert run.metrics["output_throughput"] == 2262.448
    # The example's TTFT equals its request latency (placeholder numbers): not a TTFT.
    assert "ttft_mean" not in run.metrics
    assert run.metrics["e2e_latency_mean"] == pytest.approx(36.8578234128654)  # s -> ms


def test_a_yaml_report_with_an_alias_is_refused() -> None:
    text = b"version: '0.2'\nrun: &r {uid: x}\nresults:\n  copy: *r\n"
    with pytest.raises(ResultFileError) as caught:
        parse_result_file("r.yaml", text)
    assert "alias" in caught.value.message and caught.value.line == 4


def run_of(relative: str, index: int = 0) -> ParsedRun:
    path = REAL / relative
    return parse_result_file(path.name, path.read_bytes()).runs[index]


def setup_of(run: ParsedRun) -> dict[str, Any]:
    """What an ImportRun keeps of the run (app/writes/imports.py _setup), given a context."""
    return {
        "system": "vllm",
        "system_version": run.engine_version or "0.25.1",
        "gpus": 2,
        "precision": "fp8",
        "hardware": "nvidia-h100-sxm5-80gb",
        "model": "llama-3.1-8b",
        "model_in_file": run.model,
        "concurrency": run.concurrency,
        "request_rate": run.request_rate,
        "input_tokens": run.configured_input_tokens or round(run.mean_input_tokens or 0),
        "output_tokens": run.configured_output_tokens or round(run.mean_output_tokens or 0),
    }


ROUND_TRIPS = [
    "vllm-bench/er0080-bench-serve-v0.25.1.json",
    "vllm-bench/llmd-h100-1p1d-rate3.6.json",
    "sglang-bench/tonyli15-agg-c8.jsonl",
    "guidellm/llmd-guidellm-report-v2.json",
    "aiperf/aiperf-example-run1-2025-10.json",
]


@pytest.mark.parametrize("relative", ROUND_TRIPS)
def test_a_run_written_as_a_report_is_valid_and_reads_back_the_same(relative: str) -> None:
    run = run_of(relative)
    setup = setup_of(run)
    report = llmd_report(setup, run.metrics, uid="atlas-x-0", eid="atlas-x", load_tool="t")
    assert problems(report, SCHEMA) == []
    text = json.dumps(report).encode()  # what the API and the CLI send
    (back,) = parse_result_file("report.json", text).runs
    assert back.tool == "llmd-report"
    written = {
        k
        for k in run.metrics
        if k.split("_")[0] in ("ttft", "tpot", "itl", "e2e")
        and f"{k.rsplit('_', 1)[0]}_mean" in run.metrics
    }
    written |= {
        "output_throughput",
        "request_throughput",
        "total_token_throughput",
        "input_throughput",
    } & run.metrics.keys()
    for key in written:
        assert back.metrics[key] == pytest.approx(run.metrics[key], rel=1e-12), key
    assert (back.concurrency, back.request_rate) == (run.concurrency, run.request_rate)
    assert (back.model, back.gpu_count, back.precision) == (run.model, 2, "fp8")
    assert back.engine == "vllm" and back.gpu_name == "nvidia-h100-sxm5-80gb"
    assert back.configured_input_tokens == setup["input_tokens"]
