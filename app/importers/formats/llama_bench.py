"""llama.cpp `llama-bench -o json` (an array of objects) and `-o jsonl` (one per line).

Read from ggml-org/llama.cpp tools/llama-bench/llama-bench.cpp
@0104b151c56d54143e2e3554aabe9e2b2b8dbdba (`test::get_fields`, `get_field_type`,
`json_printer`, `jsonl_printer`, `get_gpu_info`, `devices_to_string`). One object per test:
prompt processing (n_prompt > 0, n_gen = 0), generation (n_gen > 0, n_prompt = 0) or both
(-pg), optionally after n_depth tokens of context. avg_ts is tokens per second of a single
stream: there is no concurrency, no TTFT and no request count. The field set drifts between
builds, so fields are read by name and unknown ones kept.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from app.importers.fields import Fields, RunBuilder, record_fields
from app.importers.reading import Record
from app.importers.runs import ParsedRun

TOOL = "llama-bench"
_WRITERS = "llama-bench writes it in every -o json / -o jsonl test, from the 2023 builds on"
REQUIRED = {
    "avg_ts": f"the mean tokens per second of the test; {_WRITERS}",
    "n_prompt": f"the prompt tokens of the test; {_WRITERS}",
    "n_gen": f"the generated tokens of the test; {_WRITERS}",
}
# model_type is "<arch> <size> <file type>", e.g. "llama 8B Q4_K - Medium", "qwen3moe 30B.A3B
# Q8_0", "gemma3 ?B BF16" (llama_model_desc). The file type names the weights' quantisation.
_MODEL_TYPE = re.compile(r"^\S+\s+\S*B\s+(?P<ftype>.+)$")
_READ_AS_HINTS = {"model_filename", "model_type", "test_time", "cpu_info", "gpu_info", "backends"}
_SIZE_SUFFIX = {"small": "S", "medium": "M", "large": "L"}


def looks_like(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and "avg_ts" in value
        and ("build_commit" in value or "model_type" in value)
    )


def parse(name: str, records: list[Record]) -> tuple[list[ParsedRun], list[str]]:
    return [parse_run(fields) for fields in record_fields(name, records)], []


def parse_run(fields: Fields) -> ParsedRun:
    run = RunBuilder(TOOL, fields.place)
    for key, expected in REQUIRED.items():
        if fields.data.get(key) is None:
            raise fields.missing(key, expected)
    n_prompt, n_gen = fields.count("n_prompt"), fields.count("n_gen")
    depth = fields.count("n_depth") or 0
    run.set("test", test_label(n_prompt or 0, n_gen or 0, depth))
    run.set("configured_input_tokens", n_prompt or None, "n_prompt")
    run.set("configured_output_tokens", n_gen or None, "n_gen")
    if n_prompt and n_gen:
        key = "prompt_generation_tok_s"
    else:
        key = "prompt_tok_s" if n_prompt else "generation_tok_s"
    run.metric(key, fields.number("avg_ts"), "avg_ts")
    run.set("concurrency", 1)  # one stream by construction
    _build(fields, run)
    _model(fields, run)
    _hardware(fields, run)
    run.set("measured_at", _time(fields), "test_time")
    _keep(fields, run)
    return run.build()


def test_label(n_prompt: int, n_gen: int, depth: int) -> str:
    """The label llama-bench prints in its Markdown table: pp512, tg128, pp512+tg128 @ d4096."""
    parts = [f"pp{n_prompt}"] if n_prompt else []
    parts += [f"tg{n_gen}"] if n_gen else []
    label = "+".join(parts) or "none"
    return f"{label} @ d{depth}" if depth else label


def quant_from_model_type(model_type: str) -> str | None:
    """'llama 8B Q4_K - Medium' -> 'Q4_K_M'; 'x 7B IQ4_XS - 4.25 bpw' -> 'IQ4_XS'.

    Builds before 2024 wrote the file type as "mostly Q4_0" (all tensors but a few) and the
    README kept that example into 2025; "MXFP4 MoE" (gpt-oss) names MXFP4 experts."""
    match = _MODEL_TYPE.match(model_type.strip())
    if not match:
        return None
    ftype = match["ftype"].strip()
    for prefix in ("all ", "mostly "):
        ftype = ftype.removeprefix(prefix)
    ftype = ftype.removesuffix(" MoE").strip()
    base, _, detail = ftype.partition(" - ")
    suffix = _SIZE_SUFFIX.get(detail.strip().lower())
    return f"{base.strip()}_{suffix}" if suffix else base.strip()


def _build(fields: Fields, run: RunBuilder) -> None:
    number, commit = fields.count("build_number"), fields.text("build_commit")
    # Release tags are "b<build number>"; the commit is kept for builds between releases.
    version = f"b{number}" if number else commit
    run.set("engine", "llama.cpp")
    run.set("engine_version", version, "build_number" if number else "build_commit")
    run.set("tool_version", version)
    if commit:
        run.keep_extra("build_commit", commit)


def _model(fields: Fields, run: RunBuilder) -> None:
    run.set("model", fields.text("model_filename"), "model_filename")
    model_type = fields.text("model_type")
    run.set("model_description", model_type, "model_type")
    run.set("precision", quant_from_model_type(model_type) if model_type else None)
    type_k, type_v = fields.text("type_k"), fields.text("type_v")
    kv = type_k if type_v in (None, type_k) else f"{type_k}/{type_v}"
    run.set("kv_cache_dtype", kv, "type_k")


def _hardware(fields: Fields, run: RunBuilder) -> None:
    run.set("cpu_info", fields.text("cpu_info"), "cpu_info")
    run.set("compute_backends", fields.text("backends"), "backends")
    gpu_info = fields.text("gpu_info")
    if not gpu_info:
        return
    # get_gpu_info joins every GPU's description with ", ".
    names = [name.strip() for name in gpu_info.split(", ") if name.strip()]
    run.set("gpu_name", names[0] if len(set(names)) == 1 else gpu_info, "gpu_info")
    run.set("gpu_count", len(names), "gpu_info")


def _time(fields: Fields) -> datetime | None:
    text = fields.text("test_time")
    if text is None:
        return None
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise fields.error(f"is {text!r}, not an RFC 3339 time", "test_time") from None


def _keep(fields: Fields, run: RunBuilder) -> None:
    """Numbers into raw; settings (n_batch, flash_attn, devices...) into extras as text."""
    for key, value in fields.data.items():
        if isinstance(value, bool):
            run.keep_extra(key, str(value).lower())
        elif isinstance(value, int | float):
            run.keep_raw(key, fields.number(key) or 0.0)
        elif isinstance(value, str) and key not in _READ_AS_HINTS:
            run.keep_extra(key, value)
