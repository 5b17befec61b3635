"""GuideLLM `benchmarks.json`: one report, many benchmarks (a sweep over rates or
concurrencies), each with its scheduling strategy and distribution summaries of its metrics.

Read from vllm-project/guidellm at v0.7.3 (39383552962841086d05e25c37b58a83ef06c758) and
main @ee7a77457ba668b4b5ccb40f110518829893b36a: src/guidellm/benchmark/schemas/report.py
(`metadata`, `config`, `benchmarks`), benchmark.py, metrics.py (GenerativeMetrics),
src/guidellm/schemas/statistics.py (DistributionSummary: mean, median, std_dev, percentiles
p001..p999), request_stats.py (request_latency in SECONDS; time_per_output_token_ms includes
the first token; inter_token_latency_ms excludes it, which is vLLM's TPOT, so it is read as
tpot), scheduler/strategies.py (synchronous, concurrent `streams`, throughput
`max_concurrency`, constant/poisson `rate`). Before v0.7 (v0.6.1,
e82b62ae3403568d3693a4a49b0c63a82a55df84) the report held `args` (backend_kwargs.model)
instead of `config` (spec.backend.model); both are read. Statistics are the "successful"
requests', as GuideLLM's console shows them. Per-request samples (`requests`) are not read.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from app.importers.errors import ResultFileError
from app.importers.fields import Fields, Place, RunBuilder
from app.importers.formats.serving import metadata_hints
from app.importers.reading import Record
from app.importers.runs import ParsedRun

TOOL = "guidellm"
_LATENCIES = {  # GuideLLM metric -> (normalised name, factor to ms)
    "time_to_first_token_ms": ("ttft", 1.0),
    "inter_token_latency_ms": ("tpot", 1.0),
    "request_latency": ("e2e_latency", 1000.0),
}
_RATES = {
    "output_tokens_per_second": "output_throughput",
    "tokens_per_second": "total_token_throughput",
    "prompt_tokens_per_second": "input_throughput",
    "requests_per_second": "request_throughput",
}
_STATS = ("mean", "median", "std_dev", "min", "max", "count")
_PERCENTILES = {"p90": "p90", "p95": "p95", "p99": "p99"}
_WRITERS = "GuideLLM writes it in every benchmark of every report layout, v0.2 to v0.8"


def looks_like(value: Any) -> bool:
    if not isinstance(value, dict) or not isinstance(value.get("benchmarks"), list):
        return False
    first = next(iter(value["benchmarks"]), None)
    return isinstance(first, dict) and (
        first.get("type_") == "generative_benchmark"
        or (isinstance(first.get("metrics"), dict) and "requests_per_second" in first["metrics"])
    )


def parse(
    name: str, records: list[Record], max_runs: int = 10_000
) -> tuple[list[ParsedRun], list[str]]:
    runs: list[ParsedRun] = []
    for record in records:
        report = record.value
        benchmarks = report.get("benchmarks") if isinstance(report, dict) else None
        if not isinstance(benchmarks, list):
            place = Place(name, len(runs), record.source or "the report", record.line)
            raise place.error("has no benchmarks list", kind="missing-field", key="benchmarks")
        if len(runs) + len(benchmarks) > max_runs:
            message = f"the file holds more than {max_runs:,} runs, the most one import takes"
            raise ResultFileError(name, message, kind="too-many-runs")
        shared = _report_context(report)
        for i, benchmark in enumerate(benchmarks):
            path = f"{record.path}benchmarks[{i}]"
            place = Place(name, len(runs), path, record.line, path)
            if not isinstance(benchmark, dict):
                raise place.error("is not a JSON object", kind="unknown-format")
            runs.append(parse_run(Fields(benchmark, place), shared))
    return runs, ["per-request samples (requests) left out"]


def _report_context(report: dict[str, Any]) -> dict[str, Any]:
    """Model, backend, data and labels as the report's configuration gives them."""
    metadata = _dict(report.get("metadata"))
    config = _dict(_dig(report, "config", "spec")) or _dict(report.get("args"))
    backend = config.get("backend")
    backend_args = _dict(backend) or _dict(config.get("backend_kwargs"))
    data = config.get("data")
    first_data = data[0] if isinstance(data, list) and data else data
    labels = _dig(report, "config", "metadata", "labels")
    return {
        "tool_version": _text(metadata.get("guidellm_version")),
        "model": _text(backend_args.get("model")) or _text(config.get("model")),
        "backend": _text(backend_args.get("kind")) or _text(backend),
        "dataset": _text(first_data.get("kind") if isinstance(first_data, dict) else first_data),
        "labels": {k: v for k, v in labels.items() if isinstance(v, str)}
        if isinstance(labels, dict)
        else {},
    }


def parse_run(fields: Fields, shared: dict[str, Any]) -> ParsedRun:
    run = RunBuilder(TOOL, fields.place)
    metrics = fields.child("metrics")
    if metrics is None:
        raise fields.missing("metrics", f"an object of distribution summaries; {_WRITERS}")
    for key, what in (
        ("requests_per_second", "requests per second"),
        ("output_tokens_per_second", "output tokens per second"),
    ):
        if _summary(metrics, key) is None:
            expected = f"the distribution of {what} over successful requests; {_WRITERS}"
            raise metrics.missing(f"{key}.successful", expected)
    for name in ("tool_version", "model", "backend", "dataset"):
        run.set(name, shared[name])
    _older_layout(fields, run)
    for key, value in shared["labels"].items():
        run.keep_extra(f"label.{key}", value)
    metadata_hints(run, shared["labels"])
    _strategy(fields, run)
    _requests(metrics, run)
    _metrics(metrics, run)
    start = fields.number("start_time")  # seconds since the epoch
    if start is not None and 0 < start < 1e11:
        run.set("measured_at", datetime.fromtimestamp(start, UTC), "start_time")
    return run.build()


def _older_layout(fields: Fields, run: RunBuilder) -> None:
    """v0.2-v0.3 benchmarks name their model and data on the benchmark itself (worker,
    request_loader) and keep request_totals beside metrics."""
    worker = fields.child("worker")
    if worker is not None:
        run.set("model", worker.text("backend_model"), worker.key_path("backend_model"))
        run.set("backend", worker.text("backend_type"), worker.key_path("backend_type"))
    loader = fields.child("request_loader")
    if loader is not None:
        run.set("dataset", loader.text("data"), loader.key_path("data"))
    totals = fields.child("request_totals")
    if totals is not None:
        run.set("successful_requests", totals.count("successful"), totals.key_path("successful"))
        run.set("failed_requests", totals.count("errored"), totals.key_path("errored"))


def _strategy(fields: Fields, run: RunBuilder) -> None:
    """The load of the benchmark: config.strategy from v0.4 on, args.strategy before."""
    settings = fields.child("config") or fields.child("args")
    strategy = settings.child("strategy") if settings else None
    if strategy is None:
        return
    kind = strategy.text("type_")
    run.keep_extra("strategy", kind or "unknown")
    run.set("label", _strategy_label(strategy, kind))
    if kind == "synchronous":
        run.set("concurrency", 1, strategy.key_path("type_"))
    elif kind == "concurrent":
        run.set("concurrency", strategy.count("streams"), strategy.key_path("streams"))
    else:
        # The configured cap on requests in flight, as vLLM's max_concurrency.
        limit = strategy.count("max_concurrency")
        run.set("concurrency", limit, strategy.key_path("max_concurrency"))
    if kind in ("constant", "poisson"):
        run.set("request_rate", strategy.number("rate"), strategy.key_path("rate"))
    elif kind == "throughput":
        run.set("request_rate_unlimited", True)


def _strategy_label(strategy: Fields, kind: str | None) -> str | None:
    detail = strategy.data.get("streams") or strategy.data.get("rate")
    if detail is None:
        detail = strategy.data.get("max_concurrency")
    return f"{kind}@{detail}" if kind and detail is not None else kind


def _requests(metrics: Fields, run: RunBuilder) -> None:
    totals = metrics.child("request_totals")
    if totals is not None:
        run.set("successful_requests", totals.count("successful"), totals.key_path("successful"))
        run.set("failed_requests", totals.count("errored"), totals.key_path("errored"))
        incomplete = totals.count("incomplete")
        if incomplete:
            run.keep_raw("request_totals.incomplete", float(incomplete))
    for name, key in (
        ("mean_input_tokens", "prompt_token_count"),
        ("mean_output_tokens", "output_token_count"),
    ):
        summary = _summary(metrics, key)
        run.set(name, summary.number("mean") if summary else None)
    concurrency = _summary(metrics, "request_concurrency")
    run.set("measured_concurrency", concurrency.number("mean") if concurrency else None)


def _metrics(metrics: Fields, run: RunBuilder) -> None:
    for key, normalised in _RATES.items():
        summary = _summary(metrics, key)
        if summary is not None:
            run.metric(normalised, summary.number("mean"), summary.key_path("mean"))
            _keep(summary, key, run)
    for key, (name, factor) in _LATENCIES.items():
        summary = _summary(metrics, key)
        if summary is None:
            continue
        _keep(summary, key, run)
        for stat, value in _latency_stats(summary).items():
            source = summary.key_path("mean" if stat == "mean" else "median")
            if stat in _PERCENTILES:
                source = summary.key_path(f"percentiles.{stat}")
            run.metric(f"{name}_{stat}", None if value is None else value * factor, source)
    tpot_incl_first = _summary(metrics, "time_per_output_token_ms")
    if tpot_incl_first is not None:
        _keep(tpot_incl_first, "time_per_output_token_ms", run)


def _latency_stats(summary: Fields) -> dict[str, float | None]:
    percentiles = summary.child("percentiles")
    stats = {"mean": summary.number("mean"), "median": summary.number("median")}
    for stat in _PERCENTILES:
        stats[stat] = percentiles.number(stat) if percentiles else None
    return stats


def _summary(metrics: Fields, key: str) -> Fields | None:
    """metrics[key].successful: the distribution over requests that completed."""
    status = metrics.child(key)
    return status.child("successful") if status else None


def _keep(summary: Fields, key: str, run: RunBuilder) -> None:
    for stat in _STATS:
        value = summary.number(stat)
        if value is not None:
            run.keep_raw(f"{key}.successful.{stat}", value)
    percentiles = summary.child("percentiles")
    for stat in ("p50", "p90", "p95", "p99") if percentiles else ():
        value = percentiles.number(stat) if percentiles else None
        if value is not None:
            run.keep_raw(f"{key}.successful.percentiles.{stat}", value)


def _dig(data: Any, *keys: str) -> Any:
    for key in keys:
        data = data.get(key) if isinstance(data, dict) else None
    return data


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _text(value: Any) -> str | None:
    return value.strip()[:300] if isinstance(value, str) and value.strip() else None
