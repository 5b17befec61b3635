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
from app.decision.memo import Memo
from app.decision.model import Answers, Candidate, RuleSpec
from app.decision.scoring import (
    OrderKey,
    SetAside,
    Tally,
    aside_for,
    order_key,
    order_of,
    rematch,
    rules_by_question,
    score,
    set_aside_defaults,
)
from app.decision.weighing import Item

Placed = tuple[OrderKey, Standing] | None  # None: ruled out


@dataclass(frozen=True, slots=True)
class Applied:
    """What a system's applying rules give it, whatever the hardware (see `score`); each
    kind of rule in rule order, as `rule_out` and `weigh_advice` read them."""

    exclusions: list[Item]  # the rule-outs whose conditions are all answered
    ruled_out: bool  # by one of them (a 'no' for a need)
    penalties: tuple[float, ...]  # disputed rule-outs counted as penalties instead
    advice: list[Item]  # the boosts and penalties
    defaults: list[Item]
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
        self.asides: dict[str, frozenset[str]] = {}
        self.ruled_out: frozenset[str] | None = None
        self.rests: list[tuple[float, str]] | None = None

    def standings(self, trial: Answers) -> list[Standing]:
        """Every system still ranked for `trial`, in order, with its score."""
        hardware, applied, plain, set_aside = self._rescored(trial)
        fresh = {
            slug: self._placed(slug, hardware, a, aside_for(set_aside, slug))
            for slug, a in applied.items()
        }
        fresh |= {slug: self._plain(slug, hardware) for slug in plain}
        keys = self.keys | {slug: p[0] for slug, p in fresh.items() if p is not None}
        entries = self.entries | {slug: p[1] for slug, p in fresh.items() if p is not None}
        for slug, placed in fresh.items():
            if placed is None:
                keys.pop(slug, None)
        return [entries[slug] for slug in sorted(keys, key=keys.__getitem__)]

    def leader(self, trial: Answers) -> Standing | None:
        """The first place for `trial` (what "what would change this" needs of each what-if)."""
        hardware, applied, plain, set_aside = self._rescored(trial)
        # The best system whose tally the what-if leaves alone: the first in the given order.
        kept = next((s for s in self.order if s not in applied and s not in plain), None)
        best = (self.keys[kept], self.entries[kept]) if kept else None
        for slug, a in applied.items():
            placed = self._placed(slug, hardware, a, aside_for(set_aside, slug))
            if placed is not None and (best is None or placed[0] < best[0]):
                best = placed
        if plain:
            # Only their hardware fit changes, and no fit scores more than `ceiling`: from the
            # highest rest of the score down, once even the best fit cannot reach the best
            # score so far, no system further down can either (equal scores are still placed,
            # the default order decides those).
            ceiling = self.memo.best_fit(hardware, self.candidates) + 1e-9  # float sums
            for rest, slug in self._by_rest():
                if best is not None and round(rest + ceiling, 2) < -best[0][0]:
                    break
                if slug in plain:
                    placed = self._plain(slug, hardware)
                    if placed is not None and (best is None or placed[0] < best[0]):
                        best = placed
        return best[1] if best else None

    def _rescored(
        self, trial: Answers
    ) -> tuple[tuple[str, ...], dict[str, Applied], set[str], SetAside]:
        """What `trial` changes: the systems whose applying rules or set-aside defaults change
        (with their rules), and those that only fit the hardware differently. Every other system
        keeps its place."""
        hardware = trial.get("hardware", ())
        matches = rematch(self.rules, self.by_question, self.answers, self.matches, trial)
        changed = {p for p in self._named(trial) if matches[p] != self.matches[p]}
        added = self._added(changed, matches)
        spoken = self._touched(changed)
        touched = spoken | added.keys()
        refitted = (
            self._refitted(trial) - touched
            if hardware != self.answers.get("hardware", ())
            else frozenset()
        )
        applied: dict[str, Applied] = {}
        ranked = self.ranked - touched - refitted
        if refitted:
            out = self._ruled_out() | self.memo.unfit(hardware, self.candidates)
            ranked |= refitted - out
        fit = self.memo.fit
        effects = {self.rules[p].effect for p in changed}
        for slug in touched:
            applied[slug] = a = self._reapplied(
                slug, changed, effects, added.get(slug, []), slug in spoken
            )
            if not a.ruled_out and not fit(trial, self.by_slug[slug]).exclusions:
                ranked.add(slug)
        set_aside = set_aside_defaults(self._applying(matches), self.memo, self.candidates, ranked)
        moved: set[str] = set()
        for rule in set_aside.keys() | self.set_aside.keys():
            moved |= set_aside.get(rule, frozenset()) ^ self.set_aside.get(rule, frozenset())
        for slug in moved - touched:
            applied[slug] = self._applied(slug)
        return hardware, applied, set(refitted - moved), set_aside

    def _placed(
        self, slug: str, hardware: tuple[str, ...], a: Applied, aside: frozenset[str]
    ) -> Placed:
        """A system's place for `trial`: its tally's score, summed as `score` sums it."""
        c = self.by_slug[slug]
        fit = self.memo.fits.get((hardware, slug)) or self.memo.fit({"hardware": hardware}, c)
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

    def _plain(self, slug: str, hardware: tuple[str, ...]) -> Placed:
        """The place of a system whose rules and set-aside defaults are as given."""
        return self._placed(slug, hardware, self._applied(slug), self._aside(slug))

    def _aside(self, slug: str) -> frozenset[str]:
        """The defaults set aside for a system under the answers as given."""
        found = self.asides.get(slug)
        if found is None:
            found = self.asides[slug] = aside_for(self.set_aside, slug)
        return found

    def _ruled_out(self) -> frozenset[str]:
        """The systems a rule rules out under the answers as given, whatever the hardware."""
        if self.ruled_out is None:
            # Its tally's rule-outs are the fit's and then the rules'.
            fit = self.memo.fit
            self.ruled_out = frozenset(
                slug
                for slug, t in self.tallies.items()
                if len(t.exclusions) > len(fit(self.answers, t.candidate).exclusions)
            )
        return self.ruled_out

    def _by_rest(self) -> list[tuple[float, str]]:
        """Every system by what its score is without the hardware fit, highest first, under
        the answers as given (near enough: the sum is in another order than a tally's)."""
        if self.rests is None:
            fit = self.memo.fit
            rests = [
                (t.score - fit(self.answers, t.candidate).score, slug)
                for slug, t in self.tallies.items()
            ]
            self.rests = sorted(rests, key=lambda r: -r[0])
        return self.rests

    def _weighed(self, slug: str, a: Applied, aside: frozenset[str]) -> float:
        """What the advice adds; a system's own, as given, is looked up once per what-ifs."""
        c = self.by_slug[slug]
        if a.advice is not self.applied[slug].advice:
            return self.memo.weigh_score(c, a.advice, aside)
        found = self.weighed.get(slug)
        if found is None or found[0] != aside:
            found = self.weighed[slug] = (aside, self.memo.weigh_score(c, a.advice, aside))
        return found[1]

    def _applied(self, slug: str) -> Applied:
        """A system's applying rules as given, worked out once."""
        found = self.applied.get(slug)
        if found is None:
            items = self.items[slug]
            found = self.applied[slug] = self._apply(
                slug,
                [i for i in items if i.rule.effect == "exclude" and i.match.known >= 1],
                [i for i in items if i.rule.effect in ("boost", "penalty")],
                [i for i in items if i.rule.effect == "default"],
            )
        return found

    def _reapplied(
        self, slug: str, changed: set[int], effects: set[str], added: list[Item], spoken: bool
    ) -> Applied:
        """A system's applying rules under changed rules: only the kinds they are redone.
        `spoken`: a changed rule applied to it under the answers as given."""
        base = self._applied(slug)
        exclusions = (
            self._merged(
                base.exclusions,
                changed,
                spoken,
                [i for i in added if i.rule.effect == "exclude" and i.match.known >= 1],
            )
            if "exclude" in effects
            else base.exclusions
        )
        advice = (
            self._merged(
                base.advice,
                changed,
                spoken,
                [i for i in added if i.rule.effect in ("boost", "penalty")],
            )
            if "boost" in effects or "penalty" in effects
            else base.advice
        )
        defaults = (
            self._merged(
                base.defaults, changed, spoken, [i for i in added if i.rule.effect == "default"]
            )
            if "default" in effects
            else base.defaults
        )
        ruled_out, penalties = (
            (base.ruled_out, base.penalties)
            if exclusions is base.exclusions
            else self._rulings(slug, exclusions)
        )
        prior = (
            base.prior
            if defaults is base.defaults
            else self.memo.prior_score(defaults, self.by_slug[slug])
        )
        return Applied(exclusions, ruled_out, penalties, advice, defaults, prior)

    def _apply(
        self, slug: str, exclusions: list[Item], advice: list[Item], defaults: list[Item]
    ) -> Applied:
        ruled_out, penalties = self._rulings(slug, exclusions)
        prior = self.memo.prior_score(defaults, self.by_slug[slug])
        return Applied(exclusions, ruled_out, penalties, advice, defaults, prior)

    def _rulings(self, slug: str, exclusions: list[Item]) -> tuple[bool, tuple[float, ...]]:
        """Ruled out by a rule, and the disputed rule-outs counted as penalties instead, as
        `_exclusions` reads them."""
        c = self.by_slug[slug]
        ruled_out = False
        penalties: list[float] = []
        for item in exclusions:
            excluded, weight, _ = self.memo.ruling(item, c)
            if excluded:
                ruled_out = True
            else:
                penalties.append(weight)
        return ruled_out, tuple(penalties)

    def _named(self, trial: Answers) -> set[int]:
        """The rules naming a question whose answer `trial` changes."""
        changed = [
            q for q in self.answers.keys() | trial.keys() if self.answers.get(q) != trial.get(q)
        ]
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

    def _merged(
        self, kept: list[Item], changed: set[int], spoken: bool, added: list[Item]
    ) -> list[Item]:
        """`kept` without the changed rules' items (when they spoke about the system) and with
        their new ones, in rule order; `kept` itself when neither changes it."""
        position = self.position
        if spoken:
            kept = [i for i in kept if position[i.rule.slug] not in changed]
        return sorted(kept + added, key=lambda i: position[i.rule.slug]) if added else kept


def _entry(t: Tally) -> Standing:
    return (t.candidate.slug, t.candidate.name, round(t.score, 2))
