"""Scoring: answers + candidates + rules -> every system's score, reasons and exclusions.

The scheme (docs/decision.md works an example through it):
- hardware support from the claims: +1 (yes or via), +0.5 (partial or experimental);
- each rule adds (boost) or takes away (penalty) its strength, 1 to 3, times how much of its
  conditions the answers settle and how specific it is (see matching.py);
- the same advice from several sources counts once, at its strongest, plus 0.5 for each further
  source (at most 0.5); advice resting on a disputed claim counts in proportion to its side;
- a source's default ("production: start with vLLM") gives way to a recommendation for
  another system that uses a question the default ignores;
- half-known rules are guesses about open questions: only a system's best one counts.
"""

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from app.decision.evidence import link
from app.decision.hardware import Fit, hardware_fit, reason
from app.decision.matching import Match, match
from app.decision.model import Answers, Candidate, Reason, RuleSpec
from app.decision.rules import Target, target

CORROBORATION_STEP = 0.25
CORROBORATION_CAP = 0.5
EXCLUSION_AS_PENALTY = 3.0  # a disputed 'no' that most of the weight contradicts
OVERRIDING_STRENGTH = 2  # a passing mention never overrides other advice
GUESS_CAP = 1.0  # what a half-known rule can add at most: a mention's worth
SET_ASIDE_SHARE = 0.25  # what a default keeps once more specific advice applies


@dataclass
class Tally:
    """One system's running account."""

    candidate: Candidate
    score: float = 0.0
    prior: float = 0.0  # the sourced default order; orders ties, never adds to the score
    reasons: list[Reason] = field(default_factory=list)
    unknowns: list[Reason] = field(default_factory=list)
    exclusions: list[Reason] = field(default_factory=list)
    order: list[Reason] = field(default_factory=list)  # default-order entries that apply


@dataclass(frozen=True)
class Item:
    """One rule applied to one system."""

    rule: RuleSpec
    match: Match
    target: Target

    @property
    def weight(self) -> float:
        sign = -1 if self.rule.effect == "penalty" else 1
        return sign * self.rule.weight * self.match.factor * self.target.share


class Memo:
    """What does not depend on the answers, worked out once per recommendation (what-ifs
    re-rank dozens of times): which systems each rule speaks about, and hardware fits."""

    def __init__(self) -> None:
        self.spoken: dict[str, list[tuple[str, Target]]] = {}
        self.fits: dict[tuple[tuple[str, ...], str], Fit] = {}
        self.priors: dict[tuple[str, ...], tuple[float, list[Reason]]] = {}

    def about(self, rule: RuleSpec, candidates: list[Candidate]) -> list[tuple[str, Target]]:
        """The systems `rule` selects (or would, but their data is silent), with the evidence."""
        found = self.spoken.get(rule.slug)
        if found is None:
            pairs = ((c.slug, target(rule, c)) for c in candidates)
            found = self.spoken[rule.slug] = [(slug, t) for slug, t in pairs if t.status != "miss"]
        return found

    def prior(self, defaults: list["Item"], c: Candidate) -> tuple[float, list[Reason]]:
        """The default order rarely depends on the answers: worked out once per set."""
        key = (c.slug, *(i.rule.slug for i in defaults))
        found = self.priors.get(key)
        if found is None:
            found = self.priors[key] = _prior(defaults, c)
        return found[0], list(found[1])

    def fit(self, answers: Answers, c: Candidate) -> Fit:
        key = (answers.get("hardware", ()), c.slug)
        found = self.fits.get(key)
        if found is None:
            found = self.fits[key] = hardware_fit(answers, c)
        return found


def score(
    answers: Answers, candidates: list[Candidate], rules: list[RuleSpec], memo: Memo | None = None
) -> list[Tally]:
    """Every candidate's tally for `answers` (unsorted)."""
    memo = memo or Memo()
    tallies = {c.slug: Tally(c) for c in candidates}
    applying = [(r, m) for r in rules if (m := match(r.when, answers)) is not None]
    items = _items(tallies, applying, memo, candidates)
    for tally in tallies.values():
        _hardware(memo.fit(answers, tally.candidate), tally)
        _exclusions(tally, items[tally.candidate.slug])
    ranked = {slug for slug, t in tallies.items() if not t.exclusions}
    set_aside = _set_aside(applying, items, ranked)
    for tally in tallies.values():
        mine = items[tally.candidate.slug]
        boosts = [i for i in mine if i.rule.effect in ("boost", "penalty")]
        _weigh(tally, boosts, set_aside.get(tally.candidate.slug, set()))
        defaults = [i for i in mine if i.rule.effect == "default"]
        tally.prior, tally.order = memo.prior(defaults, tally.candidate)
    return list(tallies.values())


def _items(
    tallies: dict[str, Tally],
    applying: list[tuple[RuleSpec, Match]],
    memo: Memo,
    candidates: list[Candidate],
) -> dict[str, list[Item]]:
    out: dict[str, list[Item]] = {slug: [] for slug in tallies}
    for rule, m in applying:
        for slug, found in memo.about(rule, candidates):
            if found.status == "hit":
                out[slug].append(Item(rule, m, found))
            elif m.known == 1:
                text = _unknown(rule, tallies[slug])
                tallies[slug].unknowns.append(reason(text, found.source, rule=rule.slug,
                                                     kind="unknown"))  # fmt: skip
    return out


def _unknown(rule: RuleSpec, tally: Tally) -> str:
    """The 'no source says' line for a rule that selects systems by their data."""
    requires = rule.requires or {}
    if "licence" in requires:
        return f"No source gives {tally.candidate.name}'s licence."
    test = requires.get("having") or requires.get("lacking") or {}
    capability = str(test.get("capability", "")) if isinstance(test, dict) else ""
    subject = rule.subject or capability.replace("-", " ")
    return f"No source says whether {tally.candidate.name} has this: {subject}."


def _hardware(fit: Fit, tally: Tally) -> None:
    tally.score += fit.score
    tally.reasons += [r.model_copy() for r in fit.reasons]
    tally.unknowns += fit.unknowns
    tally.exclusions += fit.exclusions


def _exclusions(tally: Tally, items: list[Item]) -> None:
    """Rule-outs, fully answered only; a disputed one that most weight contradicts is a penalty."""
    for item in items:
        if item.rule.effect != "exclude" or item.match.known < 1:
            continue
        text = _text(item.rule, tally.candidate)
        sides = item.target.sides
        if sides is None or sides.share >= 0.5:
            extra: dict[str, Any] = {"disputed": sides.text()} if sides else {}
            tally.exclusions.append(reason(text, item.target.source, rule=item.rule.slug,
                                           kind="excluded", **extra))  # fmt: skip
        else:
            weight = -round(EXCLUSION_AS_PENALTY * sides.share, 2)
            tally.score += weight
            tally.reasons.append(reason(text, item.target.source, weight, item.rule.slug,
                                        kind="against", disputed=sides.text()))  # fmt: skip


def _set_aside(
    applying: list[tuple[RuleSpec, Match]], items: dict[str, list[Item]], ranked: set[str]
) -> dict[str, set[str]]:
    """Defaults that more specific advice overrides, per system.

    A fully met recommendation (strength 2 or more, not itself a default) sets aside, for every
    system it does not name, a source's default that ignores one of the questions it uses
    ("production: start with vLLM" gives way to "on Gaudi, TGI"). Advice for systems that
    other advice firmly warns against here sets nothing aside.
    """
    specific = [
        (r, set(r.when), {slug for slug in ranked for i in items[slug] if i.rule is r})
        for r, m in applying
        if r.effect == "boost" and not r.fallback and m.known == 1 and r.when
        and r.weight >= OVERRIDING_STRENGTH
    ]  # fmt: skip
    # Advice for systems that other advice firmly warns against here overrides nothing.
    warned = {slug for slug in ranked for i in items[slug] if _firm_warning(i)}
    specific = [(r, q, named - warned) for r, q, named in specific if named - warned]
    out: dict[str, set[str]] = {}
    for rule, _ in applying:
        if rule.effect != "boost":
            continue
        if not rule.fallback:
            continue
        mine = set(rule.when)
        for _, questions, named in specific:
            if questions - mine:
                for slug in ranked - named:
                    out.setdefault(slug, set()).add(rule.slug)
    return out


def _firm_warning(item: Item) -> bool:
    return (item.rule.effect == "penalty" and item.match.known == 1
            and item.rule.weight >= OVERRIDING_STRENGTH)  # fmt: skip


def _weigh(tally: Tally, items: list[Item], set_aside: set[str]) -> None:
    groups: dict[tuple[str, int], list[Item]] = defaultdict(list)
    aside: dict[tuple[str, int], list[Item]] = defaultdict(list)
    for item in items:
        key = (item.rule.advice_key, 1 if item.weight >= 0 else -1)
        (aside if item.rule.slug in set_aside else groups)[key].append(item)
    full: list[Reason] = []
    partial: list[Reason] = []  # guesses (half-known) and overridden defaults
    for key, shelved in aside.items():
        if key not in groups:  # the advice itself gives way; otherwise it still corroborates
            partial.append(_set_aside_reason(shelved, tally.candidate))
    for key, group in groups.items():
        grouped = _group_reason(group, tally.candidate, aside.get(key, []))
        (full if grouped.known >= 1 else partial).append(grouped)
    # Half-known rules are guesses about the open questions, and an overridden default is no
    # longer decisive: only the best boost and the worst penalty among them count, each worth
    # at most a mention (a guessed mention nothing), so they order the first answers and the
    # runners-up without outweighing advice that fits the answers.
    best = max((r for r in partial if r.weight > 0), key=lambda r: r.weight, default=None)
    worst = min((r for r in partial if r.weight < 0), key=lambda r: r.weight, default=None)
    for extra in partial:
        keep = extra is best or extra is worst
        strong = extra.lead_weight >= OVERRIDING_STRENGTH * extra.known
        sign = 1 if extra.weight > 0 else -1
        extra.weight = sign * min(abs(extra.weight), GUESS_CAP) if keep and strong else 0.0
    for grouped in full + partial:
        tally.score += grouped.weight
        tally.reasons.append(grouped)


def _group_reason(group: list[Item], c: Candidate, shelved: list[Item] | None = None) -> Reason:
    """One advice from one or more sources: the strongest counts, each further source adds a bit."""
    lead = max(group, key=lambda i: abs(i.weight))
    group = group + (shelved or [])
    others = {i.rule.source.slug: i.rule.source for i in group}
    others.pop(lead.rule.source.slug, None)
    bonus = min(CORROBORATION_STEP * len(others), CORROBORATION_CAP) * lead.match.known
    weight = lead.weight + (bonus if lead.weight > 0 else -bonus)
    own = {i.rule.source.slug: abs(i.weight) for i in sorted(group, key=lambda i: abs(i.weight))}
    return reason(
        _text(lead.rule, c),
        lead.target.source,
        round(weight, 2),
        lead.rule.slug,
        kind="for" if weight >= 0 else "against",
        also=[link(s, own[slug]) for slug, s in others.items()],
        lead_weight=round(abs(lead.weight), 2),
        known=round(lead.match.known, 2),
        disputed=lead.target.sides.text() if lead.target.sides else None,
    )


def _set_aside_reason(shelved: list[Item], c: Candidate) -> Reason:
    """A default that more specific advice overrides: still true, so it keeps a quarter."""
    grouped = _group_reason(shelved, c)
    grouped.text += " (a default; more specific advice applies here)"
    grouped.weight = round(grouped.weight * SET_ASIDE_SHARE, 2)
    grouped.kind = "set-aside"
    return grouped


def _prior(items: list[Item], c: Candidate) -> tuple[float, list[Reason]]:
    """The sourced default order: grouped like advice, used only to order equal scores."""
    groups: dict[str, list[Item]] = defaultdict(list)
    for item in items:
        groups[item.rule.advice_key].append(item)
    reasons = [_group_reason(g, c) for g in groups.values()]
    return sum(r.weight for r in reasons), reasons


def _text(rule: RuleSpec, c: Candidate) -> str:
    return rule.reason.replace("{name}", c.name)
