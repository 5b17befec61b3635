"""Repeated runs of one setup at one load: one figure, its spread and how many runs. Pure.

Two to four runs give the median and the full range (min–max); five or more give the median
and the interquartile range (inclusive quartiles, as `statistics.quantiles` computes them),
so a single stray run does not widen the spread. Two figures are "within noise" of each
other when their spreads overlap. See docs/charts.md ("Repeated runs").
"""

import statistics
from collections.abc import Sequence
from dataclasses import dataclass

IQR_FROM = 5  # runs from which the spread is the interquartile range rather than min–max


@dataclass(frozen=True)
class Spread:
    median: float
    low: float
    high: float
    n: int
    kind: str  # "one run", "min–max" or "IQR"

    @property
    def relative(self) -> float:
        """The spread as a share of the median (0 for one run)."""
        return (self.high - self.low) / self.median if self.median else 0.0


def spread(values: Sequence[float]) -> Spread:
    if not values:
        raise ValueError("a spread needs at least one value")
    ordered = sorted(values)
    median = statistics.median(ordered)
    if len(ordered) == 1:
        return Spread(median, median, median, 1, "one run")
    if len(ordered) < IQR_FROM:
        return Spread(median, ordered[0], ordered[-1], len(ordered), "min–max")
    q1, _, q3 = statistics.quantiles(ordered, n=4, method="inclusive")
    return Spread(median, q1, q3, len(ordered), "IQR")


def within_noise(a: Spread, b: Spread) -> bool:
    """Whether the two spreads overlap; single runs have no spread, so never (unless equal)."""
    return a.low <= b.high and b.low <= a.high
