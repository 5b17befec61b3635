"""One setup across system versions: each version's figure and the change from the one
before, flagged when it is larger than the measured spread. Pure numbers.

The threshold for a change is the wider relative spread (high − low over the figure) of the
two versions when either was run more than once, else 10%: a change within it is not
flagged. Fewer than two versions make no timeline, and say so. See docs/charts.md.
"""

from collections.abc import Sequence
from dataclasses import dataclass

NO_REPEATS_THRESHOLD = 0.10
TOO_FEW = "measured in one version only; a timeline needs two"


@dataclass(frozen=True)
class VersionFigure:
    version: str
    value: float | None  # None: the version does not reach the level, or lacks the load
    low: float | None = None  # the spread, when the version was run more than once there
    high: float | None = None


@dataclass(frozen=True)
class Step:
    """The change from the version before (None for the first, or without both figures)."""

    figure: VersionFigure
    change: float | None = None  # relative: +0.2 is 20% more per GPU
    threshold: float | None = None
    flag: str = ""  # "improvement", "regression" or "" (within the spread)


def steps(figures: Sequence[VersionFigure]) -> tuple[list[Step], str]:
    """`figures` in version order, each with its change; and a note when there are too few."""
    out: list[Step] = []
    previous: VersionFigure | None = None
    for figure in figures:
        if previous is None or previous.value is None or figure.value is None:
            out.append(Step(figure))
        else:
            change = (figure.value - previous.value) / previous.value
            threshold = _threshold(previous, figure)
            flag = ""
            if abs(change) > threshold:
                flag = "improvement" if change > 0 else "regression"
            out.append(Step(figure, change, threshold, flag))
        previous = figure
    return out, TOO_FEW if len(figures) < 2 else ""


def _threshold(a: VersionFigure, b: VersionFigure) -> float:
    spreads = [
        (f.high - f.low) / f.value
        for f in (a, b)
        if f.value and f.low is not None and f.high is not None and f.high > f.low
    ]
    return max(spreads) if spreads else NO_REPEATS_THRESHOLD
