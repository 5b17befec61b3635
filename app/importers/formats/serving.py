"""What vLLM's serving benchmark and its forks (SGLang's bench_serving) write alike."""

from __future__ import annotations

import math
from collections.abc import Callable

from app.importers.fields import Fields, RunBuilder, record_fields
from app.importers.metrics import LATENCY_STATS
from app.importers.reading import Record
from app.importers.runs import ParsedRun

# Metadata keys people pass to `vllm bench serve --metadata k=v` (merged into the file's top
# level as strings) and GuideLLM labels, read as hints. The file has no standard for these.
_METADATA_HINTS: dict[str, tuple[str, ...]] = {
    "gpu_name": ("gpu", "gpu_name", "gpu_type", "hardware", "accelerator"),
    "gpu_count": ("gpus", "gpu_count", "num_gpus", "n_gpus"),
    "tensor_parallel": ("tp", "tp_size", "tensor_parallel_size", "tensor_parallel"),
    "precision": ("precision", "quantization", "quant", "dtype"),
    "engine": ("engine", "server"),
    "engine_version": ("engine_version", "server_version", "vllm_version", "sglang_version"),
    "dataset": ("dataset", "dataset_name"),
}
_WHOLE_NUMBER_HINTS = ("gpu_count", "tensor_parallel")


def parse(
    name: str, records: list[Record], parse_run: Callable[[Fields], tuple[ParsedRun, list[str]]]
) -> tuple[list[ParsedRun], list[str]]:
    """One run per record, read by `parse_run`; a note names the per-request arrays left out."""
    runs, dropped = [], set()
    for fields in record_fields(name, records):
        run, arrays = parse_run(fields)
        runs.append(run)
        dropped.update(arrays)
    notes = [f"per-request arrays left out: {', '.join(sorted(dropped))}"] if dropped else []
    return runs, notes


def new_run(tool: str, fields: Fields, required: dict[str, str]) -> tuple[RunBuilder, int | None]:
    """A run of `tool` once its `required` keys are there (else an error naming the key and
    what was expected of it), with its completed requests counted as successful."""
    run = RunBuilder(tool, fields.place)
    for key, expected in required.items():
        if fields.data.get(key) is None:
            raise fields.missing(key, expected)
    completed = fields.count("completed")
    run.set("successful_requests", completed, "completed")
    return run, completed


def derive_request_rate(fields: Fields, run: RunBuilder, completed: int | None) -> None:
    """Requests per second as completed ÷ duration, for files that do not write it."""
    duration = fields.number("duration")
    if completed and duration:
        run.derive(
            "request_throughput",
            completed / duration,
            "completed / duration",
            "request throughput derived as completed / duration (the file does not write it)",
        )


def read_latencies(fields: Fields, run: RunBuilder, words: dict[str, str]) -> None:
    """`{stat}_{word}_ms` keys (mean_ttft_ms, p99_itl_ms...) for each normalised latency."""
    for name, word in words.items():
        for stat in LATENCY_STATS:
            key = f"{stat}_{word}_ms"
            run.metric(f"{name}_{stat}", fields.number(key), key)


def request_rate(fields: Fields, run: RunBuilder) -> None:
    """`request_rate`: a number, inf (JSON Infinity or the string "inf"), or "trace"."""
    value = fields.data.get("request_rate")
    if isinstance(value, str) and value.strip().lower() in ("inf", "infinity"):
        value = math.inf
    if isinstance(value, float) and math.isinf(value) and value > 0:
        run.set("request_rate_unlimited", True)
        run.notes.append("request rate unlimited (inf): every request was sent at once")
        return
    if value == "trace":
        run.keep_extra("request_rate", "trace")
        run.notes.append("requests followed a trace's timestamps, not a fixed rate")
        return
    run.set("request_rate", fields.number("request_rate"), "request_rate")


def mean_length(fields: Fields, total_key: str, completed: int | None) -> float | None:
    total = fields.count(total_key)
    return None if total is None or not completed else total / completed


def keep_scalars(fields: Fields, run: RunBuilder, known_text: set[str]) -> list[str]:
    """Top-level numbers into raw, other text into extras; returns the arrays left out."""
    dropped = []
    for key, value in fields.data.items():
        if isinstance(value, bool) or value is None:
            continue
        if isinstance(value, int | float):
            if key == "request_rate" and math.isinf(value):
                continue  # Infinity is how SGLang writes "no rate limit"; read by request_rate()
            # Any other NaN or infinity is refused here, naming the field.
            run.keep_raw(key, fields.number(key) or 0.0)
        elif isinstance(value, str):
            if key not in known_text:
                run.keep_extra(key, value)
        elif isinstance(value, list) and value:
            dropped.append(key)
    return dropped


def metadata_hints(run: RunBuilder, metadata: dict[str, str]) -> None:
    """Set hints from free-form metadata, quietly skipping values that do not fit."""
    lowered = {key.lower(): value for key, value in metadata.items()}
    for name, keys in _METADATA_HINTS.items():
        for key in keys:
            value = lowered.get(key, "").strip()
            if not value or name in run.context:
                continue
            if name in _WHOLE_NUMBER_HINTS:
                if value.isdigit() and int(value) > 0:
                    run.set(name, int(value), key)
            else:
                run.set(name, value, key)
