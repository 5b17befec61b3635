"""Will it fit: a typed model on typed hardware, resolved and handed to the pure arithmetic.

One query for the JSON API, the /fit page, the fit panels of model and hardware pages and the
guided flow. It resolves names as everything else does (app/vocabulary/names.py), reads the
model's config facts (its base model's for a quantised derivative), picks the precision (asked,
implied by the name typed, the model's own, in that order) and the memory the device reports,
and applies a server's own accounting when one is named (app/decision/fit_systems.py).
"""

from dataclasses import dataclass, field

from sqlmodel import Session, select

from app.data_version.version import per_version
from app.decision.fit import Device, Fit, FitAsk, FitError, ModelShape, fit
from app.decision.fit_systems import SYSTEMS, accounting
from app.models import Source
from app.params.fit import FitParams
from app.queries.entries import vocabulary_entries
from app.queries.systems import system_slugs
from app.schemas import FitPerGpu, FitView, HardwareEntryView, ModelConfigView, ModelEntryView
from app.vocabulary.formats import ImpliedFormat, implied_format, known_precisions, precision_bits
from app.vocabulary.names import Names

# Bounds on what is asked: far beyond any real deployment, so an absurd ask is refused at
# once rather than computed at length (the arithmetic itself is constant time).
MAX_GPUS = 64
MAX_CONCURRENCY = 1_000_000
DEFAULT_CONTEXT = 8192


class FitInputError(FitError):
    """An input the fit cannot use: `field` names it, `allowed` lists what it takes, `status`
    is 404 for a name that names nothing (or a model without the facts the arithmetic needs)
    and 422 for the rest."""

    def __init__(
        self, field_name: str, message: str, allowed: list[str] | None = None, status: int = 422
    ) -> None:
        super().__init__(field_name, message)
        self.allowed = allowed or []
        self.status = status


@dataclass
class FitAnswer:
    """The resolved ask and the arithmetic's answer. `assumed` holds every default filled in
    (the arithmetic's and this query's), `candidates` the parts an ambiguous hardware name
    could be (the answer is for the first, the smallest memory)."""

    model: str  # slug
    model_name: str
    precision: str
    bits_per_weight: float
    format: ImpliedFormat | None
    hardware: str | None
    hardware_name: str | None
    system: str | None
    shape: ModelShape
    ask: FitAsk
    device: Device | None
    fit: Fit
    assumed: list[str] = field(default_factory=list)
    basis: list[str] = field(default_factory=list)
    candidates: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class _Catalogue:
    models: dict[str, ModelEntryView]
    hardware: dict[str, HardwareEntryView]
    model_names: Names
    hardware_names: Names
    systems: tuple[str, ...]
    source_urls: dict[str, str]  # source slug -> its address, for the basis lines


@per_version(max_entries=2)
def _catalogue(session: Session) -> _Catalogue:
    entries = vocabulary_entries(session)
    models = {e.slug: e for e in entries["model"] if isinstance(e, ModelEntryView)}
    hardware = {e.slug: e for e in entries["hardware"] if isinstance(e, HardwareEntryView)}
    return _Catalogue(
        models=models,
        hardware=hardware,
        model_names=Names.of("model", ((e.slug, [e.name, *e.aliases]) for e in models.values())),
        hardware_names=Names.of(
            "hardware", ((e.slug, [e.name, *e.aliases]) for e in hardware.values())
        ),
        systems=tuple(system_slugs(session)),
        source_urls={s: u for s, u in session.exec(select(Source.slug, Source.url)) if u},
    )


def fit_models(session: Session) -> list[ModelEntryView]:
    """The models the fit can answer for: a config and a parameter count, their own or their
    base model's."""
    catalogue = _catalogue(session)
    return [m for m in catalogue.models.values() if _config(catalogue, m) and _params(catalogue, m)]


def fit_hardware(session: Session) -> list[HardwareEntryView]:
    """The accelerators with a memory figure, smallest memory first."""
    parts = [h for h in _catalogue(session).hardware.values() if _memory(h) and not h.vague]
    return sorted(parts, key=lambda h: (_memory(h) or 0, h.name))


def fit_for(
    session: Session,
    *,
    model: str,
    hardware: str | None,
    gpus: int,
    context: int,
    concurrency: int,
    precision: str | None,
    kv_cache_dtype: str | None,
    memory_utilization: float | None,
    system: str | None,
) -> FitAnswer:
    """The fit of `model` (as typed) on `gpus` × `hardware` (as typed; None: the memory
    needed only). Raises FitInputError naming the field at fault."""
    catalogue = _catalogue(session)
    for name, value, top in (
        ("gpus", gpus, MAX_GPUS),
        ("context", context, None),
        ("concurrency", concurrency, MAX_CONCURRENCY),
    ):
        if value < 1 or (top is not None and value > top):
            most = f" and at most {top:,}" if top else ""
            raise FitInputError(name, f"{name} must be a whole number of at least 1{most}")
    entry = _model(catalogue, model)
    config = _config(catalogue, entry)
    params = _params(catalogue, entry)
    if config is None or params is None:
        usable = [m.slug for m in catalogue.models.values() if _config(catalogue, m)]
        raise FitInputError(
            "model",
            f"{entry.name} has no {'config facts' if config is None else 'parameter count'} "
            "in the Atlas yet, so its memory cannot be worked out",
            usable,
            status=404,  # the facts the answer needs are not here, as for an unknown name
        )
    shape = _shape(entry, config, params)
    assumed: list[str] = []
    basis: list[str] = []
    implied = implied_format(model)
    chosen, bits = _precision(entry, config, precision, implied, assumed)
    device: Device | None = None
    hardware_entry: HardwareEntryView | None = None
    candidates: list[str] = []
    if hardware is not None and hardware.strip():
        hardware_entry, candidates = _hardware(catalogue, hardware, assumed)
        device = _device(catalogue, hardware_entry, assumed)
    elif hardware is not None:
        raise FitInputError("hardware", "hardware is empty; leave it out for the memory needed")
    system_slug = _system(catalogue, system)
    ask = FitAsk(
        bits_per_weight=bits,
        precision=chosen,
        gpus=gpus,
        context=context,
        concurrency=concurrency,
    )
    if system_slug in SYSTEMS:
        memory = device.memory_gb if device else None
        how = accounting(system_slug, memory, gpus, moe=bool(shape.experts))
        ask = FitAsk(
            **{
                **ask.__dict__,
                "memory_utilization": how.memory_utilization,
                "reserve_gb": how.reserve_gb,
                "kv_cache_dtype": "bf16" if how.kv_cache_dtype == "auto" else how.kv_cache_dtype,
                "window_extra_tokens": how.window_extra_tokens,
                "margin_gb": how.margin_gb,
            }
        )
        basis.extend(how.basis)
        assumed.extend(how.assumed)
    elif system_slug is not None:
        assumed.append(
            f"{system_slug}: no accounting of its own here; the general arithmetic applies"
        )
    if kv_cache_dtype:
        ask = FitAsk(**{**ask.__dict__, "kv_cache_dtype": kv_cache_dtype.lower()})
    if memory_utilization is not None:
        ask = FitAsk(**{**ask.__dict__, "memory_utilization": memory_utilization})
    try:
        answer = fit(shape, ask, device)
    except FitError as problem:
        raise _explained(problem, shape, config) from None
    if device is None:
        assumed.append("no hardware named: the memory needed only (fits is null)")
    return FitAnswer(
        model=entry.slug,
        model_name=entry.name,
        precision=chosen,
        bits_per_weight=bits,
        format=implied,
        hardware=hardware_entry.slug if hardware_entry else None,
        hardware_name=hardware_entry.name if hardware_entry else None,
        system=system_slug,
        shape=shape,
        ask=ask,
        device=device,
        fit=answer,
        assumed=[*answer.assumed, *assumed],
        basis=[*answer.basis, *basis],
        candidates=candidates,
    )


def fit_asked(session: Session, asked: FitParams) -> FitAnswer:
    """The fit a /fit page or GET /api/v1/fit query asks: every field as read, nothing
    filled in here (fit_for fills the defaults and says so in `assumed`)."""
    return fit_for(
        session,
        model=asked.model,
        hardware=asked.hardware,
        gpus=asked.gpus,
        context=asked.context,
        concurrency=asked.concurrency,
        precision=asked.precision,
        kv_cache_dtype=asked.kv_cache_dtype,
        memory_utilization=asked.memory_utilization,
        system=asked.system,
    )


def _model(catalogue: _Catalogue, text: str) -> ModelEntryView:
    slug = catalogue.model_names.resolve(text)
    if slug is None or slug not in catalogue.models:
        raise FitInputError(
            "model",
            catalogue.model_names.unknown(text, "a slug or alias from GET /api/v1/models"),
            [m.slug for m in catalogue.models.values() if _config(catalogue, m)],
            status=404,
        )
    return catalogue.models[slug]


def _base(catalogue: _Catalogue, entry: ModelEntryView) -> ModelEntryView | None:
    return catalogue.models.get(entry.base) if entry.base else None


def _config(catalogue: _Catalogue, entry: ModelEntryView) -> ModelConfigView | None:
    base = _base(catalogue, entry)
    return entry.config or (base.config if base else None)


def _params(catalogue: _Catalogue, entry: ModelEntryView) -> float | None:
    base = _base(catalogue, entry)
    return entry.parameters_b or (base.parameters_b if base else None)


def _shape(entry: ModelEntryView, config: ModelConfigView, params: float) -> ModelShape:
    heads = config.attention_heads or 1
    head_dim = config.head_dim or (
        (config.hidden_size or 0) // heads if config.hidden_size else 128
    )
    return ModelShape(
        name=entry.name,
        parameters_b=params,
        layers=config.layers or 0,
        attention_heads=heads,
        kv_heads=config.kv_heads or heads,
        head_dim=head_dim,
        context=config.context or 1_048_576,
        v_head_dim=config.v_head_dim,
        kv_lora_rank=config.kv_lora_rank,
        qk_rope_head_dim=config.qk_rope_head_dim,
        sliding_window=config.sliding_window,
        sliding_window_layers=config.sliding_window_layers or 0,
        linear_attention_layers=config.linear_attention_layers or 0,
        full_attention_layers=config.full_attention_layers,
        source=config.page,
        hidden_size=config.hidden_size,
        vocab_size=config.vocab_size,
        experts=config.experts,
    )


def _precision(
    entry: ModelEntryView,
    config: ModelConfigView,
    asked: str | None,
    implied: ImpliedFormat | None,
    assumed: list[str],
) -> tuple[str, float]:
    if asked is not None and asked.strip():
        bits = precision_bits(asked)
        if bits is None:
            raise FitInputError(
                "precision", f"{asked!r} is not a precision the Atlas knows", known_precisions()
            )
        return asked.strip(), bits
    if implied is not None and implied.bits_per_weight is not None:
        assumed.append(
            f"precision {implied.precision}, which the name typed implies ({implied.format})"
        )
        return implied.precision, implied.bits_per_weight
    native = entry.precision or config.quantization or config.torch_dtype
    bits = precision_bits(native) if native else None
    if native and bits is not None:
        assumed.append(f"precision {native}, the checkpoint's own")
        return native, bits
    assumed.append("precision BF16 (the checkpoint's own is not recorded)")
    return "BF16", 16.0


def _memory(entry: HardwareEntryView) -> float | None:
    return entry.reported_memory_gb if entry.reported_memory_gb is not None else entry.memory_gb


def _hardware(
    catalogue: _Catalogue, text: str, assumed: list[str]
) -> tuple[HardwareEntryView, list[str]]:
    slug = catalogue.hardware_names.resolve(text)
    if slug is None or slug not in catalogue.hardware:
        raise FitInputError(
            "hardware",
            catalogue.hardware_names.unknown(text, "a slug or alias from GET /api/v1/hardware"),
            [h.slug for h in catalogue.hardware.values() if not h.vague],
            status=404,
        )
    entry = catalogue.hardware[slug]
    if not entry.vague:
        return entry, []
    parts = _parts_of(catalogue, entry)
    if not parts:
        members = [h.slug for h in catalogue.hardware.values() if not h.vague and _memory(h)]
        raise FitInputError(
            "hardware",
            f"{entry.name} is a class of hardware, not one accelerator; name one of its parts",
            members,
        )
    chosen = parts[0]
    assumed.append(
        f"{text!r} names more than one part; answered for the one with the least memory, "
        f"{chosen.name} (the others are in candidates)"
    )
    return chosen, [p.slug for p in parts]


def _parts_of(catalogue: _Catalogue, vague: HardwareEntryView) -> list[HardwareEntryView]:
    """The specific parts an "unstated variant" entry may be (nvidia-h100-unspecified: every
    nvidia-h100-* part with a memory figure), smallest memory first; none for a class."""
    stem = vague.slug.removesuffix("-unspecified")
    if stem == vague.slug:
        return []
    parts = [
        h
        for h in catalogue.hardware.values()
        if not h.vague and h.slug.startswith(f"{stem}-") and _memory(h)
    ]
    return sorted(parts, key=lambda h: (_memory(h) or 0, h.slug))


def _device(catalogue: _Catalogue, entry: HardwareEntryView, assumed: list[str]) -> Device | None:
    """The device as it reports itself (nvidia-smi's total), the GPU's share of unified
    memory; the maker's figure where no reported one is recorded, said so."""
    share = (entry.gpu_share or 1.0) if entry.unified_memory else 1.0
    if entry.unified_memory:
        where = _cited(catalogue, entry.gpu_share_source)
        if entry.gpu_share is None:
            assumed.append(f"{entry.name}: the GPU's share of unified memory is not recorded; all")
        else:
            assumed.append(f"{entry.name}: the GPU may use {entry.gpu_share:.0%} ({where})")
    if entry.reported_memory_gb is not None:
        return Device(
            entry.name,
            entry.reported_memory_gb,
            share,
            _cited(catalogue, entry.reported_memory_source) or None,
        )
    if entry.memory_gb is None:
        assumed.append(
            f"{entry.name} has no memory figure in the Atlas, so whether it fits is unknown"
        )
        return None
    assumed.append(
        f"{entry.name}: {entry.memory_gb:g} GB as its maker names it; no figure of what the "
        'device reports is recorded yet (an "80GB" H100 reports about 85 GB)'
    )
    return Device(
        entry.name,
        entry.memory_gb,
        share,
        _cited(catalogue, entry.sources[0]) if entry.sources else None,
    )


def _cited(catalogue: _Catalogue, slug: str | None) -> str:
    """A source slug with its address, for a basis line."""
    if not slug:
        return ""
    url = catalogue.source_urls.get(slug)
    return f"{slug}, {url}" if url else slug


def _system(catalogue: _Catalogue, text: str | None) -> str | None:
    if text is None or not text.strip():
        return None
    slug = text.strip().lower().replace(".", "-").replace("_", "-")
    if slug in ("llamacpp", "llama-cpp-server", "llama-server"):
        slug = "llama-cpp"
    if slug not in catalogue.systems:
        raise FitInputError(
            "system",
            f"unknown system {text!r}; its own accounting is known for {', '.join(SYSTEMS)}",
            list(catalogue.systems),
            status=404,
        )
    return slug


def _explained(problem: FitError, shape: ModelShape, config: ModelConfigView) -> FitInputError:
    """The arithmetic's refusal, with what is allowed and, for context, how the model
    reaches its native length."""
    message = str(problem)
    allowed: list[str] = []
    if problem.field == "gpus":
        from app.decision.fit import valid_tp

        allowed = [str(t) for t in valid_tp(shape)]
    elif problem.field == "context":
        allowed = [f"1 to {shape.context}"]
        if config.note and "rope" in config.note.lower():
            message += " (positions through the RoPE scaling its config states)"
    elif problem.field == "kv_cache_dtype":
        from app.decision.fit import KV_BYTES

        allowed = list(KV_BYTES)
    return FitInputError(problem.field, message, allowed)


def fit_view(answer: FitAnswer) -> FitView:
    """The API's answer: the arithmetic's outputs and what was resolved."""
    result = answer.fit
    return FitView(
        model=answer.model,
        model_name=answer.model_name,
        hardware=answer.hardware,
        hardware_name=answer.hardware_name,
        system=answer.system,
        precision=answer.precision,
        bits_per_weight=answer.bits_per_weight,
        kv_cache_dtype=answer.ask.kv_cache_dtype,
        gpus=answer.ask.gpus,
        context=answer.ask.context,
        concurrency=answer.ask.concurrency,
        memory_utilization=answer.ask.memory_utilization,
        weights_gb=result.weights_gb,
        kv_bytes_per_token=result.kv_bytes_per_token,
        kv_gb=result.kv_gb,
        overhead_gb=result.overhead_gb,
        total_gb=result.total_gb,
        usable_gb=result.usable_gb,
        per_gpu=FitPerGpu(**result.per_gpu.__dict__),
        fits=result.fits,
        min_gpus=result.min_gpus,
        max_concurrency=result.max_concurrency,
        max_context=result.max_context,
        assumed=answer.assumed,
        basis=answer.basis,
        candidates=answer.candidates,
        split_problem=result.split_problem,
    )
