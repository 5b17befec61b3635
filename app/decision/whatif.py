"""Standings for what-ifs: the ranking after one answer changes, worked out incrementally.

"What would change this" re-ranks every single answer a person could give differently,
dozens per recommendation. A changed answer alters the match of the few rules that name its
question; only the systems those rules speak about (all of them when the hardware answer
changes) and the systems whose set-aside defaults move need a new tally. Everyone else keeps
the tally of the answers as given. What-ifs read only each system's score and place, so they
keep no tally and build no reason: a system's score is summed from the same parts, in the same
order, as `score` sums it. `tests/decision/test_whatif.py` checks the result against a full
re-scoring.
"""

from dataclasses import dataclass

from app.decision.explain import Standing
from app.decision.matching import Match
from app.decision.model import Answers, Candidate, RuleSpec
from app.decision.scoring import (
    Item,
    Memo,
    OrderKey,
    Tally,
    aside_for,
    order_key,
    order_of,
    rematch,
    rules_by_question,
    score,
    set_aside_defaults,
)

Placed = tuple[OrderKey, Standing] | None  # None: ruled out


@dataclass(frozen=True, slots=True)
class Applied:
    """What a system's applying rules give it, whatever the hardware (see `score`)."""

    items: list[Item]
    ruled_out: bool  # by a rule (a 'no' for a need)
    penalties: tuple[float, ...]  # disputed rule-outs counted as penalties, in rule order
    advice: list[Item]  # the boosts and penalties `weigh_advice` weighs
    prior: float


class WhatIfs:
    """The answers as given, kept so that each what-if redoes only what it changes."""

    def __init__(
        self,
        answers: Answers,
        candidates: list[Candidate],
        rules: list[RuleSpec],
        memo: Memo,
        matches: list[Match | None],
    ) -> None:
        self.answers = answers
        self.candidates = candidates
        self.rules = rules
        self.memo = memo
        self.matches = matches
        self.by_question = rules_by_question(rules)
        self.position = {rule.slug: i for i, rule in enumerate(rules)}
        self.tallies = {
            t.candidate.slug: t for t in score(answers, candidates, rules, memo, matches)
        }
        self.items = self._items(matches)
        applying = self._applying(matches)
        self.ranked = {slug for slug, t in self.tallies.items() if not t.exclusions}
        self.set_aside = set_aside_defaults(applying, memo, candidates, self.ranked)
        self.keys = {slug: order_key(self.tallies[slug]) for slug in self.ranked}
        self.entries = {slug: _entry(t) for slug, t in self.tallies.items()}
        self.order = sorted(self.keys, key=self.keys.__getitem__)
        self.by_slug = {c.slug: c for c in candidates}
        # Worked out on first use: a what-if reaches only some of the systems.
        self.applied: dict[str, Applied] = {}
        self.weighed: dict[str, tuple[frozenset[str], float]] = {}

    def standings(self, trial: Answers) -> list[Standing]:
        """Every system still ranked for `trial`, in order, with its score."""
        fresh = self._rescored(trial)
        keys = self.keys | {slug: p[0] for slug, p in fresh.items() if p is not None}
        entries = self.entries | {slug: p[1] for slug, p in fresh.items() if p is not None}
        for slug, placed in fresh.items():
            if placed is None:
                keys.pop(slug, None)
        return [entries[slug] for slug in sorted(keys, key=keys.__getitem__)]

    def leader(self, trial: Answers) -> Standing | None:
        """The first place for `trial` (what "what would change this" needs of each what-if)."""
        fresh = self._rescored(trial)
        # The best system whose tally the what-if leaves alone: the first in the given order.
        kept = next((slug for slug in self.order if slug not in fresh), None)
        best = (self.keys[kept], self.entries[kept]) if kept else None
        for placed in fresh.values():
            if placed is not None and (best is None or placed[0] < best[0]):
                best = placed
        return best[1] if best else None

    def _rescored(self, trial: Answers) -> dict[str, Placed]:
        """New places for the systems `trial` affects; every other system keeps its own."""
        matches = rematch(self.rules, self.by_question, self.answers, self.matches, trial)
        changed = {p for p in self._named(trial) if matches[p] != self.matches[p]}
        hardware_changed = trial.get("hardware", ()) != self.answers.get("hardware", ())
        added = self._added(changed, matches)
        touched = self._touched(changed) | added.keys()
        scope = touched | (self._refitted(trial) if hardware_changed else set())
        applied: dict[str, Applied] = {}
        ranked = self.ranked - scope
        fit = self.memo.fit
        for slug in scope:
            applied[slug] = a = (
                self._apply(slug, self._rebuilt(slug, changed, added.get(slug, [])))
                if slug in touched
                else self._applied(slug)
            )
            if not a.ruled_out and not fit(trial, self.by_slug[slug]).exclusions:
                ranked.add(slug)
        set_aside = set_aside_defaults(self._applying(matches), self.memo, self.candidates, ranked)
        moved: set[str] = set()
        for rule in set_aside.keys() | self.set_aside.keys():
            moved |= set_aside.get(rule, frozenset()) ^ self.set_aside.get(rule, frozenset())
        for slug in moved - scope:
            applied[slug] = self._applied(slug)
        return {
            slug: self._placed(slug, trial, a, aside_for(set_aside, slug))
            for slug, a in applied.items()
        }

    def _placed(self, slug: str, trial: Answers, a: Applied, aside: frozenset[str]) -> Placed:
        """A system's place for `trial`: its tally's score, summed as `score` sums it."""
        c = self.by_slug[slug]
        fit = self.memo.fit(trial, c)
        if fit.exclusions or a.ruled_out:
            return None
        total = 0.0
        total += fit.score
        for penalty in a.penalties:
            total += penalty
        total += self._weighed(slug, a, aside)
        if c.measured is not None:
            total += c.measured.weight
        return order_of(total, a.prior, c), (slug, c.name, round(total, 2))

    def _weighed(self, slug: str, a: Applied, aside: frozenset[str]) -> float:
        """What the advice adds; a system's own, as given, is looked up once per what-ifs."""
        c = self.by_slug[slug]
        if a.items is not self.items[slug]:
            return self.memo.weigh_score(c, a.advice, aside)
        found = self.weighed.get(slug)
        if found is None or found[0] != aside:
            found = self.weighed[slug] = (aside, self.memo.weigh_score(c, a.advice, aside))
        return found[1]

    def _applied(self, slug: str) -> Applied:
        """A system's applying rules as given, worked out once."""
        found = self.applied.get(slug)
        if found is None:
            found = self.applied[slug] = self._apply(slug, self.items[slug])
        return found

    def _apply(self, slug: str, items: list[Item]) -> Applied:
        """Rule-outs as `_exclusions` reads them, advice as `weigh_advice` reads it."""
        c = self.by_slug[slug]
        ruled_out = False
        penalties: list[float] = []
        for item in items:
            if item.rule.effect != "exclude" or item.match.known < 1:
                continue
            excluded, weight, _ = self.memo.ruling(item, c)
            if excluded:
                ruled_out = True
            else:
                penalties.append(weight)
        advice = [i for i in items if i.rule.effect in ("boost", "penalty")]
        defaults = [i for i in items if i.rule.effect == "default"]
        prior = self.memo.prior_score(defaults, c)
        return Applied(items, ruled_out, tuple(penalties), advice, prior)

    def _named(self, trial: Answers) -> set[int]:
        """The rules naming a question whose answer `trial` changes."""
        changed = [q for q in self.answers.keys() | trial.keys()
                   if self.answers.get(q) != trial.get(q)]  # fmt: skip
        return {p for q in changed for p in self.by_question.get(q, ())}

    def _refitted(self, trial: Answers) -> frozenset[str]:
        """The systems whose hardware fit scores differently, or rules them in or out."""
        key = (self.answers.get("hardware", ()), trial.get("hardware", ()))
        found = self.memo.refits.get(key)
        if found is None:
            fit = self.memo.fit
            found = self.memo.refits[key] = frozenset(
                c.slug
                for c in self.candidates
                if (a := fit(self.answers, c)).score != (b := fit(trial, c)).score
                or bool(a.exclusions) != bool(b.exclusions)
            )
        return found

    def _applying(self, matches: list[Match | None]) -> list[tuple[RuleSpec, Match]]:
        return [(r, m) for r, m in zip(self.rules, matches, strict=True) if m is not None]

    def _items(self, matches: list[Match | None]) -> dict[str, list[Item]]:
        """Each system's applied rules, in rule order (the order the weighing reads them in)."""
        out: dict[str, list[Item]] = {c.slug: [] for c in self.candidates}
        for rule, m in self._applying(matches):
            for slug, item in self.memo.applied(rule, m, self.candidates)[0]:
                out[slug].append(item)
        return out

    def _added(self, changed: set[int], matches: list[Match | None]) -> dict[str, list[Item]]:
        """The items the changed rules give each system under the what-if's matches."""
        out: dict[str, list[Item]] = {}
        for position in changed:
            m = matches[position]
            if m is not None:
                for slug, item in self.memo.applied(self.rules[position], m, self.candidates)[0]:
                    out.setdefault(slug, []).append(item)
        return out

    def _touched(self, changed: set[int]) -> set[str]:
        """The systems a changed rule spoke about under the answers as given."""
        out: set[str] = set()
        for position in changed:
            m = self.matches[position]
            if m is not None:
                hits = self.memo.applied(self.rules[position], m, self.candidates)[0]
                out.update(slug for slug, _ in hits)
        return out

    def _rebuilt(self, slug: str, changed: set[int], added: list[Item]) -> list[Item]:
        kept = [i for i in self.items[slug] if self.position[i.rule.slug] not in changed]
        return sorted(kept + added, key=lambda i: self.position[i.rule.slug])


def _entry(t: Tally) -> Standing:
    return (t.candidate.slug, t.candidate.name, round(t.score, 2))
