"""The team's own measurements as evidence in the guided flow. Pure.

When the instance holds team sweeps on the answered hardware, each measured system gets one
reason citing the team's import: its throughput per GPU at the service level (or, without a
level, its highest measured per-GPU throughput). Within one comparable group (the same
hardware, model, precision and workload) the best-measured system counts MEASURED_WEIGHT
points, like a source recommending it, and the others in proportion to their throughput
(half the throughput, half the points). A system measured in several groups counts its best
group only. Systems the team did not measure get nothing from it, and nothing against.
Without team sweeps there is no such reason, so the ranking is exactly as before.
See docs/decision.md ("Your own measurements").
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass

from app.decision.model import Reason
from app.decision.questions import QUESTIONS_BY_ID
from app.schemas import SourceRef

MEASURED_WEIGHT = 2.0
RULE = "team-measurement"
WEIGHT_EXPLAINED = (
    f"The team's own sweeps count as one reason per measured system: the system with the "
    f"highest throughput per GPU (at your service level when you give one) on the same "
    f"hardware, model, precision and workload counts {MEASURED_WEIGHT:g} points, as much as a "
    f"source recommending it; the others count in proportion (half the throughput, half the "
    f"points). A system measured in several setups counts its best one. Systems the team did "
    f"not measure get nothing from it and nothing against."
)

# The /decide hardware answer each vocabulary entry falls under: (vendor, name pattern).
# NVIDIA data-centre parts are split by generation (the sources' "H100 or newer" advice);
# `nvidia-datacenter` is the broad answer over both, so an H100 falls under it as well.
HARDWARE_CLASSES: dict[str, tuple[str, str]] = {
    "nvidia-hopper-or-newer": (
        "nvidia",
        r"\b(H100|H200|H20|H800|GH200|B100|B200|B300|GB200|GB300)\b",
    ),
    "nvidia-before-hopper": ("nvidia", r"\b(A100|A800|A10G?|A30|L40S?|L4|V100|T4)\b"),
    "nvidia-consumer": ("nvidia", r"\b(RTX|GeForce|GTX)\b"),
    "amd-instinct": ("amd", r"\bMI\d{3}"),
    "amd-radeon": ("amd", r"\b(Radeon|Ryzen)\b"),
    "apple-silicon": ("apple", r"\bM\d"),
    "intel-gaudi": ("intel", r"\bGaudi"),
    "aws-inferentia": ("aws", r"\b(Inferentia|Trainium)"),
    "google-tpu": ("google", r"\bTPU"),
    "ascend-npu": ("huawei", r"\bAscend"),
}
# The broad answers over them, as the hardware question's options say (`covers`).
BROAD = {o.id: o.covers for o in QUESTIONS_BY_ID["hardware"].options if o.covers}


def hardware_answers(vendor: str | None, name: str) -> set[str]:
    """The hardware answers an entry (its vendor and name) falls under."""
    found = {
        answer
        for answer, (maker, pattern) in HARDWARE_CLASSES.items()
        if (vendor or "").lower().startswith(maker) and re.search(pattern, name, re.IGNORECASE)
    }
    return found | {broad for broad, fine in BROAD.items() if found & set(fine)}


@dataclass(frozen=True)
class Measured:
    """One system's figure in one comparable group."""

    system: str
    group: str  # 'NVIDIA H100 SXM5 80GB · Llama 3.1 8B · FP8 · ~1024 in / 511 out tokens'
    setup: str  # the curve: 'vLLM 0.11.2 · NVIDIA H100 SXM5 80GB ×1 · FP8'
    per_gpu: float
    basis: str  # 'at per-user throughput ≥ 50 tok/s/user', 'at its best measured load'
    source: SourceRef
    cost: float | None = None  # $ per million output tokens, with a price
    link: str = ""  # where the runs are
    joules: float | None = None  # J per output token, where the files carry GPU power


def measured_reasons(figures: Sequence[Measured]) -> dict[str, tuple[Reason, Measured]]:
    """system -> its reason (weighted within its group) and the figure behind it."""
    best: dict[str, float] = {}
    for f in figures:
        best[f.group] = max(best.get(f.group, 0.0), f.per_gpu)
    out: dict[str, tuple[Reason, Measured]] = {}
    for f in figures:
        top = best[f.group]
        weight = round(MEASURED_WEIGHT * f.per_gpu / top, 2) if top > 0 else 0.0
        if f.system in out and out[f.system][0].weight >= weight:
            continue
        cost = f" (${f.cost:,.2f} per million output tokens)" if f.cost is not None else ""
        leader = "the most" if f.per_gpu >= top else f"{f.per_gpu / top:.0%} of the best"
        text = (
            f"The team measured {f.per_gpu:,.0f} tok/s per GPU {f.basis} on {f.setup}"
            f"{cost}: {leader} among the systems measured on {f.group}."
        )
        reason = Reason(
            text=text,
            source=f.source.slug,
            source_title=f.source.title,
            source_short=f.source.short,
            source_date=f.source.date,
            weight=weight,
            rule=RULE,
            lead_weight=weight,
        )
        out[f.system] = (reason, f)
    return out
