"""Which tool wrote a result file, judged from its content (never its name), and the entry
point the import service calls: `parse_result_file`."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from app.importers.errors import ResultFileError
from app.importers.formats import (
    guidellm,
    llama_bench,
    llmd_report,
    nvidia_perf,
    sglang_bench,
    vllm_bench,
)
from app.importers.reading import DEFAULT_MAX_BYTES, DEFAULT_MAX_RUNS, Record, decode, load_records
from app.importers.runs import TOOLS, ParsedFile, ParsedRun

FORMATS: tuple[str, ...] = tuple(TOOLS)
# Spellings people type for --format; the canonical slug is what every result records.
_ALIASES = {
    "vllm": "vllm-bench",
    "sglang": "sglang-bench",
    "llama.cpp": "llama-bench",
    "llama-cpp": "llama-bench",
    "llamacpp": "llama-bench",
    "genaiperf": "genai-perf",
    "llm-d": "llmd-report",
    "llmd": "llmd-report",
}
Parser = Callable[[str, list[Record], int], tuple[list[ParsedRun], list[str]]]


def _ignoring_max_runs(
    parse: Callable[[str, list[Record]], tuple[list[ParsedRun], list[str]]],
) -> Parser:
    """A parser for a format whose runs are one per record (the reader already caps those)."""
    return lambda name, records, max_runs: parse(name, records)


_PARSERS: dict[str, Parser] = {
    "vllm-bench": _ignoring_max_runs(vllm_bench.parse),
    "sglang-bench": _ignoring_max_runs(sglang_bench.parse),
    "llama-bench": _ignoring_max_runs(llama_bench.parse),
    "genai-perf": _ignoring_max_runs(partial(nvidia_perf.parse, tool="genai-perf")),
    "aiperf": _ignoring_max_runs(partial(nvidia_perf.parse, tool="aiperf")),
    "guidellm": guidellm.parse,
    "llmd-report": _ignoring_max_runs(llmd_report.parse),
}


def parse_result_file(
    name: str,
    data: bytes,
    format: str | None = None,
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    max_runs: int = DEFAULT_MAX_RUNS,
) -> ParsedFile:
    """Parse one uploaded result file; raises ResultFileError and returns nothing on any problem.

    `name` is used in messages only. `format` (a FORMATS slug) skips detection. The size is
    checked before anything else is done with the bytes.
    """
    text = decode(name, data, max_bytes)
    records = load_records(name, text, max_runs)
    if vllm_bench.is_side_file(records[0].value):
        raise vllm_bench.side_file_error(name)
    chosen = resolve_format(name, format) if format else detect_format(name, records)
    runs, notes = _PARSERS[chosen](name, records, max_runs)
    return ParsedFile(name=name, format=chosen, runs=tuple(runs), notes=tuple(notes))


def resolve_format(name: str, format: str) -> str:
    """A FORMATS slug for what the user typed, or an error listing the slugs."""
    wanted = format.strip().lower()
    wanted = _ALIASES.get(wanted, wanted)
    if wanted not in TOOLS:
        message = f"unknown format {format!r}; the formats are {', '.join(FORMATS)}"
        raise ResultFileError(name, message, kind="unknown-format-name")
    return wanted


def detect_format(name: str, records: list[Record]) -> str:
    """The FORMATS slug of the tool that wrote these records, judged by the first one."""
    first = records[0].value
    line = records[0].line
    if _is_aiperf_aggregate(first):
        # Its blocks carry a unit like the summary's, so say so before they are misread.
        raise ResultFileError(name, _AGGREGATE, kind="unknown-format", line=line)
    nvidia = nvidia_perf.tool_of(first)
    if nvidia is not None:
        return nvidia
    for slug, looks_like in (
        ("llmd-report", llmd_report.looks_like),
        ("guidellm", guidellm.looks_like),
        ("llama-bench", llama_bench.looks_like),
        ("sglang-bench", sglang_bench.looks_like),  # before vLLM: SGLang's is a fork of it
        ("vllm-bench", vllm_bench.looks_like),
    ):
        if looks_like(first):
            return slug
    raise ResultFileError(name, unknown_format_message(first), kind="unknown-format", line=line)


_EXPECTED = (
    "vLLM bench serve (completed with model_id or total_token_throughput)",
    "SGLang bench_serving (completed with *_e2e_latency_ms or server_info)",
    "llama-bench (avg_ts with build_commit)",
    "GenAI-Perf and AIPerf (metric blocks such as request_throughput: {unit, avg})",
    "GuideLLM (a benchmarks list whose items have metrics)",
    "llm-d Benchmark Report (version 0.2 with run and results)",
)


def unknown_format_message(value: Any) -> str:
    """Say what the file is, when we can tell, and what each known format needs."""
    known = _near_miss(value)
    if known:
        return known
    if isinstance(value, dict):
        keys = [str(key)[:30] for key in list(value)[:8]]
        more = ", …" if len(value) > 8 else ""
        has = f"its keys are {', '.join(keys)}{more}" if keys else "it is an empty JSON object"
    else:
        has = f"it holds a JSON {type(value).__name__}, not an object"
    return f"not a result file of a known tool: {has}. The importer reads " + "; ".join(_EXPECTED)


def _near_miss(value: Any) -> str | None:
    """Files of the same tools that are not the summary we import, named with what to do."""
    if not isinstance(value, dict):
        return None
    keys = value.keys()
    if any(str(key).startswith("results_ttft_s") for key in keys):
        return "this is a ray-project/llmperf summary, a format the importer does not read"
    metadata = value.get("metadata")
    if isinstance(metadata, dict) and "x_request_id" in metadata and "metrics" in keys:
        return (
            "this is AIPerf's per-request log (profile_export.jsonl); import the summary "
            "profile_export_aiperf.json from the same folder"
        )
    if _is_aiperf_aggregate(value):
        return _AGGREGATE
    if "experiments" in keys and "service_kind" in keys:
        return (
            "this is perf_analyzer's raw export (profile_export.json); import "
            "profile_export_genai_perf.json from the same folder"
        )
    if "elapsed_time" in keys and "tokens_per_second" in keys:
        return (
            "this is `vllm bench throughput` output; the importer reads `vllm bench serve` results"
        )
    if "avg_latency" in keys and "percentiles" in keys:
        return "this is `vllm bench latency` output; the importer reads `vllm bench serve` results"
    if value.get("benchmarks") == []:
        return "this GuideLLM report has an empty benchmarks list: no runs"
    return None


_AGGREGATE = (
    "this is AIPerf's multi-run aggregate (profile_export_aiperf_aggregate.json); "
    "import one run's profile_export_aiperf.json"
)


def _is_aiperf_aggregate(value: Any) -> bool:
    """Confidence blocks (mean, cv, ci_low, ci_high) instead of avg and percentiles."""
    return isinstance(value, dict) and any(
        isinstance(v, dict) and "ci_low" in v for v in _values_two_deep(value)
    )


def _values_two_deep(value: dict[str, Any]) -> list[Any]:
    values = list(value.values())[:200]
    for child in values[:]:
        if isinstance(child, dict):
            values += list(child.values())[:200]
    return values
