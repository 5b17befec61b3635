"""Explanations around a ranking: ties, disagreements, what-ifs, unused answers, "why not X?".

The standings of a what-if are passed in as a function (not imported) so this module stays
below the engine.
"""

from collections.abc import Callable

from pydantic import BaseModel

from app.decision.model import (
    Answers,
    Change,
    ChangeKind,
    Pick,
    Reason,
    Recommendation,
    Tie,
    Unused,
)
from app.decision.questions import QUESTIONS, covered_by, option_label

Standing = tuple[str, str, float]  # slug, name, score; ruled-out systems are left out
Standings = Callable[[Answers], list[Standing]]
Leader = Callable[[Answers], Standing | None]
DIFFER_MARGIN = 3.0  # one first pick: further behind than this, a runner-up is not a rival
MIN_BACKING = 2.0  # a recommendation (not a mention) from a source, fully known
MAX_CHANGES = 6


def find_tie(picks: list[Pick], order: dict[str, list[Reason]]) -> Tie | None:
    """The leaders with the same score, ordered by the sourced default order."""
    if len(picks) < 2 or picks[1].score != picks[0].score:
        return None
    tied = [p for p in picks if p.score == picks[0].score]
    no_advice = not any(_advice(p) for p in tied)
    names = [p.name for p in tied]
    shown = ", ".join(names[:4]) + (f" and {len(names) - 4} more" if len(names) > 4 else "")
    text = (
        f"Your answers so far don't separate {shown}: they score the same. "
        + ("No source's advice depends on these answers yet. " if no_advice else "")
        + "They are listed in the order the sources recommend when nothing else is known."
    )
    entries = [
        r.model_copy(update={"text": f"{p.name}: {r.text}"})
        for p in tied[:4]
        for r in order.get(p.slug, [])[:1]
    ]
    return Tie(
        slugs=[p.slug for p in tied],
        names=names,
        score=picks[0].score,
        no_advice=no_advice,
        order=entries,
        text=text,
    )


def _advice(pick: Pick) -> list[Reason]:
    return [r for r in pick.reasons if r.rule != "hardware" and r.weight != 0]


def support(pick: Pick) -> dict[str, float]:
    """What each source's own advice is worth to a pick (its best, before any bonus)."""
    out: dict[str, float] = {}
    for r in _advice(pick):
        if r.weight <= 0 or r.known < 1:  # a half-known rule is a guess, not a recommendation
            continue
        for slug, weight in [(r.source or "", r.lead_weight or r.weight)] + [
            (a.slug, a.weight) for a in r.also
        ]:
            out[slug] = max(out.get(slug, 0.0), weight)
    return out


def sources_differ(picks: list[Pick]) -> tuple[str | None, list[str]]:
    """Two close leaders that different sources put first: one prefers each."""
    if len(picks) < 2:
        return None, []
    first = picks[0]
    mine = support(first)
    for source, weight in sorted(mine.items(), key=lambda kv: -kv[1]):
        if weight < MIN_BACKING:
            break
        rival = _rival(picks, mine, source)
        if rival is not None:
            other, other_source = rival
            text = (
                f"The sources differ here: {first.name} is favoured by "
                f"{_title(first, source)}, {other.name} by {_title(other, other_source)}."
            )
            return text, [first.slug, other.slug]
    return None, []


def _rival(picks: list[Pick], mine: dict[str, float], source: str) -> tuple[Pick, str] | None:
    """A close runner-up (second to fourth) that another source prefers to the first place."""
    best: tuple[float, Pick, str] | None = None
    for other in picks[1:4]:
        if picks[0].score - other.score > DIFFER_MARGIN:
            break
        theirs = support(other)
        if theirs.get(source, 0.0) >= mine[source]:
            continue  # the first place's backer likes this one as much: no disagreement
        for rival_source, weight in theirs.items():
            prefers = weight > mine.get(rival_source, 0.0) and rival_source != source
            if prefers and weight >= MIN_BACKING and (best is None or weight > best[0]):
                best = (weight, other, rival_source)
    return (best[1], best[2]) if best else None


def _title(pick: Pick, source: str) -> str:
    """The source's short name, as citations show it."""
    for r in _advice(pick):
        if r.source == source:
            return str(r.source_short)
        for a in r.also:
            if a.slug == source:
                return a.short
    return source


def _trials(answers: Answers) -> list[tuple[str, str, ChangeKind]]:
    """(question, option, kind) for every single answer a person could give differently."""
    out: list[tuple[str, str, ChangeKind]] = []
    for question in QUESTIONS:
        chosen = answers.get(question.id, ())
        if question.multiple:
            out += [(question.id, o, "add") for o in question.option_ids() if o not in chosen]
        elif not chosen:
            out += [(question.id, o, "answer") for o in question.option_ids()]
        elif question.changeable:
            out += [(question.id, o, "change") for o in question.option_ids() if o not in chosen]
        else:  # a given of the situation: only say which finer kind it is
            out += [(question.id, o, "refine") for o in covered_by(question.id, chosen[0])]
    return out


def what_would_change(answers: Answers, current: Recommendation, leader: Leader) -> list[Change]:
    """Single answers that would put another system first, the ones a person can change first."""
    top = current.ranked[0].slug
    found: list[Change] = []
    trials = _trials(answers)
    # Adding a need comes last in the order shown, so once the other kinds of change fill the
    # list, no added need can reach it and those what-ifs are not worth working out.
    trials.sort(key=lambda t: t[2] == "add")  # stable: question order kept within each part
    for question, option, kind in trials:
        if kind == "add" and _shown_count(found) >= MAX_CHANGES:
            break
        chosen = answers.get(question, ())
        trial = {**answers, question: (*chosen, option) if kind == "add" else (option,)}
        first = leader(trial)
        if first and first[0] != top:
            found.append(
                Change(
                    question=question,
                    option=option,
                    label=option_label(question, option),
                    new_top=first[0],
                    new_top_name=first[1],
                    kind=kind,
                )
            )
    preference = {"refine": 0, "change": 1, "answer": 2, "add": 3}
    found.sort(key=lambda c: preference[c.kind])
    per_question: dict[str, list[Change]] = {}
    for change in found:
        per_question.setdefault(change.question, []).append(change)
    return [c for changes in per_question.values() for c in changes[:2]][:MAX_CHANGES]


def _shown_count(found: list[Change]) -> int:
    """How many of `found` the list would show (at most two per question)."""
    per_question: dict[str, int] = {}
    for change in found:
        per_question[change.question] = per_question.get(change.question, 0) + 1
    return sum(min(n, 2) for n in per_question.values())


def unused_answers(answers: Answers, current: Recommendation, standings: Standings) -> list[Unused]:
    """Answers that changed no score: removing them leaves the ranking exactly as it is."""
    shown = [(p.slug, p.score) for p in current.ranked]
    out = []
    for question, chosen in answers.items():
        for option in chosen:
            rest = tuple(o for o in chosen if o != option)
            trial = {q: a for q, a in answers.items() if q != question} | (
                {question: rest} if rest else {}
            )
            if [(slug, score) for slug, _, score in standings(trial)] == shown:
                label = option_label(question, option)
                text = (
                    f"“{label}” changed nothing: no source's advice depends on it "
                    "together with your other answers."
                )
                out.append(Unused(question=question, options=[option], text=text))
    return out


class WhyNot(BaseModel):
    """One system's case next to the first place's: its reasons for and against."""

    slug: str
    name: str
    position: int | None  # 1-based place in the ranking; None when ruled out
    score: float | None
    leader: str
    leader_name: str
    leader_score: float
    behind_by: float | None
    reasons_for: list[Reason]
    reasons_against: list[Reason]
    unknowns: list[Reason]
    leader_only: list[Reason]  # the leader's reasons this system does not share
    excluded: bool


def why_not(result: Recommendation, slug: str) -> WhyNot | None:
    """Why `slug` is not first: read from the recommendation itself, no new scoring."""
    if not result.ranked:
        return None
    leader = result.ranked[0]
    place = next((i for i, p in enumerate(result.ranked, 1) if p.slug == slug), None)
    pick = result.ranked[place - 1] if place else None
    out = next((e for e in result.excluded if e.slug == slug), None)
    if pick is None and out is None:
        return None
    reasons = pick.reasons if pick else []
    mine = {r.rule for r in reasons}
    return WhyNot(
        slug=slug,
        name=pick.name if pick else out.name,  # type: ignore[union-attr]
        position=place,
        score=pick.score if pick else None,
        leader=leader.slug,
        leader_name=leader.name,
        leader_score=leader.score,
        behind_by=round(leader.score - pick.score, 2) if pick else None,
        reasons_for=[r for r in reasons if r.weight > 0],
        reasons_against=[r for r in reasons if r.weight < 0] + (out.reasons if out else []),
        unknowns=pick.unknowns if pick else [],
        leader_only=[r for r in leader.reasons if r.weight > 0 and r.rule not in mine],
        excluded=out is not None,
    )
