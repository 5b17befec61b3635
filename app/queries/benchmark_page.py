"""The /benchmarks page and its JSON twin: filtered results, grouped into contexts."""

import datetime as dt
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel
from sqlmodel import Session, select

from app.models import Metric
from app.params import BenchmarkParams
from app.queries.benchmarks import benchmark_views, latest_versions, with_freshness
from app.queries.contexts import Context, group_contexts
from app.queries.snapshot import per_version
from app.schemas import BenchmarkView


class BenchmarkPage(BaseModel):
    query: str
    total: int
    results: list[BenchmarkView]
    contexts: list[Context]

    @property
    def ranked(self) -> list[Context]:
        return [c for c in self.contexts if c.ranked]

    @property
    def unranked(self) -> list[Context]:
        return [c for c in self.contexts if not c.ranked]


@per_version()
def all_results(session: Session, today: dt.date) -> list[BenchmarkView]:
    return with_freshness(benchmark_views(session), latest_versions(session), today)


def vocabulary(results: list[BenchmarkView]) -> dict[str, list[str]]:
    """The values each list filter accepts, from the data itself."""

    def distinct(get: Callable[[BenchmarkView], Any]) -> list[str]:
        return sorted({v for r in results if (v := get(r))}, key=str.lower)

    return {
        "system": distinct(lambda r: r.system),
        "metric": distinct(lambda r: r.metric),
        "hardware": distinct(lambda r: r.hardware),
        "model": distinct(lambda r: r.model),
        "precision": distinct(lambda r: r.precision),
        "source": distinct(lambda r: r.source.slug),
    }


def build_benchmark_page(
    session: Session, params: BenchmarkParams, results: list[BenchmarkView]
) -> BenchmarkPage:
    shown = _sorted([r for r in results if _keeps(r, params)], params.sort)
    units = {m.slug: m.units[0] for m in session.exec(select(Metric))}
    return BenchmarkPage(
        query=params.query_string(),
        total=len(results),
        results=shown,
        contexts=group_contexts(shown, units),
    )


def _keeps(r: BenchmarkView, p: BenchmarkParams) -> bool:
    checks = (
        (p.system, r.system),
        (p.metric, r.metric),
        (p.hardware, r.hardware),
        (p.model, r.model),
        (p.precision, r.precision),
        (p.source, r.source.slug),
    )
    if any(allowed and value not in allowed for allowed, value in checks):
        return False
    if p.origin and (r.source.kind == "team-measurement") != (p.origin == "team"):
        return False
    if p.cmin is not None and (r.concurrency is None or r.concurrency < p.cmin):
        return False
    return p.cmax is None or (r.concurrency is not None and r.concurrency <= p.cmax)


def _sort_value(r: BenchmarkView, column: str) -> tuple[int, Any]:
    value: Any = {
        "system": r.system_name.lower(),
        "metric": r.metric_name.lower(),
        "value": r.value if r.value is not None else ((r.low or 0) + (r.high or 0)) / 2,
        "source": r.source.short.lower(),
        "date": r.date or r.source.date,
    }.get(column, getattr(r, column, None))
    if isinstance(value, str):
        value = value.lower()
    # Missing values sort last in either direction.
    return (1, "") if value in (None, "") else (0, value)


def _sorted(results: list[BenchmarkView], sort: str) -> list[BenchmarkView]:
    if not sort:
        return results
    column = sort.lstrip("-")
    present = [r for r in results if _sort_value(r, column)[0] == 0]
    missing = [r for r in results if _sort_value(r, column)[0] == 1]
    present.sort(key=lambda r: _sort_value(r, column)[1], reverse=sort.startswith("-"))
    return present + missing
