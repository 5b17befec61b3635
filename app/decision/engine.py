"""Scoring: answers + systems' claims + rules -> a ranked, explained recommendation.

Pure: no database, no HTTP. Hardware fit is derived from the hardware claims; everything
else comes from rules written as data (seed/rules.yaml).
"""

from dataclasses import dataclass, field

from pydantic import BaseModel

from app.decision.questions import QUESTIONS, QUESTIONS_BY_ID
from app.schemas import SourceRef

Answers = dict[str, tuple[str, ...]]

# Which hardware claims answer "what will it run on?".
HARDWARE_CAPABILITIES: dict[str, tuple[str, ...]] = {
    "nvidia-datacenter": ("nvidia-cuda",),
    "nvidia-consumer": ("nvidia-cuda",),
    "amd-gpu": ("amd-rocm",),
    "apple-silicon": ("apple-silicon",),
    "intel-gaudi": ("intel-gaudi",),
    "aws-inferentia": ("aws-neuron",),
    "google-tpu": ("google-tpu",),
    "ascend-npu": ("ascend-npu",),
    "cpu-only": ("cpu-x86", "cpu-arm"),
    "mobile": ("mobile",),
    "browser": ("browser-webgpu",),
}
FULL = {"yes", "via"}
PARTLY = {"partial", "experimental"}
# Scores this close are a tie for the purpose of "the sources differ".
TIE_MARGIN = 1.0


@dataclass(frozen=True)
class Candidate:
    slug: str
    name: str
    kind: str
    licence_family: str
    levels: dict[str, str]  # capability -> headline level
    evidence: dict[str, list[SourceRef]]  # capability -> sources, newest first
    licence_sources: list[SourceRef]
    summary_sources: list[SourceRef]

    def level(self, capability: str) -> str:
        return self.levels.get(capability, "none")

    @property
    def has_hardware_claims(self) -> bool:
        return any(cap in self.levels for caps in HARDWARE_CAPABILITIES.values() for cap in caps)


@dataclass(frozen=True)
class RuleSpec:
    slug: str
    when: dict[str, list[str]]
    systems: list[str]
    requires: dict[str, object] | None
    effect: str
    weight: float
    reason: str
    source: SourceRef


class Reason(BaseModel):
    text: str
    source: str | None  # source slug
    source_title: str | None = None
    source_short: str | None = None
    source_date: str | None = None
    weight: float = 0.0
    rule: str | None = None


class Pick(BaseModel):
    slug: str
    name: str
    score: float
    reasons: list[Reason]


class Excluded(BaseModel):
    slug: str
    name: str
    reasons: list[Reason]


class Change(BaseModel):
    question: str
    option: str
    label: str
    new_top: str
    new_top_name: str


class Recommendation(BaseModel):
    answers: dict[str, list[str]]
    ranked: list[Pick]
    excluded: list[Excluded]
    sources_differ: str | None = None
    changes: list[Change] = []


def _reason(
    text: str, source: SourceRef | None, weight: float = 0, rule: str | None = None
) -> Reason:
    return Reason(
        text=text,
        source=source.slug if source else None,
        source_title=source.title if source else None,
        source_short=source.short if source else None,
        source_date=source.date if source else None,
        weight=weight,
        rule=rule,
    )


@dataclass
class _Tally:
    candidate: Candidate
    score: float = 0.0
    reasons: list[Reason] = field(default_factory=list)
    exclusions: list[Reason] = field(default_factory=list)


def recommend(
    answers: Answers, candidates: list[Candidate], rules: list[RuleSpec]
) -> Recommendation:
    """Rank every candidate for `answers`; explain each score and each exclusion."""
    result = _score(answers, candidates, rules)
    result.changes = what_would_change(answers, candidates, rules, result)
    return result


def _score(answers: Answers, candidates: list[Candidate], rules: list[RuleSpec]) -> Recommendation:
    tallies = {c.slug: _Tally(c) for c in candidates}
    for tally in tallies.values():
        _hardware_fit(answers, tally)
    for rule in rules:
        if _fires(rule, answers):
            for tally in tallies.values():
                _apply(rule, tally)
    ranked = sorted(
        (t for t in tallies.values() if not t.exclusions),
        key=lambda t: (-t.score, t.candidate.name.lower()),
    )
    picks = [
        Pick(
            slug=t.candidate.slug,
            name=t.candidate.name,
            score=round(t.score, 2),
            reasons=sorted(t.reasons, key=lambda r: -abs(r.weight)),
        )
        for t in ranked
    ]
    excluded = [
        Excluded(slug=t.candidate.slug, name=t.candidate.name, reasons=t.exclusions)
        for t in tallies.values()
        if t.exclusions
    ]
    return Recommendation(
        answers={k: list(v) for k, v in answers.items()},
        ranked=picks,
        excluded=sorted(excluded, key=lambda e: e.name.lower()),
        sources_differ=_sources_differ(picks) if answers else None,
    )


def _hardware_fit(answers: Answers, tally: _Tally) -> None:
    for option in answers.get("hardware", ()):
        capabilities = HARDWARE_CAPABILITIES[option]
        label = _label("hardware", option)
        c = tally.candidate
        levels = {cap: c.level(cap) for cap in capabilities}
        best = next((cap for cap in capabilities if levels[cap] in FULL), None) or next(
            (cap for cap in capabilities if levels[cap] in PARTLY), None
        )
        if best:
            weight = 1.0 if levels[best] in FULL else 0.5
            how = "runs on" if weight == 1.0 else f"has {levels[best]} support for"
            source = (c.evidence.get(best) or [None])[0]
            tally.score += weight
            tally.reasons.append(_reason(f"{c.name} {how} {label}.", source, weight, "hardware"))
        elif not c.has_hardware_claims and c.kind in ("orchestration", "proxy"):
            continue  # runs wherever the engine behind it runs
        else:
            said_no = next((cap for cap in capabilities if levels[cap] == "no"), None)
            source = (c.evidence.get(said_no) or [None])[0] if said_no else None
            text = (
                f"A source says {c.name} does not run on {label}."
                if said_no
                else f"None of the sources that describe {c.name} says it runs on {label}."
            )
            tally.exclusions.append(
                _reason(text, source or (c.summary_sources or [None])[0], rule="hardware")
            )


def _label(question: str, option: str) -> str:
    for o in QUESTIONS_BY_ID[question].options:
        if o.id == option:
            return o.label
    return option


def _fires(rule: RuleSpec, answers: Answers) -> bool:
    return all(set(answers.get(q, ())) & set(options) for q, options in rule.when.items())


def _targets(rule: RuleSpec, c: Candidate) -> tuple[bool, SourceRef]:
    """Whether the rule applies to `c`, and the source to cite for it."""
    if rule.systems:
        return c.slug in rule.systems, rule.source
    requires = rule.requires or {}
    if "licence" in requires:
        hit = c.licence_family in requires["licence"]  # type: ignore[operator]
        return hit, (c.licence_sources or [rule.source])[0]
    for key, wanted in (("having", True), ("lacking", False)):
        if key in requires:
            test: dict[str, object] = requires[key]  # type: ignore[assignment]
            capability = str(test["capability"])
            levels = set(test.get("levels") or FULL | PARTLY)  # type: ignore[call-overload]
            hit = (c.level(capability) in levels) == wanted
            evidence = c.evidence.get(capability) or [rule.source]
            return hit, evidence[0]
    return False, rule.source


def _apply(rule: RuleSpec, tally: _Tally) -> None:
    hit, source = _targets(rule, tally.candidate)
    if not hit:
        return
    text = rule.reason.replace("{name}", tally.candidate.name)
    if rule.effect == "exclude":
        tally.exclusions.append(_reason(text, source, rule=rule.slug))
        return
    weight = rule.weight if rule.effect == "boost" else -rule.weight
    tally.score += weight
    tally.reasons.append(_reason(text, source, weight, rule.slug))


def _sources_differ(picks: list[Pick]) -> str | None:
    """Name both candidates when the top two are tied on advice from different sources."""
    if len(picks) < 2 or picks[0].score - picks[1].score > TIE_MARGIN or picks[0].score <= 0:
        return None
    first, second = (_strongest_source(p) for p in picks[:2])
    if not first or not second or first == second:
        return None
    return (
        f"The sources differ here: {picks[0].name} is favoured by {first}, "
        f"{picks[1].name} by {second}."
    )


def _strongest_source(pick: Pick) -> str | None:
    boosts = [r for r in pick.reasons if r.weight > 1 and r.rule != "hardware"]
    return boosts[0].source_title if boosts else None


def what_would_change(
    answers: Answers, candidates: list[Candidate], rules: list[RuleSpec], current: Recommendation
) -> list[Change]:
    """Single different answers that would put another system first."""
    if not current.ranked:
        return []
    top = current.ranked[0].slug
    changes = []
    for question in QUESTIONS:
        if question.multiple:
            continue
        for option in question.options:
            if answers.get(question.id) == (option.id,):
                continue
            trial = {**answers, question.id: (option.id,)}
            ranked = _score(trial, candidates, rules).ranked
            if ranked and ranked[0].slug != top:
                changes.append(
                    Change(
                        question=question.id,
                        option=option.id,
                        label=option.label,
                        new_top=ranked[0].slug,
                        new_top_name=ranked[0].name,
                    )
                )
    # At most two per question, answered questions first, so the list shows varied levers.
    per_question: dict[str, list[Change]] = {}
    for change in changes:
        per_question.setdefault(change.question, []).append(change)
    ordered = sorted(per_question, key=lambda q: q not in answers)
    return [c for q in ordered for c in per_question[q][:2]][:6]
