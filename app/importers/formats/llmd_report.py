"""The llm-d Benchmark Report, schema version 0.2 (JSON, or YAML as llm-d-benchmark writes
it): one run of one load, with the stack that served it, the load that drove it and the
aggregate request performance.

Read from llm-d/llm-d-benchmark llmdbenchmark/analysis/benchmark_report/
br_v0_2_json_schema.json and br_v0_2_example.yaml @8bc9f1ddd873a24f1657d6cca2e0d0fb6947dd36
(also the reports that `inference-atlas export-llmd-report` writes, app/present/llmd_report.py).
Statistics carry their own `units` ("s", "ms", "s/token", "tokens/s", "queries/s"...), which
are authoritative. The first `inference_engine` component of `scenario.stack` names the
engine, its version, the model and the accelerators (count x replicas, summed over engine
components, is the GPU count); `scenario.load.standardized` gives the concurrency (`.inf`:
none) or the rate (`rate_qps`) and the sequence lengths.
"""

from __future__ import annotations

import math
from datetime import datetime
from typing import Any

from app.importers.fields import Fields, RunBuilder, describe, record_fields
from app.importers.reading import Record
from app.importers.runs import ParsedRun

TOOL = "llmd-report"
VERSIONS = ("0.2", "0.2.1")
_TO = {  # units the schema allows -> factor to our unit
    "ms": {"s": 1000.0, "ms": 1.0, "s/token": 1000.0, "ms/token": 1.0},
    "tok/s": {"tokens/s": 1.0},
    "req/s": {"queries/s": 1.0},
    "tokens": {"count": 1.0},
}
_LATENCIES = {
    "time_to_first_token": "ttft",
    "time_per_output_token": "tpot",
    "inter_token_latency": "itl",
    "request_latency": "e2e_latency",
}
_RATES = {
    "output_token_rate": "output_throughput",
    "total_token_rate": "total_token_throughput",
    "input_token_rate": "input_throughput",
    "request_rate": "request_throughput",
}
_STATS = {"mean": "mean", "p50": "median", "p90": "p90", "p95": "p95", "p99": "p99"}
_WRITERS = "every llm-d Benchmark Report v0.2 with request performance has it"


def looks_like(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and str(value.get("version")) in VERSIONS
        and isinstance(value.get("run"), dict)
        and isinstance(value.get("results"), dict)
    )


def parse(name: str, records: list[Record]) -> tuple[list[ParsedRun], list[str]]:
    return [parse_run(fields) for fields in record_fields(name, records)], []


def parse_run(fields: Fields) -> ParsedRun:
    run = RunBuilder(TOOL, fields.place)
    version = str(fields.data.get("version"))
    if version not in VERSIONS:
        message = f"is {describe(fields.data.get('version'))}: the importer reads v0.2 reports"
        raise fields.error(message, "version", "unknown-format")
    run.set("tool_version", version)
    aggregate = _child(fields, "results", "request_performance", "aggregate")
    if aggregate is None:
        expected = f"the aggregate request performance; {_WRITERS}"
        raise fields.missing("results.request_performance.aggregate", expected)
    requests = aggregate.child("requests")  # optional in the schema; total when present
    if requests is not None and requests.data.get("total") is not None:
        total = requests.count("total") or 0
        failures = requests.count("failures") or 0
        run.set("successful_requests", total - failures, requests.key_path("total"))
        run.set("failed_requests", failures, requests.key_path("failures"))
    for which, key in (
        ("mean_input_tokens", "input_length"),
        ("mean_output_tokens", "output_length"),
    ):
        stats = requests.child(key) if requests else None
        run.set(which, _value(stats, "mean", "tokens") if stats else None)
    _rates(aggregate, run)
    _latencies(aggregate, run)
    _run_info(fields, run)
    _stack(fields, run)
    _load(fields, run)
    return run.build()


def _rates(aggregate: Fields, run: RunBuilder) -> None:
    throughput = aggregate.child("throughput")
    if throughput is None or throughput.child("output_token_rate") is None:
        expected = f"output tokens per second ({{units, mean}}); {_WRITERS}"
        raise aggregate.missing("throughput.output_token_rate", expected)
    for key, normalised in _RATES.items():
        stats = throughput.child(key)
        if stats is not None:
            unit = "req/s" if key == "request_rate" else "tok/s"
            run.metric(normalised, _value(stats, "mean", unit), stats.key_path("mean"))


def _latencies(aggregate: Fields, run: RunBuilder) -> None:
    latency = aggregate.child("latency")
    for key, name in _LATENCIES.items():
        stats = latency.child(key) if latency else None
        if stats is None:
            continue
        for stat, suffix in _STATS.items():
            run.metric(f"{name}_{suffix}", _value(stats, stat, "ms"), stats.key_path(stat))


def _run_info(fields: Fields, run: RunBuilder) -> None:
    info = fields.child("run")
    if info is None:
        return
    run.set("label", info.text("description") or info.text("uid"), info.key_path("uid"))
    for key in ("uid", "eid", "user"):
        text = info.text(key)
        if text:
            run.keep_extra(f"run.{key}", text)
    time = info.child("time")
    start = time.text("start") if time else None
    if start:
        try:
            run.set("measured_at", datetime.fromisoformat(start.replace("Z", "+00:00")))
        except ValueError:
            assert time is not None
            raise time.error(f"is {start!r}, not an ISO 8601 time", "start") from None


def _stack(fields: Fields, run: RunBuilder) -> None:
    stack = _child(fields, "scenario")
    components = stack.data.get("stack") if stack else None
    engines = [
        c["standardized"]
        for c in components or []
        if isinstance(c, dict)
        and isinstance(c.get("standardized"), dict)
        and c["standardized"].get("kind") == "inference_engine"
    ][:64]
    if not engines:
        return
    first = Fields(engines[0], fields.place, "scenario.stack[0].standardized")
    native = next(
        (
            c.get("native")
            for c in components or []
            if isinstance(c, dict) and c.get("standardized") is engines[0]
        ),
        None,
    )
    args = native.get("args") if isinstance(native, dict) else None
    precision = args.get("precision") if isinstance(args, dict) else None
    if isinstance(precision, str) and precision.strip():
        run.set("precision", precision.strip()[:300])
    run.set("engine", first.text("tool"), first.key_path("tool"))
    run.set("engine_version", first.text("tool_version"), first.key_path("tool_version"))
    model = first.child("model")
    run.set("model", model.text("name") if model else None, first.key_path("model.name"))
    accelerator = first.child("accelerator")
    if accelerator is None:
        return
    run.set("gpu_name", accelerator.text("model"), accelerator.key_path("model"))
    parallelism = accelerator.child("parallelism")
    tp = parallelism.data.get("tp") if parallelism else None
    if isinstance(tp, int) and not isinstance(tp, bool) and tp > 0:
        run.set("tensor_parallel", tp)
    count = 0
    for engine in engines:
        acc = engine.get("accelerator")
        each = acc.get("count") if isinstance(acc, dict) else None
        replicas = engine.get("replicas")
        if isinstance(each, int) and isinstance(replicas, int) and each > 0 and replicas > 0:
            count += each * replicas
    run.set("gpu_count", count or None, "scenario.stack[].accelerator.count x replicas")


def _load(fields: Fields, run: RunBuilder) -> None:
    load = _child(fields, "scenario", "load", "standardized")
    if load is None:
        return
    tool = load.text("tool")
    if tool:
        run.keep_extra("load.tool", f"{tool} {load.text('tool_version') or ''}".strip())
    concurrency = load.data.get("concurrency")
    unlimited = isinstance(concurrency, float) and math.isinf(concurrency)  # `.inf`: no cap
    if concurrency is not None and not unlimited:
        run.set("concurrency", load.count("concurrency"), load.key_path("concurrency"))
    rate = load.number("rate_qps")
    run.set("request_rate", rate, load.key_path("rate_qps"))
    if unlimited and rate is None:
        run.set("request_rate_unlimited", True)
    for which, key in (
        ("configured_input_tokens", "input_seq_len"),
        ("configured_output_tokens", "output_seq_len"),
    ):
        length = load.child(key)
        value = length.data.get("value") if length else None
        if isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
            run.set(which, int(value), load.key_path(f"{key}.value"))


def _child(fields: Fields, *keys: str) -> Fields | None:
    node: Fields | None = fields
    for key in keys:
        node = node.child(key) if node else None
    return node


def _value(stats: Fields | None, stat: str, target: str) -> float | None:
    """stats[stat] in `target`, converted from the block's own `units`."""
    if stats is None:
        return None
    value = stats.number(stat)
    if value is None:
        return None
    units = stats.text("units")
    factor = _TO[target].get(units or "")
    if factor is None:
        known = ", ".join(repr(u) for u in _TO[target])
        message = f"is {units!r}; expected one of {known} here"
        raise stats.error(message, "units", "unknown-unit")
    return value * factor
