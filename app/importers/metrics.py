"""Normalised metric keys, their units, unit conversion, and the Atlas metric each one feeds.

Definitions follow vLLM's serving benchmark, the format most other tools fork:
- ``ttft``: time to first token of a request.
- ``tpot``: per request, (end-to-end latency - TTFT) / (output tokens - 1), excluding the
  first token; statistics are across requests. AIPerf and GenAI-Perf call this quantity
  "inter_token_latency" and GuideLLM "inter_token_latency_ms"; their parsers map it here.
- ``itl``: the gaps between streamed chunks, pooled across requests (vLLM/SGLang ``itl``,
  AIPerf ``inter_chunk_latency``).
- ``e2e_latency``: client-side request latency, first byte sent to last byte received.
- ``output_throughput_per_user``: tokens per second one user sees; when a file lacks it,
  1000 / mean TPOT (the InferenceX "interactivity" definition).
"""

from __future__ import annotations

from app.seeding.schema import Unit

LATENCIES = ("ttft", "tpot", "itl", "e2e_latency")
LATENCY_STATS = ("mean", "median", "p90", "p95", "p99")

# Normalised key -> the unit every parser converts to.
METRIC_UNITS: dict[str, Unit] = {
    "output_throughput": "tok/s",
    "total_token_throughput": "tok/s",
    "input_throughput": "tok/s",
    "request_throughput": "req/s",
    "request_goodput": "req/s",
    "output_throughput_per_user": "tok/s/user",
    # llama-bench: one stream, prompt processing (pp), generation (tg) or both (pg).
    "prompt_tok_s": "tok/s",
    "generation_tok_s": "tok/s",
    "prompt_generation_tok_s": "tok/s",
    # Mean board power per GPU that worked during the run (AIPerf/GenAI-Perf DCGM telemetry).
    "gpu_power": "W",
    **{f"{name}_{stat}": "ms" for name in LATENCIES for stat in LATENCY_STATS},
}

# Normalised key -> Atlas metric slug (seed/metrics.yaml). Keys without a slug stay in the
# run's metrics for previews and sweeps but are not saved as figures of their own.
ATLAS_METRIC_SLUGS: dict[str, str] = {
    "output_throughput": "throughput",
    "total_token_throughput": "total-token-throughput",
    "request_throughput": "requests-per-second",
    "output_throughput_per_user": "throughput-per-user",
    "ttft_mean": "ttft",
    "ttft_median": "ttft-p50",
    "ttft_p95": "ttft-p95",
    "ttft_p99": "ttft-p99",
    "tpot_mean": "tpot",
    "tpot_median": "tpot-p50",
    "tpot_p95": "tpot-p95",
    "tpot_p99": "tpot-p99",
    "itl_mean": "itl",
    "itl_median": "itl-p50",
    "itl_p95": "itl-p95",
    "itl_p99": "itl-p99",
    "e2e_latency_mean": "e2e-latency",
    "e2e_latency_median": "e2e-latency-p50",
    "e2e_latency_p95": "e2e-latency-p95",
    "e2e_latency_p99": "e2e-latency-p99",
    "prompt_tok_s": "prompt-throughput",
    "generation_tok_s": "generation-speed",
}

# Unit spellings the tools write -> factor to our unit. GenAI-Perf and AIPerf write a `unit`
# beside every value and their docs call it authoritative, so values are converted by it.
UNIT_FACTORS: dict[str, dict[str, float]] = {
    "ms": {"ns": 1e-6, "us": 1e-3, "µs": 1e-3, "ms": 1.0, "s": 1e3, "sec": 1e3, "seconds": 1e3},
    "tok/s": {"tokens/sec": 1.0, "tokens/s": 1.0, "tok/s": 1.0, "tokens/second": 1.0},
    "req/s": {
        "requests/sec": 1.0,
        "requests/s": 1.0,
        "req/s": 1.0,
        "requests/second": 1.0,
        "per sec": 1.0,  # GenAI-Perf's MetricMetadata spelling for request_throughput
        "requests/min": 1 / 60,
    },
    "tok/s/user": {"tokens/sec/user": 1.0, "tokens/s/user": 1.0, "tok/s/user": 1.0},
    "tokens": {"tokens": 1.0},
    "requests": {"requests": 1.0, "count": 1.0},
    "s": {"ms": 1e-3, "s": 1.0, "sec": 1.0, "seconds": 1.0, "ns": 1e-9},
}


def convert(value: float, unit: str, target: str) -> float | None:
    """`value` written in `unit` expressed in `target`, or None for a unit we do not know."""
    factor = UNIT_FACTORS[target].get(unit.strip())
    return None if factor is None else value * factor


def known_units(target: str) -> str:
    """The spellings accepted for `target`, for error messages."""
    return ", ".join(repr(unit) for unit in UNIT_FACTORS[target])


def is_throughput(key: str) -> bool:
    """Rates (tokens or requests per second): zero or less is an impossible reading."""
    return METRIC_UNITS[key] not in ("ms", "W")
