"""A team run as an llm-d Benchmark Report, schema version 0.2, so results move between the
Atlas and llm-d's tools (llm-d-benchmark, Prism). Pure: a run's setup and metrics in, one
report (a JSON-ready dict) out. The importer reads these reports back
(app/importers/formats/llmd_report.py); tests/imports/test_llmd_report.py checks both ways
and the schema's required fields.

Schema: llm-d/llm-d-benchmark llmdbenchmark/analysis/benchmark_report/br_v0_2_json_schema.json
@8bc9f1ddd873a24f1657d6cca2e0d0fb6947dd36. What the Atlas does not know is left out rather
than made up: a block whose required fields we lack (the load without its input length, a
statistic without a mean) is not written.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from app.queries.imports import SavedRun

VERSION = "0.2"
_LATENCIES = {  # our latency name -> the report's
    "ttft": "time_to_first_token",
    "tpot": "time_per_output_token",
    "itl": "inter_token_latency",
    "e2e_latency": "request_latency",
}
_RATES = {  # our key -> (the report's, its units)
    "output_throughput": ("output_token_rate", "tokens/s"),
    "total_token_throughput": ("total_token_rate", "tokens/s"),
    "input_throughput": ("input_token_rate", "tokens/s"),
    "request_throughput": ("request_rate", "queries/s"),
}
_STATS = {"mean": "mean", "median": "p50", "p90": "p90", "p95": "p95", "p99": "p99"}


def llmd_reports(runs: Sequence[SavedRun]) -> list[dict[str, Any]]:
    """A saved import's runs (app/queries/imports.py saved_runs) as reports, in order."""
    # A saved import keeps each run's setup, normalised metrics and the file's own numbers;
    # request counts are not among them, so the reports leave `requests` out.
    return [
        llmd_report(
            r.setup,
            r.metrics,
            uid=r.uid,
            eid=r.eid,
            description=r.description,
            load_tool=r.load_tool,
        )
        for r in runs
    ]


def llmd_report(
    setup: Mapping[str, Any],
    metrics: Mapping[str, float],
    *,
    uid: str,
    eid: str | None = None,
    description: str | None = None,
    load_tool: str = "unknown",
    load_tool_version: str = "unknown",
    requests: tuple[int, int] | None = None,  # (successful, failed), when known
) -> dict[str, Any]:
    """One report for one run: `setup` as an ImportRun keeps it (app/writes/documents.py
    RunSetup), `metrics` its normalised metrics (ms, tok/s, req/s)."""
    run: dict[str, Any] = {"uid": uid, "eid": eid, "description": description}
    if setup.get("date"):
        run["keywords"] = [f"date={setup['date']}"]
    aggregate: dict[str, Any] = {}
    if requests is not None:
        ok, failed = requests
        aggregate["requests"] = {"total": ok + failed, "failures": failed}
    throughput = {
        name: {"units": units, "mean": metrics[key]}
        for key, (name, units) in _RATES.items()
        if metrics.get(key) is not None
    }
    if throughput:
        aggregate["throughput"] = throughput
    latency = {}
    for ours, theirs in _LATENCIES.items():
        if metrics.get(f"{ours}_mean") is None:
            continue  # the schema requires a mean
        block: dict[str, Any] = {"units": "ms"}
        for stat, name in _STATS.items():
            if metrics.get(f"{ours}_{stat}") is not None:
                block[name] = metrics[f"{ours}_{stat}"]
        latency[theirs] = block
    if latency:
        aggregate["latency"] = latency
    report: dict[str, Any] = {
        "version": VERSION,
        "run": {k: v for k, v in run.items() if v is not None},
        "scenario": _scenario(setup, load_tool, load_tool_version),
        "results": {"request_performance": {"aggregate": aggregate}},
    }
    return report


def _scenario(setup: Mapping[str, Any], load_tool: str, load_tool_version: str) -> dict[str, Any]:
    engine: dict[str, Any] = {
        "kind": "inference_engine",
        "tool": setup.get("system") or "unknown",
        "tool_version": setup.get("system_version") or "unknown",
        "role": "replica",
        "replicas": 1,
        "model": {"name": setup.get("model_in_file") or setup.get("model") or "unknown"},
        "accelerator": {
            "model": setup.get("hardware_in_file") or setup.get("hardware") or "unknown",
            "count": setup.get("gpus") or 1,
            "parallelism": {},
        },
    }
    scenario: dict[str, Any] = {
        "stack": [
            {
                "metadata": {"label": f"{engine['tool']}-0", "cfg_id": _cfg_id(engine)},
                "standardized": engine,
                "native": {"args": {"precision": setup["precision"]}}
                if setup.get("precision")
                else {},
            }
        ]
    }
    if setup.get("input_tokens"):
        load: dict[str, Any] = {
            "tool": load_tool,
            "tool_version": load_tool_version,
            "source": "unknown",
            "input_seq_len": {"distribution": "other", "value": setup["input_tokens"]},
        }
        if setup.get("output_tokens"):
            load["output_seq_len"] = {"distribution": "other", "value": setup["output_tokens"]}
        if setup.get("concurrency"):
            load["concurrency"] = setup["concurrency"]
        if setup.get("request_rate"):
            load["rate_qps"] = setup["request_rate"]
        scenario["load"] = {
            "metadata": {"cfg_id": _cfg_id(load)},
            "standardized": load,
            "native": {},
        }
    return scenario


def _cfg_id(config: Mapping[str, Any]) -> str:
    """A hash of a component's configuration, as llm-d-benchmark keys components."""
    text = json.dumps(config, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:32]
