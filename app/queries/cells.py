"""Turn claim rows into cells: one per system and capability, disputes flagged.

The headline is the strongest current evidence, not merely the newest (docs/data-model.md,
"Weighing"): the project's own word first (its docs, release notes, blog), then other sources,
then sources with a caveat that weakens them (machine-written, vendor-interested); newest first
within each. A "no" that rests only on such weakened sources is shown as weak. Pages and the
JSON API both take cells from here.

A withdrawn claim (gone from the published data, kept because a team note points at it) is
listed with the others, marked, but says nothing about the cell: the headline level and the
dispute flag come from the current claims alone, and a cell whose claims are all withdrawn
reads as one no source speaks to.
"""

from collections import Counter
from collections.abc import Hashable, Iterable

from app.schemas import LEVEL_GROUP, ClaimView
from app.text import caveat_label, source_date
from app.vocabulary.fixed import FIRST_PARTY_KINDS

NO_CLAIM = "no-claim"
"""The level of a cell no (current) source speaks to: unknown, never "no"."""


def current(claims: Iterable[ClaimView]) -> list[ClaimView]:
    """The claims that are still in the published data (and every team claim)."""
    return [c for c in claims if not c.withdrawn]


# Caveats that make a source a weak witness on what a project supports.
WEAKENING_CAVEATS = ("machine-written", "vendor-interest")
FIRST_PARTY, SECONDARY, WEAKENED = 0, 1, 2  # evidence tiers, strongest first


def evidence_tier(claim: ClaimView) -> int:
    """How much a claim's source weighs on what a project supports (lower is stronger)."""
    if claim.source.kind in FIRST_PARTY_KINDS:
        return FIRST_PARTY
    if any(c.kind in WEAKENING_CAVEATS for c in claim.source.caveats):
        return WEAKENED
    return SECONDARY


def strongest_first(claims: list[ClaimView]) -> list[ClaimView]:
    """Current claims by evidence tier, newest source first within a tier, then withdrawn
    claims; ties broken by source slug (stable)."""
    ordered = sorted(claims, key=lambda c: (c.source.date, c.source.slug), reverse=True)
    return sorted(ordered, key=lambda c: (c.withdrawn, evidence_tier(c)))


newest_first = strongest_first  # the name callers knew; the order is now by weight first


def headline_claim(claims: list[ClaimView]) -> ClaimView | None:
    """The strongest current claim that says more than 'unknown'."""
    return next((c for c in strongest_first(current(claims)) if c.level != "unknown"), None)


def headline_level(claims: list[ClaimView]) -> str:
    """The strongest current source's level, skipping sources that only say 'unknown'."""
    headline = headline_claim(claims)
    return headline.level if headline else "unknown"


def is_weak(claims: list[ClaimView]) -> bool:
    """The headline is a "no" that rests only on sources with a weakening caveat."""
    headline = headline_claim(claims)
    return headline is not None and headline.level == "no" and evidence_tier(headline) == WEAKENED


_READS = {
    "yes": "yes",
    "partial": "partly",
    "experimental": "experimental",
    "via": "yes, through another project",
    "no": "no",
}
_OWN_WORD = {
    "project-docs": "the project's own docs",
    "release-notes": "the project's release notes",
    "official-blog": "the project's own blog",
}
_COUNT = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}


def _who(claim: ClaimView) -> str:
    source = claim.source
    if source.kind in FIRST_PARTY_KINDS:
        what = source.version or (source.commit[:10] if source.commit else None)
        return _OWN_WORD[source.kind] + (f" ({what})" if what else "")
    if source.kind == "team-measurement":
        return "the team's own claim"
    return f"{source.short} ({source_date(source.date)})"


def _others(claims: list[ClaimView]) -> str:
    kinds = {c.source.kind for c in claims}
    if kinds == {"article"}:
        noun = "article"
    elif kinds <= set(FIRST_PARTY_KINDS):
        noun = "first-party reading"  # the project's word, or one source read two ways
    else:
        noun = "source"
    n = len(claims)
    return f"{_COUNT.get(n, str(n))} {noun}{'' if n == 1 else 's'}"


def cell_reason(claims: list[ClaimView]) -> str:
    """Why the cell reads what it reads, in one sentence ("" when no current claim is left):
    "Reads yes: the project's own docs (v0.33.0) say so; one article disagrees." """
    now = current(claims)
    if not now:
        return ""
    headline = headline_claim(now)
    if headline is None:
        return "Reads unknown: the sources that speak to it say they do not know."
    said = [c for c in now if c.level != "unknown" and c is not headline]
    group = LEVEL_GROUP.get(headline.level)
    agree = [c for c in said if LEVEL_GROUP.get(c.level) == group]
    disagree = [c for c in said if LEVEL_GROUP.get(c.level) != group]
    who = _who(headline)
    tier = evidence_tier(headline)
    level = _READS.get(headline.level, headline.level)
    if tier == WEAKENED:
        marks = " and ".join(
            sorted(
                {
                    caveat_label(c.kind)
                    for c in headline.source.caveats
                    if c.kind in WEAKENING_CAVEATS
                }
            )
        )
        if headline.level == "no":
            sentence = f"Reads no, but weakly: {who} says so, and it is {marks}"
        else:
            sentence = f"Reads {level}: {who} says so, though it is {marks}"
    elif tier == FIRST_PARTY:
        verb = "say" if headline.source.kind in ("project-docs", "release-notes") else "says"
        sentence = f"Reads {level}: {who} {verb} so"
    elif said:
        sentence = f"Reads {level}: {who}, the newest of the sources that weigh most, says so"
    else:
        sentence = f"Reads {level}: {who}, the only source that speaks to it, says so"
    if agree and not (tier == WEAKENED and headline.level == "no"):
        sentence += f"; {_others(agree)} agree{'s' if len(agree) == 1 else ''}"
    outvoted = outweighed(now)
    beaten = [c for c in disagree if any(c is b for b in outvoted)]
    disputing = [c for c in disagree if not any(c is b for b in beaten)]
    if disputing:
        sentence += f"; {_others(disputing)} disagree{'s' if len(disputing) == 1 else ''}"
    if beaten:
        verb = "disagrees" if len(beaten) == 1 else "disagree"
        sentence += f"; {_others(beaten)} {verb}, but the project's own word outweighs "
        sentence += "it" if len(beaten) == 1 else "them"
    return sentence + "."


def cell_level(claims: list[ClaimView]) -> str:
    """The headline level, or NO_CLAIM when no current claim is left."""
    return headline_level(claims) if current(claims) else NO_CLAIM


def _first_party(claim: ClaimView) -> bool:
    return claim.source.kind in FIRST_PARTY_KINDS


def _team(claim: ClaimView) -> bool:
    return claim.source.kind == "team-measurement"


def _witnesses(claims: list[ClaimView]) -> list[ClaimView]:
    """The current claims a dispute is judged among. Where the project's own word speaks:
    its claims, and the team's own (a team that read otherwise has a real disagreement).
    Where it does not: every current claim that says more than 'unknown'."""
    said = [c for c in current(claims) if c.level in LEVEL_GROUP]
    if any(_first_party(c) for c in said):
        return [c for c in said if _first_party(c) or _team(c)]
    return said


def is_disputed(claims: list[ClaimView]) -> bool:
    """The sources that weigh disagree: the project's own sources (and the team's claim)
    fall in different groups (works / partly / not), or, where the project says nothing,
    the other sources do. An article against first-party sources that agree is no dispute:
    it is shown as outweighed (`outweighed`)."""
    return len({LEVEL_GROUP[c.level] for c in _witnesses(claims)}) > 1


def outweighed(claims: list[ClaimView]) -> list[ClaimView]:
    """Other sources' current claims that read otherwise than the project's own word, where
    that word (with the team's claim, if any) agrees with itself: the cell panel shows each
    as "an article disagrees", and the cell is not disputed. Empty otherwise."""
    witnesses = _witnesses(claims)
    groups = {LEVEL_GROUP[c.level] for c in witnesses}
    if len(groups) != 1 or not any(_first_party(c) for c in witnesses):
        return []
    return [
        c for c in current(claims) if c.level in LEVEL_GROUP and LEVEL_GROUP[c.level] not in groups
    ]


def reading_numbers(keys: list[Hashable]) -> list[int | None]:
    """For claims in file order, keyed by their cell and source: which of the source's
    readings of the cell each is (1, 2, ...), or None where the source gives only one."""
    counts = Counter(keys)
    seen: Counter[Hashable] = Counter()
    numbers: list[int | None] = []
    for key in keys:
        seen[key] += 1
        numbers.append(seen[key] if counts[key] > 1 else None)
    return numbers
