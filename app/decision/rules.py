"""Which systems a rule speaks about, and on what evidence.

A rule names its systems, or picks them by their own data (`requires`: a capability they have
or lack, a licence family). Only an explicit claim or licence fact selects a system: when the
data is silent the system is 'unknown' for that rule, which is reported, never held against it.
A rule whose reason rests on a claim that sources dispute carries both sides.
"""

from dataclasses import dataclass
from typing import Literal

from app.decision.evidence import Sides, sides
from app.decision.hardware import SUPPORT
from app.decision.model import Candidate, RuleSpec
from app.schemas import SourceRef

Status = Literal["hit", "miss", "unknown"]


@dataclass(frozen=True)
class Target:
    status: Status
    source: SourceRef  # what to cite: the claim or licence fact behind it, else the rule's source
    sides: Sides | None = None  # set when the evidence behind the rule is disputed

    @property
    def share(self) -> float:
        return self.sides.share if self.sides else 1.0


def target(rule: RuleSpec, c: Candidate) -> Target:
    """Whether `rule` speaks about `c`, and the evidence for it."""
    if rule.systems:
        if c.slug not in rule.systems:
            return Target("miss", rule.source)
        return Target("hit", rule.source, _rests_on(rule, c))
    requires = rule.requires or {}
    if "licence" in requires:
        return _licence(list(requires["licence"]), rule, c)  # type: ignore[call-overload]
    for key, wanted in (("having", True), ("lacking", False)):
        if key in requires:
            return _capability(requires[key], wanted, rule, c)  # type: ignore[arg-type]
    return Target("miss", rule.source)


def _rests_on(rule: RuleSpec, c: Candidate) -> Sides | None:
    """Both sides of the claim a rule's reason depends on, when sources disagree about it."""
    if not rule.rests_on:
        return None
    capability = str(rule.rests_on["capability"])
    levels = set(rule.rests_on.get("levels") or ("no",))  # type: ignore[call-overload]
    found = sides(c.claims.get(capability, []), levels)
    return found if found.disputed else None


def _licence(families: list[str], rule: RuleSpec, c: Candidate) -> Target:
    if c.licence_family == "unknown" and "unknown" not in families:
        return Target("unknown", (c.summary_sources or [rule.source])[0])
    if c.licence_family not in families:
        return Target("miss", rule.source)
    behind = tuple(s for family, s in c.licences if family in families)
    against = tuple(s for family, s in c.licences if family not in families)
    found = Sides(behind, against)
    source = (behind or tuple(c.licence_sources) or (rule.source,))[0]
    return Target("hit", source, found if found.disputed else None)


def _capability(test: dict[str, object], wanted: bool, rule: RuleSpec, c: Candidate) -> Target:
    """A `having` test is met by the capability or any alternative the rule lists; a `lacking`
    test only when the system lacks every one of them. Each reads the weighed cell (its
    headline: the project's own word first, app/queries/cells.py), so a secondary "no" never
    stands against first-party evidence of another way to do the same thing."""
    others = test.get("alternatives") or []
    capabilities = [str(test["capability"]), *(str(x) for x in others)]  # type: ignore[attr-defined]
    levels = set(test.get("levels") or SUPPORT)  # type: ignore[call-overload]
    found = [x for x in capabilities if c.level(x) not in ("unknown", "none")]
    having = [x for x in found if c.level(x) in levels]
    if having:
        capability = having[0]
    elif found and len(found) == len(capabilities):
        capability = found[0]
    else:  # nothing said, or not said for every alternative: unknown, never "no"
        return Target("unknown", (c.summary_sources or [rule.source])[0])
    evidence = c.evidence.get(capability) or [rule.source]
    if bool(having) != wanted:
        return Target("miss", evidence[0])
    # For 'lacking', the statement is "it does not have it": its sides are the other levels.
    sided = sides(c.claims.get(capability, []), levels if wanted else _other(levels))
    return Target("hit", evidence[0], sided if sided.disputed else None)


def _other(levels: set[str]) -> set[str]:
    return {"yes", "via", "partial", "experimental", "no"} - levels
