"""Weighing the advice that applies to one system: the same advice from several sources
counts once, at its strongest, plus a little for each further source; half-known rules and
overridden defaults count only at their best; a disputed rule-out may become a penalty; and
the sourced default order is grouped like advice. Pure numbers and reasons, no memo.
"""

from collections import defaultdict
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from app.decision.evidence import link
from app.decision.hardware import reason
from app.decision.matching import Match
from app.decision.model import Candidate, Reason, RuleSpec
from app.decision.rules import Target
from app.schemas import SourceRef

CORROBORATION_STEP = 0.25
CORROBORATION_CAP = 0.5
EXCLUSION_AS_PENALTY = 3.0  # a disputed 'no' that most of the weight contradicts
OVERRIDING_STRENGTH = 2  # a passing mention never overrides other advice
GUESS_CAP = 1.0  # what a half-known rule can add at most: a mention's worth
SET_ASIDE_SHARE = 0.25  # what a default keeps once more specific advice applies


@dataclass(frozen=True)
class Item:
    """One rule applied to one system."""

    rule: RuleSpec
    match: Match
    target: Target

    @cached_property
    def weight(self) -> float:  # read thousands of times per recommendation
        sign = -1 if self.rule.effect == "penalty" else 1
        return sign * self.rule.weight * self.match.factor * self.target.share


def ruling_of(item: Item, c: Candidate) -> tuple[bool, float, Reason]:
    """(ruled out?, the penalty instead, the reason) for one exclude rule and one system."""
    text = _text(item.rule, c)
    sides = item.target.sides
    # A rule-out stands only where the "no" holds with the project's own word first: a "no"
    # that first-party evidence outweighs never rules a system out (issue 37).
    if sides is None or sides.weighed_share >= 0.5:
        extra: dict[str, Any] = {"disputed": sides.text(sides.weighed_share)} if sides else {}
        return (
            True,
            0.0,
            reason(text, item.target.source, rule=item.rule.slug, kind="excluded", **extra),
        )
    weight = -round(EXCLUSION_AS_PENALTY * sides.weighed_share, 2)
    return (
        False,
        weight,
        reason(
            text,
            item.target.source,
            weight,
            item.rule.slug,
            kind="against",
            disputed=sides.text(sides.weighed_share),
        ),
    )


def weigh(items: list[Item], set_aside: frozenset[str], c: Candidate) -> tuple[float, list[Reason]]:
    """The score the advice adds to one system, and its reasons."""
    reasons = [_reason(g, c) for g in _weighing(items, set_aside)]
    return sum(r.weight for r in reasons), reasons


def weigh_score(items: list[Item], set_aside: frozenset[str]) -> float:
    """What `_weigh` adds, the same floats summed in the same order, with no reason built."""
    return sum(g.weight for g in _weighing(items, set_aside))


@dataclass(slots=True)
class _Group:
    """One advice from one or more sources, as numbers: a reason is built from it only when
    shown (what-ifs read the score alone)."""

    lead: Item
    items: list[Item]  # the group and the shelved advice that corroborates it
    others: dict[str, SourceRef]  # the further sources, each counted once
    raw: float  # the lead's weight and the corroboration bonus, unrounded
    weight: float  # what the reason shows and the score adds
    lead_weight: float
    known: float
    aside: bool = False  # a default that more specific advice overrides


def _weighing(items: list[Item], set_aside: frozenset[str]) -> list[_Group]:
    """Each advice that applies to one system with the weight it counts, in reason order."""
    groups: dict[tuple[str, int], list[Item]] = defaultdict(list)
    aside: dict[tuple[str, int], list[Item]] = defaultdict(list)
    for item in items:
        key = (item.rule.advice_key, 1 if item.weight >= 0 else -1)
        (aside if item.rule.slug in set_aside else groups)[key].append(item)
    full: list[_Group] = []
    partial: list[_Group] = []  # guesses (half-known) and overridden defaults
    for key, shelved in aside.items():
        if key not in groups:  # the advice itself gives way; otherwise it still corroborates
            partial.append(_set_aside(shelved))
    for key, group in groups.items():
        grouped = _group(group, aside.get(key, []))
        (full if grouped.known >= 1 else partial).append(grouped)
    # Half-known rules are guesses about the open questions, and an overridden default is no
    # longer decisive: only the best boost and the worst penalty among them count, each worth
    # at most a mention (a guessed mention nothing), so they order the first answers and the
    # runners-up without outweighing advice that fits the answers.
    best = max((g for g in partial if g.weight > 0), key=lambda g: g.weight, default=None)
    worst = min((g for g in partial if g.weight < 0), key=lambda g: g.weight, default=None)
    for extra in partial:
        keep = extra is best or extra is worst
        strong = extra.lead_weight >= OVERRIDING_STRENGTH * extra.known
        sign = 1 if extra.weight > 0 else -1
        extra.weight = sign * min(abs(extra.weight), GUESS_CAP) if keep and strong else 0.0
    return full + partial


def _group(group: list[Item], shelved: list[Item] | None = None) -> _Group:
    """One advice from one or more sources: the strongest counts, each further source adds a bit."""
    # A version that fits every answer leads over a stronger one still half open: otherwise a
    # guess ("H100 or newer" against a plain "NVIDIA data-centre") would turn the whole advice
    # into a guess and hide the known version.
    lead = max(group, key=lambda i: (i.match.known >= 1, abs(i.weight)))
    group = group + (shelved or [])
    others = {i.rule.source.slug: i.rule.source for i in group}
    others.pop(lead.rule.source.slug, None)
    bonus = min(CORROBORATION_STEP * len(others), CORROBORATION_CAP) * lead.match.known
    weight = lead.weight + (bonus if lead.weight > 0 else -bonus)
    return _Group(
        lead,
        group,
        others,
        weight,
        round(weight, 2),
        round(abs(lead.weight), 2),
        round(lead.match.known, 2),
    )


def _set_aside(shelved: list[Item]) -> _Group:
    """A default that more specific advice overrides: still true, so it keeps a quarter."""
    grouped = _group(shelved)
    grouped.weight = round(grouped.weight * SET_ASIDE_SHARE, 2)
    grouped.aside = True
    return grouped


def _reason(g: _Group, c: Candidate) -> Reason:
    lead = g.lead
    own = {i.rule.source.slug: abs(i.weight) for i in sorted(g.items, key=lambda i: abs(i.weight))}
    text = _text(lead.rule, c)
    return reason(
        text + " (a default; more specific advice applies here)" if g.aside else text,
        lead.target.source,
        g.weight,
        lead.rule.slug,
        kind="set-aside" if g.aside else "for" if g.raw >= 0 else "against",
        also=[link(s, own[slug]) for slug, s in g.others.items()],
        lead_weight=g.lead_weight,
        known=g.known,
        disputed=lead.target.sides.text() if lead.target.sides else None,
    )


def _group_reason(group: list[Item], c: Candidate) -> Reason:
    return _reason(_group(group), c)


def prior_of(items: list[Item], c: Candidate) -> tuple[float, list[Reason]]:
    """The sourced default order: grouped like advice, used only to order equal scores."""
    groups: dict[str, list[Item]] = defaultdict(list)
    for item in items:
        groups[item.rule.advice_key].append(item)
    reasons = [_group_reason(g, c) for g in groups.values()]
    return sum(r.weight for r in reasons), reasons


def _text(rule: RuleSpec, c: Candidate) -> str:
    return rule.reason.replace("{name}", c.name)
