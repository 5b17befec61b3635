"""Prometheus metrics of one app process: requests, latency, caches, data version, database.

Each app gets a registry of its own (tests build many apps in one process). The counters
are this process's: a replica reports its own requests, and Prometheus adds the `instance`
label when it scrapes each replica (docs/deploy.md). prometheus-client's multiprocess mode
(PROMETHEUS_MULTIPROC_DIR) is not used: it drops custom collectors, such as the one that
reads the caches and the data version at scrape time.

Label values are bounded: a route is the template it matched ("/systems/{slug}", never the
path asked for), or "unmatched"; a method outside the usual few counts as "other".
"""

import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Protocol

from prometheus_client import (
    GC_COLLECTOR,
    PLATFORM_COLLECTOR,
    PROCESS_COLLECTOR,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, InfoMetricFamily
from prometheus_client.registry import Collector
from sqlalchemy import Engine, event
from sqlalchemy.engine import ExceptionContext

# No `_created` series beside every counter and histogram: they double the exposition, and
# Prometheus reads a reset from the counter itself.
disable_created_metrics()  # type: ignore[no-untyped-call]

UNMATCHED = "unmatched"
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
# A cache hit is answered in well under a millisecond; a cold matrix build takes about a second.
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


class CacheStats(Protocol):
    """What a cache tells the collector (a VersionedCache, or PerDatabase's totals)."""

    @property
    def hits(self) -> int: ...

    @property
    def misses(self) -> int: ...

    @property
    def bytes_used(self) -> int: ...

    def __len__(self) -> int: ...


class Metrics:
    """The metrics of one app; `observe` is called once per request by RequestObserver."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        for collector in (PROCESS_COLLECTOR, PLATFORM_COLLECTOR, GC_COLLECTOR):
            self.registry.register(collector)
        self.requests = Counter(
            "atlas_http_requests",
            "HTTP requests answered, by route template, method and status.",
            ("route", "method", "status"),
            registry=self.registry,
        )
        self.latency = Histogram(
            "atlas_http_request_duration_seconds",
            "Time from the request's arrival to the last byte of the answer, by route template.",
            ("route",),
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.in_progress = Gauge(
            "atlas_http_requests_in_progress",
            "Requests being answered now.",
            registry=self.registry,
        )
        self.database_errors = Counter(
            "atlas_database_errors",
            "Errors raised by the database driver, by SQLAlchemy's class for them.",
            ("error",),
            registry=self.registry,
        )

    def observe(self, route: str | None, method: str, status: int, seconds: float) -> None:
        label = route or UNMATCHED
        method = method if method in METHODS else "other"
        self.requests.labels(label, method, str(status)).inc()
        self.latency.labels(label).observe(seconds)

    def watch_engine(self, engine: Engine) -> None:
        """Count the engine's driver errors (failed connections included)."""
        event.listen(engine, "handle_error", self._database_error)

    def _database_error(self, context: ExceptionContext) -> None:
        error = context.sqlalchemy_exception
        self.database_errors.labels(type(error).__name__ if error else "other").inc()

    def watch_state(self, read: Callable[[], Any], fragments: dict[str, CacheStats]) -> None:
        """Report the caches and the data version, read from the running app at scrape time."""
        self.registry.register(StateCollector(read, fragments))


class StateCollector(Collector):
    """Caches and data version as they are when Prometheus asks: nothing to keep per request."""

    def __init__(self, read: Callable[[], Any], fragments: dict[str, CacheStats]) -> None:
        # `read` gives the running app's state, or None before start-up.
        self._read = read
        self.fragment_caches = fragments

    def collect(self) -> Iterator[Any]:
        state = self._read()
        if state is None:  # scraped before start-up finished
            return
        caches = {"render": state.render_cache, **self.fragment_caches}
        yield from _cache_families(caches.items())
        versions = state.fresh_version
        info = InfoMetricFamily(
            "atlas_data_version", "The data version this process serves (changes on every write)."
        )
        info.add_metric([], {"version": str(versions.value)})
        yield info
        yield GaugeMetricFamily(
            "atlas_database_read_age_seconds",
            "Seconds since this process last read the data version from the database.",
            value=max(0.0, time.monotonic() - versions.read_at),
        )


def _cache_families(caches: Iterable[tuple[str, CacheStats]]) -> Iterator[Any]:
    lookups = CounterMetricFamily(
        "atlas_cache_lookups", "Lookups in a cache of rendered output.", labels=("cache", "result")
    )
    size = GaugeMetricFamily("atlas_cache_bytes", "Bytes held by a cache.", labels=("cache",))
    entries = GaugeMetricFamily("atlas_cache_entries", "Entries in a cache.", labels=("cache",))
    for name, cache in caches:
        lookups.add_metric([name, "hit"], cache.hits)
        lookups.add_metric([name, "miss"], cache.misses)
        size.add_metric([name], cache.bytes_used)
        entries.add_metric([name], len(cache))
    yield from (lookups, size, entries)
