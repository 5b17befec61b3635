"""The Pareto frontier of a set of points where higher is better on both axes. Pure numbers:
a sweep curve's frontier (app/queries/sweeps.py) and a service level's reading
(app/measures/service_level.py) both rest on it."""

from collections.abc import Sequence

Pair = tuple[float, float]


def dominates(a: Pair, b: Pair) -> bool:
    """Whether `a` is at least as good as `b` on both axes and better on one (higher is better)."""
    return a[0] >= b[0] and a[1] >= b[1] and (a[0] > b[0] or a[1] > b[1])


def pareto_frontier(points: Sequence[Pair]) -> list[bool]:
    """For each (x, y): True when no other point dominates it.

    Equal points do not dominate each other, so duplicates are on the frontier together.
    Quadratic, which is fine for a curve of a few dozen points (app/queries/sweeps.py caps it).
    """
    return [not any(dominates(other, point) for other in points) for point in points]
