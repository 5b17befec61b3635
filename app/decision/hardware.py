"""Hardware fit, read from the hardware claims: support adds a point, only a 'no' rules out.

Missing data is unknown, never "no": a system no source places on the chosen hardware stays in
the ranking without the point and is marked unknown, which lowers its confidence.
"""

from dataclasses import dataclass, field
from typing import Any

from app.decision.evidence import sides
from app.decision.model import Answers, Candidate, ClaimRef, Reason
from app.decision.questions import option_label
from app.schemas import SourceRef

# Which hardware claims answer "what will it run on?".
HARDWARE_CAPABILITIES: dict[str, tuple[str, ...]] = {
    "nvidia-datacenter": ("nvidia-cuda",),
    "nvidia-hopper-or-newer": ("nvidia-cuda",),
    "nvidia-before-hopper": ("nvidia-cuda",),
    "nvidia-consumer": ("nvidia-cuda",),
    "amd-gpu": ("amd-rocm",),
    "amd-instinct": ("amd-rocm",),
    "amd-radeon": ("amd-rocm",),
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
SUPPORT = FULL | PARTLY
FIT = {"full": 1.0, "partly": 0.5}
# Layers that route to an engine run wherever that engine runs.
ENGINE_AGNOSTIC_KINDS = ("orchestration", "proxy")


DEFAULTS = {"kind": "for", "also": [], "lead_weight": 0.0, "known": 1.0, "disputed": None}


@dataclass
class Fit:
    reasons: list[Reason] = field(default_factory=list)
    unknowns: list[Reason] = field(default_factory=list)
    exclusions: list[Reason] = field(default_factory=list)
    score: float = 0.0


def reason(
    text: str, source: SourceRef | None, weight: float = 0, rule: str | None = None, **extra: Any
) -> Reason:
    # Built dozens of times per what-if; the fields are ours, so validation is skipped.
    fields: dict[str, Any] = {**DEFAULTS, **extra}
    return Reason.model_construct(
        text=text,
        source=source.slug if source else None,
        source_title=source.title if source else None,
        source_short=source.short if source else None,
        source_date=source.date if source else None,
        weight=weight,
        rule=rule,
        **fields,
    )


def hardware_fit(answers: Answers, candidate: Candidate) -> Fit:
    """Support, partial support, an explicit 'no' or nothing known, for the chosen hardware."""
    fit = Fit()
    for option in answers.get("hardware", ()):
        per_target = [candidate.claims.get(cap, []) for cap in HARDWARE_CAPABILITIES[option]]
        _fit_one(fit, candidate, option_label("hardware", option), per_target)
    return fit


def _fit_one(fit: Fit, c: Candidate, label: str, per_target: list[list[ClaimRef]]) -> None:
    known = [x for claims in per_target for x in claims if x.level != "unknown"]
    if not known:
        if c.kind not in ENGINE_AGNOSTIC_KINDS or any(c.claims.get(x) for x in _all_targets()):
            text = f"No source says whether {c.name} runs on {label}."
            first = next(iter(c.summary_sources), None)
            fit.unknowns.append(reason(text, first, rule="hardware", kind="unknown"))
        return
    support = sides(known, SUPPORT)
    if support.share < 0.5:
        denial = sides(known, {"no"})
        text = f"A source says {c.name} does not run on {label}."
        extra: dict[str, Any] = {"disputed": denial.text()} if denial.disputed else {}
        denier = denial.behind[0] if denial.behind else None
        fit.exclusions.append(reason(text, denier, rule="hardware", kind="excluded", **extra))
        return
    best = _best(per_target)
    if best.level not in SUPPORT:  # the newest says no, but most weight says it runs
        best = max((x for x in known if x.level in SUPPORT), key=lambda x: x.source.date)
    weight = round(FIT["full" if best.level in FULL else "partly"] * support.share, 2)
    how = "runs on" if best.level in FULL else f"has {best.level} support for"
    shown: dict[str, Any] = {"disputed": support.text()} if support.disputed else {}
    fit.score += weight
    fit.reasons.append(reason(f"{c.name} {how} {label}.", best.source, weight, "hardware", **shown))


def _best(per_target: list[list[ClaimRef]]) -> ClaimRef:
    """The best headline (newest source's) level among the targets (x86 or ARM for CPU)."""
    headlines = [
        max((x for x in claims if x.level != "unknown"), key=lambda x: x.source.date)
        for claims in per_target
        if any(x.level != "unknown" for x in claims)
    ]

    def rank(claim: ClaimRef) -> int:
        return 2 if claim.level in FULL else 1 if claim.level in PARTLY else 0

    return max(headlines, key=rank)


def _all_targets() -> set[str]:
    return {cap for caps in HARDWARE_CAPABILITIES.values() for cap in caps}
