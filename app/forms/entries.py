"""The editors' "Add hardware / model / workload / system" form: what it shows and reads.

One form per kind, each field named as the write API names it (app/writes/entry_inputs.py),
aliases one per line. Problems are said per field in words a person can act on (base.py).
"""

from dataclasses import dataclass, field
from typing import Any

from app.forms.base import validated
from app.writes.entry_inputs import INPUTS, EntryIn, SystemIn

KINDS = ("hardware", "model", "workload", "system")
HEADINGS = {"hardware": "Add hardware", "model": "Add a model", "workload": "Add a workload",
            "system": "Add a system"}  # fmt: skip
FIELDS: dict[str, tuple[str, ...]] = {
    "hardware": ("name", "vendor", "memory_gb", "form_factor", "aliases", "slug"),
    "model": ("name", "hf_id", "family", "parameters_b", "architecture", "active_parameters_b",
              "aliases", "slug"),
    "workload": ("name", "shape", "input_tokens", "output_tokens", "description", "aliases",
                 "slug"),
    "system": ("name", "kind", "licence", "repository", "summary", "slug"),
}  # fmt: skip
CHOICES: dict[str, list[tuple[str, str]]] = {
    "form_factor": [("sxm", "SXM module"), ("pcie", "PCIe card"),
                    ("consumer-card", "consumer graphics card"), ("soc", "system on a chip"),
                    ("cpu", "CPU")],
    "architecture": [("dense", "dense"), ("moe", "mixture of experts")],
    "shape": [("chat", "chat"), ("rag", "RAG"), ("agentic", "agentic"), ("batch", "batch")],
    "kind": [("engine", "engine"), ("wrapper", "wrapper"), ("desktop-app", "desktop app"),
             ("orchestration", "orchestration"), ("proxy", "proxy"), ("library", "library")],
}  # fmt: skip
LABELS = {
    "name": "Name", "vendor": "Vendor", "memory_gb": "Memory (GB)", "form_factor": "Form factor",
    "aliases": "Other names (one per line)", "slug": "Slug (optional)",
    "hf_id": "Hugging Face id (optional)", "family": "Family",
    "parameters_b": "Parameters (billions)", "architecture": "Architecture",
    "active_parameters_b": "Active parameters (billions, mixture of experts)",
    "shape": "Shape", "input_tokens": "Input tokens", "output_tokens": "Output tokens",
    "description": "Description (optional)", "kind": "Kind", "licence": "Licence (optional)",
    "repository": "Repository (optional)", "summary": "Summary (optional)",
}  # fmt: skip
PAGES = {"hardware": "hardware", "model": "models", "workload": "workloads", "system": "systems"}


@dataclass
class EntryForm:
    """The add form of one kind, with what was typed and each field's problem."""

    kind: str
    values: dict[str, str] = field(default_factory=dict)
    problems: dict[str, str] = field(default_factory=dict)

    @property
    def heading(self) -> str:
        return HEADINGS[self.kind]

    @property
    def action(self) -> str:
        return f"/catalogue/{self.kind}"

    @property
    def target(self) -> str:
        return f"add-{self.kind}"

    @property
    def fields(self) -> tuple[str, ...]:
        return FIELDS[self.kind]

    @property
    def general(self) -> list[str]:
        return [f"{k}: {v}" for k, v in self.problems.items() if k not in self.fields]

    def label(self, name: str) -> str:
        return LABELS[name]

    def choices(self, name: str) -> list[tuple[str, str]] | None:
        return CHOICES.get(name)


def entry_in(kind: str, values: dict[str, str]) -> EntryIn | SystemIn:
    """The posted form as the write API's input (TeamError naming each field that is wrong)."""
    data: dict[str, Any] = {k: v for k, v in values.items() if k in FIELDS[kind] and v != ""}
    if kind == "system":
        return validated(SystemIn, data)
    lines = values.get("aliases", "").splitlines()
    data["aliases"] = [line.strip() for line in lines if line.strip()]
    return validated(INPUTS[kind], data)
