"""A change in the history said in words, with a link to what it changed. Pure.

"Changed Server overview's claim on vLLM · Prefix caching" reads better than the key
"vllm/prefix-caching/overview-early-2026"; the key stays on the page for those who need it.
Links are built from our own path prefixes and quoted slugs, so a hostile key can never
become a javascript: or off-site link.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlencode

from app.schemas import Names, RevisionView
from app.text import entity_label

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
