"""The editors' "Add hardware / model / workload / system" form: what it shows and reads.

One form per kind, each field named as the write API names it (app/writes/entry_inputs.py),
aliases one per line. Problems are said per field in words a person can act on (base.py).
"""

import json
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from app.forms.base import Clash, side_by_side, validated
from app.writes.common import TeamError
from app.writes.config_json import ConfigJson
from app.writes.entry_inputs import INPUTS, EntryIn, SystemIn, SystemPatch, patch_model

KINDS = ("hardware", "model", "workload", "system")
HEADINGS = {
    "hardware": "Add hardware",
    "model": "Add a model",
    "workload": "Add a workload",
    "system": "Add a system",
}
FIELDS: dict[str, tuple[str, ...]] = {
    "hardware": ("name", "vendor", "memory_gb", "form_factor", "aliases", "slug"),
    "model": (
        "name",
        "hf_id",
        "family",
        "parameters_b",
        "model_kind",
        "active_parameters_b",
        "aliases",
        "config",
        "slug",
    ),
    "workload": (
        "name",
        "shape",
        "input_tokens",
        "output_tokens",
        "description",
        "aliases",
        "slug",
    ),
    "system": ("name", "kind", "licence", "repository", "summary", "slug"),
}
CHOICES: dict[str, list[tuple[str, str]]] = {
    "form_factor": [
        ("sxm", "SXM module"),
        ("pcie", "PCIe card"),
        ("consumer-card", "consumer graphics card"),
        ("soc", "system on a chip"),
        ("cpu", "CPU"),
    ],
    # A model's kind; "kind" is the system's (engine, wrapper...), so the form names it apart.
    "model_kind": [
        ("dense", "dense"),
        ("moe", "mixture of experts"),
        ("hybrid", "hybrid"),
        ("vision-language", "vision-language"),
        ("moe-vision-language", "vision-language mixture of experts"),
        ("state-space", "state-space"),
    ],
    "shape": [("chat", "chat"), ("rag", "RAG"), ("agentic", "agentic"), ("batch", "batch")],
    "kind": [
        ("engine", "engine"),
        ("wrapper", "wrapper"),
        ("desktop-app", "desktop app"),
        ("orchestration", "orchestration"),
        ("proxy", "proxy"),
        ("library", "library"),
    ],
}
LABELS = {
    "name": "Name",
    "vendor": "Vendor",
    "memory_gb": "Memory (GB)",
    "form_factor": "Form factor",
    "aliases": "Other names (one per line)",
    "slug": "Slug (optional)",
    "hf_id": "Hugging Face id (optional)",
    "config": "Its config.json (optional: paste the whole file; its class and facts are kept)",
    "family": "Family",
    "parameters_b": "Parameters (billions)",
    "model_kind": "Kind",
    "active_parameters_b": "Active parameters (billions, mixture of experts)",
    "shape": "Shape",
    "input_tokens": "Input tokens",
    "output_tokens": "Output tokens",
    "description": "Description (optional)",
    "kind": "Kind",
    "licence": "Licence (optional)",
    "repository": "Repository (optional)",
    "summary": "Summary (optional)",
}
PAGES = {"hardware": "hardware", "model": "models", "workload": "workloads", "system": "systems"}


GENERAL = "entry"
"""The problems key of what concerns the whole entry (a stale version): said as it is."""


@dataclass
class EntryForm:
    """The add form of one kind, or (with `slug`) the edit form of one entry, with what was
    typed and each field's problem. A published entry's edit form holds only the team's own
    aliases of it (the rest of it is read-only)."""

    kind: str
    values: dict[str, str] = field(default_factory=dict)
    problems: dict[str, str] = field(default_factory=dict)
    slug: str | None = None  # editing this entry
    name: str = ""  # its name, for the heading
    version: int | None = None
    published: bool = False
    clash: Clash | None = None  # the entry as saved meanwhile, beside what was typed

    @property
    def heading(self) -> str:
        if self.slug is None:
            return HEADINGS[self.kind]
        return f"Other names for {self.name}" if self.published else f"Edit {self.name}"

    @property
    def button(self) -> str:
        return self.heading if self.slug is None else "Save the changes"

    @property
    def action(self) -> str:
        if self.slug is None:
            return f"/catalogue/{self.kind}"
        return f"/catalogue/{self.kind}/{self.slug}/edit"

    @property
    def target(self) -> str:
        return f"add-{self.kind}" if self.slug is None else f"edit-{self.kind}"

    @property
    def fields(self) -> tuple[str, ...]:
        if self.slug is None:
            return FIELDS[self.kind]
        if self.published:
            return ("aliases",)
        return tuple(f for f in FIELDS[self.kind] if f not in ("slug", "hf_id", "config"))

    @property
    def general(self) -> list[str]:
        return [
            v if k == GENERAL else f"{k}: {v}"
            for k, v in self.problems.items()
            if k not in self.fields
        ]

    def label(self, name: str) -> str:
        return LABELS[name]

    def choices(self, name: str) -> list[tuple[str, str]] | None:
        return CHOICES.get(name)


def _model_kind(data: dict[str, Any]) -> None:
    """The form's model_kind is the model's `kind` field of the write API."""
    if "model_kind" in data:
        data["kind"] = data.pop("model_kind")


def entry_in(kind: str, values: dict[str, str]) -> EntryIn | SystemIn:
    """The posted form as the write API's input (TeamError naming each field that is wrong)."""
    data: dict[str, Any] = {k: v for k, v in values.items() if k in FIELDS[kind] and v != ""}
    _model_kind(data)
    if kind == "system":
        return validated(SystemIn, data)
    lines = values.get("aliases", "").splitlines()
    data["aliases"] = [line.strip() for line in lines if line.strip()]
    if "config" in data:
        data["config"] = pasted_config(data["config"])
    return validated(INPUTS[kind], data)


def pasted_config(text: str) -> dict[str, Any]:
    """A pasted config.json, checked key by key: one problem listing every bad key."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno}, column {exc.colno}"
        raise TeamError({"config": f"Not JSON ({exc.msg} at {where})"}) from None
    if not isinstance(data, dict):
        raise TeamError({"config": "A config.json is one JSON object: {...}"})
    try:
        ConfigJson.model_validate(data)
    except ValidationError as exc:
        bad = [f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors(include_url=False)]
        raise TeamError({"config": "; ".join(bad[:10])}) from None
    return data


def entry_changes(form: EntryForm, values: dict[str, str]) -> dict[str, Any]:
    """The posted edit form as a PATCH of the write API would give it: every field the form
    shows, an emptied one as None (TeamError naming each field that is wrong)."""
    data: dict[str, Any] = {k: values.get(k, "") or None for k in form.fields}
    _model_kind(data)
    if "aliases" in data:
        lines = values.get("aliases", "").splitlines()
        data["aliases"] = [line.strip() for line in lines if line.strip()]
    model = SystemPatch if form.kind == "system" else patch_model(form.kind)
    changes = validated(model, data).model_dump(exclude_unset=True, exclude={"version"})
    required = ("name", "kind") if form.kind == "system" else ("name",)
    missing = [k for k in required if k in changes and changes[k] is None]
    if missing:
        raise TeamError({k: "Required; an entry cannot be left without it." for k in missing})
    # Columns that always hold something: emptied, they go back to what a new entry gets
    # (a workload's description stays as it was).
    for name, default in (
        ("licence", "unknown"),
        ("summary", "Added by the team."),
        ("description", None),
    ):
        if name in changes and changes[name] is None:
            if default is None:
                del changes[name]
            else:
                changes[name] = default
    return changes


def form_values(kind: str, doc: dict[str, Any], published: bool) -> dict[str, str]:
    """A saved entry's document as its edit form's values."""
    if published:
        return {"aliases": "\n".join(doc.get("team_aliases", []))}
    values = {k: "" if doc.get(k) is None else str(doc[k]) for k in FIELDS[kind]}
    if "model_kind" in values:
        values["model_kind"] = doc.get("kind") or ""
    if "aliases" in doc:
        values["aliases"] = "\n".join(doc["aliases"])
    for name in ("memory_gb", "parameters_b", "active_parameters_b"):  # 80.0 -> 80
        if values.get(name, "").endswith(".0"):
            values[name] = values[name][:-2]
    return values


def entry_clash(form: EntryForm, yours: dict[str, str], current: dict[str, Any]) -> EntryForm:
    """The edit form after its change met a newer revision: what was typed kept in the fields,
    shown beside the entry as saved now, and based on that version so saving again puts the
    typed values on top of it (as the team results' forms do)."""
    theirs = form_values(form.kind, current, form.published)
    labels = {name: form.label(name) for name in form.fields}
    form.values = {name: yours.get(name, "") for name in form.fields}
    form.clash = side_by_side(labels, form.values, theirs, current)
    form.version = form.clash.version
    return form
