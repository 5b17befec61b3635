"""What the guided flow reads (candidates, rules) and what it returns (a recommendation).

Inputs are frozen dataclasses built by the query layer; outputs are pydantic models so the
page and /api/v1/recommend render the same object.
"""

from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, Field

from app.schemas import SourceRef, View

Answers = dict[str, tuple[str, ...]]
ChangeKind = Literal["answer", "change", "add", "refine"]
Confidence = Literal["high", "medium", "low"]
FirstBy = Literal["score", "default-order", "coverage", "name", "alone"]


@dataclass(frozen=True)
class ClaimRef:
    """One source's level for one capability of one system."""

    level: str
    source: SourceRef


@dataclass(frozen=True)
class Candidate:
    slug: str
    name: str
    kind: str
    licence_family: str
    levels: dict[str, str]  # capability -> headline level (the newest source's)
    evidence: dict[str, list[SourceRef]]  # capability -> sources of the headline, newest first
    licence_sources: list[SourceRef]
    summary_sources: list[SourceRef]
    claims: dict[str, list[ClaimRef]] = field(default_factory=dict)  # every source's level
    licences: list[tuple[str, SourceRef]] = field(default_factory=list)  # (family, source)
    # The team's own measurement for the answered hardware (app/decision/measured.py).
    measured: "Reason | None" = None

    def level(self, capability: str) -> str:
        return self.levels.get(capability, "unknown")


@dataclass(frozen=True)
class RuleSpec:
    slug: str
    when: dict[str, list[str]]
    systems: list[str]
    requires: dict[str, object] | None
    effect: str  # boost, penalty, exclude, default
    weight: float
    reason: str
    source: SourceRef
    advice: str | None = None  # rules sharing it give the same advice (from several sources)
    fallback: bool = False  # a source's default: set aside when more specific advice applies
    rests_on: dict[str, object] | None = None  # the claim the reason depends on
    subject: str | None = None  # the name of the capability a `requires` rule tests

    @property
    def advice_key(self) -> str:
        return self.advice or self.slug


class SourceLink(View):
    slug: str
    short: str
    title: str
    date: str
    weight: float = 0.0  # what this source's own version of the advice is worth here


ReasonKind = Literal["for", "against", "unknown", "excluded", "set-aside"]


class Reason(View):
    text: str
    source: str | None  # source slug
    page: str | None = None  # the page of the source that says it, where one is known
    source_title: str | None = None
    source_short: str | None = None
    source_date: str | None = None
    weight: float = 0.0
    rule: str | None = None
    kind: ReasonKind = "for"
    # Further sources giving the same advice (counted once).
    also: list[SourceLink] = Field(default_factory=list)
    lead_weight: float = 0.0  # the leading source's own weight, before the corroboration bonus
    known: float = 1.0  # share of the rule's conditions that the answers settle
    disputed: str | None = None  # who stands on each side, when sources disagree


class FitView(BaseModel):
    """Whether the named model fits the named GPUs for one system (its own accounting where
    the Atlas knows it, else the general arithmetic), in numbers and in words."""

    fits: bool | None  # None: no hardware named, or no memory figure for it
    text: str  # "needs >= 2 x H100 80GB at 8k context, BF16; FP8 fits one"
    precision: str
    gpus: int
    context: int
    concurrency: int
    per_gpu_gb: float  # what one GPU must hold (decimal GB)
    usable_gb: float | None  # what one GPU may use
    min_gpus: int | None
    offload: bool = False  # does not fit, but the system keeps part of the model in CPU memory
    system_accounting: bool = False  # the server's own accounting, not the general one


class Pick(BaseModel):
    slug: str
    name: str
    score: float
    reasons: list[Reason]
    unknowns: list[Reason] = []  # what no source says: lowers confidence, never the score
    confidence: Confidence = "high"
    default_rank: int | None = None  # place in the sourced default order (orders ties)
    fit: FitView | None = None  # with a named model and hardware
    # With a named model: whether it loads the architecture (and from which release), and
    # the caveat of keeping part of the model in CPU memory, each from its source.
    model_notes: list[Reason] = []


class Excluded(BaseModel):
    slug: str
    name: str
    reasons: list[Reason]
    fit: FitView | None = None
    model_notes: list[Reason] = []


class FitChange(BaseModel):
    """A change to the setup (more GPUs, another precision, a shorter context) that would make
    the named model fit, with the query that asks it."""

    label: str
    query: str


class SubjectView(BaseModel):
    """What a model-first ask resolved to, and every assumption filled in."""

    model: str | None = None  # slug
    model_name: str | None = None
    architecture: str | None = None
    model_kind: str | None = None  # the model question's option it fills in
    hardware: str | None = None  # slug of the accelerator
    hardware_name: str | None = None
    gpus: int = 1
    context: int = 8192
    concurrency: int = 1
    precision: str | None = None  # None: the checkpoint's own
    assumed: list[str] = []
    basis: list[str] = []  # the general fit's arithmetic, line by line
    fit: FitView | None = None  # the general answer (no server's own accounting)


class Tie(BaseModel):
    """Leaders that the answers so far do not separate, and how they were put in order."""

    slugs: list[str]
    names: list[str]
    score: float
    no_advice: bool  # no source's advice depends on the answers yet
    broken_by: Literal["default-order"] = "default-order"
    order: list[Reason] = []  # the sourced default-order entries behind the order shown
    text: str


class Change(BaseModel):
    question: str
    option: str
    label: str
    new_top: str
    new_top_name: str
    # answer an open question, change a preference, add a need, or say which kind (AMD, exotic)
    kind: ChangeKind = "change"


class Unused(BaseModel):
    """An answer that moved nothing, so the person knows it was heard."""

    question: str
    options: list[str]
    text: str


class Recommendation(BaseModel):
    answers: dict[str, list[str]]
    ranked: list[Pick]
    excluded: list[Excluded]
    sources_differ: str | None = None
    differ: list[str] = []  # the systems the sources disagree about
    tie: Tie | None = None
    # What put the first place ahead of the second: its score, else the sourced default order,
    # else how many sources describe it (the name is never used for first place; tests check).
    first_by: FirstBy = "alone"
    changes: list[Change] = []
    nothing_single_changes: bool = False  # no one changeable answer moves the first place
    unused_answers: list[Unused] = []
    scale: str = ""  # how to read a score, in words
    measured: list["MeasuredRow"] = []  # the team's own measurements behind a reason
    measured_weight: str = ""  # how they count, in words (only when there are some)
    subject: SubjectView | None = None  # a named model or accelerator, resolved
    fit_changes: list[FitChange] = []  # what would make the named model fit


class MeasuredRow(BaseModel):
    """One measured system, as /decide lists it beside the ranking."""

    system: str
    setup: str
    group: str
    per_gpu: float
    basis: str
    weight: float
    cost_per_million_output_tokens: float | None = None
    joules_per_output_token: float | None = None  # from GPU telemetry; None without it
    source: str
    link: str


Recommendation.model_rebuild()
