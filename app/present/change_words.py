"""A change in the history said in words, with a link to what it changed, and what changed
field by field as short plain text (`field_changes`). Pure.

"Changed Server overview's claim on vLLM · Prefix caching" reads better than the key
"vllm/prefix-caching/overview-early-2026"; the key stays on the page for those who need it.
Links are built from our own path prefixes and quoted slugs, so a hostile key can never
become a javascript: or off-site link.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlencode

from app.schemas import FieldChange, Names, RevisionView
from app.text import CONFIG_LABELS, entity_label

VERBS = {"create": "Added", "update": "Changed", "delete": "Removed", "withdraw": "Withdrew"}
PAGES = {  # entity -> the path its page lives under
    "system": "/systems/",
    "capability": "/features/",
    "hardware": "/hardware/",
    "model": "/models/",
    "workload": "/workloads/",
}


@dataclass(frozen=True)
class ChangeWords:
    text: str
    link: str | None  # the changed item's page, relative to the site


def cell_link(system: str, capability: str) -> str:
    return "/matrix/cell?" + urlencode({"system": system, "capability": capability})


def result_link(system: str, result: str) -> str:
    return "/benchmarks?" + urlencode({"system": system}) + "#result-" + quote(result, safe="")


def describe(revision: RevisionView, names: Names) -> ChangeWords:
    """The change in a sentence, and where to see the item now."""
    verb = VERBS.get(revision.action, revision.action.capitalize())
    doc: dict[str, Any] = revision.after or revision.before or {}
    system = revision.system or ""
    system_name = names.systems.get(system, system)
    if revision.entity == "claim":
        parts = revision.key.split("/")
        if len(parts) == 3:
            sys, cap, src = parts
            who = names.sources.get(src, src)
            on = f"{names.systems.get(sys, sys)} · {names.capabilities.get(cap, cap)}"
            return ChangeWords(f"{verb} {who}'s claim on {on}", cell_link(sys, cap))
    if revision.entity == "benchmark_result":
        metric = str(doc.get("metric") or "benchmark").replace("-", " ")
        link = None if revision.action == "delete" else result_link(system, revision.key)
        return ChangeWords(f"{verb} a {metric} figure for {system_name}", link)
    if revision.entity == "note":
        return _note(verb, doc, names)
    if revision.entity in PAGES:
        name = doc.get("name") or revision.key
        link = None if revision.action == "delete" else PAGES[revision.entity] + quote(revision.key)
        return ChangeWords(f"{verb} {entity_label(revision.entity).lower()} {name}", link)
    if revision.entity == "source":
        short = doc.get("short") or revision.key
        return ChangeWords(f"{verb} source {short}", "/sources#" + quote(revision.key))
    if revision.entity == "dataset":
        verb = "Loaded" if revision.action == "create" else verb
        return ChangeWords(f"{verb} the published data set", "/sources")
    return ChangeWords(f"{verb} {entity_label(revision.entity).lower()} {revision.key}", None)


def _note(verb: str, doc: Mapping[str, Any], names: Names) -> ChangeWords:
    system = str(doc.get("system") or "")
    system_name = names.systems.get(system, system)
    if doc.get("on") == "claim" and doc.get("capability"):
        cap = str(doc["capability"])
        on = f"{system_name} · {names.capabilities.get(cap, cap)}"
        return ChangeWords(f"{verb} a team note on {on}", cell_link(system, cap))
    if doc.get("on") == "result" and doc.get("result"):
        text = f"{verb} a team note on a {system_name} benchmark figure"
        return ChangeWords(text, result_link(system, str(doc["result"])))
    link = PAGES["system"] + quote(system) if system else None
    return ChangeWords(f"{verb} a team note on {system_name or 'an item'}", link)


# --- what changed, field by field --------------------------------------------------------

MAX_VALUE_CHARS = 160


# A revision's fields are the stored documents' keys; people read these labels (the forms'
# own words where a form has the field). A key not listed reads as its words, capitalised.
FIELD_LABELS = {
    "system_version": "System version",
    "run_by": "Measured by",
    "date": "Measured on",
    "gpus": "GPUs",
    "hardware": "Accelerator",
    "hardware_text": "Accelerator as typed",
    "model_text": "Model as typed",
    "memory_gb": "Memory (GB)",
    "reported_memory_gb": "Reported memory (GB)",
    "parameters_b": "Parameters (billions)",
    "active_parameters_b": "Active parameters (billions)",
    "usd_per_gpu_hour": "Price per GPU-hour (USD)",
    "form_factor": "Form factor",
    "status_since": "Status since",
    "repo": "Repository",
    "url": "Address",
    "low": "From",
    "high": "To",
    "qualifier": "How exact",
    "how": "How to enable it",
    "kv_cache_dtype": "KV cache precision",
    "input_tokens": "Input tokens",
    "output_tokens": "Output tokens",
    "request_rate": "Request rate",
    "ttft_p99": "p99 time to first token",
    "tpot_p99": "p99 time per output token",
}


def field_label(name: str) -> str:
    """A stored field's key as people read it: 'memory_gb' -> 'Memory (GB)'."""
    if name in FIELD_LABELS:
        return FIELD_LABELS[name]
    if " " in name:  # already a label (a config.json fact, spread by _spread_config)
        return name
    words = name.replace("_", " ").replace("-", " ")
    return words[:1].upper() + words[1:]


def field_changes(revision: RevisionView) -> list[FieldChange]:
    """The fields whose values differ between `before` and `after`, as short plain text.

    A created item shows every field it has, a deleted one every field it had. A list that
    changed shows only the entries removed (before) and added (after); values longer than
    `MAX_VALUE_CHARS` are cut short (the JSON has them whole).
    """
    before, after = _spread_config(revision.before or {}), _spread_config(revision.after or {})
    out = []
    for name in dict.fromkeys([*before, *after]):
        old, new = before.get(name), after.get(name)
        if old == new:
            continue
        if isinstance(old, list) and isinstance(new, list):
            old, new = _list_difference(old, new)
        out.append(FieldChange(field=name, before=_text(old), after=_text(new)))
    return out


def _spread_config(doc: dict[str, Any]) -> dict[str, Any]:
    """A model's config.json facts (a dict under `config`) as one labelled field each."""
    facts = doc.get("config")
    if not isinstance(facts, dict):
        return doc
    spread = {k: v for k, v in doc.items() if k != "config"}
    return spread | {f"config.json {CONFIG_LABELS.get(k, k)}": v for k, v in facts.items()}


def _list_difference(old: list[Any], new: list[Any]) -> tuple[Any, Any]:
    removed = [item for item in old if item not in new]
    added = [item for item in new if item not in old]
    if not removed and not added:
        return "(the same entries in another order)", "(reordered)"
    return removed or None, added or None


def _text(value: Any) -> str | None:
    """A value as one short line of plain text (escaping is the template's job)."""
    if value is None:
        return None
    if isinstance(value, bool):
        text = "yes" if value else "no"
    elif isinstance(value, dict):
        text = ", ".join(f"{k}: {_text(v)}" for k, v in value.items())
    elif isinstance(value, float) and value.is_integer():
        text = str(int(value))  # JSON gives no int/float distinction worth showing: 2300.0 -> 2300
    elif isinstance(value, list):
        text = "; ".join(_text(v) or "—" for v in value)
    else:
        text = str(value)
    text = " ".join(text.split())
    return text if len(text) <= MAX_VALUE_CHARS else text[: MAX_VALUE_CHARS - 1].rstrip() + "…"
