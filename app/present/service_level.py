"""How the sweep chart speaks of a service level: the targets neither of its axes shows
(TTFT, TPOT, goodput) become a caption above the plot and a label beside each point they set.
Pure wording; the level itself and its arithmetic are app/measures/service_level.py.
See docs/charts.md ("At a service level").
"""

from collections.abc import Sequence
from dataclasses import dataclass

from app.measures.service_level import TARGETS, Level


@dataclass(frozen=True)
class OffAxis:
    """How the sweep chart (per-user against per-GPU throughput) speaks of a target that
    neither of its axes shows, so no line can: each `{}` is the target's value."""

    alone: str  # its caption, as the level's only such target: "p99 time to first token ≤ {} ms"
    among: str  # the same, shorter, beside another: "p99 TTFT ≤ {} ms"
    label: str  # beside a point it sets: "≤{} ms"
    name: str  # put before the label when another such target shares its unit: "TTFT"
    where: str  # in that point's title: "where p99 TTFT is {} ms"


OFF_AXIS = {
    "ttft_p99": OffAxis(
        "p99 time to first token ≤ {} ms",
        "p99 TTFT ≤ {} ms",
        "≤{} ms",
        "TTFT",
        "where p99 TTFT is {} ms",
    ),
    "tpot_p99": OffAxis(
        "p99 time per output token ≤ {} ms",
        "p99 TPOT ≤ {} ms",
        "≤{} ms",
        "TPOT",
        "where p99 TPOT is {} ms",
    ),
    "goodput": OffAxis(
        "goodput ≥ {}% of requests",
        "goodput ≥ {}%",
        "{}%",
        "goodput",
        "where {}% of requests are within the run's goodput targets",
    ),
}


def off_axis(level: Level) -> list[tuple[str, float]]:
    """The level's targets that the sweep chart has no axis for, in TARGETS order."""
    return [(name, value) for name, value in level.targets() if name in OFF_AXIS]


def point_label(level: Level, binding: str) -> str:
    """What the chart writes beside a curve's point at the level: the target that set it, when
    no axis shows that target ("≤500 ms", "80%"), named ("TTFT ≤500 ms") when another such
    target in the level has the same unit. Empty for per_user, whose line shows it."""
    value = getattr(level, binding, None) if binding in OFF_AXIS else None
    if value is None:
        return ""
    text = OFF_AXIS[binding].label.format(f"{value:g}")
    unit = TARGETS[binding][2]
    alike = [name for name, _ in off_axis(level) if TARGETS[name][2] == unit]
    return f"{OFF_AXIS[binding].name} {text}" if len(alike) > 1 else text


def chart_caption(level: Level, bindings: Sequence[str]) -> tuple[str, ...]:
    """The lines above the sweep chart for the targets no axis shows, given the target that
    set each drawn point (`bindings`, one per curve marked at the level): what the level is,
    what the labels mark and, with several targets, which point sits where. Nothing when the
    level has no such target or no curve is marked."""
    targets = off_axis(level)
    if not targets or not bindings:
        return ()
    form = "alone" if len(targets) == 1 else "among"
    parts = [getattr(OFF_AXIS[name], form).format(f"{value:g}") for name, value in targets]
    lines = [f"level: {' and '.join(parts)}, which neither axis shows"]
    labels = [
        label for name, _ in targets if name in bindings and (label := point_label(level, name))
    ]
    if labels:
        # Several labels say which target each is; quoting them all would outrun the plot.
        what = f"“{labels[0]}” marks" if len(labels) == 1 else "each label marks"
        lines.append(f"{what} where a curve reaches it, interpolated between two loads")
    if len(level.targets()) > 1:
        if not labels:
            lines.append("the per-user target is every curve's tightest: each cross is on its line")
        elif "per_user" in bindings:
            lines.append(
                "each cross is at its curve's tightest target (unlabelled: the dashed line)"
            )
        else:
            lines.append("each cross is at its curve's tightest target, which its label names")
    return tuple(lines)
