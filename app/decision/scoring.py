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
from functools import cached_property
from typing import Any

from app.decision.evidence import link
from app.decision.hardware import Fit, hardware_fit, reason
from app.decision.matching import Match, expand, match
from app.decision.model import Answers, Candidate, Reason, RuleSpec
from app.decision.questions import QUESTIONS_BY_ID
from app.decision.rules import Target, target
from app.schemas import SourceRef

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

    @cached_property
    def weight(self) -> float:  # read thousands of times per recommendation
        sign = -1 if self.rule.effect == "penalty" else 1
        return sign * self.rule.weight * self.match.factor * self.target.share


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


class Memo:
    """What depends only on the candidates, the rules and a few answers, worked out once:
    which systems each rule speaks about, hardware fits, default orders and each system's
    weighing of the advice that applies to it. A recommendation's what-ifs re-rank dozens of
    times, and different answers share most of this, so one memo can serve every
    recommendation over the same data. Entries are read-only once stored; `limit` bounds the
    weighings kept (the biggest part)."""

    def __init__(self, limit: int = 5_000) -> None:
        self.limit = limit
        self.spoken: dict[str, list[tuple[str, Target]]] = {}
        self.fits: dict[tuple[tuple[str, ...], str], Fit] = {}
        self.priors: dict[tuple[str, ...], tuple[float, list[Reason]]] = {}
        self.weighed: dict[tuple[object, ...], tuple[float, list[Reason]]] = {}
        self.weighed_scores: dict[tuple[object, ...], float] = {}
        self.refits: dict[tuple[tuple[str, ...], tuple[str, ...]], frozenset[str]] = {}
        self.unfits: dict[tuple[str, ...], tuple[frozenset[str], float]] = {}
        self.names: dict[tuple[str, Match], frozenset[str]] = {}
        self.rulings: dict[tuple[str, str, int], tuple[bool, float, Reason]] = {}
        self.applications: dict[
            tuple[str, Match], tuple[list[tuple[str, Item]], list[tuple[str, Reason]]]
        ] = {}

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

    def prior_score(self, defaults: list["Item"], c: Candidate) -> float:
        key = (c.slug, *(i.rule.slug for i in defaults))
        found = self.priors.get(key)
        return found[0] if found is not None else self.prior(defaults, c)[0]

    def weigh(
        self, c: Candidate, items: list["Item"], set_aside: frozenset[str]
    ) -> tuple[float, list[Reason]]:
        """A what-if changes one answer, which leaves most systems' applying advice as it was:
        their weighing is looked up instead of redone."""
        key = (c.slug, set_aside,
               *((i.rule.slug, i.match, id(i.target)) for i in items))  # fmt: skip
        found = self.weighed.get(key)
        if found is None:
            if len(self.weighed) >= self.limit:
                self.weighed.clear()  # cheaper than LRU bookkeeping on every lookup
            found = self.weighed[key] = _weigh(items, set_aside, c)
        return found

    def weigh_score(self, c: Candidate, items: list["Item"], set_aside: frozenset[str]) -> float:
        """What `weigh` adds, for what-ifs, which read scores alone: no reason is built."""
        key = (c.slug, set_aside,
               *((i.rule.slug, i.match, id(i.target)) for i in items))  # fmt: skip
        weighed = self.weighed.get(key)
        if weighed is not None:
            return weighed[0]
        found = self.weighed_scores.get(key)
        if found is None:
            if len(self.weighed_scores) >= self.limit:
                self.weighed_scores.clear()
            found = self.weighed_scores[key] = _weigh_score(items, set_aside)
        return found

    def applied(
        self, rule: RuleSpec, m: Match, candidates: list[Candidate]
    ) -> tuple[list[tuple[str, "Item"]], list[tuple[str, Reason]]]:
        """The rule applied to each system it speaks about, and the 'no source says' lines for
        the systems whose data is silent on it (only once its conditions are all answered)."""
        key = (rule.slug, m)
        found = self.applications.get(key)
        if found is None:
            names = {c.slug: c.name for c in candidates}
            hits: list[tuple[str, Item]] = []
            unknowns: list[tuple[str, Reason]] = []
            for slug, spoken in self.about(rule, candidates):
                if spoken.status == "hit":
                    hits.append((slug, Item(rule, m, spoken)))
                elif m.known == 1:
                    text = _unknown(rule, names[slug])
                    unknowns.append((slug, reason(text, spoken.source, rule=rule.slug,
                                                  kind="unknown")))  # fmt: skip
            found = self.applications[key] = (hits, unknowns)
        return found

    def ruling(self, item: "Item", c: Candidate) -> tuple[bool, float, Reason]:
        key = (item.rule.slug, c.slug, id(item.target))
        found = self.rulings.get(key)
        if found is None:
            found = self.rulings[key] = _ruling(item, c)
        return found

    def named(self, rule: RuleSpec, m: Match, candidates: list[Candidate]) -> frozenset[str]:
        """The systems `rule` applies to under `m`."""
        key = (rule.slug, m)
        found = self.names.get(key)
        if found is None:
            hits = self.applied(rule, m, candidates)[0]
            found = self.names[key] = frozenset(slug for slug, _ in hits)
        return found

    def unfit(self, hardware: tuple[str, ...], candidates: list[Candidate]) -> frozenset[str]:
        """The systems the hardware fit rules out on `hardware`."""
        return self._fits(hardware, candidates)[0]

    def best_fit(self, hardware: tuple[str, ...], candidates: list[Candidate]) -> float:
        """The most any system's hardware fit scores on `hardware`."""
        return self._fits(hardware, candidates)[1]

    def _fits(
        self, hardware: tuple[str, ...], candidates: list[Candidate]
    ) -> tuple[frozenset[str], float]:
        found = self.unfits.get(hardware)
        if found is None:
            fits = [(c.slug, self.fit({"hardware": hardware}, c)) for c in candidates]
            found = self.unfits[hardware] = (
                frozenset(slug for slug, f in fits if f.exclusions),
                max((f.score for _, f in fits), default=0.0),
            )
        return found

    def fit(self, answers: Answers, c: Candidate) -> Fit:
        key = (answers.get("hardware", ()), c.slug)
        found = self.fits.get(key)
        if found is None:
            found = self.fits[key] = hardware_fit(answers, c)
        return found


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


def _unknown(rule: RuleSpec, name: str) -> str:
    """The 'no source says' line for a rule that selects systems by their data."""
    requires = rule.requires or {}
    if "licence" in requires:
        return f"No source gives {name}'s licence."
    test = requires.get("having") or requires.get("lacking") or {}
    capability = str(test.get("capability", "")) if isinstance(test, dict) else ""
    subject = rule.subject or capability.replace("-", " ")
    return f"No source says whether {name} has this: {subject}."


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


def _ruling(item: Item, c: Candidate) -> tuple[bool, float, Reason]:
    """(ruled out?, the penalty instead, the reason) for one exclude rule and one system."""
    text = _text(item.rule, c)
    sides = item.target.sides
    if sides is None or sides.share >= 0.5:
        extra: dict[str, Any] = {"disputed": sides.text()} if sides else {}
        return True, 0.0, reason(text, item.target.source, rule=item.rule.slug, kind="excluded",
                                 **extra)  # fmt: skip
    weight = -round(EXCLUSION_AS_PENALTY * sides.share, 2)
    return False, weight, reason(text, item.target.source, weight, item.rule.slug,
                                 kind="against", disputed=sides.text())  # fmt: skip


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
        elif (rule.effect == "boost" and not rule.fallback and m.known == 1 and rule.when
              and rule.weight >= OVERRIDING_STRENGTH):  # fmt: skip
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


def _weigh(
    items: list[Item], set_aside: frozenset[str], c: Candidate
) -> tuple[float, list[Reason]]:
    """The score the advice adds to one system, and its reasons."""
    reasons = [_reason(g, c) for g in _weighing(items, set_aside)]
    return sum(r.weight for r in reasons), reasons


def _weigh_score(items: list[Item], set_aside: frozenset[str]) -> float:
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
    lead = max(group, key=lambda i: abs(i.weight))
    group = group + (shelved or [])
    others = {i.rule.source.slug: i.rule.source for i in group}
    others.pop(lead.rule.source.slug, None)
    bonus = min(CORROBORATION_STEP * len(others), CORROBORATION_CAP) * lead.match.known
    weight = lead.weight + (bonus if lead.weight > 0 else -bonus)
    return _Group(lead, group, others, weight, round(weight, 2), round(abs(lead.weight), 2),
                  round(lead.match.known, 2))  # fmt: skip


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


def _prior(items: list[Item], c: Candidate) -> tuple[float, list[Reason]]:
    """The sourced default order: grouped like advice, used only to order equal scores."""
    groups: dict[str, list[Item]] = defaultdict(list)
    for item in items:
        groups[item.rule.advice_key].append(item)
    reasons = [_group_reason(g, c) for g in groups.values()]
    return sum(r.weight for r in reasons), reasons


def _text(rule: RuleSpec, c: Candidate) -> str:
    return rule.reason.replace("{name}", c.name)
