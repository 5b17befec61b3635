"""/fit, /fit/panel and /api/v1/fit: what a "Will it fit?" question asks."""

from typing import Annotated, Literal

from pydantic import Field

from app.params.reader import QueryModel, encode

DEFAULT_CONTEXT = 8192

# The KV cache types the arithmetic knows (app/decision/fit.py KV_BYTES, which a test keeps
# equal): in the schema, so a client sees them and no other spelling is a valid request.
KvCacheDtype = Literal["bf16", "fp16", "auto", "fp8", "fp8_e4m3", "fp8_e5m2", "q8_0", "q4_0"]


class FitParams(QueryModel):
    model: Annotated[
        str,
        Field(
            description="the model as typed: a slug, name, Hugging Face id, GGUF file name, "
            "Ollama tag or cache folder (GET /api/v1/models)",
            max_length=300,
        ),
    ] = ""
    precision: Annotated[
        str | None,
        Field(
            description="weight precision (BF16, FP8, MXFP4, AWQ, GPTQ, INT4, NVFP4 or any GGUF "
            "type such as Q4_K_M); default: what the name implies, else the checkpoint's own",
            max_length=40,
        ),
    ] = None
    kv_cache_dtype: Annotated[
        KvCacheDtype | None,
        Field(
            description="KV cache type, as vLLM and llama.cpp spell it; default: bf16, or "
            "the server's own"
        ),
    ] = None
    hardware: Annotated[
        str | None,
        Field(
            description="the accelerator as typed (GET /api/v1/hardware); without it the answer "
            "is the memory needed and `fits` is null",
            max_length=200,
        ),
    ] = None
    gpus: Annotated[
        int, Field(description="GPUs the model is split over (tensor parallel)", ge=1, le=64)
    ] = 1
    context: Annotated[int, Field(description="tokens per sequence", ge=1, le=100_000_000)] = (
        DEFAULT_CONTEXT
    )
    concurrency: Annotated[int, Field(description="sequences held at once", ge=1, le=1_000_000)] = 1
    memory_utilization: Annotated[
        float | None,
        Field(
            description="share of each GPU's memory the server may take (0.9 by default)",
            gt=0,
            le=1,
        ),
    ] = None
    system: Annotated[
        str | None,
        Field(
            description="apply this server's own accounting: vllm, sglang, llama-cpp, ollama "
            "(another system slug: the general arithmetic, said so)",
            max_length=100,
        ),
    ] = None

    def query_string(self, **changes: object) -> str:
        """The canonical query: only what differs from the defaults, in a fixed order."""
        p = self.replace(**changes) if changes else self
        pairs: list[tuple[str, str]] = []
        for name in ("model", "precision", "kv_cache_dtype", "hardware"):
            value = getattr(p, name)
            if value:
                pairs.append((name, value))
        if p.gpus != 1:
            pairs.append(("gpus", str(p.gpus)))
        if p.context != DEFAULT_CONTEXT:
            pairs.append(("context", str(p.context)))
        if p.concurrency != 1:
            pairs.append(("concurrency", str(p.concurrency)))
        if p.memory_utilization is not None:
            pairs.append(("memory_utilization", f"{p.memory_utilization:g}"))
        if p.system:
            pairs.append(("system", p.system))
        return encode(pairs)


class FitApiParams(FitParams):
    """GET /api/v1/fit: as /fit, but the model must be given (the page may start empty)."""

    model: Annotated[
        str,
        Field(
            description="the model as typed: a slug, name, Hugging Face id, GGUF file name, "
            "Ollama tag or cache folder (GET /api/v1/models)",
            min_length=1,
            max_length=300,
            pattern=r"\S",
        ),
    ] = ""
