"""What one scale's run found, as a markdown table, and which targets it missed."""

import statistics
from collections import Counter
from dataclasses import dataclass, field

from scripts.benchkit.wrk import TIMEOUT_S, WrkResult

MIN_RATIO = 0.5  # each repeated view at ≥ half the floor's requests/s
MAX_DISTINCT_P99_MS = 1000
MAX_RSS_MB = 300


@dataclass
class ViewStats:
    """One view at one connection count: every (floor run, view run) pair over the rounds."""

    path: str
    connections: int
    pairs: list[tuple[WrkResult, WrkResult]] = field(default_factory=list)
    exceptions: list[str] = field(default_factory=list)

    @property
    def ratio(self) -> float:
        """The median over rounds of the view's requests/s over the floor's just before it."""
        return statistics.median(v.rps / f.rps if f.rps else 0.0 for f, v in self.pairs)

    @property
    def runs(self) -> list[WrkResult]:
        return [view for _, view in self.pairs]


@dataclass
class SpecialRun:
    """A run that is not paired with the floor: distinct URLs, or views during a reseed."""

    label: str
    connections: int
    result: WrkResult
    exceptions: list[str]
    expected: int = 0  # requests that should have been answered (0: no fixed number)
    failures: list[str] = field(default_factory=list)  # e.g. a reseed that did not finish

    @property
    def unanswered(self) -> int:
        return max(0, self.expected - self.result.requests)


@dataclass
class HostileStats:
    """Status codes per kind of hostile request ("no answer" when the connection failed)."""

    statuses: dict[str, Counter[str]]
    exceptions: list[str]

    @property
    def total(self) -> Counter[str]:
        return sum(self.statuses.values(), Counter())

    @property
    def failures(self) -> int:
        return sum(n for s, n in self.total.items() if not s.startswith(("2", "3", "4")))


@dataclass
class ScaleResult:
    scale: int
    systems: int
    views: list[ViewStats]
    distinct: SpecialRun
    hostile: HostileStats
    reseed: SpecialRun
    peak_rss_mb: float = 0.0
    peak_phase: str = ""
    # The schema fuzzer's failures per identity (-1: it did not run); empty when not run.
    fuzzed: dict[str, int] = field(default_factory=dict)


def render(result: ScaleResult) -> str:
    """The scale's section: one table, then memory, hostile requests and exceptions."""
    head = [
        f"### Data set x{result.scale} ({result.systems} systems)",
        "",
        *_table(_rows(result)),
        "",
        f"Peak resident memory (VmRSS) of the server: {result.peak_rss_mb:.0f} MB "
        f"(during {result.peak_phase}).",
        "",
        f"Hostile requests ({result.hostile.total.total()}): {_counts(result.hostile.total)}.",
    ]
    head += [f"- {kind}: {_counts(counts)}" for kind, counts in result.hostile.statuses.items()]
    if result.fuzzed:
        found = ", ".join(f"{who}: {_fuzzed(n)}" for who, n in result.fuzzed.items())
        head += ["", f"Schema fuzzer (schemathesis, every check): {found}."]
    exceptions = Counter(_all_exceptions(result))
    if exceptions:
        head += ["", f"Server exceptions ({exceptions.total()}):"]
        head += [f"- {n}× `{text[:160]}`" for text, n in exceptions.most_common(8)]
    return "\n".join(head)


HEADER = ("run", "conns", "req/s", "× floor", "p99", "non-2xx", "socket errors", "exceptions")


def _rows(result: ScaleResult) -> list[tuple[str, ...]]:
    rows: list[tuple[str, ...]] = []
    for connections in sorted({v.connections for v in result.views}):
        floors = [f for v in result.views if v.connections == connections for f, _ in v.pairs]
        rps, p99 = _numbers(floors)
        rows.append(
            ("floor: bare FastAPI app", str(connections), rps, "1.00", p99, *_errors(floors), "–")
        )
    for view in result.views:
        rps, p99 = _numbers(view.runs)
        rows.append(
            (
                f"`{view.path}`",
                str(view.connections),
                rps,
                f"{view.ratio:.2f}",
                p99,
                *_errors(view.runs),
                str(len(view.exceptions)),
            )
        )
    for run in (result.distinct, result.reseed):
        label = run.label + (f" ({run.unanswered} never answered)" if run.unanswered else "")
        label += "".join(f"; {failure}" for failure in run.failures)
        rps, p99 = _numbers([run.result])
        rows.append(
            (
                label,
                str(run.connections),
                rps,
                "–",
                p99,
                *_errors([run.result]),
                str(len(run.exceptions)),
            )
        )
    return rows


def _fuzzed(failures: int) -> str:
    return "did not run" if failures < 0 else f"{failures} failures"


def _numbers(runs: list[WrkResult]) -> tuple[str, str]:
    """(median requests/s, median p99) as text, the p99 marked when timeouts hide it."""
    rps = statistics.median(r.rps for r in runs)
    if any(r.p99_censored for r in runs):
        return f"{rps:,.0f}", f"> {TIMEOUT_S} s"
    answered = [r for r in runs if r.requests]
    p99 = statistics.median(r.p99_ms for r in answered) if answered else None
    return f"{rps:,.0f}", _ms(p99)


def _errors(runs: list[WrkResult]) -> tuple[str, str]:
    non_2xx = Counter[int]()
    for run in runs:
        non_2xx.update({s: n for s, n in run.statuses.items() if not 200 <= s < 300})
    codes = ", ".join(f"{n}× {s}" for s, n in sorted(non_2xx.items()))
    kinds = ("connect", "read", "write", "timeout")
    sockets = {k: sum(getattr(r, k) for r in runs) for k in kinds}
    socket_text = ", ".join(f"{n} {k}" for k, n in sockets.items() if n)
    return codes or "0", socket_text or "0"


def _ms(value: float | None) -> str:
    if value is None:
        return "–"
    return f"{value:,.0f} ms" if value < 1000 else f"{value / 1000:.2f} s"


def _counts(counts: Counter[str]) -> str:
    return ", ".join(f"{n}× {status}" for status, n in sorted(counts.items()))


def _table(rows: list[tuple[str, ...]]) -> list[str]:
    """A markdown table padded to line up in a terminal too."""
    widths = [max(len(r[i]) for r in [HEADER, *rows]) for i in range(len(HEADER))]

    def line(cells: tuple[str, ...]) -> str:
        padded = [
            c.ljust(w) if i == 0 else c.rjust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ]
        return "| " + " | ".join(padded) + " |"

    rule = "|" + "|".join("-" * (w + 1) + (":" if i else "-") for i, w in enumerate(widths)) + "|"
    return [line(HEADER), rule, *(line(r) for r in rows)]


def _all_exceptions(result: ScaleResult) -> list[str]:
    found = [e for v in result.views for e in v.exceptions]
    return found + result.distinct.exceptions + result.hostile.exceptions + result.reseed.exceptions


def missed_targets(result: ScaleResult) -> list[str]:
    """Every target this scale missed, each as one line that says by how much."""
    x = f"x{result.scale}"
    misses = []
    for view in result.views:
        where = f"{x} {view.path} at {view.connections} connections"
        if view.ratio < MIN_RATIO:
            misses.append(
                f"{where}: {view.ratio:.2f}× the floor's requests/s (target ≥ {MIN_RATIO})"
            )
        misses += _error_misses(where, view.runs, view.exceptions)
    for run in (result.distinct, result.reseed):
        misses += _error_misses(f"{x} {run.label}", [run.result], run.exceptions)
        misses += [f"{x} {run.label}: {failure}" for failure in run.failures]
        if run.unanswered:
            misses.append(f"{x} {run.label}: {run.unanswered} requests never answered")
    p99 = result.distinct.result.p99_ms
    if result.distinct.result.p99_censored or p99 >= MAX_DISTINCT_P99_MS:
        shown = _numbers([result.distinct.result])[1]
        misses.append(f"{x} distinct URLs: p99 {shown} (target < {_ms(MAX_DISTINCT_P99_MS)})")
    if result.hostile.failures:
        misses.append(f"{x} hostile requests: {result.hostile.failures} answered 5xx or not at all")
    for who, failures in result.fuzzed.items():
        if failures != 0:
            misses.append(f"{x} schema fuzzer ({who}): {_fuzzed(failures)} (target 0)")
    if result.peak_rss_mb >= MAX_RSS_MB:
        misses.append(f"{x} peak RSS {result.peak_rss_mb:.0f} MB (target < {MAX_RSS_MB} MB)")
    return misses


def _error_misses(where: str, runs: list[WrkResult], exceptions: list[str]) -> list[str]:
    non_2xx = sum(r.non_2xx for r in runs)
    sockets = sum(r.socket_errors for r in runs)
    found = [f"{non_2xx} non-2xx"] if non_2xx else []
    found += [f"{sockets} socket errors"] if sockets else []
    found += [f"{len(exceptions)} server exceptions"] if exceptions else []
    return [f"{where}: {', '.join(found)} (target 0)"] if found else []
