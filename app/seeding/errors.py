"""Seed problems, collected so that every one is reported in a single run."""

from dataclasses import dataclass


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
