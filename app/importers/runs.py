"""What a parser returns: one ParsedRun per benchmark run, gathered in a ParsedFile.

Everything except `metrics` is a *hint* taken from the file as written (a model path, a GPU
name string, a quantisation label): the import service maps hints to the Atlas vocabulary
and asks the user for what is missing. Nothing here is guessed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from types import MappingProxyType

from app.importers.metrics import ATLAS_METRIC_SLUGS, METRIC_UNITS
from app.seeding.schema import Unit

TOOLS: dict[str, str] = {
    "vllm-bench": "vLLM bench serve (--save-result JSON)",
    "sglang-bench": "SGLang bench_serving (JSONL)",
    "llama-bench": "llama.cpp llama-bench (-o json / -o jsonl)",
    "genai-perf": "NVIDIA GenAI-Perf (profile_export_genai_perf.json)",
    "aiperf": "NVIDIA AIPerf (profile_export_aiperf.json)",
    "guidellm": "GuideLLM (benchmarks.json)",
    "llmd-report": "llm-d Benchmark Report v0.2 (JSON or YAML)",
}


def _frozen(mapping: Mapping[str, object] | None) -> Mapping[str, object]:
    return MappingProxyType(dict(mapping or {}))


@dataclass(frozen=True)
class ParsedRun:
    """One benchmark run read from a result file, metrics in normalised units."""

    tool: str  # a key of TOOLS
    index: int  # 0-based position among the file's runs
    source: str  # where in the file, for messages and previews: "line 3", "[2]", "benchmarks[4]"
    line: int | None = None  # 1-based line the run starts on, when the file is line-based
    tool_version: str | None = None
    measured_at: datetime | None = None  # naive when the tool writes local time (vLLM `date`)
    label: str | None = None  # the user's own tag for the run (vLLM label, SGLang tag)
    # Model and engine, as written.
    model: str | None = None  # id or path: "meta-llama/Llama-3.1-8B-Instruct", "./qwen.gguf"
    model_description: str | None = None  # llama-bench model_type: "llama 8B Q4_K - Medium"
    backend: str | None = None  # the client's backend / endpoint setting: "openai-chat", "sglang"
    engine: str | None = None  # the server, only when the file establishes it: "sglang"
    engine_version: str | None = None  # SGLang server_info.version, llama.cpp "b6123"
    # Hardware and precision hints.
    gpu_name: str | None = None
    gpu_count: int | None = None
    tensor_parallel: int | None = None
    cpu_info: str | None = None
    compute_backends: str | None = None  # llama.cpp "CUDA", "Metal,BLAS"
    precision: str | None = None  # weights: "Q4_K_M", "fp8", "bfloat16"
    kv_cache_dtype: str | None = None
    # Load: the configured limit, never a measured average (that is measured_concurrency).
    concurrency: int | None = None
    measured_concurrency: float | None = None
    request_rate: float | None = None  # req/s; None when unlimited or not rate-driven
    request_rate_unlimited: bool = False  # the tool sent every request at once (rate inf)
    # Requests and workload.
    successful_requests: int | None = None
    failed_requests: int | None = None
    mean_input_tokens: float | None = None  # measured
    mean_output_tokens: float | None = None
    configured_input_tokens: int | None = None  # what the tool was asked for, when given
    configured_output_tokens: int | None = None
    dataset: str | None = None
    test: str | None = None  # llama-bench test label: "pp512", "tg128", "pp512+tg128 @ d4096"
    # Results.
    metrics: Mapping[str, float] = field(default_factory=dict)  # key of METRIC_UNITS -> value
    metric_sources: Mapping[str, str] = field(default_factory=dict)  # key -> field in the run
    derived: tuple[str, ...] = ()  # metric keys we computed rather than read
    raw: Mapping[str, float] = field(default_factory=dict)  # the file's own numbers, bounded
    extras: Mapping[str, str] = field(default_factory=dict)  # other text: metadata, settings
    notes: tuple[str, ...] = ()  # what the parser left out or derived, in plain words

    def __post_init__(self) -> None:
        # Read-only views: a run is shared between preview and confirm and must not drift.
        for name in ("metrics", "metric_sources", "raw", "extras"):
            object.__setattr__(self, name, _frozen(getattr(self, name)))

    def unit(self, key: str) -> str:
        """The unit of metrics[key]."""
        return METRIC_UNITS[key]


@dataclass(frozen=True)
class ParsedFile:
    """The runs of one file, in file order."""

    name: str
    format: str  # a key of TOOLS: the detected or requested format
    runs: tuple[ParsedRun, ...]
    notes: tuple[str, ...] = ()  # file-level remarks, e.g. per-request arrays left out

    @property
    def format_title(self) -> str:
        return TOOLS[self.format]


@dataclass(frozen=True)
class AtlasFigure:
    """One value of a run as the Atlas stores it: metric slug, value, unit."""

    metric: str  # slug in seed/metrics.yaml
    value: float
    unit: Unit
    key: str  # the normalised key it came from
    derived: bool


def atlas_figures(run: ParsedRun) -> list[AtlasFigure]:
    """The run's metrics that have an Atlas metric, in METRIC_UNITS order."""
    return [
        AtlasFigure(ATLAS_METRIC_SLUGS[key], run.metrics[key], unit, key, key in run.derived)
        for key, unit in METRIC_UNITS.items()
        if key in run.metrics and key in ATLAS_METRIC_SLUGS
    ]
