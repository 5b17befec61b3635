"""A service level and a price per GPU-hour: the parameters every view that reads team
sweeps at a level shares (/benchmarks, /compare, /decide and their JSON twins)."""

from typing import Annotated

from pydantic import Field

from app.measures.service_level import Level
from app.params.reader import QueryModel

LEVEL_FIELDS = ("per_user", "ttft_p99", "tpot_p99", "goodput")


class LevelOnly(QueryModel):
    """A service level (app/measures/service_level.py): the targets a sweep is read at."""

    per_user: Annotated[
        float | None,
        Field(description="service level: at least this many tok/s per user", gt=0, le=100_000),
    ] = None
    ttft_p99: Annotated[
        float | None,
        Field(
            description="service level: p99 time to first token at most this (ms)",
            gt=0,
            le=10_000_000,
        ),
    ] = None
    tpot_p99: Annotated[
        float | None,
        Field(
            description="service level: p99 time per output token at most this (ms)",
            gt=0,
            le=10_000_000,
        ),
    ] = None

    goodput: Annotated[
        float | None,
        Field(
            description="service level: at least this per cent of requests within the goodput "
            "targets each run was given (only runs whose file carries a goodput)",
            gt=0,
            le=100,
        ),
    ] = None

    def level(self) -> Level:
        return Level(self.per_user, self.ttft_p99, self.tpot_p99, self.goodput)

    def level_pairs(self) -> list[tuple[str, str]]:
        names = (*LEVEL_FIELDS, "price")
        return [(n, f"{v:g}") for n in names if (v := getattr(self, n, None)) is not None]


class LevelParams(LevelOnly):
    """A service level and a price per GPU-hour for the costs at it."""

    price: Annotated[
        float | None,
        Field(
            description="US dollars per GPU-hour for costs per million tokens, in place of "
            "the instance's price; only when exactly one hardware is filtered",
            gt=0,
            le=10_000,
        ),
    ] = None
