"""Confirmed imports for the sweep tests: real result files, saved the way the service does."""

import json
from pathlib import Path
from typing import Any

from sqlmodel import Session

from app.accounts import users as accounts
from app.accounts.models import Role
from app.db import make_engine, writer
from app.writes import imports

FIXTURES = Path(__file__).parents[1] / "imports" / "fixtures"
VLLM_SWEEP = FIXTURES / "vllm-bench" / "sweep-append-result.json"  # c = 1, 4, 16, 64
VLLM_8QPS = FIXTURES / "vllm-bench" / "openai-8.0qps-Llama-3.1-8B-Instruct-20260302-141503.json"
GUIDELLM = FIXTURES / "guidellm" / "concurrency-sweep-benchmarks.json"  # vLLM on one L40S
SGLANG = FIXTURES / "sglang-bench" / "sglang-oai_0304_640_2048_256.jsonl"  # TP 2
LLAMA_BENCH = FIXTURES / "llama-bench" / "rtx4090-llama3.1-8b-q4km.json"
AIPERF = FIXTURES / "aiperf" / "profile_export_aiperf.json"  # one run, per-user in the file
H100 = "NVIDIA H100 SXM5 80GB"
# What the uploader says where a file names a model (or GPU) the vocabulary does not list.
MODELS = {
    VLLM_SWEEP: "llama-3.1-8b",  # meta-llama/Llama-3.1-8B-Instruct
    VLLM_8QPS: "llama-3.1-8b",
    LLAMA_BENCH: "llama-3.1-8b",  # /models/Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf
    GUIDELLM: "unlisted-model",  # Qwen/Qwen2.5-7B-Instruct
    SGLANG: "unlisted-model",  # Qwen/Qwen3-32B-FP8
    AIPERF: "unlisted-model",  # deepseek-ai/DeepSeek-R1-Distill-Llama-70B
}
HARDWARE = {GUIDELLM: "unlisted-hardware"}  # NVIDIA L40S


def import_file(
    url: str, path: Path, *, name: str | None = None, data: bytes | None = None, **context: Any
) -> str:
    """Preview and confirm `path` (or `data` under `name`) as eddie; the import's source slug.

    A model or GPU the file names and the vocabulary lacks is given as the uploader would."""
    if path in MODELS:
        context.setdefault("model", MODELS[path])
    if path in HARDWARE:
        context.setdefault("hardware", HARDWARE[path])
    engine = make_engine(url)
    try:
        with Session(writer(engine)) as session, session.begin():
            user = accounts.get_user(session, "eddie")
            assert user is not None and user.id is not None
            who = accounts.SignedIn(user.id, user.name, Role(user.role), "test", "")
            preview = imports.preview_import(
                session,
                who,
                name or path.name,
                data or path.read_bytes(),
                imports.ImportContext(**context),
            )
            assert preview.ready, preview.document["problems"]
            imports.confirm_import(session, who, preview.key, "Our team")
            return f"import-{preview.key}"
    finally:
        engine.dispose()


def faster_vllm_sweep(factor: float) -> bytes:
    """The vLLM sweep with every throughput times `factor` and every latency divided by it."""
    runs = [json.loads(line) for line in VLLM_SWEEP.read_text().splitlines() if line.strip()]
    for run in runs:
        for key, value in list(run.items()):
            if not isinstance(value, float):
                continue
            if "throughput" in key:
                run[key] = value * factor
            elif key.endswith("_ms"):
                run[key] = value / factor
    # --append-result writes one object per line.
    return "\n".join(json.dumps(run) for run in runs).encode() + b"\n"
