"""The guided flow from the model (issue 36): a model and an accelerator as typed, resolved;
whether each system loads the model's architecture (seed/support/) and whether the model fits
the GPUs (app/queries/fit.py), each with its source.

A system that cannot load the architecture is ruled out with the row that says so; one with no
row is unknown, never ruled out. When the model does not fit, a system whose `cpu-gpu-offload`
cell says it can keep part of the model in CPU memory stays with that claim's own words as
the caveat; the others are ruled out with the numbers. Which systems can offload is read from
their claims, never listed here.
"""

from dataclasses import dataclass, field, replace

from sqlmodel import Session

from app.decision.engine import Answers
from app.decision.hardware import SUPPORT, reason
from app.decision.measured import BROAD, hardware_answers
from app.decision.model import FitChange, FitView, Reason, SubjectView
from app.decision.questions import QUESTIONS_BY_ID, option_label
from app.decision.traits import fill_traits
from app.params.decide import DEFAULT_CONTEXT, DecideParams
from app.params.reader import ParamProblem
from app.queries.cells import headline_claim
from app.queries.common import source_refs
from app.queries.decide_support import loading, support_rows
from app.queries.entries import vocabulary_entries, vocabulary_names
from app.queries.fit import FitAnswer, FitInputError, fit_for
from app.queries.matrix_data import matrix_base
from app.schemas import HardwareEntryView, ModelEntryView, SourceRef
from app.vocabulary.names import alias_key

# What the scale answer means in sequences served at once, and the quantisation answer in a
# precision: stated as assumptions wherever they are used.
SCALE_CONCURRENCY = {"single-user": 1, "small-team": 8, "production": 32, "high-throughput": 128}
QUANTIZATION_PRECISION = {"none": "BF16", "fp8": "FP8", "awq-w4a16": "AWQ", "gguf": "Q4_K_M"}
# Precisions tried when the model does not fit: the common ways to make it smaller.
SMALLER = (("fp8", "FP8"), ("awq-w4a16", "AWQ"), ("gguf", "Q4_K_M"))
OFFLOAD = "cpu-gpu-offload"


@dataclass
class Subject:
    """A model-first ask, resolved: the answers the rules read, and what the fit needs."""

    answers: Answers
    problems: list[ParamProblem] = field(default_factory=list)
    model: ModelEntryView | None = None
    model_text: str | None = None
    hardware: HardwareEntryView | None = None
    hardware_text: str | None = None
    gpus: int = 1
    context: int = DEFAULT_CONTEXT
    concurrency: int = 1
    precision: str | None = None
    quantization: str | None = None
    assumed: list[str] = field(default_factory=list)

    @property
    def named(self) -> bool:
        return self.model is not None


def resolve_subject(session: Session, params: DecideParams) -> Subject:
    """Turn a typed model or accelerator into the answers the rules read (a named model
    fills in its kind; an accelerator its hardware class), with every assumption said."""
    subject = Subject(answers=dict(params.as_dict()))
    if (text := params.named("model")) is not None:
        _model(session, subject, text)
    if (text := params.named("hardware")) is not None:
        _hardware(session, subject, text)
    if subject.model is None:
        return subject
    subject.gpus = params.gpus or 1
    subject.context = params.context or DEFAULT_CONTEXT
    if params.gpus is None and subject.hardware is not None:
        subject.assumed.append("one GPU (say how many with gpus=)")
    if params.context is None:
        subject.assumed.append(f"{DEFAULT_CONTEXT:,} tokens of context per sequence")
    scale = subject.answers.get("scale", ())
    subject.concurrency = max((SCALE_CONCURRENCY[s] for s in scale), default=1)
    if scale:
        subject.assumed.append(
            f"“{option_label('scale', scale[0])}” read as {subject.concurrency} sequences at once"
        )
    else:
        subject.assumed.append("one sequence at a time (answer the scale question for more)")
    quantization = subject.answers.get("quantization", ())
    for option in quantization:
        if option in QUANTIZATION_PRECISION:
            subject.quantization = option
            subject.precision = QUANTIZATION_PRECISION[option]
            subject.assumed.append(
                f"“{option_label('quantization', option)}” read as {subject.precision} weights"
            )
            break
    return subject


def _model(session: Session, subject: Subject, text: str) -> None:
    names = vocabulary_names(session)["model"]
    models = {e.slug: e for e in vocabulary_entries(session)["model"]}
    slug = names.resolve(text) or _only_one_holding(names.by_key, text)
    entry = models.get(slug) if slug else None
    if not isinstance(entry, ModelEntryView):
        options = QUESTIONS_BY_ID["model"].option_ids()
        subject.answers.pop("model", None)
        subject.problems.append(
            ParamProblem(
                "model",
                text,
                (*options, *names.suggest(text)),
                f"{names.unknown(text, 'a model kind or a name from /api/v1/models')} "
                f"(or a kind: {', '.join(options)})",
            )
        )
        return
    subject.model, subject.model_text = entry, text
    kind = kind_answer(entry)
    subject.answers["model"] = (kind,)
    said = f"{text!r} is {entry.name}" if alias_differs(text, entry) else entry.name
    subject.assumed.append(
        f"{said}: {entry.kind or 'kind not stated'}, so the model question reads "
        f"“{option_label('model', kind)}”"
    )
    rank = entry.config.kv_lora_rank if entry.config else None
    traits, said_traits = fill_traits(
        subject.answers.get("traits", ()), entry.name, entry.family, rank
    )
    if said_traits:  # the family and attention options the model's facts settle
        subject.answers["traits"] = traits
        subject.assumed.append(said_traits)


def alias_differs(text: str, entry: ModelEntryView) -> bool:
    return text.strip().lower() not in (entry.slug, entry.name.lower())


def _only_one_holding(by_key: dict[str, str], text: str) -> str | None:
    """The one entry whose names hold `text` ("Qwen3-Next" for the one Qwen3-Next model);
    None when none or several do (several: the person must say which)."""
    wanted = alias_key(text)
    if len(wanted) < 4:
        return None
    holders = {slug for key, slug in by_key.items() if wanted in key}
    return next(iter(holders)) if len(holders) == 1 else None


def kind_answer(entry: ModelEntryView) -> str:
    """The model question's option a model's kind fills in."""
    kind = entry.kind or ""
    if "vision" in kind:
        return "vision-language"
    experts = entry.config.experts if entry.config else None
    if "moe" in kind or (experts or 0) > 1:
        return "moe"
    return "dense"


def _hardware(session: Session, subject: Subject, text: str) -> None:
    names = vocabulary_names(session)["hardware"]
    parts = {e.slug: e for e in vocabulary_entries(session)["hardware"]}
    slug = names.resolve(text)
    entry = parts.get(slug) if slug else None
    found = (
        hardware_answers(entry.vendor, entry.name)
        if isinstance(entry, HardwareEntryView)
        else set()
    )
    fine = sorted(found - set(BROAD)) or sorted(found)
    if not isinstance(entry, HardwareEntryView) or not fine:
        options = QUESTIONS_BY_ID["hardware"].option_ids()
        subject.answers.pop("hardware", None)
        why = (
            names.unknown(text, "a class or a name from /api/v1/hardware")
            if entry is None
            else f"{entry.name} falls under none of the hardware classes the questions know"
        )
        subject.problems.append(
            ParamProblem("hardware", text, (*options, *names.suggest(text)), why)
        )
        return
    subject.hardware, subject.hardware_text = entry, text
    subject.answers["hardware"] = (fine[0],)
    subject.assumed.append(
        f"{entry.name} is one of “{option_label('hardware', fine[0])}” for the sources' advice"
    )


# -- whether the model fits --------------------------------------------------------------


def fit_answer(
    session: Session, subject: Subject, system: str | None = None, **change: object
) -> FitAnswer | None:
    """The fit for `subject` (one server's accounting with `system`); None where the
    arithmetic cannot answer (no config facts), which the page says through `problems`."""
    if subject.model is None:
        return None
    asked: dict[str, object] = {
        "gpus": subject.gpus,
        "context": subject.context,
        "precision": subject.precision,
        **change,
    }
    return fit_for(
        session,
        model=subject.model_text or subject.model.slug,
        hardware=subject.hardware.slug if subject.hardware else None,
        gpus=int(str(asked["gpus"])),
        context=int(str(asked["context"])),
        concurrency=subject.concurrency,
        precision=str(asked["precision"]) if asked["precision"] else None,
        kv_cache_dtype=None,
        memory_utilization=None,
        system=system,
    )


def fit_view(answer: FitAnswer, smaller: str | None = None, own: bool = False) -> FitView:
    """The numbers in words: "needs ≥ 2 × H100 80GB at 8k context, BF16; FP8 fits one"."""
    result, ask = answer.fit, answer.ask
    device = answer.hardware_name or "GPU"
    at = f"at {_tokens(ask.context)} context, {answer.precision}"
    if result.fits is None:
        gpus = f"{ask.gpus} GPU{'s' if ask.gpus > 1 else ''}"
        text = f"needs {result.per_gpu.total_gb:.1f} GB per GPU on {gpus} {at}"
    elif result.fits:
        text = (
            f"fits {ask.gpus} × {device} {at}: {result.per_gpu.total_gb:.1f} of "
            f"{result.per_gpu.usable_gb or 0:.1f} GB usable per GPU"
        )
    else:
        many = f"≥ {result.min_gpus}" if result.min_gpus else f"more than {64}"
        text = f"needs {many} × {device} {at}" + (f"; {smaller}" if smaller else "")
    return FitView(
        fits=result.fits,
        text=text,
        precision=answer.precision,
        gpus=ask.gpus,
        context=ask.context,
        concurrency=ask.concurrency,
        per_gpu_gb=round(result.per_gpu.total_gb, 2),
        usable_gb=round(result.per_gpu.usable_gb, 2) if result.per_gpu.usable_gb else None,
        min_gpus=result.min_gpus,
        system_accounting=own,
    )


def _tokens(n: int) -> str:
    return f"{n // 1024}k" if n % 1024 == 0 and n >= 1024 else f"{n:,}"


def smaller_precision(session: Session, subject: Subject) -> tuple[str, str, int] | None:
    """The first smaller precision that fits the GPUs asked: (option, precision, GPUs it
    needs), else the one needing the fewest GPUs."""
    best: tuple[str, str, int] | None = None
    try:
        asked = fit_answer(session, subject)
    except FitInputError:
        return None
    current = asked.fit.min_gpus if asked else None
    for option, precision in SMALLER:
        if precision == subject.precision:
            continue
        try:
            answer = fit_answer(session, subject, precision=precision)
        except FitInputError:
            continue
        if answer is None or answer.fit.min_gpus is None:
            continue
        if current is not None and answer.fit.min_gpus >= current:
            continue  # no smaller in GPUs than the precision asked (MXFP4 next to AWQ)
        if best is None or answer.fit.min_gpus < best[2]:
            best = (option, precision, answer.fit.min_gpus)
        if answer.fit.min_gpus <= subject.gpus:
            return option, precision, answer.fit.min_gpus
    return best


def offload_caveats(session: Session) -> dict[str, tuple[str, Reason]]:
    """system -> (its weighed `cpu-gpu-offload` level, the claim in its own words): for a
    system that can keep part of the model in CPU memory, which parts move and how; for one
    that cannot, what its source says."""
    refs = {r.slug: r for r in source_refs(session).values()}
    out: dict[str, tuple[str, Reason]] = {}
    for (system, capability), cell in matrix_base(session).cells.items():
        if capability != OFFLOAD:
            continue
        claim = headline_claim(cell.claims)
        if claim is None:
            continue
        how = f" ({claim.how})" if claim.how else ""
        said = f" {claim.note}" if claim.note else ""
        if claim.level in SUPPORT:
            text = (
                f"Runs only with part of the model in CPU memory{how}, slower than on the GPU "
                f"alone:{said}"
            )
            kind = "against"
        else:
            text = f"No part of the model can stay in CPU memory:{said}"
            kind = "excluded"
        source = refs.get(claim.source.slug, claim.source)
        out[system] = (claim.level, reason(text, source, kind=kind, page=claim.page))
    return out


def _cannot_offload(model: ModelEntryView, view: FitView, caveat: Reason | None) -> Reason:
    """The rule-out of a system that cannot hold the model and says it cannot offload."""
    if caveat is None:
        return reason(f"{model.name} {view.text}.", None, kind="excluded")
    text = f"{model.name} {view.text}. {caveat.text}"
    return reason(text, _source_of(caveat), kind="excluded", page=caveat.page)


def _source_of(why: Reason | None) -> SourceRef | None:
    if why is None or why.source is None:
        return None
    return SourceRef(
        slug=why.source,
        short=why.source_short or why.source,
        title=why.source_title or why.source,
        date=why.source_date or "",
    )


def fit_changes(
    session: Session, params: DecideParams, subject: Subject, general: FitAnswer
) -> list[FitChange]:
    """More GPUs, a smaller precision, a shorter context: each that would make it fit."""
    changes: list[FitChange] = []
    result = general.fit
    if result.fits is not False:
        return changes
    device = general.hardware_name or "GPU"
    if result.min_gpus:
        changes.append(
            FitChange(
                label=f"{result.min_gpus} × {device} at {general.precision}",
                query=_with(params, gpus=result.min_gpus),
            )
        )
    found = smaller_precision(session, subject)
    if found:
        option, precision, gpus = found
        params_q = params.with_answer("quantization", (option,))
        if gpus != subject.gpus:
            params_q = replace(params_q, gpus=gpus)
        changes.append(
            FitChange(
                label=f"{precision} weights on {gpus} × {device}", query=params_q.query_string()
            )
        )
    if result.max_context and result.max_context >= 1024 and result.max_context < subject.context:
        shorter = result.max_context // 1024 * 1024 or result.max_context
        changes.append(
            FitChange(
                label=f"a context of {shorter:,} tokens on {general.ask.gpus} × {device}",
                query=_with(params, context=shorter),
            )
        )
    return changes


def _with(params: DecideParams, **change: int) -> str:
    return replace(params, step="", **change).query_string()  # type: ignore[arg-type]


def subject_view(subject: Subject, general: FitAnswer | None) -> SubjectView:
    model = subject.model
    return SubjectView(
        model=model.slug if model else None,
        model_name=model.name if model else None,
        architecture=model.architecture if model else None,
        model_kind=subject.answers.get("model", (None,))[0] if model else None,
        hardware=subject.hardware.slug if subject.hardware else None,
        # The part the fit was worked out for (the smallest of an ambiguous name's parts).
        hardware_name=(general.hardware_name if general else None)
        or (subject.hardware.name if subject.hardware else None),
        gpus=subject.gpus,
        context=subject.context,
        concurrency=subject.concurrency,
        precision=general.precision if general else subject.precision,
        assumed=[*subject.assumed, *(general.assumed if general else [])],
        basis=general.basis if general else [],
        fit=fit_view(general) if general else None,
    )


@dataclass
class ModelRulings:
    """What a named model and accelerator do to each system, before the rules rank them."""

    excluded: dict[str, list[Reason]] = field(default_factory=dict)
    notes: dict[str, list[Reason]] = field(default_factory=dict)
    fits: dict[str, FitView] = field(default_factory=dict)
    view: SubjectView | None = None
    changes: list[FitChange] = field(default_factory=list)


def model_rulings(
    session: Session, params: DecideParams, subject: Subject, systems: dict[str, str]
) -> ModelRulings:
    """For each system (slug -> name): whether it loads the model and whether the model fits,
    with the rule-outs and caveats that follow. `systems` leaves out those the hardware
    answer already rules out (their own reason says more than a fit could). Problems (a
    context beyond the model's, no config facts) go to `subject.problems`, naming the field."""
    out = ModelRulings()
    model = subject.model
    if model is None:
        return out
    try:
        general = fit_answer(session, subject)
    except FitInputError as problem:
        general = None
        if problem.field == "model":  # no config facts yet: the ranking stands without a fit
            subject.assumed.append(f"no fit: {problem}")
        else:
            typed = {"hardware": subject.hardware_text}.get(problem.field)
            value = typed or str(getattr(params, problem.field, "") or "")
            subject.problems.append(
                ParamProblem(problem.field, value, tuple(problem.allowed), str(problem))
            )
    out.view = subject_view(subject, general)
    rows = support_rows(session, model.architecture) if model.architecture else {}
    offload = offload_caveats(session) if general and general.fit.fits is False else {}
    smaller = None
    if general and general.fit.fits is False:
        _needs_offload(subject)
        found = smaller_precision(session, subject)
        if found:
            _, precision, gpus = found
            smaller = f"{precision} fits one" if gpus == 1 else f"{precision} fits on {gpus}"
        out.changes = fit_changes(session, params, subject, general)
    for slug, name in systems.items():
        notes: list[Reason] = []
        if model.architecture:
            ruled_out, why = loading(rows.get(slug, []), name, model)
            if ruled_out:
                out.excluded.setdefault(slug, []).append(why)
            else:
                notes.append(why)
        if general is not None:
            answer = _own_fit(session, subject, slug) or general
            view = fit_view(answer, smaller, own=answer is not general)
            if view.fits is False:
                level, caveat = offload.get(slug, ("unknown", None))
                if caveat is not None and level in SUPPORT:
                    view.offload = True
                    notes.append(caveat)
                elif level == "no":
                    out.excluded.setdefault(slug, []).append(_cannot_offload(model, view, caveat))
                else:  # unknown, never "no": it stays, and the page says what is not known
                    notes.append(
                        reason(
                            f"Does not fit the GPUs, and no source says whether {name} can keep "
                            "part of the model in CPU memory.",
                            None,
                            kind="unknown",
                        )
                    )
            out.fits[slug] = view
        out.notes[slug] = notes
    return out


def _needs_offload(subject: Subject) -> None:
    """A model bigger than the GPUs is the need the sources advise on ("a model larger than GPU
    memory"): their rules for it apply, as if it were ticked, and the page says so."""
    needs = subject.answers.get("needs", ())
    if "cpu-offload" in needs:
        return
    order = QUESTIONS_BY_ID["needs"].option_ids()
    subject.answers["needs"] = tuple(o for o in order if o in {*needs, "cpu-offload"})
    subject.assumed.append(
        f"it does not fit, so the need “{option_label('needs', 'cpu-offload')}” counts as ticked"
    )


def _own_fit(session: Session, subject: Subject, system: str) -> FitAnswer | None:
    """The fit by a server's own accounting, where the Atlas knows it (fit_systems.SYSTEMS)."""
    from app.decision.fit_systems import SYSTEMS

    if system not in SYSTEMS:
        return None
    try:
        return fit_answer(session, subject, system=system)
    except FitInputError:
        return None
