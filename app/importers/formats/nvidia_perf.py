"""NVIDIA GenAI-Perf `profile_export_genai_perf.json` and its successor AIPerf's
`profile_export_aiperf.json`: one run per file, a stats block `{unit, avg, p50, p99, ...}`
per metric, and the run's configuration under `input_config`.

Read from triton-inference-server/perf_analyzer genai-perf/genai_perf/export_data/
json_exporter.py @263c5f6e0c7a6c15472a54409174981f67930cfe (input_config from the new config
classes; older releases dump flat CLI args, as in genai-perf/tests/test_json_exporter.py
@00afbedfc8479544e4037ed624ae02e454cf777f), genai_perf/metrics/statistics.py (units);
ai-dynamo/aiperf src/aiperf/common/models/export_models.py
@26240f9e48bd11b1890ec0bfab778fd82481869f, docs/reference/json-export-schema.md
@1554b478d4eec073cb23365b2c1e1b6dbece2e62 ("unit is authoritative"), the older layout with
blocks under "records" and short tags (ttft, ttst) in examples/artifacts/run1/
profile_export_aiperf.json @7c31f57933ad8a452db7737d05dba2b29cd6bf8c, and
aiperf/metrics/types/inter_token_latency_metric.py @db4f6397d11ee2d4cfbb41f70b2327315163dcf0:
their "inter_token_latency" is (latency - TTFT) / (output tokens - 1), which is vLLM's TPOT,
so it is read as tpot; their "inter_chunk_latency" is vLLM's ITL.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from datetime import UTC, datetime
from typing import Any

from app.importers.fields import Fields, RunBuilder, record_fields
from app.importers.metrics import convert, known_units
from app.importers.reading import Record
from app.importers.runs import ParsedRun

_SHORT_TAGS = {"ttft": "time_to_first_token", "ttst": "time_to_second_token"}
_LATENCIES = {  # file tag -> normalised latency name
    "time_to_first_token": "ttft",
    "inter_token_latency": "tpot",
    "inter_chunk_latency": "itl",
    "request_latency": "e2e_latency",
}
_RATES = {  # file tag -> (normalised key, unit)
    "request_throughput": ("request_throughput", "req/s"),
    "output_token_throughput": ("output_throughput", "tok/s"),
    "total_token_throughput": ("total_token_throughput", "tok/s"),
    "output_token_throughput_per_user": ("output_throughput_per_user", "tok/s/user"),
    "goodput": ("request_goodput", "req/s"),
    "request_goodput": ("request_goodput", "req/s"),
}
_STATS = {"avg": "mean", "p50": "median", "p90": "p90", "p95": "p95", "p99": "p99"}
_AIPERF_ONLY = {"benchmark_duration", "total_isl", "inter_chunk_latency", "min_request_timestamp"}
REQUIRED = {
    "request_throughput": "a {unit, avg} block of requests per second",
    "output_token_throughput": "a {unit, avg} block of output tokens per second",
}
_WRITERS = {
    "genai-perf": "GenAI-Perf writes it in every LLM profile export (2024 releases to 0.0.16)",
    "aiperf": "AIPerf writes it in every profile export, the 2025 layout under records included",
}


def blocks_of(value: Mapping[str, Any]) -> tuple[Mapping[str, Any], str]:
    """The metric blocks and the path they sit under ("records" in AIPerf's older layout)."""
    records = value.get("records")
    if isinstance(records, dict):
        return records, "records"
    return {k: v for k, v in value.items() if isinstance(v, dict) and "unit" in v}, ""


def tool_of(value: Any) -> str | None:
    """ "aiperf", "genai-perf", or None for a file of neither."""
    if not isinstance(value, dict):
        return None
    blocks, under = blocks_of(value)
    if not {"request_throughput", "time_to_first_token", "ttft"} & blocks.keys():
        return None
    config = value.get("input_config")
    aiperf_config = isinstance(config, dict) and ("loadgen" in config or "cli_command" in config)
    if under or aiperf_config or {"aiperf_version", "schema_version"} & value.keys():
        return "aiperf"
    return "aiperf" if _AIPERF_ONLY & blocks.keys() else "genai-perf"


def parse(name: str, records: list[Record], tool: str) -> tuple[list[ParsedRun], list[str]]:
    return [parse_run(fields, tool) for fields in record_fields(name, records)], []


def parse_run(fields: Fields, tool: str) -> ParsedRun:
    run = RunBuilder(tool, fields.place)
    blocks, under = blocks_of(fields.data)
    tags = {_SHORT_TAGS.get(tag, tag) for tag, block in blocks.items() if isinstance(block, dict)}
    for tag, expected in REQUIRED.items():
        if tag not in tags:
            path = f"{under}.{tag}".strip(".")
            raise fields.missing(path, f"{expected}; {_WRITERS[tool]}")
    for written, block in blocks.items():
        if isinstance(block, dict):
            # Read under the canonical tag, but name the field as the file writes it.
            at = Fields(block, fields.place, f"{under}.{written}".strip("."))
            _read_block(at, _SHORT_TAGS.get(written, written), run)
    run.set("tool_version", fields.text("aiperf_version"), "aiperf_version")
    run.set("measured_at", _start(fields), "start_time")
    config = fields.child("input_config")
    if config is not None:
        _config(config, run)
        if _first(config.data, ("endpoint", "streaming"), ("streaming",)) is False:
            run.drop_metrics("ttft_", _NOT_STREAMED)
            run.drop_metrics("tpot_", _NOT_STREAMED)
            run.drop_metrics("itl_", _NOT_STREAMED)
    _gpus(fields, run)
    return run.build()


_NOT_STREAMED = (
    "input_config says streaming was off: the tool's time to first token is then the whole "
    "request's latency, so TTFT and the per-token latencies are left out"
)


def _read_block(block: Fields, tag: str, run: RunBuilder) -> None:
    for stat, value in block.data.items():
        if isinstance(value, str) and not _numeric(value):
            continue  # labels beside the numbers: unit, and tag/header in the older layout
        if isinstance(value, int | float | str) and not isinstance(value, bool):
            run.keep_raw(f"{tag}.{stat}", block.number(stat, strings=True) or 0.0)
    if tag in _LATENCIES:
        for stat, name in _STATS.items():
            run.metric(f"{_LATENCIES[tag]}_{name}", _value(block, stat, "ms"), block.key_path(stat))
    elif tag in _RATES:
        key, unit = _RATES[tag]
        run.metric(key, _value(block, "avg", unit), block.key_path("avg"))
    elif tag in ("input_sequence_length", "output_sequence_length"):
        which = "mean_input_tokens" if tag.startswith("input") else "mean_output_tokens"
        run.set(which, _value(block, "avg", "tokens"), block.key_path("avg"))
    elif tag in ("request_count", "error_request_count"):
        count = _value(block, "avg", "requests")
        which = "successful_requests" if tag == "request_count" else "failed_requests"
        run.set(which, None if count is None else round(count), block.key_path("avg"))


def _value(block: Fields, stat: str, target: str) -> float | None:
    """block[stat] converted from the block's own unit, which is authoritative."""
    value = block.number(stat, strings=True)
    if value is None:
        return None
    unit = block.text("unit")
    if unit is None:
        raise block.missing("unit")
    converted = convert(value, unit, target)
    if converted is None:
        message = (
            f"has unit {unit!r}, which the importer does not know here ({known_units(target)})"
        )
        raise block.error(message, "unit", "unknown-unit")
    return converted


def _start(fields: Fields) -> datetime | None:
    text = fields.text("start_time")
    if text is None:
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise fields.error(f"is {text!r}, not an ISO 8601 time", "start_time") from None
    # Schema-versioned exports document start_time as UTC; older ones are left as written.
    if moment.tzinfo is None and "schema_version" in fields.data:
        moment = moment.replace(tzinfo=UTC)
    return moment


def _config(config: Fields, run: RunBuilder) -> None:
    """input_config differs by tool and release: AIPerf nests endpoint/loadgen/input,
    GenAI-Perf wrote flat CLI arguments, then model_names/endpoint/perf_analyzer.stimulus."""
    data = config.data
    names = _first(data, ("endpoint", "model_names"), ("model_names",), ("model",))
    items = _first(data, ("models", "items"))  # AIPerf 0.10: models.items[].name
    if names is None and isinstance(items, list) and items and isinstance(items[0], dict):
        names = items[0].get("name")
    model = names[0] if isinstance(names, list) and names else names
    run.set("model", model[:300] if isinstance(model, str) and model else None)
    kind = _first(data, ("endpoint", "type"), ("endpoint_type",), ("service_kind",))
    run.set("backend", kind if isinstance(kind, str) and kind else None)
    # GenAI-Perf's `backend` (tensorrtllm, vllm) names the engine behind Triton; with other
    # service kinds it still holds its default, so it is only a hint for Triton runs.
    served = _first(data, ("endpoint", "backend"), ("backend",))
    if kind in ("triton", "kserve") and isinstance(served, str) and served:
        run.set("engine", served)
    phase = _profiling_phase(data)
    concurrency = phase.get("concurrency") if phase else _load(data, "concurrency")
    run.set("concurrency", _positive_int(concurrency), "input_config")
    rate = (
        (phase.get("rate") or phase.get("request_rate")) if phase else _load(data, "request_rate")
    )
    if isinstance(rate, int | float) and not isinstance(rate, bool) and rate > 0:
        run.set("request_rate", float(rate), "input_config")
    isl = _first(
        data,
        ("input", "prompt", "input_tokens", "mean"),
        ("input", "synthetic_tokens", "mean"),
        ("synthetic_input_tokens_mean",),
    )
    osl = _first(
        data,
        ("input", "prompt", "output_tokens", "mean"),
        ("input", "output_tokens", "mean"),
        ("output_tokens_mean",),
    )
    run.set("configured_input_tokens", _positive_int(isl))
    run.set("configured_output_tokens", _positive_int(osl))  # GenAI-Perf writes -1 for unset
    command = _first(data, ("cli_command",))
    if isinstance(command, str):
        run.keep_extra("cli_command", command)


def _gpus(fields: Fields, run: RunBuilder) -> None:
    """The GPUs the telemetry saw, counted only when they worked during the run: a DCGM
    exporter reports every GPU of its node, and a one-GPU server on an eight-GPU node would
    otherwise read as eight. AIPerf's `telemetry_data` names each GPU; GenAI-Perf's
    `telemetry_stats` keys them by index under each metric."""
    gpus = _telemetry_gpus(fields.data)
    if not gpus:
        return
    worked = [gpu for gpu in gpus if gpu.worked]
    idle = [gpu for gpu in gpus if gpu.worked is False]
    counted = worked if worked and idle else gpus
    names = [gpu.name for gpu in counted if gpu.name]
    if names:
        run.set("gpu_name", names[0] if len(set(names)) == 1 else ", ".join(sorted(set(names))))
    where = "telemetry_data" if "telemetry_data" in fields.data else "telemetry_stats"
    run.set("gpu_count", len(counted), where)
    if counted is worked:
        run.notes.append(
            f"{where} reports {len(gpus)} GPUs; {len(worked)} worked during the run "
            "(utilisation or memory in use above zero) and only those are counted"
        )
    watts = [gpu.watts for gpu in counted]
    if all(w is not None and w > 0 for w in watts):
        mean = sum(w for w in watts if w is not None) / len(watts)
        run.metric(
            "gpu_power", mean, f"{where} gpu_power_usage avg, per GPU ({len(watts)} counted)"
        )


class _Gpu:
    """One GPU of the telemetry: its name, whether it worked (None when the file does not
    say) and its mean board power in watts."""

    def __init__(self, name: str | None, worked: bool | None, watts: float | None) -> None:
        self.name = name
        self.worked = worked
        self.watts = watts


def _telemetry_gpus(data: Mapping[str, Any]) -> list[_Gpu]:
    endpoints = _first(data, ("telemetry_data", "endpoints"))
    found: list[_Gpu] = []
    if isinstance(endpoints, dict):
        for endpoint in list(endpoints.values())[:16]:
            gpus = endpoint.get("gpus") if isinstance(endpoint, dict) else None
            for gpu in list(gpus.values())[:64] if isinstance(gpus, dict) else []:
                if not isinstance(gpu, dict):
                    continue
                metrics = gpu.get("metrics")
                metrics = metrics if isinstance(metrics, dict) else {}
                name = gpu.get("gpu_name")
                found.append(
                    _Gpu(
                        name.strip() if isinstance(name, str) else None,
                        _worked(metrics.get("gpu_utilization"), metrics.get("gpu_memory_used")),
                        _watts(metrics.get("gpu_power_usage")),
                    )
                )
        return found
    stats = data.get("telemetry_stats")
    if not isinstance(stats, dict) or not stats:
        return found
    first = next(iter(stats.values()))
    indexes = [key for key in first if key != "unit"][:64] if isinstance(first, dict) else []

    def per_gpu(metric: str, index: str) -> Any:
        block = stats.get(metric)
        if not isinstance(block, dict) or not isinstance(block.get(index), dict):
            return None
        return {"unit": block.get("unit"), **block[index]}

    for index in indexes:
        worked = _worked(per_gpu("gpu_utilization", index), per_gpu("gpu_memory_used", index))
        found.append(_Gpu(None, worked, _watts(per_gpu("gpu_power_usage", index))))
    return found


def _worked(utilisation: Any, memory: Any) -> bool | None:
    means = [_mean(block) for block in (utilisation, memory)]
    known = [mean for mean in means if mean is not None]
    return any(mean > 0 for mean in known) if known else None


def _watts(block: Any) -> float | None:
    mean = _mean(block) if isinstance(block, dict) and block.get("unit") == "W" else None
    return mean if mean is not None and mean >= 0 else None


def _mean(block: Any) -> float | None:
    mean: Any = block.get("avg") if isinstance(block, dict) else None
    return float(mean) if _is_number(mean) else None


def _first(data: Mapping[str, Any], *paths: tuple[str, ...]) -> Any:
    for path in paths:
        node: Any = data
        for key in path:
            node = node.get(key) if isinstance(node, dict) else None
        if node is not None:
            return node
    return None


# Where each release put the run's own load: AIPerf loadgen (and phases.profiling in newer
# configs), GenAI-Perf's flat CLI arguments (2024) and perf_analyzer.stimulus (2025).
_LOAD_PATHS = (
    ("loadgen",),
    ("phases", "profiling"),
    ("perf_analyzer", "stimulus"),
    (),
)
# Sweep ranges (GenAI-Perf analyze.sweep_parameters.concurrency = {min, max}) describe many
# runs, not this one, and are never read as its load.
_NOT_THE_RUN = {"analyze", "sweep_parameters"}


def _load(data: Mapping[str, Any], key: str) -> Any:
    """The run's configured concurrency or request rate: a number at a known place, else
    the first number under `key` anywhere outside the sweep settings."""
    for path in _LOAD_PATHS:
        value = _first(data, (*path, key))
        if _is_number(value):
            return value
    for node in _walk(data, depth=5, limit=2000):
        value = node.get(key)
        if _is_number(value):
            return value
    return None


def _profiling_phase(data: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """AIPerf 0.10 on lists its phases (warmup, profiling): the one measured is named
    "profiling", else the first not excluded from the results."""
    phases = data.get("phases")
    if not isinstance(phases, list):
        return None
    measured = [p for p in phases[:50] if isinstance(p, dict) and not p.get("exclude_from_results")]
    named = [p for p in measured if p.get("name") == "profiling"]
    chosen = named or measured
    return chosen[0] if chosen else None


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _walk(data: Mapping[str, Any], depth: int, limit: int) -> Iterator[Mapping[str, Any]]:
    """The config's objects breadth first, bounded, leaving out the sweep settings."""
    level: list[Mapping[str, Any]] = [data]
    seen = 0
    for _ in range(depth):
        following: list[Mapping[str, Any]] = []
        for node in level:
            seen += 1
            if seen > limit:
                return
            yield node
            following += [
                value
                for name, value in node.items()
                if isinstance(value, dict) and name not in _NOT_THE_RUN
            ]
        level = following


def _numeric(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _positive_int(value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return int(value) if value >= 1 and value == int(value) else None
