"""The shape of each seed record, checked by pydantic (types, allowed values, unknown fields)."""

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StringConstraints

SLUG_PATTERN = r"^[a-z0-9]+(?:[-.][a-z0-9]+)*$"
DATE_PATTERN = r"^\d{4}(?:-\d{2}(?:-\d{2})?)?$"
UNITS = ("tok/s", "ms", "s", "min", "%", "x", "req/s", "GB", "MB", "requests", "score")
LICENCES = (
    "Apache-2.0",
    "MIT",
    "BSD-3-Clause",
    "Apache-2.0 OR MIT",
    "AGPL-3.0",
    "HFOIL-1.0",
    "Proprietary",
    "unknown",
)
TAGS = (
    "local-dev", "desktop", "apple-silicon", "cpu", "edge", "mobile", "browser",
    "production", "high-throughput", "prefix-heavy", "structured-output", "agents",
    "coding-agents", "quantized", "exotic-quantization", "creative-writing", "nvidia-only",
    "non-nvidia", "multi-model", "orchestration", "proxy", "research", "embedded",
    "huggingface", "enterprise", "large-models", "translation", "moe",
)  # fmt: skip
FACT_ATTRIBUTES = (
    "licence", "status", "language", "repository", "version", "developer", "github-stars",
    "contributors", "paper", "model-support", "platform", "based-on",
)  # fmt: skip


def _date_to_text(value: Any) -> Any:
    # YAML 1.2 may still hand back a date object for an unquoted 2026-04-03.
    return value.isoformat() if isinstance(value, dt.date) else value


Slug = Annotated[str, StringConstraints(pattern=SLUG_PATTERN)]
DateText = Annotated[str, BeforeValidator(_date_to_text), StringConstraints(pattern=DATE_PATTERN)]
Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]
Level = Literal["yes", "partial", "experimental", "via", "no", "unknown"]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=False)


class SourceEntry(Strict):
    short: Text
    title: Text
    subtitle: Text | None = None
    publisher: Text | None = None
    author: Text | None = None
    date: DateText
    kind: Literal["article", "paper", "vendor-docs", "benchmark-report", "team-measurement"]
    url: Text | None = None
    note: Text | None = None


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
    units: list[Literal[UNITS]] = Field(min_length=1)  # type: ignore[valid-type]
    better: Literal["higher", "lower"]
    kind: Literal["absolute", "relative", "rating"]


class SourcedLine(Strict):
    text: Text
    source: Slug


class FactEntry(Strict):
    attribute: Literal[FACT_ATTRIBUTES]  # type: ignore[valid-type]
    value: Text
    date: DateText | None = None
    source: Slug
    note: Text | None = None


class SystemFile(Strict):
    name: Text
    kind: Literal["engine", "wrapper", "desktop-app", "orchestration", "proxy", "library"]
    licence: Literal[LICENCES]  # type: ignore[valid-type]
    status: Literal["active", "maintenance", "archived", "unknown"]
    status_since: DateText | None = None
    language: Text | None = None
    repository: Text | None = None
    summary: Text
    summary_sources: list[Slug] = Field(min_length=1)
    best_for: list[SourcedLine] = Field(default_factory=list)
    weaknesses: list[SourcedLine] = Field(default_factory=list)
    tags: list[Literal[TAGS]] = Field(default_factory=list)  # type: ignore[valid-type]
    facts: list[FactEntry] = Field(default_factory=list)


class ClaimEntry(Strict):
    level: Level
    strength: Annotated[int, Field(ge=1, le=3)] | None = None
    note: Text | None = None


def _number(value: Any) -> Any:
    if isinstance(value, str):
        value = value.strip()
        return None if value == "" else value
    return value


Number = Annotated[float | None, BeforeValidator(_number)]
OptionalText = Annotated[Text | None, BeforeValidator(lambda v: v or None)]


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
    unit: Literal[UNITS]  # type: ignore[valid-type]
    hardware: OptionalText = None
    model: OptionalText = None
    precision: OptionalText = None
    concurrency: Annotated[int | None, BeforeValidator(_number)] = None
    workload: OptionalText = None
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
    weight: Annotated[float, Field(ge=0, le=3)] = 0
    reason: Text
    source: Slug
    advice: Slug | None = None  # rules sharing it give the same advice; it counts once
    fallback: bool = False  # the source's default, set aside when more specific advice applies
    rests_on: CapabilityTest | None = None  # the claim the reason depends on (disputes)


BENCHMARK_COLUMNS: tuple[str, ...] = tuple(BenchmarkRow.model_fields)
