"""What the team catalogue accepts (app/writes/entries.py): new hardware, models, workloads
and systems, and changes to them. Field types are the seed's own (app/seeding/schema.py),
numbers as the app prints them ("2,550") included."""

from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, StringConstraints, model_validator

from app.seeding.schema import (
    MOE_KINDS,
    FormFactor,
    Licence,
    ModelKind,
    OptionalText,
    Slug,
    Strict,
    Text,
    Url,
)
from app.writes.config_json import ConfigJson
from app.writes.inputs import Version, _typed_number

NAME_MAX = 200
ALIASES_MAX = 20
Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=NAME_MAX)]
Aliases = Annotated[list[Name], Field(max_length=ALIASES_MAX)]
Shape = Literal["chat", "rag", "agentic", "batch"]
SystemKind = Literal["engine", "wrapper", "desktop-app", "orchestration", "proxy", "library"]
Amount = Annotated[
    Annotated[float, Field(gt=0, le=1_000_000)] | None, BeforeValidator(_typed_number)
]
Tokens = Annotated[
    Annotated[int, Field(ge=1, le=10_000_000)] | None, BeforeValidator(_typed_number)
]
OptionalName = Annotated[Name | None, BeforeValidator(lambda v: v or None)]


class EntryIn(Strict):
    name: Annotated[Text, StringConstraints(max_length=NAME_MAX)]
    slug: Slug | None = None
    aliases: Aliases = Field(default_factory=list)


class HardwareIn(EntryIn):
    vendor: OptionalName = None
    memory_gb: Amount = None
    form_factor: Annotated[FormFactor | None, BeforeValidator(lambda v: v or None)] = None
    note: OptionalText = None


def _old_architecture(data: Any) -> Any:
    # Before migration 0011 a model's dense/moe was `architecture`; it is `kind` now, and
    # `architecture` the Hugging Face class. Clients (and backups) written before still send it.
    if isinstance(data, dict) and data.get("architecture") in ("dense", "moe", ""):
        data = {**data}
        old = data.pop("architecture")
        data.setdefault("kind", old)
    return data


Kind = Annotated[ModelKind | None, BeforeValidator(lambda v: v or None)]


class ModelIn(EntryIn):
    family: OptionalName = None
    parameters_b: Amount = None
    kind: Kind = None
    active_parameters_b: Amount = None
    hf_id: OptionalName = None  # kept as an alias (Qwen/Qwen3-32B)
    note: OptionalText = None
    # The model's config.json as pasted: its class and facts (app/writes/config_json.py).
    config: ConfigJson | None = None

    _renamed = model_validator(mode="before")(_old_architecture)

    @model_validator(mode="after")
    def _active(self) -> "ModelIn":
        if self.active_parameters_b is not None:
            if self.kind not in MOE_KINDS:
                raise ValueError(
                    f"active_parameters_b is for a mixture of experts (kind {', '.join(MOE_KINDS)})"
                )
            if self.parameters_b is not None and self.active_parameters_b > self.parameters_b:
                raise ValueError("active_parameters_b cannot exceed parameters_b")
        return self


class WorkloadIn(EntryIn):
    description: OptionalText = None
    input_tokens: Tokens = None
    output_tokens: Tokens = None
    shape: Annotated[Shape | None, BeforeValidator(lambda v: v or None)] = None


INPUTS: dict[str, type[EntryIn]] = {
    "hardware": HardwareIn,
    "model": ModelIn,
    "workload": WorkloadIn,
}


def entry_fields(entry: EntryIn) -> dict[str, Any]:
    """The columns of a new entry (aliases, slug and a model's Hugging Face id apart)."""
    return entry.model_dump(exclude={"slug", "aliases", "hf_id", "config"})


def entry_config(entry: EntryIn) -> ConfigJson | None:
    """A model's pasted config.json, checked; None for other kinds or when none was given."""
    return getattr(entry, "config", None)


def entry_aliases(entry: EntryIn) -> list[str]:
    hf_id = getattr(entry, "hf_id", None)
    return [*entry.aliases, *([hf_id] if hf_id else [])]


def patch_model(kind: str) -> type[Strict]:
    """The PATCH body of `kind`: every field optional, plus `version`."""
    return PATCHES[kind]


class _Patch(Strict):
    version: Version | None = None
    name: Annotated[Text, StringConstraints(max_length=NAME_MAX)] | None = None
    aliases: Aliases | None = None
    withdrawn: bool | None = None


class HardwarePatch(_Patch):
    vendor: OptionalName = None
    memory_gb: Amount = None
    form_factor: Annotated[FormFactor | None, BeforeValidator(lambda v: v or None)] = None
    note: OptionalText = None


class ModelPatch(_Patch):
    family: OptionalName = None
    parameters_b: Amount = None
    kind: Kind = None

    _renamed = model_validator(mode="before")(_old_architecture)
    active_parameters_b: Amount = None
    note: OptionalText = None


class WorkloadPatch(_Patch):
    description: OptionalText = None
    input_tokens: Tokens = None
    output_tokens: Tokens = None
    shape: Annotated[Shape | None, BeforeValidator(lambda v: v or None)] = None


PATCHES: dict[str, type[Strict]] = {
    "hardware": HardwarePatch,
    "model": ModelPatch,
    "workload": WorkloadPatch,
}


class SystemIn(Strict):
    name: Annotated[Text, StringConstraints(max_length=NAME_MAX)]
    kind: SystemKind
    slug: Slug | None = None
    licence: Licence = "unknown"
    status: Literal["active", "maintenance", "archived", "unknown"] = "active"
    language: OptionalName = None
    repository: Annotated[Url | None, BeforeValidator(lambda v: v or None)] = None
    summary: Annotated[Text, StringConstraints(max_length=2000)] = "Added by the team."


class SystemPatch(Strict):
    version: Version | None = None
    name: Annotated[Text, StringConstraints(max_length=NAME_MAX)] | None = None
    kind: SystemKind | None = None
    licence: Licence | None = None
    status: Literal["active", "maintenance", "archived", "unknown"] | None = None
    language: OptionalName = None
    repository: Annotated[Url | None, BeforeValidator(lambda v: v or None)] = None
    summary: Annotated[Text, StringConstraints(max_length=2000)] | None = None
    withdrawn: bool | None = None
