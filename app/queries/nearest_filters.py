"""What an empty /benchmarks page offers instead: for each filter that is set, the results
there would be without it and the values of it that do have results, nearest first.

A filter that leaves nothing (hardware=apple-m2-max, which no figure names) is a dead end
unless the page says which filter emptied it and where the data is."""

import difflib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from app.params.benchmarks import BENCHMARK_FILTERS, BenchmarkParams

ALTERNATIVES = 3
"""Values offered per filter in place of the one that leaves nothing."""


@dataclass(frozen=True)
class Way:
    """One link out of an empty result: its words, its query string and how many it shows."""

    text: str
    query: str
    count: int


@dataclass(frozen=True)
class NearerFilter:
    """A set filter: the way without it, and its nearest values with results."""

    name: str
    chosen: list[str]  # the names of the values set, as the page shows them
    without: Way | None
    instead: list[Way]


def nearest_filters(
    params: BenchmarkParams,
    facets: dict[str, Counter[str]],
    count_without: Callable[[str], int],
    labels: dict[str, dict[str, str]],
) -> list[NearerFilter]:
    """For each list filter set in `params`, where the results are: how many dropping it shows
    (`count_without`), and its values with results (`facets`: each value's count with the
    other filters as they are)."""
    out = []
    for name in BENCHMARK_FILTERS:
        chosen = getattr(params, name)
        counts = facets.get(name, Counter())
        if not chosen:
            continue
        # Not the facets' sum: a result that does not name its hardware is in no facet.
        total = count_without(name)
        without = params.replace(**{name: (), "page": 1}).query_string()
        out.append(
            NearerFilter(
                name=name,
                chosen=[labels.get(name, {}).get(v, v) for v in chosen],
                without=Way("", without, total) if total else None,
                instead=[
                    Way(
                        labels.get(name, {}).get(v, v),
                        params.replace(**{name: (v,), "page": 1}).query_string(),
                        counts[v],
                    )
                    for v in _nearest(chosen, counts)
                ],
            )
        )
    return out


def _nearest(chosen: tuple[str, ...], counts: Counter[str]) -> list[str]:
    """The values with results, most alike the chosen ones first (apple-m2-max: apple-m3-max
    before nvidia-h100), then by how many results they give."""

    def alike(value: str) -> float:
        return max(difflib.SequenceMatcher(None, value, c).ratio() for c in chosen)

    ranked = sorted(
        (v for v, n in counts.items() if n and v not in chosen),
        key=lambda v: (-round(alike(v), 1), -counts[v], v),
    )
    return ranked[:ALTERNATIVES]
