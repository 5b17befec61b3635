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

This module runs the two phases (rule-outs, then advice) and decides which defaults give way;
weighing.py weighs the advice that applies to one system, memo.py keeps what what-ifs share.
"""

from collections import defaultdict
from dataclasses import dataclass, field

from app.decision.hardware import Fit
from app.decision.matching import Match, expand, match
from app.decision.memo import Memo
from app.decision.model import Answers, Candidate, Reason, RuleSpec
from app.decision.questions import QUESTIONS_BY_ID
from app.decision.weighing import OVERRIDING_STRENGTH, Item


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


def must_have_only(rule: RuleSpec) -> bool:
    """Advice for a system that rests on a must-have alone ("needs an OpenAI-compatible API:
    LocalAI")."""
    return rule.effect == "boost" and set(rule.when) == {"needs"}


MAIN_CRITERIA = "priority"


def rule_match(rule: RuleSpec, answers: Answers) -> Match | None:
    """`rule`'s match against `answers`. Once the main criteria are answered (what matters
    most: throughput, latency, …), advice resting on a must-have alone no longer applies: a
    must-have rules out the systems whose sources say "no" and leaves the rest "unknown for
    this need", but never lifts a system above the others on those criteria."""
    if answers.get(MAIN_CRITERIA) and must_have_only(rule):
        return None
    return match(rule.when, answers)


def score(
    answers: Answers,
    candidates: list[Candidate],
    rules: list[RuleSpec],
    memo: Memo | None = None,
    matches: list[Match | None] | None = None,
) -> list[Tally]:
    """Every candidate's tally for `answers` (unsorted). `matches`, when given, is each rule's
    match against `answers` (see `rematch`)."""
    memo = memo or Memo()
    if matches is None:
        matches = [rule_match(r, answers) for r in rules]
    tallies = {c.slug: Tally(c) for c in candidates}
    applying = [(r, m) for r, m in zip(rules, matches, strict=True) if m is not None]
    items = _items(tallies, applying, memo, candidates)
    for tally in tallies.values():
        rule_out(tally, memo.fit(answers, tally.candidate), items[tally.candidate.slug], memo)
    ranked = {slug for slug, t in tallies.items() if not t.exclusions}
    set_aside = set_aside_defaults(applying, memo, candidates, ranked)
    for tally in tallies.values():
        slug = tally.candidate.slug
        weigh_advice(tally, items[slug], aside_for(set_aside, slug), memo)
    return list(tallies.values())


def rule_out(tally: Tally, fit: Fit, items: list["Item"], memo: "Memo") -> None:
    """The first phase of a system's tally: hardware fit and rule-outs (which decide the
    systems still ranked, and so which defaults more specific advice sets aside)."""
    _hardware(fit, tally)
    _exclusions(tally, items, memo)


def weigh_advice(
    tally: Tally, items: list["Item"], set_aside: frozenset[str], memo: "Memo"
) -> None:
    """The second phase: the advice that applies, and the default order."""
    boosts = [i for i in items if i.rule.effect in ("boost", "penalty")]
    added, reasons = memo.weigh(tally.candidate, boosts, set_aside)
    tally.score += added
    tally.reasons += reasons
    if (measured := tally.candidate.measured) is not None:  # the team's own sweeps
        tally.score += measured.weight
        tally.reasons = [*tally.reasons, measured]
    defaults = [i for i in items if i.rule.effect == "default"]
    tally.prior, tally.order = memo.prior(defaults, tally.candidate)


OrderKey = tuple[float, float, int, str]


def order_key(t: Tally) -> OrderKey:
    """Score, then the sourced default order, then how many sources describe the system.

    The name comes last only so the order is total; the tests check that no first place is
    ever decided by it.
    """
    return order_of(t.score, t.prior, t.candidate)


def order_of(score: float, prior: float, c: Candidate) -> OrderKey:
    """`order_key` from a system's score and default order (what-ifs keep no tally)."""
    return (-round(score, 2), -round(prior, 2), -len(c.summary_sources), c.name.lower())


def rules_by_question(rules: list[RuleSpec]) -> dict[str, list[int]]:
    """For each question, the positions of the rules whose conditions name it."""
    out: dict[str, list[int]] = defaultdict(list)
    for position, rule in enumerate(rules):
        for question in rule.when:
            out[question].append(position)
        if must_have_only(rule):  # see rule_match: the main criteria switch it off
            out[MAIN_CRITERIA].append(position)
    return out


def rematch(
    rules: list[RuleSpec],
    by_question: dict[str, list[int]],
    base: Answers,
    base_matches: list[Match | None],
    trial: Answers,
) -> list[Match | None]:
    """Each rule's match against `trial`, redoing only the rules that name a question whose
    answer differs from `base` (a what-if changes one answer; most rules never notice)."""
    changed = [q for q in base.keys() | trial.keys() if base.get(q) != trial.get(q)]
    matches = list(base_matches)
    for question in changed:
        # An opt-in condition (needs, stack) holds when one of its options is ticked, so it
        # notices only the options ticked or unticked.
        flipped = (
            set(base.get(question, ())) ^ set(trial.get(question, ()))
            if QUESTIONS_BY_ID[question].multiple
            else None
        )
        for position in by_question.get(question, ()):
            rule = rules[position]
            options = rule.when.get(question)
            if (
                flipped is not None
                and options is not None
                and flipped.isdisjoint(expand(question, tuple(options)))
            ):
                continue  # another changed question it names redoes it, if any
            matches[position] = rule_match(rule, trial)
    return matches


def _items(
    tallies: dict[str, Tally],
    applying: list[tuple[RuleSpec, Match]],
    memo: Memo,
    candidates: list[Candidate],
) -> dict[str, list[Item]]:
    out: dict[str, list[Item]] = {slug: [] for slug in tallies}
    for rule, m in applying:
        hits, unknowns = memo.applied(rule, m, candidates)
        for slug, item in hits:
            out[slug].append(item)
        for slug, unknown in unknowns:
            tallies[slug].unknowns.append(unknown)
    return out


def _hardware(fit: Fit, tally: Tally) -> None:
    tally.score += fit.score
    tally.reasons += fit.reasons  # shared with other tallies: read-only from here on
    tally.unknowns += fit.unknowns
    tally.exclusions += fit.exclusions


def _exclusions(tally: Tally, items: list[Item], memo: "Memo") -> None:
    """Rule-outs, fully answered only; a disputed one that most weight contradicts is a penalty."""
    for item in items:
        if item.rule.effect != "exclude" or item.match.known < 1:
            continue
        excluded, weight, because = memo.ruling(item, tally.candidate)
        if excluded:
            tally.exclusions.append(because)
        else:
            tally.score += weight
            tally.reasons.append(because)


SetAside = dict[str, frozenset[str]]
"""For each default rule that more specific advice overrides, the systems it is set aside for."""


def set_aside_defaults(
    applying: list[tuple[RuleSpec, Match]],
    memo: "Memo",
    candidates: list[Candidate],
    ranked: set[str],
) -> SetAside:
    """Defaults that more specific advice overrides.

    A fully met recommendation (strength 2 or more, not itself a default) sets aside, for every
    system it does not name, a source's default that ignores one of the questions it uses
    ("production: start with vLLM" gives way to "on Gaudi, TGI"). Advice for systems that
    other advice firmly warns against here sets nothing aside.
    """
    if not any(rule.effect == "boost" and rule.fallback for rule, _ in applying):
        return {}  # no default applies: nothing to set aside
    warned: set[str] = set()
    specific: list[tuple[set[str], frozenset[str]]] = []
    for rule, m in applying:
        if _firm_warning_rule(rule, m):
            warned |= memo.named(rule, m, candidates) & ranked
        elif (
            rule.effect == "boost"
            and not rule.fallback
            and m.known == 1
            and rule.when
            and rule.weight >= OVERRIDING_STRENGTH
        ):
            specific.append((set(rule.when), memo.named(rule, m, candidates) & ranked))
    # Advice for systems that other advice firmly warns against here overrides nothing.
    specific = [(questions, named - warned) for questions, named in specific if named - warned]
    out: SetAside = {}
    for rule, m in applying:
        if rule.effect != "boost" or not rule.fallback:
            continue
        mine = set(rule.when)
        # Set aside for every system it applies to that some more specific advice here does
        # not name (listing only those keeps a what-if from disturbing the other systems).
        overriding = [named for questions, named in specific if questions - mine]
        if overriding:
            exempt = overriding[0].intersection(*overriding[1:])
            out[rule.slug] = (memo.named(rule, m, candidates) & ranked) - exempt
    return out


def aside_for(set_aside: SetAside, slug: str) -> frozenset[str]:
    """The defaults set aside for one system."""
    if not set_aside:
        return frozenset()
    return frozenset([rule for rule, slugs in set_aside.items() if slug in slugs])


def _firm_warning_rule(rule: RuleSpec, m: Match) -> bool:
    return rule.effect == "penalty" and m.known == 1 and rule.weight >= OVERRIDING_STRENGTH
