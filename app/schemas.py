"""Read models returned by the query layer: plain data for templates and the JSON API alike."""

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, Self

from pydantic import BaseModel, Field

# One set of field names per view class, shared by its instances (see View).
_FIELD_SETS: dict[type, set[str]] = {}


class View(BaseModel):
    """A read model: built from the data once per version, shared by requests, never changed.

    Pydantic keeps, per instance, a set of the fields that were given (700 bytes for a claim,
    2 KB for a benchmark result): at ten times the data that was 25 MB of the matrix's 58.
    Views are never dumped with `exclude_unset`, so every instance of a class shares one set
    holding all its fields (adding a field to it, as model_copy(update=...) does, changes
    nothing)."""

    def model_post_init(self, context: Any, /) -> None:
        object.__setattr__(self, "__pydantic_fields_set__", _field_set(type(self)))

    def __copy__(self) -> Self:
        copied = super().__copy__()
        object.__setattr__(copied, "__pydantic_fields_set__", self.__pydantic_fields_set__)
        return copied


def _field_set(cls: type[BaseModel]) -> set[str]:
    found = _FIELD_SETS.get(cls)
    if found is None:
        found = _FIELD_SETS[cls] = set(cls.model_fields)
    return found


PERMISSIVE = {"Apache-2.0", "MIT", "BSD-3-Clause", "Apache-2.0 OR MIT"}
COPYLEFT = {"AGPL-3.0"}
PROPRIETARY = {"Proprietary", "HFOIL-1.0"}

# Levels grouped by what they mean for a user: two sources disagree only when their
# claims fall in different groups ("yes" and "via llama.cpp" both mean it works).
LEVEL_GROUP = {
    "yes": "supported",
    "via": "supported",
    "partial": "partial",
    "experimental": "partial",
    "no": "absent",
}
LEVEL_RANK = {"yes": 5, "via": 4, "partial": 3, "experimental": 2, "no": 1, "unknown": 0}


def licence_family(licence: str) -> str:
    """permissive, copyleft, proprietary or unknown."""
    if licence in PERMISSIVE:
        return "permissive"
    if licence in COPYLEFT:
        return "copyleft"
    if licence in PROPRIETARY:
        return "proprietary"
    return "unknown"


class Caveat(View):
    kind: str  # one of vocabulary.CAVEAT_KINDS
    text: str


class SourceRef(View):
    slug: str
    short: str
    title: str
    date: str
    kind: str = "article"
    caveats: list[Caveat] = []
    # What was read of a first-party source (project docs, release notes, official blog):
    # the docs version and/or the repository commit, and the day it was read (YYYY-MM-DD).
    version: str | None = None
    commit: str | None = None
    read: str | None = None


class SourcedText(View):
    text: str
    source: SourceRef


class SummaryLine(SourcedText):
    """A best-for or weakness line as pages show it (app/queries/summary.py): near-duplicates
    from other sources folded in, and a caution where it should not be read flat."""

    similar: list[SourcedText] = []  # lines saying much the same, each with its own source
    # Why not to take it flat: it rests on a claim the other sources outweigh, or only
    # sources with a weakening caveat say it. None: nothing to add.
    caution: str | None = None
    caution_kind: Literal["disputed", "weak"] | None = None
    caution_link: str | None = None  # the claim page it rests on, when it rests on one


class Fact(View):
    attribute: str
    value: str
    date: str | None
    note: str | None
    source: SourceRef


class TeamNoteView(View):
    """A team's note beside a published item: what it says, who saved it last and when."""

    id: str
    text: str
    link: str | None  # http or https only
    by: str | None
    created_at: datetime
    updated_at: datetime
    version: int


class TeamNoteItem(TeamNoteView):
    """A note with the item it is on, by the keys the notes API takes to name one."""

    on: Literal["claim", "result", "system"]
    system: str
    capability: str | None = None
    source: str | None = None
    reading: int | None = None  # which of the source's readings, when it gives several
    result: str | None = None  # a benchmark figure's id
    item_withdrawn: bool = False  # the item has left the published data (the note stays)


class TeamNoteList(View):
    notes: list[TeamNoteItem]  # newest first
    total: int  # notes that match, on every page


class ClaimView(View):
    level: str
    strength: int | None
    note: str | None
    source: SourceRef
    since: str | None = None  # the version the source says the feature arrived in
    how: str | None = None  # the flag, option or build switch that turns it on
    page: str | None = None  # the page of the source that says so (http or https)
    # A chained claim (supported through another project): the engine's page naming the feature.
    engine_page: str | None = None
    # An article (or other non-first-party source) that reads otherwise than the project's
    # own sources, which agree: shown as "an article disagrees", and the cell not disputed.
    outweighed: bool = False
    # Kept because team notes point at it, but gone from the published data: shown, marked,
    # and never counted (headline level, disputes, the guided flow).
    withdrawn: bool = False
    # Which of the source's readings of this cell, when it gives more than one (1, 2, ...):
    # with the slugs, what a note names the claim by.
    reading: int | None = None
    team_notes: list[TeamNoteView] = []


class Cell(View):
    """What the sources say about one capability of one system."""

    capability: str
    name: str
    description: str
    # The strongest current source's level (docs/data-model.md, "Weighing"); "unknown" when
    # the sources only say "unknown"; "no-claim" when every claim left is withdrawn.
    level: str
    disputed: bool
    claims: list[ClaimView]  # current claims strongest first, then withdrawn ones
    weak: bool = False  # a "no" resting only on sources marked machine-written or vendor-interest
    reason: str = ""  # why the cell reads what it reads, in one sentence


class CategoryCells(View):
    slug: str
    name: str
    kind: str
    cells: list[Cell]


class BenchmarkView(View):
    id: str
    system: str
    system_name: str
    metric: str
    metric_name: str
    metric_kind: str
    better: str
    value: float | None
    low: float | None
    high: float | None
    qualifier: str
    unit: str
    # The context on the shared vocabulary: slugs (None: the source does not say), with
    # each entry's name and whether it is vague (a class, or a part the source leaves open).
    hardware: str | None
    hardware_name: str | None = None
    hardware_vague: bool = False
    gpus: int | None = None
    model: str | None
    model_name: str | None = None
    model_vague: bool = False
    precision: str | None
    concurrency: int | None
    workload: str | None
    workload_name: str | None = None
    workload_vague: bool = False
    setup: str | None = None  # our one line on the source's setup
    hardware_text: str | None = None  # a team result's own name for it, from before the
    model_text: str | None = None  # vocabulary (when it matched no entry it is unlisted-*)
    system_version: str | None
    baseline: str | None
    run_by: str | None
    date: str | None
    note: str | None
    source: SourceRef
    age_days: int | None = None
    stale: str | None = None  # why the figure may no longer hold
    withdrawn: bool = False  # gone from the published data: listed, never ranked or charted
    team_notes: list[TeamNoteView] = []
    # The run of an imported file the figure came from: for grouping pages, not the API.
    import_run_id: int | None = Field(default=None, exclude=True)


class SystemSummary(View):
    slug: str
    name: str
    kind: str
    licence: str
    licence_family: str
    status: str
    status_since: str | None
    language: str | None
    repository: str | None
    summary: str
    tags: list[str]
    withdrawn: bool = False  # gone from seed/, kept because team rows point at it
    team: bool = False  # added by this instance's team (POST /api/v1/systems)


class SystemDetail(SystemSummary):
    summary_sources: list[SourceRef]
    best_for: list[SourcedText]  # as the seed gives them, one per source line
    weaknesses: list[SourcedText]
    # The same lines folded and marked, as pages show them (best supported first).
    best_for_summary: list[SummaryLine] = []
    weakness_summary: list[SummaryLine] = []
    facts: list[Fact]
    features: list[CategoryCells]
    hardware: list[CategoryCells]
    benchmarks: list[BenchmarkView]
    sources: list[SourceRef]
    disputed_count: int
    team_notes: list[TeamNoteView] = []  # on the system as a whole


class TeamClaimView(View):
    """The team's own claim on one cell, with the version an edit must be based on."""

    capability: str
    level: str
    note: str | None
    version: int
    by: str | None


class MetricChoice(View):
    """A metric as the result forms offer it: its units are the only ones allowed."""

    slug: str
    name: str
    units: list[str]


class FactValue(View):
    """One value of an attribute and every source that gives it."""

    value: str
    facts: list[Fact]


class FactGroup(View):
    """One attribute (Version, Licence, ...) with all its values, so each shows once."""

    attribute: str
    values: list[FactValue]


class Glance(View):
    """What a system page says first: the few things a reader scans for."""

    latest_version: str | None
    strengths: list[SummaryLine]
    hardware: list[Cell]  # targets some source says it runs on, best supported first
    figures: list[BenchmarkView]  # a few figures measured in a full context
    feature_count: int  # features some source says it has


class CapabilityView(View):
    slug: str
    name: str
    description: str
    category: str
    category_name: str
    kind: str


class SourceDetail(SourceRef):
    subtitle: str | None
    publisher: str | None
    author: str | None
    kind: str
    url: str | None
    note: str | None
    claim_count: int
    benchmark_count: int
    fact_count: int
    systems: list[str]


class Freshness(View):
    seeded_at: str | None
    newest_source: str | None
    system_count: int
    claim_count: int
    benchmark_count: int
    source_count: int


class RevisionView(View):
    """One change: who made it, when, to what (entity and stable key), before and after."""

    id: int
    at: datetime
    actor: str
    user_id: int | None
    entity: str
    key: str
    system: str | None
    action: str
    before: dict[str, Any] | None
    after: dict[str, Any] | None
    message: str | None


class RevisionPage(View):
    """A page of the history, and the id to pass as `before` for the next (older) page."""

    revisions: list[RevisionView]
    older: int | None


class FieldChange(View):
    """One field of a revision that changed, as short plain text (None: absent on that side)."""

    field: str
    before: str | None
    after: str | None


class VocabularyEntry(View):
    """A hardware, model or workload entry with how many figures (published and team) use it."""

    slug: str
    name: str
    vague: bool  # names a class or leaves the part unstated: figures on it are loosely tied
    aliases: list[str]
    sources: list[str]  # slugs of the sources that name it
    figures: int
    withdrawn: bool = False  # left the seed files, still used by team figures
    team: bool = False  # added by this instance's team (app/writes/entries.py)


class HardwareEntryView(VocabularyEntry):
    vendor: str | None
    form_factor: str | None
    memory_gb: float | None  # as sold ("80GB"), where one value applies
    reported_memory_gb: float | None = None  # as nvidia-smi / rocm-smi / the runtime report it
    reported_memory_source: str | None = None  # the source's slug
    unified_memory: bool = False  # the GPU shares system memory (Apple, GB10, Ryzen AI Max)
    gpu_share: float | None = None  # the fraction of it the GPU may use by default
    gpu_share_source: str | None = None
    note: str | None


class ModelConfigView(View):
    """A model's config.json facts (seed models.yaml `config`); None where the file has none."""

    page: str  # the model's own Hugging Face page or file
    revision: str | None
    source: str  # the source's slug
    layers: int | None
    hidden_size: int | None
    attention_heads: int | None
    kv_heads: int | None
    head_dim: int | None
    v_head_dim: int | None
    kv_lora_rank: int | None
    qk_rope_head_dim: int | None
    sliding_window: int | None
    sliding_window_layers: int | None
    layer_pattern: str | None
    linear_attention_layers: int | None
    full_attention_layers: int | None
    experts: int | None
    experts_per_token: int | None
    shared_experts: int | None
    context: int | None
    vocab_size: int | None
    torch_dtype: str | None
    quantization: str | None
    note: str | None


class ModelEntryView(VocabularyEntry):
    family: str | None
    parameters_b: float | None  # billions
    # dense, moe, hybrid, vision-language, moe-vision-language, state-space; None: not stated
    kind: str | None = None
    active_parameters_b: float | None = None  # a mixture of experts' per token (team entries)
    architecture: str | None = None  # the Hugging Face class: LlamaForCausalLM
    base: str | None = None  # a derivative's base model (its slug)
    precision: str | None = None  # native weight precision: BF16, FP8, MXFP4
    config: ModelConfigView | None = None
    note: str | None


class WorkloadEntryView(VocabularyEntry):
    description: str
    input_tokens: int | None
    output_tokens: int | None
    shape: str | None = None  # chat, rag, agentic, batch (team entries)


@dataclass(frozen=True)
class Names:
    """Display names by slug, for systems, capabilities and sources (short names): what a change
    in the history is described with (app/present/change_words.py)."""

    systems: Mapping[str, str] = field(default_factory=dict)
    capabilities: Mapping[str, str] = field(default_factory=dict)
    sources: Mapping[str, str] = field(default_factory=dict)


class FitPerGpu(View):
    """One GPU's share of a fit (decimal GB), replication included."""

    weights_gb: float
    kv_gb: float
    overhead_gb: float
    total_gb: float
    usable_gb: float | None


class FitView(View):
    """GET /api/v1/fit: the memory a model needs on N GPUs (decimal GB, 10^9 bytes). Totals
    are across the GPUs; `fits` is null without hardware; `assumed` lists every default
    filled in and `basis` each fact with its source and each line of arithmetic."""

    model: str
    model_name: str
    hardware: str | None
    hardware_name: str | None
    system: str | None
    precision: str
    bits_per_weight: float
    kv_cache_dtype: str
    gpus: int
    context: int
    concurrency: int
    memory_utilization: float
    weights_gb: float
    kv_bytes_per_token: int
    kv_gb: float
    overhead_gb: float
    total_gb: float
    usable_gb: float | None
    per_gpu: FitPerGpu
    fits: bool | None
    min_gpus: int | None
    max_concurrency: int | None
    max_context: int | None
    assumed: list[str]
    basis: list[str]
    candidates: list[str]
    # A GPU count tensor parallelism cannot use (3 for 32 heads): why, the nearest counts
    # that work and what runs on such a count; `fits` is then false.
    split_problem: str | None = None
