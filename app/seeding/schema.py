"""The shape of each seed record, checked by pydantic (types, allowed values, unknown fields)."""

import datetime as dt
import re
import unicodedata
from typing import Annotated, Any, Literal, get_args
from urllib.parse import urlsplit

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationInfo,
    field_validator,
)

from app.vocabulary.fixed import CAVEAT_KINDS, SOURCE_KINDS

SLUG_PATTERN = r"^[a-z0-9]+(?:[-.][a-z0-9]+)*$"
SLUG_MAX = 100  # the database's slug columns
SLUG_RULE = f"lower-case letters, digits, dashes and dots, {SLUG_MAX} characters at most"
TEXT_MAX = 2000  # a long paragraph; the longest text today (a summary) is under 600
SHORT_MAX = 60  # sources.short, the database column: it labels citations inline
FIGURE_MAX = 1e15  # beyond any real figure in these units, far below float overflow in charts
INT_MAX = 2**31 - 1  # the largest integer every SQL database stores in an integer column
DATE_PATTERN = r"^\d{4}(?:-\d{2}(?:-\d{2})?)?$"
DAY_PATTERN = r"^\d{4}-\d{2}-\d{2}$"
# A release as projects write it: an optional v, digits and dots, an optional pre- or
# post-release suffix (v0.4.0, 0.5.0rc1, 1.2.post1, 2.0.0-beta.2), or a llama.cpp build (b1234).
VERSION_PATTERN = r"^(?:v?\d+(?:\.\d+)*(?:[-.]?(?:rc|a|b|alpha|beta|dev|post)\.?\d*)?|b\d+)$"
VERSION_RULE = "a version such as v0.4.0, 0.5.0rc1, 1.2.post1 or b1234"
VERSION_MAX = 40  # the database's version and since columns
COMMIT_PATTERN = r"^[0-9a-f]{7,40}$"
HOW_MAX = 200  # claim.how: a flag or an option, not a paragraph
Unit = Literal[
    "tok/s",
    "tok/s/user",  # per-user (interactive) throughput: what one stream of a busy server sees
    "ms",
    "s",
    "min",
    "%",
    "x",
    "req/s",
    "GB",
    "MB",
    "requests",
    "score",
    "W",  # GPU board power, from a benchmark tool's telemetry (imports only)
]
UNITS: tuple[str, ...] = get_args(Unit)
Licence = Literal[
    "Apache-2.0",
    "MIT",
    "BSD-3-Clause",
    "Apache-2.0 OR MIT",
    "AGPL-3.0",
    "HFOIL-1.0",
    "Proprietary",
    "unknown",
]
Tag = Literal[
    "local-dev",
    "desktop",
    "apple-silicon",
    "cpu",
    "edge",
    "mobile",
    "browser",
    "production",
    "high-throughput",
    "prefix-heavy",
    "structured-output",
    "agents",
    "coding-agents",
    "quantized",
    "exotic-quantization",
    "creative-writing",
    "nvidia-only",
    "non-nvidia",
    "multi-model",
    "orchestration",
    "proxy",
    "research",
    "embedded",
    "huggingface",
    "enterprise",
    "large-models",
    "translation",
    "moe",
]
FactAttribute = Literal[
    "licence",
    "status",
    "language",
    "repository",
    "version",
    "developer",
    "github-stars",
    "contributors",
    "paper",
    "model-support",
    "platform",
    "based-on",
]


def _date_to_text(value: Any) -> Any:
    # YAML 1.2 may still hand back a date object for an unquoted 2026-04-03.
    return value.isoformat() if isinstance(value, dt.date) else value


def _calendar_date(value: str) -> str:
    # The pattern lets 2026-13 or 2026-02-30 through; pages turn dates into real ones.
    year, month, day = ([int(p) for p in value.split("-")] + [1, 1])[:3]
    try:
        dt.date(year, month, day)
    except ValueError:
        raise ValueError("not a calendar date; allowed: a real year, month and day") from None
    return value


def _printable(value: str) -> str:
    # A stray NUL or escape code is invisible in an editor, and some databases refuse NUL.
    bad = next((c for c in value if unicodedata.category(c) == "Cc" and c not in "\t\n\r"), None)
    if bad is not None:
        code = f"U+{ord(bad):04X}"
        raise ValueError(f"contains the control character {code}; allowed: printable text")
    return value


def _http_url(value: str) -> str:
    # Pages link to these; only web addresses are safe to put in an href.
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname or re.search(r"\s", value):
        raise ValueError("not a web address; allowed: http:// or https:// and a host name")
    return value


def _looks_like_link(value: str) -> bool:
    scheme = urlsplit(value).scheme.lower()
    return "://" in value or scheme in ("javascript", "data", "file", "vbscript", "blob")


def is_slug(text: str) -> bool:
    """A file name or key that can be used as a slug."""
    return len(text) <= SLUG_MAX and re.match(SLUG_PATTERN, text) is not None


Slug = Annotated[str, StringConstraints(pattern=SLUG_PATTERN, max_length=SLUG_MAX)]
DateText = Annotated[
    str,
    BeforeValidator(_date_to_text),
    StringConstraints(pattern=DATE_PATTERN),
    AfterValidator(_calendar_date),
]
Text = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1, max_length=TEXT_MAX),
    AfterValidator(_printable),
]
ShortText = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1, max_length=SHORT_MAX),
    AfterValidator(_printable),
]
Url = Annotated[Text, AfterValidator(_http_url)]


def _version(value: str) -> str:
    if len(value) > VERSION_MAX or re.match(VERSION_PATTERN, value) is None:
        raise ValueError(f"not a version; allowed: {VERSION_RULE}")
    return value


def _commit(value: str) -> str:
    if re.match(COMMIT_PATTERN, value) is None:
        raise ValueError("not a commit; allowed: 7 to 40 lower-case hex digits (full 40 if known)")
    return value


def _day(value: str) -> str:
    if re.match(DAY_PATTERN, value) is None:
        raise ValueError("not a day; allowed: YYYY-MM-DD")
    return value


def _unquoted_number(value: Any) -> Any:
    # YAML reads `since: 0.4` as a number (and 1.10 as 1.1): a version must stay as written.
    if isinstance(value, int | float) and not isinstance(value, bool):
        raise ValueError(f"{value} is read as a number; quote it: '{value}'")
    return value


VersionText = Annotated[
    str,
    BeforeValidator(_unquoted_number),
    StringConstraints(strip_whitespace=True),
    AfterValidator(_version),
]
CommitText = Annotated[str, StringConstraints(strip_whitespace=True), AfterValidator(_commit)]
DayText = Annotated[DateText, AfterValidator(_day)]
HowText = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1, max_length=HOW_MAX),
    AfterValidator(_printable),
]
Level = Literal["yes", "partial", "experimental", "via", "no", "unknown"]
CaveatKind = Literal["machine-written", "vendor-interest", "estimates", "vague-date"]
assert get_args(CaveatKind) == CAVEAT_KINDS
SourceKind = Literal[
    "article",
    "paper",
    "project-docs",
    "release-notes",
    "official-blog",
    "benchmark-report",
    "team-measurement",
]
assert get_args(SourceKind) == SOURCE_KINDS


class Strict(BaseModel):
    # nan and inf parse as floats but are not figures, and sort and chart as nonsense.
    model_config = ConfigDict(extra="forbid", strict=False, allow_inf_nan=False)


class CaveatEntry(Strict):
    kind: CaveatKind
    text: Text


class SourceEntry(Strict):
    short: ShortText
    title: Text
    subtitle: Text | None = None
    publisher: Text | None = None
    author: Text | None = None
    date: DateText
    kind: SourceKind
    url: Url | None = None  # required for every kind but article (load.py)
    version: VersionText | None = None  # first-party: the docs version read ...
    commit: CommitText | None = None  # ... and/or the repository commit read
    read: DayText | None = None  # first-party: the day we read it
    note: Text | None = None
    caveats: list[CaveatEntry] = []


class CategoryEntry(Strict):
    name: Text
    kind: Literal["feature", "hardware"]


class CapabilityEntry(Strict):
    name: Text
    category: Slug
    description: Text


class CapabilitiesFile(Strict):
    categories: dict[Slug, CategoryEntry]
    capabilities: dict[Slug, CapabilityEntry]


class MetricEntry(Strict):
    name: Text
    units: list[Unit] = Field(min_length=1)
    better: Literal["higher", "lower"]
    kind: Literal["absolute", "relative", "rating"]


class SourcedLine(Strict):
    text: Text
    source: Slug


class FactEntry(Strict):
    attribute: FactAttribute
    value: Text
    date: DateText | None = None
    source: Slug
    note: Text | None = None

    @field_validator("value")
    @classmethod
    def _links_are_web_addresses(cls, value: str, info: ValidationInfo) -> str:
        # A repository is always a link. A paper is usually a citation ("Kwon et al.,
        # arXiv:2309.06180"), but when it is written as a link it must be a web one.
        attribute = info.data.get("attribute")
        if attribute == "repository" or (attribute == "paper" and _looks_like_link(value)):
            return _http_url(value)
        return value


class SystemFile(Strict):
    name: Text
    kind: Literal["engine", "wrapper", "desktop-app", "orchestration", "proxy", "library"]
    licence: Licence
    status: Literal["active", "maintenance", "archived", "unknown"]
    status_since: DateText | None = None
    language: Text | None = None
    repository: Url | None = None
    summary: Text
    summary_sources: list[Slug] = Field(min_length=1)
    best_for: list[SourcedLine] = Field(default_factory=list)
    weaknesses: list[SourcedLine] = Field(default_factory=list)
    tags: list[Tag] = Field(default_factory=list)
    facts: list[FactEntry] = Field(default_factory=list)


class ClaimEntry(Strict):
    level: Level
    strength: Annotated[int, Field(ge=1, le=3)] | None = None
    since: VersionText | None = None  # the version the source says the feature arrived in
    how: HowText | None = None  # the flag, option or build switch that turns it on
    page: Url | None = None  # the page of the source that says so
    note: Text | None = None


def _number(value: Any) -> Any:
    if isinstance(value, str):
        value = value.strip()
        return None if value == "" else value
    return value


# Every unit here measures a size, a rate, a time, a share or a ratio: none is negative.
# Zero is a real figure (a 0 ms cold start, a 0 % hit rate); a ratio of 0 is refused in
# checks.py, where the unit is known.
Figure = Annotated[float, Field(ge=0, le=FIGURE_MAX)]
Number = Annotated[Figure | None, BeforeValidator(_number)]
OptionalText = Annotated[Text | None, BeforeValidator(lambda v: v or None)]


FormFactor = Literal["sxm", "pcie", "consumer-card", "soc", "cpu"]
# What a model is built as (the old dense/moe `architecture`, renamed in migration 0011): the
# fit arithmetic of issue 36 reads the cache and the weights differently for each.
ModelKind = Literal[
    "dense", "moe", "hybrid", "vision-language", "moe-vision-language", "state-space"
]
MOE_KINDS = ("moe", "moe-vision-language", "hybrid")  # the kinds that route tokens to experts
TOKENS_MAX = 10_000_000  # far beyond any context window; a typo, not a workload


# Hardware, models and workloads share `name`, `vague` (the source names a class or leaves
# the part unstated: an entry of its own, never a guess), `aliases` (other spellings, the
# sources' among them) and `sources` (the articles that name it, and give its facts).
Aliases = Annotated[list[Text], Field(default_factory=list)]
Sources = Annotated[list[Slug], Field(default_factory=list)]


class HardwareEntry(Strict):
    name: Text
    vendor: Text | None = None
    form_factor: FormFactor | None = None
    memory_gb: Annotated[float, Field(gt=0, le=FIGURE_MAX)] | None = None  # one value only
    # What the device itself reports (nvidia-smi, rocm-smi, the runtime), in decimal GB: the
    # fit arithmetic divides this, not the marketing figure ("80GB" H100: 85.52).
    reported_memory_gb: Annotated[float, Field(gt=0, le=FIGURE_MAX)] | None = None
    reported_memory_source: Slug | None = None
    # Unified memory (Apple, GB10, Ryzen AI Max): the GPU shares the system's memory and may
    # use only `gpu_share` of it by default.
    unified_memory: bool = False
    gpu_share: Annotated[float, Field(gt=0, le=1)] | None = None
    gpu_share_source: Slug | None = None
    vague: bool = False
    aliases: Aliases
    sources: Sources
    note: Text | None = None


# A Hugging Face `architectures[0]` class name (LlamaForCausalLM): a Python identifier, kept
# as the config.json writes it, so it is not a slug (capitals, underscores). A remote-code
# class may carry its module as registries key it (modeling_grove_moe.GroveMoeForCausalLM).
HF_CLASS_PATTERN = r"^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*$"
HF_CLASS_RULE = (
    "a Hugging Face class name such as LlamaForCausalLM (letters, digits, _; a remote-code "
    "class may be prefixed by its module and a dot)"
)
HfClass = Annotated[str, StringConstraints(pattern=HF_CLASS_PATTERN, max_length=SLUG_MAX)]
Attention = Literal["gqa", "mha", "mla", "sliding-window", "chunked-local", "linear", "mamba"]
LABEL_MAX = 40  # a precision, a dtype, a GGUF arch or model_type: one word, not a sentence
Label = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1, max_length=LABEL_MAX),
    AfterValidator(_printable),
]
# A count from config.json (layers, heads, experts): a whole number above 0. Strict, so that
# `layers: '32'`, `layers: 32.5` or a YAML 1.1 `yes` is refused rather than quietly coerced.
Count = Annotated[int, Field(strict=True, ge=1, le=INT_MAX)]
LINE_MAX = 200  # support.scope and .native: a phrase or a dotted name, not a paragraph
Line = Annotated[Text, StringConstraints(max_length=LINE_MAX)]


class ModelConfig(Strict):
    """The facts of a model's own config.json (or card) that the memory arithmetic needs.

    Every field but page and source may be null: the file has no such key, or it does not
    apply (no MLA ranks on a GQA model). Export writes every field, nulls included, so a
    reader sees which facts were looked for.
    """

    page: Url  # the model's own Hugging Face page or file, never a mirror
    revision: Label | None = None  # the Hub revision read, where known
    source: Slug
    layers: Count | None = None
    hidden_size: Count | None = None
    attention_heads: Count | None = None
    kv_heads: Count | None = None
    head_dim: Count | None = None
    v_head_dim: Count | None = None
    kv_lora_rank: Count | None = None  # MLA: the compressed KV width the cache holds
    qk_rope_head_dim: Count | None = None
    sliding_window: Count | None = None  # tokens
    sliding_window_layers: Count | None = None  # how many layers use it
    layer_pattern: Text | None = None  # our words: "5 sliding : 1 full (40 sliding, 8 full)"
    linear_attention_layers: Count | None = None  # linear attention or state-space layers
    full_attention_layers: Count | None = None
    experts: Count | None = None
    experts_per_token: Count | None = None
    shared_experts: Count | None = None
    context: Count | None = None  # native positions (max_position_embeddings)
    vocab_size: Count | None = None
    torch_dtype: Label | None = None
    quantization: Label | None = None  # quantization_config.quant_method: fp8, mxfp4
    note: Text | None = None


CONFIG_FIELDS: tuple[str, ...] = tuple(ModelConfig.model_fields)


class ModelEntry(Strict):
    name: Text
    family: Text | None = None
    parameters_b: Annotated[float, Field(gt=0, le=FIGURE_MAX)] | None = None  # billions
    kind: ModelKind | None = None
    # Billions used per token by a mixture of experts, where its model card says so.
    active_parameters_b: Annotated[float, Field(gt=0, le=FIGURE_MAX)] | None = None
    architecture: HfClass | None = None  # the config.json class: LlamaForCausalLM
    base: Slug | None = None  # a quantised or fine-tuned derivative's base model
    precision: Label | None = None  # native weight precision: BF16, FP8, MXFP4
    vague: bool = False
    aliases: Aliases
    sources: Sources
    note: Text | None = None
    config: ModelConfig | None = None


class ArchitectureEntry(Strict):
    """One Hugging Face architecture class (seed/architectures.yaml), keyed by its name."""

    family: Text
    kind: ModelKind
    model_type: Label | None = None  # config.json model_type (mlx-lm's and MLC's key)
    gguf: Label | None = None  # llama.cpp general.architecture
    attention: list[Attention] = Field(min_length=1)
    note: Text | None = None
    source: Slug


# Forges whose bare https://host/org/repo is the repository's front page, never a file.
FORGES = ("github.com", "gitlab.com", "codeberg.org", "bitbucket.org")


def _not_repository_root(value: str) -> str:
    # A support row says "this registry, at this tag, lists it": the front page of the
    # repository shows neither the file nor the version.
    parts = urlsplit(value)
    path = [p for p in parts.path.split("/") if p]
    if (parts.hostname or "").lower() in FORGES and (
        len(path) <= 2 or (len(path) <= 4 and path[2] in ("tree", "-"))
    ):
        raise ValueError(
            "is a repository root; allowed: a file at a tag or commit "
            "(https://github.com/org/repo/blob/v1.0/path#L10) or a docs page at a version"
        )
    return value


class SupportEntry(Strict):
    """One row of seed/support/<source>.yaml: system S serves architecture A at level L."""

    level: Level
    since: VersionText | None = None  # the first release tag whose registry has it
    # False: the tag before `since` was not read, so it reads "by <since>".
    since_exact: Annotated[bool, Field(strict=True)] = True
    until: VersionText | None = None  # the first tag where it is gone
    scope: Line | None = None  # where it matters: "Transformers fallback", "GGUF import"
    native: Line | None = None  # the project's own key: GGUF arch, model_type, module.Class
    page: Annotated[Url, AfterValidator(_not_repository_root)]
    note: Text | None = None


class WorkloadEntry(Strict):
    name: Text
    description: Text
    input_tokens: Annotated[int, Field(ge=1, le=TOKENS_MAX)] | None = None
    output_tokens: Annotated[int, Field(ge=1, le=TOKENS_MAX)] | None = None
    vague: bool = False
    aliases: Aliases
    sources: Sources


VocabularyEntry = HardwareEntry | ModelEntry | WorkloadEntry


class BenchmarkRow(Strict):
    id: Slug
    system: Slug
    metric: Slug
    value: Number = None
    low: Number = None
    high: Number = None
    qualifier: Literal["exact", "approx", "up-to", "at-least", "less-than", "average", "max"] = (
        "exact"
    )
    unit: Unit
    # hardware, model and workload: a slug or an alias of an entry in hardware.yaml,
    # models.yaml or workloads.yaml; the loader resolves it to the slug.
    hardware: OptionalText = None
    gpus: Annotated[Annotated[int, Field(ge=1, le=INT_MAX)] | None, BeforeValidator(_number)] = (
        None  # how many of the hardware, where the source says
    )
    model: OptionalText = None
    precision: OptionalText = None
    concurrency: Annotated[
        Annotated[int, Field(ge=1, le=INT_MAX)] | None, BeforeValidator(_number)
    ] = None
    workload: OptionalText = None
    setup: OptionalText = None  # our one line on the setup the source describes
    system_version: OptionalText = None
    baseline: OptionalText = None
    run_by: OptionalText = None
    date: Annotated[DateText | None, BeforeValidator(lambda v: v or None)] = None
    note: OptionalText = None


class CapabilityTest(Strict):
    capability: Slug
    levels: list[Level] | None = None  # default: any support (yes, via, partial, experimental)


class RuleRequires(Strict):
    """Targets chosen by the systems' own data instead of by name."""

    having: CapabilityTest | None = None
    lacking: CapabilityTest | None = None
    licence: list[Literal["permissive", "copyleft", "proprietary", "unknown"]] | None = None


class RuleEntry(Strict):
    when: dict[Slug, list[Slug]] = Field(default_factory=dict)
    systems: list[Slug] = Field(default_factory=list)
    requires: RuleRequires | None = None
    effect: Literal["exclude", "boost", "penalty", "default"]
    weight: Annotated[float, Field(ge=0, le=3)] = 0  # strength: 1 mention, 2 advice, 3 first pick
    reason: Text
    source: Slug
    advice: Slug | None = None  # rules sharing it give the same advice; it counts once
    fallback: bool = False  # the source's default, set aside when more specific advice applies
    rests_on: CapabilityTest | None = None  # the claim the reason depends on (disputes)


BENCHMARK_COLUMNS: tuple[str, ...] = tuple(BenchmarkRow.model_fields)
