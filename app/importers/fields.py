"""Reading one run's JSON object: typed field access whose errors name the field and the run,
and a builder that checks the values are possible before a ParsedRun exists."""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from app.importers.errors import ResultFileError
from app.importers.metrics import METRIC_UNITS, is_throughput
from app.importers.reading import Record
from app.importers.runs import ParsedRun

TEXT_MAX = 300  # hints are names and versions; a longer string is cut, never stored whole
RAW_MAX = 250  # numbers kept per run in `raw` (a GuideLLM benchmark has ~1,000 statistics)
EXTRAS_MAX = 60


def describe(value: Any) -> str:
    """A value as the file shows it, cut short."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


@dataclass(frozen=True)
class Place:
    """Where a run sits in its file."""

    file: str
    index: int
    source: str  # "line 3", "[2]", "benchmarks[4]"
    line: int | None = None
    path: str = ""  # JSON path prefix of the run's object, e.g. "benchmarks[4]"

    def error(self, message: str, *, kind: str, key: str | None = None) -> ResultFileError:
        path = ".".join(p for p in (self.path, key) if p) or None
        return ResultFileError(self.file, message, kind=kind, line=self.line, path=path)


class Fields:
    """A JSON object of a run, read field by field."""

    def __init__(self, data: Mapping[str, Any], place: Place, prefix: str = "") -> None:
        self.data = data
        self.place = place
        self.prefix = prefix  # path from the run's object to this one, e.g. "server_info"

    def key_path(self, key: str) -> str:
        return f"{self.prefix}.{key}" if self.prefix else key

    def error(self, message: str, key: str, kind: str = "bad-value") -> ResultFileError:
        return self.place.error(message, kind=kind, key=self.key_path(key))

    def missing(self, key: str, expected: str = "") -> ResultFileError:
        """`expected` says what the field holds and which tool versions write it, e.g.
        "the count of successful requests, which vLLM's benchmark_serving.py and `vllm bench
        serve` write in every result"."""
        message = f"this run has no {self.key_path(key)}"
        return self.error(
            f"{message}: expected {expected}" if expected else message, key, "missing-field"
        )

    def child(self, key: str) -> Fields | None:
        value = self.data.get(key)
        return Fields(value, self.place, self.key_path(key)) if isinstance(value, dict) else None

    def number(self, key: str, *, required: bool = False, strings: bool = False) -> float | None:
        """A finite number, or None when absent or null."""
        value = self.data.get(key)
        if value is None:
            if required:
                raise self.missing(key)
            return None
        if isinstance(value, str) and strings:
            # GenAI-Perf has written throughput averages as strings ("avg": "7").
            try:
                value = float(value)
            except ValueError:
                raise self.error(f"is {describe(value)}, not a number", key) from None
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.error(f"is {describe(value)}, not a number", key)
        if not math.isfinite(value):
            shown = "NaN" if math.isnan(value) else "infinite"
            raise self.error(f"is {shown}, not a measured number", key)
        return float(value)

    def count(self, key: str, *, required: bool = False) -> int | None:
        """A whole number of zero or more (requests, tokens, GPUs)."""
        value = self.number(key, required=required)
        if value is None:
            return None
        if value < 0 or value != int(value):
            raise self.error(f"is {describe(self.data[key])}, not a whole number ≥ 0", key)
        return int(value)

    def text(self, key: str) -> str | None:
        """A short string hint; numbers are accepted as text (a version written as 2)."""
        value = self.data.get(key)
        if isinstance(value, bool) or value is None:
            return None
        if isinstance(value, int | float):
            value = str(value)
        if not isinstance(value, str) or not value.strip():
            return None
        return value.strip()[:TEXT_MAX]


def record_fields(name: str, records: list[Record]) -> Iterator[Fields]:
    """Each record of the file `name` as Fields; a record that is not a JSON object is refused."""
    for index, record in enumerate(records):
        place = Place(name, index, record.source, record.line, record.path)
        if not isinstance(record.value, dict):
            raise place.error("is not a JSON object", kind="unknown-format")
        yield Fields(record.value, place)


class RunBuilder:
    """Collects one run's values, then checks them and freezes a ParsedRun."""

    def __init__(self, tool: str, place: Place) -> None:
        self.tool = tool
        self.place = place
        self.context: dict[str, Any] = {}  # ParsedRun context fields by name
        self.sources: dict[str, str] = {}  # context or metric name -> the file's field
        self.metrics: dict[str, float] = {}
        self.raw: dict[str, float] = {}
        self.extras: dict[str, str] = {}
        self.notes: list[str] = []
        self.derived: list[str] = []  # metric keys computed here rather than read
        self._raw_dropped = 0

    def set(self, name: str, value: Any, source: str | None = None) -> None:
        if value is not None:
            self.context[name] = value
            if source:
                self.sources[name] = source

    def metric(self, key: str, value: float | None, source: str) -> None:
        assert key in METRIC_UNITS, key
        if value is not None:
            self.metrics[key] = value
            self.sources[key] = source

    def derive(self, key: str, value: float | None, source: str, note: str) -> None:
        """A metric the file does not hold, computed from ones it does: marked derived."""
        if value is None or key in self.metrics:
            return
        self.metric(key, value, source)
        self.derived.append(key)
        self.notes.append(note)

    def drop_metrics(self, prefix: str, note: str) -> None:
        """Leave out every metric whose key starts with `prefix` (a reading that is not what
        its name says, e.g. a non-streaming run's "time to first token")."""
        dropped = [key for key in self.metrics if key.startswith(prefix)]
        for key in dropped:
            del self.metrics[key]
        if dropped:
            self.notes.append(note)

    def keep_raw(self, key: str, value: float) -> None:
        if len(self.raw) < RAW_MAX:
            self.raw[key] = value
        else:
            self._raw_dropped += 1

    def keep_extra(self, key: str, value: str) -> None:
        if len(self.extras) < EXTRAS_MAX:
            self.extras[key[:TEXT_MAX]] = value[:TEXT_MAX]

    def build(self) -> ParsedRun:
        """Check every value is possible, derive per-user throughput, freeze."""
        self._check_requests()
        self._drop_unstreamed_ttft()
        self._check_metrics()
        derived = tuple(self.derived) + self._derive_per_user()
        if self._raw_dropped:
            self.notes.append(f"{self._raw_dropped} further numbers were not kept in raw")
        sources = {k: v for k, v in self.sources.items() if k in self.metrics}
        return ParsedRun(
            tool=self.tool,
            index=self.place.index,
            source=self.place.source,
            line=self.place.line,
            metrics=self.metrics,
            metric_sources=sources,
            derived=derived,
            raw=self.raw,
            extras=self.extras,
            notes=tuple(self.notes),
            **self.context,
        )

    def _fail(self, name: str, message: str) -> ResultFileError:
        return self.place.error(message, kind="bad-value", key=self.sources.get(name))

    def _check_requests(self) -> None:
        for name in ("successful_requests", "failed_requests"):
            count = self.context.get(name)
            if count is not None and count < 0:
                raise self._fail(name, f"is {count}: a count of requests cannot be negative")
        if self.context.get("successful_requests") == 0:
            raise self._fail(
                "successful_requests", "is 0: no request succeeded, nothing was measured"
            )
        concurrency = self.context.get("concurrency")
        if concurrency is not None and concurrency < 1:
            raise self._fail("concurrency", f"a concurrency limit of {concurrency} is impossible")
        rate = self.context.get("request_rate")
        if rate is not None and rate <= 0:
            raise self._fail("request_rate", f"a request rate of {rate} req/s is impossible")

    def _drop_unstreamed_ttft(self) -> None:
        """A "TTFT" equal to the whole request's latency was measured without streaming (the
        first token arrived with the last): it is not a time to first token."""
        ttft, latency = self.metrics.get("ttft_mean"), self.metrics.get("e2e_latency_mean")
        if ttft and latency and math.isclose(ttft, latency, rel_tol=1e-9):
            for prefix in ("ttft_", "tpot_", "itl_"):
                self.drop_metrics(
                    prefix,
                    "time to first token equals the request latency (no streaming): "
                    "TTFT and the per-token latencies are left out",
                )

    def _check_metrics(self) -> None:
        for key, value in list(self.metrics.items()):
            unit = METRIC_UNITS[key]
            if value < 0:
                raise self._fail(key, f"is {value:g} {unit}; it cannot be negative")
            if value > 0:
                continue
            if is_throughput(key):
                raise self._fail(key, f"is 0 {unit}: a run with results cannot have zero rate")
            if key.startswith("ttft_"):
                raise self._fail(
                    key, "is 0 ms: a time to first token cannot be zero (was streaming off?)"
                )
            # A zero TPOT/ITL/latency means "not measured" (one-token outputs, no streaming).
            del self.metrics[key]
            self.notes.append(f"{self.sources[key]} is 0 in the file (not measured); left out")

    def _derive_per_user(self) -> tuple[str, ...]:
        tpot = self.metrics.get("tpot_mean")
        if "output_throughput_per_user" in self.metrics or not tpot:
            return ()
        self.metrics["output_throughput_per_user"] = 1000.0 / tpot
        self.sources["output_throughput_per_user"] = f"1000 / {self.sources['tpot_mean']}"
        self.notes.append("per-user throughput derived as 1000 / mean TPOT (ms)")
        return ("output_throughput_per_user",)
