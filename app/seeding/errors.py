"""Seed problems, collected so that every one is reported in a single run."""

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class SeedProblem:
    file: str
    line: int | None
    where: str  # the key or row, e.g. "vllm.continuous-batching" or "row 12"
    message: str

    def __str__(self) -> str:
        place = f"{self.file}:{self.line}" if self.line else self.file
        return (
            f"{place}: {self.where}: {self.message}" if self.where else f"{place}: {self.message}"
        )


class SeedError(Exception):
    """Raised when the seed files are invalid; carries every problem found."""

    def __init__(self, problems: list[SeedProblem]) -> None:
        self.problems = problems
        listing = "\n".join(f"  - {p}" for p in problems)
        super().__init__(f"{len(problems)} problem(s) in the seed files:\n{listing}")


def describe(value: Any) -> str:
    """A value as the file shows it, cut short: a bad value may be a whole paragraph."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def describe_error(err: Any) -> str:
    """A pydantic error as '<message> (got <value>)', without pydantic's own prefix."""
    got = "" if err["type"] == "missing" else f" (got {describe(err['input'])})"
    return f"{err['msg'].removeprefix('Value error, ')}{got}"
