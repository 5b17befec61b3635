"""The guided flow: answers + systems' claims + rules -> a ranked, explained recommendation.

Pure: no database, no HTTP. Hardware fit is derived from the hardware claims; everything
else comes from rules written as data (seed/rules.yaml). Equal scores are ordered by the
sourced default order (rules with `effect: default`), never by name, and the result says so.
"""

from app.decision.explain import (
    find_tie,
    sources_differ,
    unused_answers,
    what_would_change,
)
from app.decision.matching import Match
from app.decision.memo import Memo
from app.decision.model import (
    Answers,
    Candidate,
    ClaimRef,
    Confidence,
    Excluded,
    FirstBy,
    Pick,
    Reason,
    Recommendation,
    RuleSpec,
)
from app.decision.scoring import Tally, order_key, rule_match, score
from app.decision.whatif import WhatIfs

__all__ = ["Answers", "Candidate", "ClaimRef", "Recommendation", "RuleSpec", "rank", "recommend"]

SCALE = (
    "A score adds up the advice that fits your answers. Hardware support counts 1 (0.5 when "
    "partial). A source's advice counts 1 when it mentions a system, 2 when it recommends it "
    "and 3 when it is that source's first pick; advice matching two of your answers counts "
    "1.5 times, three answers twice. Advice that depends on questions you have not answered "
    "counts in part, at most 1. The same advice from more sources adds 0.25 for each (at most "
    "0.5). Warnings take points away the same way. Only the differences between scores matter."
)


def recommend(
    answers: Answers,
    candidates: list[Candidate],
    rules: list[RuleSpec],
    explain: bool = True,
    memo: Memo | None = None,
) -> Recommendation:
    """Rank every candidate for `answers`; explain each score, each exclusion and each tie.

    `memo` may be shared by every recommendation over the same candidates and rules.
    """
    memo = memo or Memo()
    matches = [rule_match(r, answers) for r in rules]
    if not explain:
        return rank(answers, candidates, rules, memo, matches)
    whatifs = WhatIfs(answers, candidates, rules, memo, matches)
    result = rank(answers, candidates, rules, memo, matches, list(whatifs.tallies.values()))
    if result.ranked:
        result.changes = what_would_change(answers, result, whatifs.leader)
        result.nothing_single_changes = not result.changes
        result.unused_answers = unused_answers(answers, result, whatifs.standings)
    return result


def rank(
    answers: Answers,
    candidates: list[Candidate],
    rules: list[RuleSpec],
    memo: Memo | None = None,
    matches: list[Match | None] | None = None,
    tallies: list[Tally] | None = None,
) -> Recommendation:
    """Scores, order, exclusions, ties and disagreements (without the what-ifs)."""
    tallies = tallies or score(answers, candidates, rules, memo, matches)
    defaults = _default_ranks(tallies)
    ranked = sorted((t for t in tallies if not t.exclusions), key=order_key)
    picks = [_pick(t, defaults.get(t.candidate.slug)) for t in ranked]
    excluded = [
        Excluded(slug=t.candidate.slug, name=t.candidate.name, reasons=t.exclusions)
        for t in sorted(tallies, key=order_key)
        if t.exclusions
    ]
    differ_text, differ = sources_differ(picks) if answers else (None, [])
    first_by = _first_by(ranked)
    return Recommendation(
        answers={k: list(v) for k, v in answers.items()},
        ranked=picks,
        excluded=excluded,
        sources_differ=differ_text,
        differ=differ,
        # With no answer yet every score is 0: the tie is the sourced default order, shown
        # before the first answer so the page is never empty.
        tie=find_tie(picks, {t.candidate.slug: t.order for t in ranked}),
        scale=SCALE,
        first_by=first_by,
    )


def _first_by(ranked: list[Tally]) -> FirstBy:
    """Which part of the order key put the first place ahead of the second."""
    if len(ranked) < 2:
        return "alone"
    first, second = order_key(ranked[0]), order_key(ranked[1])
    names: tuple[FirstBy, ...] = ("score", "default-order", "coverage", "name")
    return next((n for n, a, b in zip(names, first, second, strict=True) if a != b), "name")


def _default_ranks(tallies: list[Tally]) -> dict[str, int]:
    ordered = sorted((t for t in tallies if t.prior > 0), key=lambda t: order_key(t)[1:])
    return {t.candidate.slug: i for i, t in enumerate(ordered, start=1)}


def _pick(t: Tally, default_rank: int | None) -> Pick:
    reasons = sorted(t.reasons, key=lambda r: (r.kind == "set-aside", -abs(r.weight)))
    return Pick(
        slug=t.candidate.slug,
        name=t.candidate.name,
        score=round(t.score, 2),
        reasons=reasons,
        unknowns=t.unknowns,
        confidence=_confidence(t.unknowns, reasons),
        default_rank=default_rank,
    )


def _confidence(unknowns: list[Reason], reasons: list[Reason]) -> Confidence:
    """Low when its hardware support is unknown; medium when anything else is unknown or the
    leading reason is half-known or disputed."""
    if any(u.rule == "hardware" for u in unknowns):
        return "low"
    lead = next((r for r in reasons if r.kind == "for" and r.rule != "hardware"), None)
    if unknowns or (lead is not None and (lead.known < 1 or lead.disputed)):
        return "medium"
    return "high"
