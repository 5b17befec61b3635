"""SGLang `python -m sglang.bench_serving`: one JSON object appended per run (JSON Lines).

Read from sgl-project/sglang python/sglang/benchmark/serving.py
@00f9ec472ffef82714c0407b842ccb5bd254d130 (the `result` dict at the end of `benchmark`) and
the refactored python/sglang/benchmark/metrics.py @6e48df336a77303519023e2f95009509f0e94e83
(`save_results`: fewer keys, no tag or server_info). A fork of vLLM's benchmark_serving, but:
`total_throughput` (not total_token_throughput), `*_e2e_latency_ms` (not e2el),
`concurrency` is the MEASURED average, request_rate inf is written as JSON `Infinity`,
and there is no date, no failed count and no model id unless `server_info` is present.
"""

from __future__ import annotations

from typing import Any

from app.importers.fields import Fields, RunBuilder
from app.importers.formats import serving
from app.importers.reading import Record
from app.importers.runs import ParsedRun

TOOL = "sglang-bench"
# Every layout since 2024 writes these. Records of late 2024 (seen in
# datacrunch-research/h200-benchmarks) have no request_throughput and no mean or percentile
# TTFT/TPOT, only medians: request throughput is then derived as completed / duration.
_WRITERS = "SGLang's bench_serving writes it in every result, the 2024 layout included"
REQUIRED = {
    "completed": f"the count of requests that succeeded; {_WRITERS}",
    "output_throughput": f"output tokens per second; {_WRITERS}",
}
_LATENCY_WORDS = {"ttft": "ttft", "tpot": "tpot", "itl": "itl", "e2e_latency": "e2e_latency"}
_KNOWN_TEXT = {"backend", "dataset_name", "tag"}
# The bench client's backends that speak SGLang's native API (the OpenAI ones, sglang-oai*,
# are answered by vLLM and others too).
NATIVE_BACKENDS = frozenset({"sglang", "sglang-native"})


def looks_like(value: Any) -> bool:
    if not isinstance(value, dict) or "completed" not in value:
        return False
    keys = value.keys()
    return (
        "total_output_tokens_retokenized" in keys
        or "server_info" in keys
        or any(key.endswith("_e2e_latency_ms") for key in keys)
    )


def parse(name: str, records: list[Record]) -> tuple[list[ParsedRun], list[str]]:
    return serving.parse(name, records, parse_run)


def parse_run(fields: Fields) -> tuple[ParsedRun, list[str]]:
    run, completed = serving.new_run(TOOL, fields, REQUIRED)
    backend = fields.text("backend")
    run.set("backend", backend, "backend")
    if backend in NATIVE_BACKENDS:
        # These post to SGLang's own /generate API, which no other server answers, so the
        # file names its server even without server_info (SGLang's docs/developer_guide/
        # bench_serving.md @ main, read 2026-12-06: "sglang / sglang-native: POST /generate").
        run.set("engine", "sglang", "backend")
    run.set("label", fields.text("tag"), "tag")
    dataset = fields.text("dataset_name")
    run.set("dataset", dataset, "dataset_name")
    if dataset and dataset.startswith("random"):
        # The random lengths are written for every dataset but only used by random ones.
        run.set("configured_input_tokens", fields.count("random_input_len"), "random_input_len")
        run.set("configured_output_tokens", fields.count("random_output_len"))
    run.set("concurrency", fields.count("max_concurrency"), "max_concurrency")
    run.set("measured_concurrency", fields.number("concurrency"), "concurrency")
    serving.request_rate(fields, run)
    run.set("mean_input_tokens", serving.mean_length(fields, "total_input_tokens", completed))
    run.set("mean_output_tokens", serving.mean_length(fields, "total_output_tokens", completed))
    for key, source in (
        ("output_throughput", "output_throughput"),
        ("total_token_throughput", "total_throughput"),
        ("input_throughput", "input_throughput"),
        ("request_throughput", "request_throughput"),
    ):
        run.metric(key, fields.number(source), source)
    serving.derive_request_rate(fields, run, completed)
    serving.read_latencies(fields, run, _LATENCY_WORDS)
    _server_info(fields, run)
    dropped = serving.keep_scalars(fields, run, _KNOWN_TEXT)
    if isinstance(fields.data.get("details"), dict):
        dropped.append("details")  # --output-details puts the per-request arrays here
    return run.build(), dropped


def _server_info(fields: Fields, run: RunBuilder) -> None:
    """GET /server_info of an SGLang server: its arguments, scheduler state and version."""
    info = fields.child("server_info")
    if info is None:
        return
    decode = info.data.get("decode")
    if isinstance(decode, list) and decode and isinstance(decode[0], dict):
        # Prefill/decode disaggregation: the decode server is the one that generates.
        info = Fields(decode[0], fields.place, "server_info.decode[0]")
    model = info.text("served_model_name") or info.text("model_path")
    run.set("model", model, info.key_path("model_path"))
    version = info.text("version")
    if version:
        run.set("engine", "sglang")
        run.set("engine_version", version, info.key_path("version"))
    quantization = info.text("quantization")
    dtype = info.text("dtype")
    run.set("precision", quantization or (dtype if dtype != "auto" else None))
    kv = info.text("kv_cache_dtype")
    run.set("kv_cache_dtype", kv if kv != "auto" else None)
    run.set("tensor_parallel", _positive(info, "tp_size"), info.key_path("tp_size"))
    for key in ("dp_size", "pp_size", "ep_size"):
        value = _positive(info, key)
        if value is not None:
            run.keep_raw(f"server_info.{key}", float(value))


def _positive(info: Fields, key: str) -> int | None:
    value = info.data.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None
