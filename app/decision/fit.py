"""Will it fit: the memory a model needs on N GPUs at a context and concurrency. Pure.

Every figure is computed, never stored, and comes with its arithmetic (`basis`) and every
default it filled in (`assumed`), so a person can check it by hand. Decimal GB (10^9 bytes)
throughout. The method, per GPU and never on pooled memory (docs/fit.md):

- weights: parameters × bits of the precision, split evenly over the tensor-parallel GPUs;
- KV cache per token: Σ over the layers that keep one of 2 × KV heads × head dim × bytes
  (K and V; V's own head dim where it differs), an MLA layer its latent (kv_lora_rank +
  qk_rope_head_dim) once; a sliding-window layer holds at most its window of tokens; linear
  attention and state-space layers keep a fixed state instead (not counted: no config fact
  gives its size, which `assumed` says);
- per GPU: KV heads ÷ TP (at least one whole head on each GPU: beyond that they are
  replicated), an MLA latent whole on every GPU;
- plus a stated reserve for activations and runtime buffers; all against the memory the
  device reports × the share the server may take.
"""

import math
from dataclasses import dataclass, field, replace

from app.decision.fit_weights import Layout, weight_parts

GB = 1_000_000_000
BF16_BYTES = 2

# Bytes per value of the KV cache by its dtype (--kv-cache-dtype in vLLM, -ctk/-ctv in llama.cpp;
# q8_0 is 34 bytes per 32 values and q4_0 18 per 32: ggml's block sizes, in the gguf package).
KV_BYTES = {
    "bf16": 2.0,
    "fp16": 2.0,
    "auto": 2.0,
    "fp8": 1.0,
    "fp8_e4m3": 1.0,
    "fp8_e5m2": 1.0,
    "q8_0": 34 / 32,
    "q4_0": 18 / 32,
}


@dataclass(frozen=True)
class ModelShape:
    """The config facts the arithmetic reads (seed/models.yaml `config`, from config.json)."""

    name: str
    parameters_b: float
    layers: int
    attention_heads: int
    kv_heads: int
    head_dim: int
    context: int
    v_head_dim: int | None = None
    kv_lora_rank: int | None = None  # MLA
    qk_rope_head_dim: int | None = None  # MLA
    sliding_window: int | None = None
    sliding_window_layers: int = 0
    linear_attention_layers: int = 0
    # Layers that keep a full KV cache, where the config says (hybrids); else the rest.
    full_attention_layers: int | None = None
    source: str | None = None  # where the facts were read (the config.json page)
    # For the parts a quantised checkpoint keeps in BF16 (app/decision/fit_weights.py).
    hidden_size: int | None = None
    vocab_size: int | None = None
    experts: int | None = None

    @property
    def is_mla(self) -> bool:
        return self.kv_lora_rank is not None

    @property
    def full_layers(self) -> int:
        if self.full_attention_layers is not None:
            return self.full_attention_layers
        return self.layers - self.sliding_window_layers - self.linear_attention_layers


@dataclass(frozen=True)
class Device:
    """An accelerator as it reports itself: `memory_gb` is what nvidia-smi or the runtime
    shows (an "80GB" H100 shows 85.0 GB), `share` what a server may take of it (unified
    memory: the part the GPU may use)."""

    name: str
    memory_gb: float
    share: float = 1.0
    source: str | None = None


@dataclass(frozen=True)
class FitAsk:
    """What is asked: the precision's bits per weight, GPUs, tokens per sequence, sequences."""

    bits_per_weight: float
    precision: str
    gpus: int = 1
    context: int = 8192
    concurrency: int = 1
    kv_cache_dtype: str = "bf16"
    memory_utilization: float = 0.9
    reserve_gb: float = 1.0  # activations and runtime buffers, per GPU
    # Tokens a sliding-window layer holds beyond its window (vLLM: the tokens one step may
    # schedule, as a chunk of prefill lands before the window slides; llama.cpp: the ubatch).
    window_extra_tokens: int = 0
    # Memory a server leaves free on each GPU whatever the share (llama.cpp's --fit margin).
    margin_gb: float = 0.0


@dataclass
class PerGpu:
    weights_gb: float
    kv_gb: float
    overhead_gb: float
    total_gb: float
    usable_gb: float | None


@dataclass
class Fit:
    """The answer; totals are across the GPUs, `per_gpu` one GPU's share."""

    weights_gb: float
    kv_bytes_per_token: int
    kv_gb: float
    overhead_gb: float
    total_gb: float
    usable_gb: float | None
    per_gpu: PerGpu
    fits: bool | None
    min_gpus: int | None
    max_concurrency: int | None
    max_context: int | None
    assumed: list[str] = field(default_factory=list)
    basis: list[str] = field(default_factory=list)
    # Why tensor parallelism cannot split the model over the GPUs asked (then fits is False,
    # with the counts that work and what else runs on such a count), or None.
    split_problem: str | None = None


class FitError(ValueError):
    """An ask the arithmetic cannot answer; `field` names the input at fault."""

    def __init__(self, field_name: str, message: str) -> None:
        super().__init__(message)
        self.field = field_name


def weight_bytes(model: ModelShape, ask: FitAsk) -> tuple[float, list[str]]:
    """All the weights in bytes, counted per part where the precision keeps some parts in
    BF16, and the basis lines of that split."""
    layout = Layout(
        parameters=model.parameters_b * 1e9,
        layers=model.layers,
        hidden_size=model.hidden_size,
        vocab_size=model.vocab_size,
        attention_heads=model.attention_heads,
        kv_heads=model.kv_heads,
        head_dim=model.head_dim,
        experts=model.experts,
        source=model.source,
    )
    parts, lines = weight_parts(layout, ask.precision, ask.bits_per_weight)
    return sum(p.bytes for p in parts), lines


def kv_layer_bytes(model: ModelShape, dtype_bytes: float) -> float:
    """One token's KV in one attention layer, one copy (not yet split over GPUs)."""
    if model.is_mla:
        return ((model.kv_lora_rank or 0) + (model.qk_rope_head_dim or 0)) * dtype_bytes
    v_dim = model.v_head_dim or model.head_dim
    return model.kv_heads * (model.head_dim + v_dim) * dtype_bytes


def kv_bytes_per_token(model: ModelShape, dtype_bytes: float = BF16_BYTES) -> int:
    """The model's logical KV per token: every layer that keeps one, one copy."""
    layers = model.full_layers + model.sliding_window_layers
    return round(layers * kv_layer_bytes(model, dtype_bytes))


def kv_tokens_per_layer(model: ModelShape, context: int, extra: int = 0) -> tuple[int, int]:
    """(tokens a full layer holds, tokens a sliding-window layer holds) for one sequence;
    `extra` is what the server keeps beyond the window (FitAsk.window_extra_tokens)."""
    if not model.sliding_window:
        return context, context
    return context, min(context, model.sliding_window + extra)


def tp_share(model: ModelShape, tp: int) -> float:
    """The fraction of one layer's KV each GPU holds at tensor-parallel degree `tp`."""
    if model.is_mla:
        return 1.0  # one latent per token, whole on every GPU
    if tp <= model.kv_heads:
        return 1 / tp
    return 1 / model.kv_heads  # one whole head per GPU, replicated beyond kv_heads


def tp_problem(model: ModelShape, tp: int) -> str | None:
    """Why `tp` GPUs cannot split this model's attention evenly, or None."""
    if model.attention_heads % tp:
        return f"{tp} does not divide the {model.attention_heads} attention heads"
    if not model.is_mla and tp <= model.kv_heads and model.kv_heads % tp:
        return f"{tp} does not divide the {model.kv_heads} KV heads"
    if not model.is_mla and tp > model.kv_heads and tp % model.kv_heads:
        return f"{tp} is not a multiple of the {model.kv_heads} KV heads it replicates"
    return None


# Servers that split a model by layers (pipeline parallelism), which takes any GPU count.
PIPELINE_SOURCES = (
    "llama.cpp's default --split-mode layer is pipeline parallelism, each GPU a contiguous "
    "slice of layers and their KV cache (docs/multi-gpu.md, https://github.com/ggml-org/"
    "llama.cpp/blob/5815cb840bfe5be1895c6ca6afcf9ce05d8b486f/docs/multi-gpu.md); vLLM's "
    "docs give --tensor-parallel-size 1 with --pipeline-parallel-size set to the GPU count "
    "for a count that does not split evenly (docs/serving/parallelism_scaling.md, "
    "https://github.com/vllm-project/vllm/blob/096bd6a4a109b13698ab85782cc1a3630aa002ee/"
    "docs/serving/parallelism_scaling.md)"
)


def split_problem(model: ModelShape, tp: int) -> str | None:
    """Why `tp` GPUs cannot hold this model by tensor parallelism, the nearest counts that
    can, and what runs on such a count instead; None when they can."""
    problem = tp_problem(model, tp)
    if problem is None:
        return None
    counts = valid_tp(model)
    below = [t for t in counts if t < tp]
    above = [t for t in counts if t > tp]
    nearest = " and ".join(str(t) for t in (below[-1:] + above[:1]))
    return (
        f"{tp} GPUs cannot split {model.name} by tensor parallelism: {problem} (each GPU "
        f"must hold whole heads); the nearest counts that can are {nearest} (all: "
        f"{', '.join(str(t) for t in counts)}). Pipeline parallelism splits the layers "
        f"instead and takes any count: {PIPELINE_SOURCES}"
    )


def per_gpu_kv_bytes(model: ModelShape, ask: FitAsk, tp: int, context: int) -> float:
    """One GPU's KV cache for `ask.concurrency` sequences of `context` tokens."""
    dtype_bytes = kv_dtype_bytes(ask.kv_cache_dtype)
    full_tokens, window_tokens = kv_tokens_per_layer(model, context, ask.window_extra_tokens)
    # A count tensor parallelism cannot use is shown split by layers (pipeline parallelism).
    share = 1 / tp if tp_problem(model, tp) else tp_share(model, tp)
    per_layer = kv_layer_bytes(model, dtype_bytes) * share
    tokens = model.full_layers * full_tokens + model.sliding_window_layers * window_tokens
    return per_layer * tokens * ask.concurrency


def kv_dtype_bytes(name: str) -> float:
    try:
        return KV_BYTES[name.lower()]
    except KeyError:
        raise FitError(
            "kv_cache_dtype", f"{name!r} is not a KV cache type; allowed: {', '.join(KV_BYTES)}"
        ) from None


MAX_TP = 64


def fit(model: ModelShape, ask: FitAsk, device: Device | None = None) -> Fit:
    """The memory `model` needs for `ask` on `ask.gpus` GPUs, and whether `device` holds it."""
    _check(model, ask)
    tp = ask.gpus
    weights, weight_lines = weight_bytes(model, ask)
    kv_gpu = per_gpu_kv_bytes(model, ask, tp, ask.context)
    usable = usable_gb(device, ask) if device else None
    unsplit = split_problem(model, tp)
    per_gpu = PerGpu(
        weights_gb=weights / tp / GB,
        kv_gb=kv_gpu / GB,
        overhead_gb=ask.reserve_gb,
        total_gb=(weights / tp + kv_gpu) / GB + ask.reserve_gb,
        usable_gb=usable,
    )
    answer = Fit(
        weights_gb=weights / GB,
        kv_bytes_per_token=kv_bytes_per_token(model, kv_dtype_bytes(ask.kv_cache_dtype)),
        kv_gb=kv_gpu * tp / GB,
        overhead_gb=ask.reserve_gb * tp,
        total_gb=per_gpu.total_gb * tp,
        usable_gb=usable * tp if usable is not None else None,
        per_gpu=per_gpu,
        fits=False if unsplit else None if usable is None else per_gpu.total_gb <= usable,
        min_gpus=min_gpus(model, ask, device),
        max_concurrency=None,
        max_context=None,
        split_problem=unsplit,
    )
    if usable is not None and not unsplit:
        answer.max_concurrency = _max_concurrency(model, ask, tp, usable, weights)
        answer.max_context = _max_context(model, ask, tp, usable, weights)
    answer.assumed = _assumed(model, ask, device)
    answer.basis = _basis(model, ask, device, answer, weight_lines)
    return answer


def usable_gb(device: Device, ask: FitAsk) -> float:
    """What one GPU gives the server: reported memory × the GPU's share × the server's share,
    less any margin the server keeps free."""
    return max(0.0, device.memory_gb * device.share * ask.memory_utilization - ask.margin_gb)


def _check(model: ModelShape, ask: FitAsk) -> None:
    for name, value in (
        ("gpus", ask.gpus),
        ("context", ask.context),
        ("concurrency", ask.concurrency),
    ):
        if value < 1:
            raise FitError(name, f"{name} must be a whole number of at least 1, not {value}")
    if ask.context > model.context:
        raise FitError(
            "context",
            f"{ask.context:,} tokens is beyond {model.name}'s native context of "
            f"{model.context:,}; allowed: 1 to {model.context:,}",
        )
    if not 0 < ask.memory_utilization <= 1:
        raise FitError("memory_utilization", "memory_utilization must be above 0 and at most 1")
    if ask.gpus > MAX_TP:
        raise FitError("gpus", f"at most {MAX_TP} GPUs split one model here; {ask.gpus} asked")
    kv_dtype_bytes(ask.kv_cache_dtype)


def valid_tp(model: ModelShape) -> list[int]:
    """The GPU counts that split the attention heads evenly, up to MAX_TP."""
    return [t for t in range(1, MAX_TP + 1) if tp_problem(model, t) is None]


def _needed(
    model: ModelShape, ask: FitAsk, tp: int, weights: float, context: int, concurrency: int
) -> float:
    kv = per_gpu_kv_bytes(model, replace(ask, concurrency=concurrency), tp, context)
    return (weights / tp + kv) / GB + ask.reserve_gb


def min_gpus(model: ModelShape, ask: FitAsk, device: Device | None) -> int | None:
    """The fewest GPUs (a valid tensor-parallel degree) that hold `ask`; None without a device
    or when even MAX_TP do not."""
    if device is None:
        return None
    usable = usable_gb(device, ask)
    weights, _ = weight_bytes(model, ask)
    for tp in valid_tp(model):
        if _needed(model, ask, tp, weights, ask.context, ask.concurrency) <= usable:
            return tp
    return None


def _max_concurrency(model: ModelShape, ask: FitAsk, tp: int, usable: float, weights: float) -> int:
    left = (usable - ask.reserve_gb) * GB - weights / tp
    one = per_gpu_kv_bytes(model, replace(ask, concurrency=1), tp, ask.context)
    return max(0, math.floor(left / one)) if one > 0 else 0


def _max_context(model: ModelShape, ask: FitAsk, tp: int, usable: float, weights: float) -> int:
    """The longest context (up to the native one) at `ask.concurrency` that still fits: KV
    grows with context, so a binary search finds it."""
    low, high = 0, model.context
    while low < high:
        middle = (low + high + 1) // 2
        if _needed(model, ask, tp, weights, middle, ask.concurrency) <= usable:
            low = middle
        else:
            high = middle - 1
    return low


def _assumed(model: ModelShape, ask: FitAsk, device: Device | None) -> list[str]:
    said = [
        f"weights at {ask.precision} ({ask.bits_per_weight:g} bits per weight), every "
        "parameter split evenly over the GPUs",
        f"KV cache in {ask.kv_cache_dtype}",
        f"a reserve of {ask.reserve_gb:g} GB per GPU for activations and runtime buffers",
        f"{ask.memory_utilization:.0%} of the GPU's memory for the server",
    ]
    if model.linear_attention_layers:
        said.append(
            f"the fixed state of the {model.linear_attention_layers} linear-attention or "
            "state-space layers is not counted (no config fact gives its size; it does not "
            "grow with context)"
        )
    if device is not None and device.share < 1:
        said.append(f"the GPU may use {device.share:.0%} of {device.name}'s unified memory")
    return said


def _basis(
    model: ModelShape, ask: FitAsk, device: Device | None, answer: Fit, weight_lines: list[str]
) -> list[str]:
    """The arithmetic, line by line, with where each fact came from."""
    tp = ask.gpus
    from_config = f" ({model.source})" if model.source else ""
    dtype = kv_dtype_bytes(ask.kv_cache_dtype)
    each = f"; ÷ {tp} GPU{'s' * (tp > 1)} = {answer.per_gpu.weights_gb:.2f} GB each"
    if len(weight_lines) > 1:  # counted per part
        total = f"weights: {answer.weights_gb:.2f} GB in all{each}"
    else:
        total = (
            f"weights: {model.parameters_b:g} B parameters × {ask.bits_per_weight:g} bits ÷ 8 = "
            f"{answer.weights_gb:.2f} GB{each}"
        )
    lines = [*weight_lines, total, _kv_line(model, dtype) + from_config]
    full, window = kv_tokens_per_layer(model, ask.context, ask.window_extra_tokens)
    if model.sliding_window_layers:
        extra = f" + {ask.window_extra_tokens:,}" if ask.window_extra_tokens else ""
        lines.append(
            f"sliding window: {model.sliding_window_layers} layers hold at most "
            f"{model.sliding_window:,}{extra} tokens, so {window:,} of the {full:,} asked"
        )
    share = tp_share(model, tp)
    if answer.split_problem:
        lines.append(
            f"per GPU: no tensor-parallel split at {tp} GPUs ({tp_problem(model, tp)}); the "
            f"figures below split weights and KV cache evenly by layers, as pipeline "
            f"parallelism would (a stage holds whole layers, so the largest is a little more)"
        )
    elif model.is_mla:
        lines.append(
            "per GPU: the MLA latent is whole on every GPU (tensor parallelism cannot split it)"
        )
    elif tp > 1:
        heads = model.kv_heads * share
        lines.append(
            f"per GPU: {model.kv_heads} KV heads ÷ {tp} = {heads:g} head(s) each"
            + (" (replicated: at least one whole head per GPU)" if tp > model.kv_heads else "")
        )
    lines.append(
        f"KV cache per GPU: {ask.concurrency} sequence(s) × {ask.context:,} tokens = "
        f"{answer.per_gpu.kv_gb:.2f} GB"
    )
    lines.append(
        f"per GPU: {answer.per_gpu.weights_gb:.2f} + {answer.per_gpu.kv_gb:.2f} + "
        f"{ask.reserve_gb:g} reserve = {answer.per_gpu.total_gb:.2f} GB"
    )
    if device is not None and answer.per_gpu.usable_gb is not None:
        where = f" ({device.source})" if device.source else ""
        unified = f" × {device.share:.0%} for the GPU" if device.share < 1 else ""
        margin = f" − {ask.margin_gb:g} GB kept free" if ask.margin_gb else ""
        verdict = "fits" if answer.fits else "does not fit"
        if answer.split_problem:
            verdict = "not answered by tensor parallelism at this count"
        lines.append(
            f"usable per GPU: {device.name} reports {device.memory_gb:g} GB{where}{unified} × "
            f"{ask.memory_utilization:g}{margin} = {answer.per_gpu.usable_gb:.2f} GB: {verdict}"
        )
    return lines


def _kv_line(model: ModelShape, dtype_bytes: float) -> str:
    layers = model.full_layers + model.sliding_window_layers
    per_token = kv_bytes_per_token(model, dtype_bytes)
    if model.is_mla:
        return (
            f"KV per token: {layers} MLA layers × ({model.kv_lora_rank} + "
            f"{model.qk_rope_head_dim}) latent × {dtype_bytes:g} bytes = {per_token:,} bytes"
        )
    v_dim = model.v_head_dim or model.head_dim
    kv = f"2 × {model.head_dim}" if v_dim == model.head_dim else f"({model.head_dim} + {v_dim})"
    return (
        f"KV per token: {layers} attention layers × {kv} head dim × {model.kv_heads} KV heads × "
        f"{dtype_bytes:g} bytes = {per_token:,} bytes"
    )
