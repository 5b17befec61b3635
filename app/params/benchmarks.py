"""/benchmarks, /api/v1/benchmarks and /api/v1/sweeps: the filters, sort and paging."""

from typing import Annotated, Literal

from pydantic import Field

from app.params.level import LevelParams
from app.params.reader import MAX_VALUES, Vocabulary, encode

BENCHMARK_SORTS = (
    "system",
    "metric",
    "value",
    "hardware",
    "model",
    "precision",
    "concurrency",
    "workload",
    "run_by",
    "source",
    "date",
)
BenchmarkSort = Literal[
    "system",
    "metric",
    "value",
    "hardware",
    "model",
    "precision",
    "concurrency",
    "workload",
    "run_by",
    "source",
    "date",
    "-system",
    "-metric",
    "-value",
    "-hardware",
    "-model",
    "-precision",
    "-concurrency",
    "-workload",
    "-run_by",
    "-source",
    "-date",
]
Concurrency = Annotated[int, Field(ge=0, le=1_000_000)]


# A list of names from the data; each field adds its description and its Vocabulary marker.
# Hardware and model names may contain commas, so these lists are never split.
DataList = Annotated[tuple[str, ...], Field(max_length=MAX_VALUES)]


BENCHMARK_FILTERS = ("system", "metric", "hardware", "model", "precision", "workload", "source")
"""The /benchmarks list filters, in the order the page shows them."""

RESULTS_PAGE_SIZE = 200
"""Rows per page of the /benchmarks results table."""


class BenchmarkParams(LevelParams):
    """Everything /benchmarks and /api/v1/benchmarks accept."""

    system: Annotated[DataList, Field(description="systems (slugs)"), Vocabulary("system")] = ()
    metric: Annotated[DataList, Field(description="metrics (slugs)"), Vocabulary("metric")] = ()
    hardware: Annotated[
        DataList,
        Field(description="hardware (slugs; an alias is read as its slug)"),
        Vocabulary("hardware"),
    ] = ()
    model: Annotated[
        DataList,
        Field(description="models (slugs; an alias is read as its slug)"),
        Vocabulary("model"),
    ] = ()
    precision: Annotated[
        DataList, Field(description="weight precisions"), Vocabulary("precision")
    ] = ()
    workload: Annotated[
        DataList,
        Field(description="workloads (slugs; an alias is read as its slug)"),
        Vocabulary("workload"),
    ] = ()
    source: Annotated[DataList, Field(description="sources (slugs)"), Vocabulary("source")] = ()
    origin: Annotated[
        Literal["", "published", "team"], Field(description="published or team figures")
    ] = ""
    cmin: Annotated[Concurrency | None, Field(description="lowest concurrency")] = None
    cmax: Annotated[Concurrency | None, Field(description="highest concurrency")] = None
    sort: Annotated[
        BenchmarkSort | Literal[""], Field(description="a column, `-` in front for descending")
    ] = ""
    page: Annotated[
        int,
        Field(
            description=f"which page of the page's results table ({RESULTS_PAGE_SIZE} rows "
            "each); the JSON and CSV always hold every result",
            ge=1,
            le=100_000,
        ),
    ] = 1

    def query_string(self, with_page: bool = True) -> str:
        pairs: list[tuple[str, str]] = []
        for name in BENCHMARK_FILTERS:
            pairs += [(name, v) for v in getattr(self, name)]
        for name in ("origin", "cmin", "cmax", "sort"):
            value = getattr(self, name)
            if value not in ("", None):
                pairs.append((name, str(value)))
        pairs += self.level_pairs()
        if with_page and self.page > 1:
            pairs.append(("page", str(self.page)))
        return encode(pairs)

    def sorted_by(self, column: str) -> str:
        """The query string for sorting by `column`, flipping direction when already sorted."""
        flipped = f"-{column}" if self.sort == column else column
        return self.replace(sort=flipped, page=1).query_string()


class SweepParams(LevelParams):
    """What /api/v1/sweeps accepts: the /benchmarks filters that narrow a team's sweeps."""

    system: Annotated[DataList, Field(description="systems (slugs)"), Vocabulary("system")] = ()
    hardware: Annotated[
        DataList, Field(description="hardware, as the figures name it"), Vocabulary("hardware")
    ] = ()
    model: Annotated[
        DataList, Field(description="models, as the figures name them"), Vocabulary("model")
    ] = ()
    precision: Annotated[
        DataList, Field(description="weight precisions"), Vocabulary("precision")
    ] = ()
    source: Annotated[
        DataList,
        Field(description="sources (slugs): an import's source keeps its runs"),
        Vocabulary("source"),
    ] = ()
    cmin: Annotated[Concurrency | None, Field(description="lowest concurrency of a run")] = None
    cmax: Annotated[Concurrency | None, Field(description="highest concurrency of a run")] = None

    def query_string(self) -> str:
        pairs: list[tuple[str, str]] = []
        for name in ("system", "hardware", "model", "precision", "source"):
            pairs += [(name, v) for v in getattr(self, name)]
        pairs += [(n, str(v)) for n in ("cmin", "cmax") if (v := getattr(self, n)) is not None]
        return encode(pairs + self.level_pairs())

    @classmethod
    def of(cls, page: BenchmarkParams) -> "SweepParams":
        """The sweep filters within the /benchmarks page's own."""
        return cls.model_validate(page.model_dump(include=set(cls.model_fields)))


API_RESULTS_PAGE_SIZE = 1000
"""Results per reply of /api/v1/benchmarks unless `per_page` says otherwise."""
API_RESULTS_MAX_PAGE_SIZE = 5000


class BenchmarkApiParams(BenchmarkParams):
    """/api/v1/benchmarks: the page's filters, a page of `per_page` results at a time."""

    page: Annotated[
        int,
        Field(
            description=f"which page of results ({API_RESULTS_PAGE_SIZE} a page unless "
            "per_page says; follow `next`)",
            ge=1,
            le=100_000,
        ),
    ] = 1
    per_page: Annotated[
        int,
        Field(
            description=f"results per page (at most {API_RESULTS_MAX_PAGE_SIZE})",
            ge=1,
            le=API_RESULTS_MAX_PAGE_SIZE,
        ),
    ] = API_RESULTS_PAGE_SIZE
