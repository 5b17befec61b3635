"""The /benchmarks page and its JSON twin: filtered results, grouped into contexts."""

import datetime as dt
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from pydantic import BaseModel
from sqlmodel import Session

from app.data_version.version import per_version
from app.params.benchmarks import BENCHMARK_FILTERS, BenchmarkParams
from app.queries.benchmarks import all_results
from app.queries.common import compared_units, system_names
from app.queries.contexts import Context, group_contexts
from app.queries.paging import Paging, paginate
from app.schemas import BenchmarkView


class BenchmarkPage(BaseModel):
    query: str
    total: int  # every result in the data
    matched: int = 0  # the results the filters keep, on every page
    results: list[BenchmarkView]
    contexts: list[Context]
    # /api/v1/benchmarks at a service level: the team's sweeps read at it (as /api/v1/sweeps).
    team_sweeps: Any = None

    @property
    def ranked(self) -> list[Context]:
        return [c for c in self.contexts if c.ranked]

    @property
    def unranked(self) -> list[Context]:
        return [c for c in self.contexts if not c.ranked]


class ResultIndex:
    """Every result, and for each list filter which results have each value, as bit sets
    (bit i stands for results[i]).

    A /benchmarks miss applies its filters and counts every filter value's results with the
    other filters as they are: eight passes over every result in Python, the most of a page's
    work at ten times the data. Here each is a few integer ANDs and bit counts, and the
    results' own vocabulary and labels are worked out once per data version."""

    def __init__(self, results: list[BenchmarkView]) -> None:
        self.results = results
        self.everything = (1 << len(results)) - 1
        self.bits: dict[str, dict[str, int]] = {name: {} for name in BENCHMARK_FILTERS}
        self.team = 0
        for i, r in enumerate(results):
            bit = 1 << i
            for name, values in self.bits.items():
                if value := filter_value(r, name):
                    values[value] = values.get(value, 0) | bit
            if r.source.kind == "team-measurement":
                self.team |= bit

    def kept(self, params: BenchmarkParams) -> list[BenchmarkView]:
        """The results `params` keep, in their order here."""
        return [self.results[i] for i in _ones(self._mask(params, self._in_range(params)))]

    def facet_counts(self, params: BenchmarkParams) -> dict[str, Counter[str]]:
        """For each list filter, how many results each value would show with the other
        filters as they are (ticking it adds to its own filter's choices, so those are left
        out)."""
        in_range = self._in_range(params)
        counts: dict[str, Counter[str]] = {}
        for name, values in self.bits.items():
            mask = self._mask(params, in_range, leave_out=name)
            counts[name] = Counter(
                {v: n for v, bits in values.items() if (n := (bits & mask).bit_count())}
            )
        return counts

    def count_without(self, params: BenchmarkParams, name: str) -> int:
        """How many results the filters keep with the list filter `name` left out."""
        return self._mask(params, self._in_range(params), leave_out=name).bit_count()

    @cached_property
    def options(self) -> dict[str, list[tuple[str, str]]]:
        return labelled_options(self.results)

    @cached_property
    def editorial(self) -> frozenset[str]:
        return frozenset(r.metric for r in self.results if r.metric_kind == "rating")

    def _mask(self, p: BenchmarkParams, in_range: int, leave_out: str = "") -> int:
        mask = in_range
        for name, values in self.bits.items():
            if name != leave_out and (allowed := getattr(p, name)):
                either = 0
                for value in allowed:
                    either |= values.get(value, 0)
                mask &= either
        if p.origin:
            mask &= self.team if p.origin == "team" else self.everything & ~self.team
        return mask

    def _in_range(self, p: BenchmarkParams) -> int:
        """The results within the load range (all of them without one)."""
        if p.cmin is None and p.cmax is None:
            return self.everything
        digits = "".join("1" if _in_load_range(r, p) else "0" for r in reversed(self.results))
        return int(digits or "0", 2)


def _ones(mask: int) -> list[int]:
    """The positions of the set bits, lowest first (one pass over the binary digits in C
    rather than a shift per result)."""
    return [i for i, digit in enumerate(bin(mask)[:1:-1]) if digit == "1"]


NO_RESULTS = ResultIndex([])


@per_version()
def result_index(session: Session, today: dt.date) -> ResultIndex:
    return ResultIndex(all_results(session, today))


def filter_value(r: BenchmarkView, name: str) -> str | None:
    """The value of list filter `name` that result `r` has (None: the source does not say)."""
    return r.source.slug if name == "source" else getattr(r, name)


def vocabulary(results: list[BenchmarkView]) -> dict[str, list[str]]:
    """The values each list filter accepts, from the data itself."""
    return {
        name: sorted({v for r in results if (v := filter_value(r, name))}, key=str.lower)
        for name in BENCHMARK_FILTERS
    }


def build_benchmark_page(
    session: Session,
    params: BenchmarkParams,
    index: ResultIndex,
    window: slice | None = None,
) -> BenchmarkPage:
    """The results the filters keep, sorted, grouped into contexts; with `window`, only that
    slice of them (the JSON's pages), and `matched` counts them all."""
    shown = _sorted(index.kept(params), params.sort)
    matched = len(shown)
    if window is not None:
        shown = shown[window]
    units = compared_units(session)
    return BenchmarkPage(
        query=params.query_string(),
        total=len(index.results),
        matched=matched,
        results=shown,
        contexts=group_contexts(shown, units),
    )


@dataclass(frozen=True)
class BenchmarkPageView:
    """What /benchmarks draws around the BenchmarkPage its JSON twin returns (kept apart, so
    the API's fields stay as they are): one page of rows, each filter's labelled choices and
    counts, where each result is ranked and the ranked contexts it charts (`charted`, see
    charted_contexts; the route draws them and the throughput-vs-TTFT scatters of their
    settings with app/present/context_charts.py)."""

    rows: list[BenchmarkView]
    paging: Paging
    page_queries: list[str]  # the query string of each page of rows, in order
    options: dict[str, list[tuple[str, str]]]
    facets: dict[str, Counter[str]]
    placement: dict[str, dict[str, object]]
    charted: set[str]
    not_charted: int  # contexts of this page's rows past MAX_CHARTS: their rows link away
    # Editorial scores (metrics of kind "rating", such as an article's ease-of-use position):
    # no measurement, so the metric filter offers them only once a URL has ticked one.
    editorial: frozenset[str] = frozenset()


def page_view(
    page: BenchmarkPage,
    params: BenchmarkParams,
    index: ResultIndex,
    page_size: int,
    listed: list[BenchmarkView] | None = None,
) -> BenchmarkPageView:
    """The page's view of `page` (built from `index` with `params`), `page_size` rows a page;
    the rows are `listed` when given (the page's results less those shown otherwise)."""
    listed = page.results if listed is None else listed
    rows, paging = paginate(listed, params.page, page_size)
    touched = charted_contexts(page, rows, listed, first=paging.page == 1)
    charted = set(touched[:MAX_CHARTS])
    return BenchmarkPageView(
        rows=rows,
        paging=paging,
        page_queries=[params.replace(page=n).query_string() for n in range(1, paging.pages + 1)],
        options=index.options,
        facets=index.facet_counts(params),
        placement=placement(page, rows, charted, params),
        charted=charted,
        not_charted=len(touched) - len(charted),
        editorial=index.editorial,
    )


def labelled_options(results: list[BenchmarkView]) -> dict[str, list[tuple[str, str]]]:
    """Filter choices as (value, label) in label order: names for what has a name."""
    names: dict[str, dict[str | None, str | None]] = {
        "system": {r.system: r.system_name for r in results},
        "metric": {r.metric: r.metric_name for r in results},
        "hardware": {r.hardware: r.hardware_name for r in results if r.hardware},
        "model": {r.model: r.model_name for r in results if r.model},
        "workload": {r.workload: r.workload_name for r in results if r.workload},
        "source": {r.source.slug: r.source.short for r in results},
    }
    return {
        field: sorted(
            ((v, names.get(field, {}).get(v) or v) for v in values), key=lambda o: o[1].lower()
        )
        for field, values in vocabulary(results).items()
    }


MAX_CHARTS = 24
"""Chart cards on one page of rows at most. A card draws a context whole (three widths of
its bars and the table of its figures), 40 KB at twenty systems: a page of rows from a
hundred contexts was 5 MB and 40 MB of transient memory to build at ten times the data.
The rows of the contexts past the limit link to a page of their own context instead."""


def charted_contexts(
    page: BenchmarkPage,
    rows: list[BenchmarkView],
    listed: list[BenchmarkView],
    first: bool,
) -> list[str]:
    """The keys of the ranked contexts a page of rows charts: those a row on it belongs to,
    and on the first page those no listed row belongs to (an imported file's, shown as a
    group), in rank order (a page draws the first MAX_CHARTS). Each chart is drawn whole,
    and every row's link to its chart lands on its own page or on its context's page (see
    placement); a page's work stays bounded however many contexts the data holds (all of
    them were drawn on every page: 128 charts, 1.6 MB, at the real data; 5 to 7 MB at ten
    times it)."""
    on_page = {r.id for r in rows}
    anywhere = {r.id for r in listed}
    keys: list[str] = []
    for context in page.ranked:
        ids = {r.result.id for r in context.results}
        if ids & on_page or (first and not ids & anywhere):
            keys.append(context.key)
    return keys


def placement(
    page: BenchmarkPage, rows: list[BenchmarkView], charted: set[str], params: BenchmarkParams
) -> dict[str, dict[str, object]]:
    """For each row: the ranked context it belongs to and where its chart is (a card on this
    page, or the page of its own context when this one draws as many as it may), or why it
    stands alone."""
    out: dict[str, dict[str, object]] = {}
    wanted = {r.id for r in rows}
    ranked_index = {c.key: i for i, c in enumerate(page.ranked, start=1)}
    for context in page.contexts:
        for r in context.results:
            if r.result.id not in wanted:
                continue
            if context.ranked:
                others = len(context.results) - 1
                label = f"{others} other result{'s' if others != 1 else ''}"
                if context.key in charted:
                    link = f"#ctx-{ranked_index[context.key]}"
                else:
                    link = f"/benchmarks?{context_query(context, params)}"
                out[r.result.id] = {"ranked": True, "label": label, "link": link}
            else:
                out[r.result.id] = {"ranked": False, "label": context.why_not_ranked}
    return out


def context_query(context: Context | BenchmarkView, params: BenchmarkParams) -> str:
    """The filters that narrow `params` to one context's setting and metric, or a figure's
    (the systems, sources and origin asked for stay; a part left open is not filtered)."""
    narrowed = params.replace(
        metric=(context.metric,),
        hardware=(context.hardware,) if context.hardware else (),
        model=(context.model,) if context.model else (),
        precision=(context.precision,) if context.precision else (),
        workload=(context.workload,) if context.workload else (),
        cmin=context.concurrency or None,
        cmax=context.concurrency or None,
        page=1,
    )
    return narrowed.query_string()


def _in_load_range(r: BenchmarkView, p: BenchmarkParams) -> bool:
    if p.cmin is not None and (r.concurrency is None or r.concurrency < p.cmin):
        return False
    return p.cmax is None or (r.concurrency is not None and r.concurrency <= p.cmax)


def _sort_value(r: BenchmarkView, column: str) -> tuple[int, Any]:
    value: Any = {
        "system": r.system_name.lower(),
        "metric": r.metric_name.lower(),
        "hardware": r.hardware_name,
        "model": r.model_name,
        "workload": r.workload_name,
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


def unmeasured_systems(
    session: Session, asked: Sequence[str], results: list[BenchmarkView]
) -> list[str]:
    """The names of the filtered systems no figure names at all: an empty page then says
    that no source has measured them yet, rather than only that nothing matches."""
    measured = {r.system for r in results}
    names = {slug: name for slug, name in system_names(session).values()}
    return [names.get(slug, slug) for slug in asked if slug not in measured]
