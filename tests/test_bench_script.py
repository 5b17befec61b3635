"""The benchmark harness (scripts/bench.py): its URL lists, log reading and target checks."""

from collections import Counter

import pytest
from fastapi.testclient import TestClient

from scripts.benchkit.report import (
    HostileStats,
    ScaleResult,
    SpecialRun,
    ViewStats,
    missed_targets,
    render,
)
from scripts.benchkit.server import exceptions_in
from scripts.benchkit.urls import VIEWS, distinct_urls, hostile_requests
from scripts.benchkit.wrk import WrkResult, parse_summary

pytestmark = pytest.mark.slow

SUMMARY = (
    'ATLAS {"requests": 200, "duration_us": 2000000, "connect": 0, "read": 1, "write": 0, '
    '"timeout": 3, "status_errors": 2, "p50_us": 1500, "p90_us": 4000, "p99_us": 9000, '
    '"max_us": 12000, "statuses": {"200": 190, "303": 8, "500": 2}}'
)


@pytest.fixture(scope="module")
def urls(client: TestClient) -> list[str]:
    return distinct_urls(lambda path: client.get(path).json())


def test_distinct_urls_are_hundreds_all_different_and_not_the_repeated_views(
    urls: list[str],
) -> None:
    assert len(urls) >= 500
    assert len(set(urls)) == len(urls)
    assert not set(urls) & set(VIEWS)
    kinds = Counter(url.split("?")[0].split("/")[1] for url in urls)
    assert set(kinds) == {"systems", "compare", "matrix", "hardware", "benchmarks", "decide"}


def test_distinct_urls_are_answered_not_redirected(client: TestClient, urls: list[str]) -> None:
    # Every 20th: a redirect to the canonical URL would measure the redirect, not the page.
    for url in urls[::20]:
        assert client.get(url, follow_redirects=False).status_code == 200, url


def test_hostile_requests_number_a_few_hundred_of_every_kind() -> None:
    kinds = Counter(kind for kind, _ in hostile_requests())
    assert kinds.total() >= 300
    assert {"oversized (60 KB)", "tracking parameters", "odd characters"} <= set(kinds)


def test_wrk_summary_counts_every_status_outside_2xx_as_non_2xx() -> None:
    result = parse_summary(SUMMARY)
    assert result.rps == 100
    assert result.non_2xx == 10  # wrk's own count (status_errors) leaves out the 303s
    assert result.socket_errors == 4
    assert result.p99_ms == 9
    assert result.p99_censored  # 3 of 203 timed out: the true p99 is beyond the timeout


def test_a_chained_traceback_counts_once_with_its_last_exception() -> None:
    log = """INFO:     Started server process [1]
ERROR:    Exception in ASGI application
Traceback (most recent call last):
  File "a.py", line 1, in f
    int(raw)
ValueError: invalid literal for int() with base 10: '²'

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "b.py", line 2, in g
RuntimeError: render failed
ERROR:    Exception in ASGI application
Traceback (most recent call last):
  File "c.py", line 3, in h
sqlalchemy.exc.TimeoutError: QueuePool limit of size 5 overflow 10 reached
"""
    assert exceptions_in(log) == [
        "RuntimeError: render failed",
        "sqlalchemy.exc.TimeoutError: QueuePool limit of size 5 overflow 10 reached",
    ]


def run(rps: float, **extra: object) -> WrkResult:
    fields: dict = {
        "requests": int(rps * 2),
        "seconds": 2.0,
        "p50_ms": 5,
        "p99_ms": 50,
        "max_ms": 60,
        "statuses": {200: int(rps * 2)},
    }
    return WrkResult(**{**fields, **extra})  # type: ignore[arg-type]


def scale_result(view_rps: float, **changes: object) -> ScaleResult:
    views = [ViewStats("/matrix", c, [(run(1000), run(view_rps))]) for c in (16, 64)]
    distinct = SpecialRun("500 distinct URLs, once each", 16, run(50), [], expected=100)
    reseed = SpecialRun("/matrix during 3 reseeds", 64, run(900), [])
    hostile = HostileStats({"unknown values": Counter({"422": 40})}, [])
    result = ScaleResult(1, 27, views, distinct, hostile, reseed, peak_rss_mb=120)
    for name, value in changes.items():
        setattr(result, name, value)
    return result


def test_a_run_that_meets_every_target_misses_none() -> None:
    result = scale_result(800)
    assert missed_targets(result) == []
    assert "| `/matrix`" in render(result)


def test_each_missed_target_is_named() -> None:
    slow = scale_result(300, peak_rss_mb=310)
    slow.views[1].pairs[0] = (run(1000), run(800, statuses={200: 1590, 500: 10}, timeout=2))
    slow.views[1].exceptions = ["ValueError: boom"]
    slow.hostile.statuses["odd characters"] = Counter({"500": 3, "no answer": 1})
    slow.distinct = SpecialRun("distinct", 16, run(50, p99_ms=1500), [], expected=200)
    misses = "\n".join(missed_targets(slow))
    assert "/matrix at 16 connections: 0.30× the floor" in misses
    assert "/matrix at 64 connections: 10 non-2xx, 2 socket errors, 1 server exceptions" in misses
    assert "distinct: 100 requests never answered" in misses
    assert "distinct URLs: p99 1.50 s" in misses
    assert "hostile requests: 4 answered 5xx or not at all" in misses
    assert "peak RSS 310 MB" in misses
