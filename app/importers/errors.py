"""The one error a result file can raise: what is wrong, and where in the file."""

from __future__ import annotations

# Machine-readable kinds, so the API can return a code and the CLI can decide what to skip
# (a side file is ignorable; everything else stops the import of that file).
ERROR_KINDS = (
    "too-large",
    "empty",
    "binary",
    "encoding",
    "not-json",
    "truncated",
    "too-deep",
    "unknown-format",
    "side-file",
    "missing-field",
    "bad-value",
    "unknown-unit",
    "too-many-runs",
    "unknown-format-name",
)


class ResultFileError(Exception):
    """A result file that cannot be imported; nothing from it may be saved."""

    def __init__(
        self,
        file: str,
        message: str,
        *,
        kind: str,
        line: int | None = None,
        path: str | None = None,
    ) -> None:
        assert kind in ERROR_KINDS, kind
        self.file = file
        self.message = message  # plain words, no location: the location is in line/path
        self.kind = kind
        self.line = line  # 1-based line in the file, when known
        self.path = path  # JSON path of the field, e.g. "benchmarks[2].metrics.request_latency"
        super().__init__(str(self))

    @property
    def ignorable(self) -> bool:
        """True for a file that is not wrong, only not a result (vLLM's side file)."""
        return self.kind == "side-file"

    @property
    def location(self) -> str:
        """'line 3, field p99_ttft_ms' or '' when the problem is the whole file."""
        parts = []
        if self.line is not None:
            parts.append(f"line {self.line}")
        if self.path:
            parts.append(f"field {self.path}")
        return ", ".join(parts)

    def __str__(self) -> str:
        where = self.location
        return f"{self.file}: {where}: {self.message}" if where else f"{self.file}: {self.message}"
