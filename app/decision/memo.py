"""The memo of a recommendation's scoring: what depends only on the candidates, the rules
and a few answers (which systems a rule speaks about, hardware fits, default orders, each
system's weighing), worked out once and shared by every what-if over the same data."""

from app.decision.hardware import Fit, hardware_fit, reason
from app.decision.matching import Match
from app.decision.model import Answers, Candidate, Reason, RuleSpec
from app.decision.rules import Target, target
from app.decision.weighing import Item, prior_of, ruling_of, weigh, weigh_score


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
            found = self.priors[key] = prior_of(defaults, c)
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
        key = (c.slug, set_aside, *((i.rule.slug, i.match, id(i.target)) for i in items))
        found = self.weighed.get(key)
        if found is None:
            if len(self.weighed) >= self.limit:
                self.weighed.clear()  # cheaper than LRU bookkeeping on every lookup
            found = self.weighed[key] = weigh(items, set_aside, c)
        return found

    def weigh_score(self, c: Candidate, items: list["Item"], set_aside: frozenset[str]) -> float:
        """What `weigh` adds, for what-ifs, which read scores alone: no reason is built."""
        key = (c.slug, set_aside, *((i.rule.slug, i.match, id(i.target)) for i in items))
        weighed = self.weighed.get(key)
        if weighed is not None:
            return weighed[0]
        found = self.weighed_scores.get(key)
        if found is None:
            if len(self.weighed_scores) >= self.limit:
                self.weighed_scores.clear()
            found = self.weighed_scores[key] = weigh_score(items, set_aside)
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
                    unknowns.append(
                        (slug, reason(text, spoken.source, rule=rule.slug, kind="unknown"))
                    )
            found = self.applications[key] = (hits, unknowns)
        return found

    def ruling(self, item: "Item", c: Candidate) -> tuple[bool, float, Reason]:
        key = (item.rule.slug, c.slug, id(item.target))
        found = self.rulings.get(key)
        if found is None:
            found = self.rulings[key] = ruling_of(item, c)
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


def _unknown(rule: RuleSpec, name: str) -> str:
    """The 'no source says' line for a rule that selects systems by their data."""
    requires = rule.requires or {}
    if "licence" in requires:
        return f"No source gives {name}'s licence."
    test = requires.get("having") or requires.get("lacking") or {}
    capability = str(test.get("capability", "")) if isinstance(test, dict) else ""
    subject = rule.subject or capability.replace("-", " ")
    return f"No source says whether {name} has this: {subject}."
