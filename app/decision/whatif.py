"""Standings for what-ifs: the ranking after one answer changes, worked out incrementally.

"What would change this" re-ranks every single answer a person could give differently,
dozens per recommendation. A changed answer alters the match of the few rules that name its
question; only the systems those rules speak about (all of them when the hardware answer
changes) and the systems whose set-aside defaults move need a new tally. Everyone else keeps
the tally of the answers as given. `tests/decision/test_whatif.py` checks the result against
a full re-scoring.
"""

from app.decision.explain import Standing
from app.decision.matching import Match
from app.decision.model import Answers, Candidate, RuleSpec
from app.decision.scoring import (
    Item,
    Memo,
    Tally,
    aside_for,
    order_key,
    rematch,
    rule_out,
    rules_by_question,
    score,
    set_aside_defaults,
    weigh_advice,
)


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

    def standings(self, trial: Answers) -> list[Standing]:
        """Every system still ranked for `trial`, in order, with its score."""
        fresh = self._rescored(trial)
        keys = self.keys | {slug: order_key(t) for slug, t in fresh.items() if not t.exclusions}
        for slug, tally in fresh.items():
            if tally.exclusions:
                keys.pop(slug, None)
        entries = self.entries | {slug: _entry(t) for slug, t in fresh.items()}
        return [entries[slug] for slug in sorted(keys, key=keys.__getitem__)]

    def leader(self, trial: Answers) -> Standing | None:
        """The first place for `trial` (what "what would change this" needs of each what-if)."""
        fresh = self._rescored(trial)
        # The best system whose tally the what-if leaves alone: the first in the given order.
        kept = next((slug for slug in self.order if slug not in fresh), None)
        best = (self.keys[kept], self.entries[kept]) if kept else None
        for tally in fresh.values():
            if not tally.exclusions and (best is None or order_key(tally) < best[0]):
                best = (order_key(tally), _entry(tally))
        return best[1] if best else None

    def _rescored(self, trial: Answers) -> dict[str, Tally]:
        """New tallies for the systems `trial` affects; every other system keeps its own."""
        matches = rematch(self.rules, self.by_question, self.answers, self.matches, trial)
        changed = {p for p in self._named(trial) if matches[p] != self.matches[p]}
        hardware_changed = trial.get("hardware", ()) != self.answers.get("hardware", ())
        added = self._added(changed, matches)
        touched = self._touched(changed) | added.keys()
        scope = touched | (self._refitted(trial) if hardware_changed else set())
        fresh: dict[str, Tally] = {}
        items: dict[str, list[Item]] = {}
        for slug in scope:
            items[slug] = (
                self._rebuilt(slug, changed, added.get(slug, []))
                if slug in touched
                else self.items[slug]
            )
            fresh[slug] = self._ruled(slug, trial, items[slug])
        ranked = (self.ranked - scope) | {slug for slug, t in fresh.items() if not t.exclusions}
        set_aside = set_aside_defaults(self._applying(matches), self.memo, self.candidates, ranked)
        moved: set[str] = set()
        for rule in set_aside.keys() | self.set_aside.keys():
            moved |= set_aside.get(rule, frozenset()) ^ self.set_aside.get(rule, frozenset())
        for slug in moved - scope:
            items[slug] = self.items[slug]
            fresh[slug] = self._ruled(slug, trial, items[slug])
        for slug, tally in fresh.items():
            weigh_advice(tally, items[slug], aside_for(set_aside, slug), self.memo)
        return fresh

    def _ruled(self, slug: str, trial: Answers, items: list[Item]) -> Tally:
        c = self.by_slug[slug]
        tally = Tally(c)
        rule_out(tally, self.memo.fit(trial, c), items, self.memo)
        return tally

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
