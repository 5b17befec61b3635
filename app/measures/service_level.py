"""Throughput per GPU at a service level, read off a sweep curve, and what it costs in money
and energy. Pure numbers.

A service level is a target on the latency side of a sweep: at least `per_user` tok/s per
user, at most `ttft_p99` ms to the first token, at most `tpot_p99` ms per output token, at
least `goodput` per cent of requests within the goodput targets the run itself was given
(its goodput ÷ its request throughput; only files that carry a goodput answer it), in any
combination. A curve answers it with the throughput per GPU where its Pareto frontier (in
that target's metric against throughput per GPU) crosses the target, by linear interpolation
between the two measured loads either side. Nothing is extrapolated: a target beyond the
curve's best measured load is "not reached", and one that every measured load already meets
lies past the sweep's heaviest load; both come with the nearest measured point.
See docs/charts.md ("At a service level").
"""

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise

from app.measures.frontier import pareto_frontier

SECONDS_PER_HOUR = 3600
TOKENS_PER_MILLION = 1_000_000


@dataclass(frozen=True)
class Level:
    """The targets; None where the level says nothing about that metric."""

    per_user: float | None = None  # tok/s/user, at least
    ttft_p99: float | None = None  # ms, at most
    tpot_p99: float | None = None  # ms, at most
    goodput: float | None = None  # % of requests within the run's own goodput targets, at least

    def targets(self) -> list[tuple[str, float]]:
        return [(name, value) for name in TARGETS if (value := getattr(self, name)) is not None]

    def __bool__(self) -> bool:
        return bool(self.targets())

    def describe(self) -> str:
        """'≥ 50 tok/s/user and p99 TTFT ≤ 500 ms'"""
        return " and ".join(
            f"{TARGETS[name][0]} {TARGETS[name][1]} {value:g} {TARGETS[name][2]}"
            for name, value in self.targets()
        )


# target -> (what, comparison, unit); per_user and goodput are floors, the latencies ceilings.
TARGETS = {
    "per_user": ("per-user throughput", "≥", "tok/s/user"),
    "ttft_p99": ("p99 TTFT", "≤", "ms"),
    "tpot_p99": ("p99 TPOT", "≤", "ms"),
    "goodput": ("requests within the run's goodput targets", "≥", "%"),
}
FLOORS = ("per_user", "goodput")  # targets to meet or beat; the others are ceilings


@dataclass(frozen=True)
class LevelPoint:
    """One measured load of a curve, as the level reads it."""

    load: str
    per_gpu: float
    per_user: float | None = None
    ttft_p99: float | None = None
    tpot_p99: float | None = None
    goodput: float | None = None  # % of its requests that met the run's goodput targets


@dataclass(frozen=True)
class AtLevel:
    """A curve at the level: per-GPU throughput and the two loads it lies between, or why not."""

    per_gpu: float | None
    reached: bool
    between: tuple[str, str] | None
    nearest: LevelPoint | None = None  # when not reached: the measured load closest to the level
    why: str = ""  # when not reached: "not reached at this level", …
    binding: str = ""  # the target that limits throughput (several targets: the tightest)
    weights: tuple[float, float] = field(default=(0.0, 0.0))  # each bracketing load's share


NOT_REACHED = "not reached at this level"
NOT_MEASURED_TO = "every measured load meets this level; the sweep stops before it is reached"
NO_FIGURES = "the runs do not give this metric"


def at_level(points: Sequence[LevelPoint], level: Level) -> AtLevel:
    """The curve's per-GPU throughput at `level` (see the module's docstring).

    With several targets each is read on its own and the lowest throughput wins: the loads
    that meet every target are those up to the tightest one.
    """
    results = [_one(points, name, target) for name, target in level.targets()]
    if not results:
        raise ValueError("a level needs at least one target")
    failed = [r for r in results if not r.reached]
    if failed:
        return failed[0]
    return min(results, key=lambda r: r.per_gpu or 0.0)


def _one(points: Sequence[LevelPoint], name: str, target: float) -> AtLevel:
    # Turn every target into "higher is better, at least `goal`".
    sign = 1.0 if name in FLOORS else -1.0
    measured = [(sign * v, p) for p in points if (v := getattr(p, name)) is not None]
    if not measured:
        return AtLevel(None, False, None, None, NO_FIGURES, name)
    goal = sign * target
    flags = pareto_frontier([(g, p.per_gpu) for g, p in measured])
    frontier = sorted(
        (item for item, on in zip(measured, flags, strict=True) if on), key=lambda i: i[0]
    )
    lowest, highest = frontier[0], frontier[-1]
    if goal > highest[0]:
        return AtLevel(None, False, None, highest[1], NOT_REACHED, name)
    if goal < lowest[0]:
        return AtLevel(None, False, None, lowest[1], NOT_MEASURED_TO, name)
    for (g0, p0), (g1, p1) in pairwise(frontier):
        if g0 <= goal <= g1:
            share = 0.0 if g1 == g0 else (goal - g0) / (g1 - g0)
            value = p0.per_gpu + share * (p1.per_gpu - p0.per_gpu)
            # Exactly at a measured load: that load on both sides (nothing interpolated).
            loads = (p1.load,) * 2 if share == 1 else (p0.load,) * 2 if share == 0 else None
            return AtLevel(
                value, True, loads or (p0.load, p1.load), None, "", name, (1 - share, share)
            )
    # The goal equals the only frontier point.
    return AtLevel(highest[1].per_gpu, True, (highest[1].load,) * 2, None, "", name, (1.0, 0.0))


def joules_per_token(
    watts_per_gpu: float | None, tokens_per_gpu_second: float | None
) -> float | None:
    """Energy per output token, J: mean board power per GPU (W = J/s) ÷ output tok/s per GPU.

    None (never zero) without a power reading or a throughput."""
    if watts_per_gpu is None or watts_per_gpu <= 0:
        return None
    if not tokens_per_gpu_second or tokens_per_gpu_second <= 0:
        return None
    return watts_per_gpu / tokens_per_gpu_second


def cost_per_million(
    usd_per_gpu_hour: float | None, tokens_per_gpu_second: float | None
) -> float | None:
    """US dollars per million tokens: price ÷ (per-GPU throughput × 3600) × 10⁶.

    None (never zero) without a price or a throughput."""
    if usd_per_gpu_hour is None or not tokens_per_gpu_second or tokens_per_gpu_second <= 0:
        return None
    return usd_per_gpu_hour / (tokens_per_gpu_second * SECONDS_PER_HOUR) * TOKENS_PER_MILLION
