"""Best-for and weakness lines as a person reads them: near-duplicates folded into one line
with every source that says it, and a caution on a line that should not be read flat.

Pure: it takes the system's lines and its cells (what every source says per capability).
It weighs what sources say, as cells.py does for a cell, to build a system's read model
(app/queries/systems.py), so it lives on the read side.

- **Folding.** Several articles often say the same thing in their own words ("multi-GPU
  distributed inference", "tensor- and pipeline-parallel multi-GPU deployments"). Lines are
  compared by the topics they name (TOPICS: a small, hand-kept list of the words these
  summaries use for one idea); two lines with the same topics, or two topics in common, are
  one line with the other's text and source kept beside it. A line that names no topic is
  never folded.
- **Cautions.** A line rests on a disputed claim when one of its sources is outvoted on a
  capability the line names: that source's claim on the cell falls in another level group
  than the cell's headline (docs/data-model.md, "Weighing"). A line said only by sources
  with a weakening caveat (machine-written, vendor-interest) is marked as such.
"""

import re
from collections.abc import Iterable
from typing import Literal

from app.schemas import (
    LEVEL_GROUP,
    LEVEL_RANK,
    CategoryCells,
    Cell,
    ClaimView,
    SourcedText,
    SourceRef,
    SummaryLine,
)
from app.text import caveat_label, level_label

WEAKENING = ("machine-written", "vendor-interest")

TOPICS: dict[str, tuple[str, ...]] = {
    "multi-gpu": ("multi-gpu", "tensor-", "pipeline-parallel", "distributed", "several gpus"),
    "model-breadth": (
        "architectures",
        "model types",
        "many different models",
        "several model",
        "model support",
        "new models",
    ),
    "concurrency": (
        "concurrent",
        "many users",
        "multi-user",
        "spiky",
        "heavy traffic",
        "hundreds of requests",
        "high concurrency",
    ),
    "production": ("production",),
    "ecosystem": ("ecosystem", "community", "tutorials", "integrations", "observability"),
    "cloud": ("cloud", "clouds", "kubernetes"),
    "prefix": ("prefix", "prefixes", "radix", "system prompt", "shared context", "rag"),
    "structured": ("json", "schema", "grammar", "grammars", "structured", "regular expression"),
    "amd": ("amd", "rocm"),
    "apple": ("apple", "metal", "mac", "macs"),
    "consumer-gpu": ("consumer", "rtx", "modest vram"),
    "single-user": ("single-user", "one user", "single user"),
    "agents": ("agent", "agents", "agentic", "tool", "tools"),
    "throughput": ("throughput",),
    "latency": ("latency", "ttft"),
    "setup": ("setup", "configuration", "install"),
}
_TOPIC_PATTERNS = {
    topic: re.compile(r"(?<![a-z0-9])(" + "|".join(re.escape(k) for k in keys) + r")(?![a-z0-9])")
    for topic, keys in TOPICS.items()
}
# Words of a capability's name too common to tie a line to it ("Prefix caching" is tied by
# "prefix", "AMD ROCm" by "rocm").
GENERIC = {
    "support",
    "supported",
    "model",
    "models",
    "serving",
    "server",
    "output",
    "api",
    "apis",
    "gpu",
    "gpus",
    "cpu",
    "cache",
    "caching",
    "decoding",
    "batching",
    "mode",
    "with",
    "and",
    "the",
    "for",
    "decode",
    "prefill",
    "inference",
    "throughput",
    "latency",
    "memory",
    "multi",
    "format",
    "formats",
    "user",
    "users",
    "setup",
    "easy",
}


def topics(text: str) -> frozenset[str]:
    """The TOPICS a line names (matched as whole words, in lower case)."""
    lowered = text.lower()
    return frozenset(t for t, pattern in _TOPIC_PATTERNS.items() if pattern.search(lowered))


def _same(a: frozenset[str], b: frozenset[str]) -> bool:
    return bool(a) and (a == b or len(a & b) >= 2)


def fold(lines: Iterable[SourcedText]) -> list[tuple[SourcedText, list[SourcedText]]]:
    """Each line with the later lines that say much the same, in the order first seen."""
    groups: list[tuple[SourcedText, frozenset[str], list[SourcedText]]] = []
    for line in lines:
        mine = topics(line.text)
        for _first, theirs, similar in groups:
            if _same(mine, theirs):
                similar.append(line)
                break
        else:
            groups.append((line, mine, []))
    return [(first, similar) for first, _, similar in groups]


def _name_words(cell: Cell) -> set[str]:
    words = re.findall(r"[a-z0-9]+", f"{cell.name} {cell.capability}".lower())
    return {w for w in words if len(w) >= 3 and w not in GENERIC}


def _against(cell: Cell) -> bool:
    """Some current source reads the cell otherwise: a dispute, or an article the project's
    own word outweighs (both can outvote a line)."""
    return cell.disputed or any(c.outweighed for c in cell.claims)


def _outvoted(cell: Cell, source: str, weakness: bool) -> ClaimView | None:
    """`source`'s current claim on a disputed cell, when it reads against the headline in the
    line's direction: lower for a weakness, higher for a strength."""
    if not _against(cell):
        return None
    headline = LEVEL_RANK.get(cell.level, 0)
    for claim in cell.claims:
        if claim.source.slug == source and not claim.withdrawn:
            if LEVEL_GROUP.get(claim.level) in (None, LEVEL_GROUP.get(cell.level)):
                continue
            rank = LEVEL_RANK.get(claim.level, 0)
            if (rank < headline) if weakness else (rank > headline):
                return claim
    return None


def _disputed(
    texts: list[SourcedText], cells: list[Cell], system: str, weakness: bool
) -> tuple[str, str] | None:
    # Only a cell some source reads otherwise can outvote a line: the rest are skipped first.
    disputed = [cell for cell in cells if _against(cell)]
    if not disputed:
        return None
    said_by = [(line, set(re.findall(r"[a-z0-9]+", line.text.lower()))) for line in texts]
    for cell in disputed:
        names = _name_words(cell)
        for line, said in said_by:
            claim = _outvoted(cell, line.source.slug, weakness) if names & said else None
            if claim is None:
                continue
            others = sum(
                1
                for c in cell.claims
                if not c.withdrawn and LEVEL_GROUP.get(c.level) == LEVEL_GROUP.get(cell.level)
            )
            text = (
                f"{claim.source.short} reads {cell.name} as "
                f"“{level_label(claim.level).lower()}”, but {others} other "
                f"{'source reads' if others == 1 else 'sources read'} it as "
                f"“{level_label(cell.level).lower()}”."
            )
            link = f"/systems/{system}/claims/{cell.capability}/{claim.source.slug}"
            return text, link
    return None


def _weak_only(sources: list[SourceRef]) -> str | None:
    kinds: set[str] = set()
    for source in sources:
        weakening = {c.kind for c in source.caveats if c.kind in WEAKENING}
        if not weakening:
            return None
        kinds |= weakening
    marks = "; ".join(caveat_label(k) for k in sorted(kinds))
    if len({s.slug for s in sources}) == 1:
        return f"Only a source with a caveat says this ({marks})."
    return f"Only sources with caveats say this ({marks})."


def summarise(
    lines: list[SourcedText],
    features: list[CategoryCells],
    hardware: list[CategoryCells],
    system: str,
    *,
    weakness: bool,
) -> list[SummaryLine]:
    """The lines folded and marked: the best supported first (most sources), cautioned ones
    last, otherwise in the seed's order."""
    cells = [c for group in (*features, *hardware) for c in group.cells]
    out: list[tuple[tuple[int, int, int], SummaryLine]] = []
    for position, (first, similar) in enumerate(fold(lines)):
        texts = [first, *similar]
        disputed = _disputed(texts, cells, system, weakness)
        caution, link = disputed if disputed else (_weak_only([t.source for t in texts]), None)
        kind: Literal["disputed", "weak"] | None = None
        if caution is not None:
            kind = "disputed" if disputed else "weak"
        sources = len({t.source.slug for t in texts})
        line = SummaryLine(
            text=first.text,
            source=first.source,
            similar=similar,
            caution=caution,
            caution_kind=kind,
            caution_link=link,
        )
        out.append(((caution is not None, -sources, position), line))
    return [line for _, line in sorted(out, key=lambda pair: pair[0])]
