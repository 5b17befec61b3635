"""vLLM `vllm bench serve --save-result`: one JSON object per run; `--append-result` adds more
objects to the same file, one per line.

Read from vllm-project/vllm vllm/benchmarks/serve.py @009e6d4a1cd6ba3fb2a9fc00f4ec06f5297232a1
(`main_async` builds the object, `benchmark` the results, `process_one_metric` the
`{mean,median,std,pNN}_{metric}_ms` keys) and vllm/benchmarks/lib/utils.py
@07bf28ea9e1af908c14ccedb684c8e2b8080dc31 (the PyTorch-format side file).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from app.importers.errors import ResultFileError
from app.importers.fields import Fields
from app.importers.formats import serving
from app.importers.reading import Record
from app.importers.runs import ParsedRun

TOOL = "vllm-bench"
_WRITERS = (
    "vLLM's benchmarks/benchmark_serving.py (2024-2025) and `vllm bench serve` "
    "write it in every result"
)
REQUIRED = {
    "completed": f"the count of requests that succeeded; {_WRITERS}",
    "request_throughput": f"requests per second; {_WRITERS}",
    "output_throughput": f"output tokens per second; {_WRITERS}",
}
_LATENCY_WORDS = {"ttft": "ttft", "tpot": "tpot", "itl": "itl", "e2e_latency": "e2el"}
_KNOWN_TEXT = {
    "date",
    "endpoint_type",
    "backend",
    "label",
    "model_id",
    "tokenizer_id",
    "request_rate",
}


def looks_like(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and "completed" in value
        and ("model_id" in value or "total_token_throughput" in value)
    )


def is_side_file(value: Any) -> bool:
    """A record of the PyTorch-benchmark side file vLLM writes beside the result."""
    return (
        isinstance(value, dict)
        and {"benchmark", "model", "metric"} <= value.keys()
        and isinstance(value["benchmark"], dict)
    )


def side_file_error(name: str) -> ResultFileError:
    message = (
        "this is the side file vLLM writes in the PyTorch benchmark format (*.pytorch.json), "
        "which repeats the results in another layout; it is ignored: import the main result "
        "file saved beside it (the same name without .pytorch)"
    )
    return ResultFileError(name, message, kind="side-file")


def parse(name: str, records: list[Record]) -> tuple[list[ParsedRun], list[str]]:
    return serving.parse(name, records, parse_run)


def parse_run(fields: Fields) -> tuple[ParsedRun, list[str]]:
    run, completed = serving.new_run(TOOL, fields, REQUIRED)
    run.set("failed_requests", fields.count("failed"), "failed")
    run.set("measured_at", _date(fields), "date")
    run.set("model", fields.text("model_id"), "model_id")
    run.set("backend", fields.text("backend") or fields.text("endpoint_type"), "backend")
    run.set("label", fields.text("label"), "label")
    run.set("concurrency", fields.count("max_concurrency"), "max_concurrency")
    serving.request_rate(fields, run)
    run.set("mean_input_tokens", serving.mean_length(fields, "total_input_tokens", completed))
    run.set("mean_output_tokens", serving.mean_length(fields, "total_output_tokens", completed))
    run.metric("output_throughput", fields.number("output_throughput"), "output_throughput")
    run.metric(
        "total_token_throughput", fields.number("total_token_throughput"), "total_token_throughput"
    )
    run.metric("request_throughput", fields.number("request_throughput"), "request_throughput")
    run.metric("request_goodput", fields.number("request_goodput"), "request_goodput")
    serving.read_latencies(fields, run, _LATENCY_WORDS)
    dropped = serving.keep_scalars(fields, run, _KNOWN_TEXT)
    serving.metadata_hints(run, dict(run.extras))
    return run.build(), dropped


def _date(fields: Fields) -> datetime | None:
    """`date` is local time of the benchmark machine, "%Y%m%d-%H%M%S", no time zone."""
    text = fields.text("date")
    if text is None:
        return None
    try:
        return datetime.strptime(text, "%Y%m%d-%H%M%S")
    except ValueError:
        raise fields.error(f"is {text!r}, not a date written as YYYYMMDD-HHMMSS", "date") from None
