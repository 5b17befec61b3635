"""The /benchmarks filters and facet counts read from bit sets agree with reading every result.

`ResultIndex` replaced a pass over every result per filter; the reference below is that pass,
kept here so any combination of filters, origin and load range can be checked against it.
"""

import datetime as dt
import random
from collections import Counter
from collections.abc import Iterator

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session

from app.params.benchmarks import BENCHMARK_FILTERS, BenchmarkParams
from app.queries.benchmark_page import ResultIndex, filter_value
from app.queries.benchmarks import all_results
from app.schemas import BenchmarkView


def _keeps(r: BenchmarkView, p: BenchmarkParams) -> bool:
    for name in BENCHMARK_FILTERS:
        allowed = getattr(p, name)
        if allowed and filter_value(r, name) not in allowed:
            return False
    if p.origin and (r.source.kind == "team-measurement") != (p.origin == "team"):
        return False
    if p.cmin is not None and (r.concurrency is None or r.concurrency < p.cmin):
        return False
    return p.cmax is None or (r.concurrency is not None and r.concurrency <= p.cmax)


def _facets(results: list[BenchmarkView], p: BenchmarkParams) -> dict[str, Counter[str]]:
    counts = {}
    for name in BENCHMARK_FILTERS:
        others = p.replace(**{name: ()})
        counts[name] = Counter(
            v for r in results if _keeps(r, others) and (v := filter_value(r, name))
        )
    return counts


@pytest.fixture(scope="module")
def results(engine: Engine) -> Iterator[list[BenchmarkView]]:
    with Session(engine) as session:
        yield all_results(session, dt.date.today())


def _random_params(rng: random.Random, results: list[BenchmarkView]) -> BenchmarkParams:
    picks: dict[str, object] = {}
    for name in BENCHMARK_FILTERS:
        values = sorted({v for r in results if (v := filter_value(r, name))})
        if values and rng.random() < 0.4:
            picks[name] = tuple(rng.sample(values, min(len(values), rng.randint(1, 3))))
    if rng.random() < 0.3:
        picks["origin"] = rng.choice(("team", "published"))
    if rng.random() < 0.3:
        picks["cmin"] = rng.choice((1, 4, 16, 64))
    if rng.random() < 0.3:
        picks["cmax"] = rng.choice((1, 8, 32, 256))
    return BenchmarkParams(**picks)


def test_filters_and_counts_match_a_pass_over_every_result(results: list[BenchmarkView]) -> None:
    assert len(results) > 50 and any(r.concurrency for r in results)
    index = ResultIndex(results)
    rng = random.Random(7)
    narrowed = 0
    for _ in range(300):
        params = _random_params(rng, results)
        expected = [r for r in results if _keeps(r, params)]
        assert index.kept(params) == expected, params
        assert index.facet_counts(params) == _facets(results, params), params
        narrowed += 0 < len(expected) < len(results)
    assert narrowed > 30  # the draws did exercise real filtering, not only all or nothing


def test_a_value_no_result_has_keeps_nothing(results: list[BenchmarkView]) -> None:
    index = ResultIndex(results)
    assert index.kept(BenchmarkParams(system=("no-such-system",))) == []
    assert index.kept(BenchmarkParams()) == results
    assert ResultIndex([]).kept(BenchmarkParams(cmin=1)) == []
