"""/healthz: answers HEAD, any Host, and 503 once the database has stopped answering."""

import asyncio
import itertools
import logging
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from fastapi.testclient import TestClient

from app.data_version.watcher import VersionWatcher
from app.routes.ops import HEALTHY_READ_AGE


def test_healthz_reports_the_database(ops_client: TestClient) -> None:
    response = ops_client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok"}
    assert response.headers["cache-control"] == "no-store"


def test_head_healthz_answers_without_a_body(ops_client: TestClient) -> None:
    response = ops_client.head("/healthz")
    assert response.status_code == 200 and response.content == b""


def test_healthz_answers_probes_by_address_while_pages_check_the_host(
    ops_client: TestClient,
) -> None:
    # The proxy asks app1:8000 (and Docker's HEALTHCHECK 127.0.0.1:8000), not the site's name.
    for host in ("app1:8000", "10.0.0.7:8000"):
        assert ops_client.get("/healthz", headers={"Host": host}).status_code == 200
        assert ops_client.get("/sources", headers={"Host": host}).status_code == 400


def test_healthz_fails_when_the_database_has_not_answered(ops_client: TestClient) -> None:
    versions = ops_client.app.state.versions  # type: ignore[attr-defined]
    versions.read_at -= HEALTHY_READ_AGE + 5
    try:
        response = ops_client.get("/healthz")
    finally:
        versions.refresh()
    assert response.status_code == 503
    assert response.json()["status"] == "unavailable"
    assert "no successful read" in response.json()["database"]
    assert ops_client.get("/healthz").status_code == 200


def test_the_watcher_keeps_trying_and_reports_an_outage_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # Three failed reads, then the database answers again.
    answers = itertools.chain([OSError("down")] * 3, itertools.repeat("v2"))

    def read() -> str:
        answer = next(answers)
        if isinstance(answer, Exception):
            raise answer
        return answer

    watcher = VersionWatcher(read, interval=0.01)

    async def run_until_it_recovers() -> None:
        # Until the database answers again (a busy machine may take longer than a few ticks).
        task = asyncio.create_task(watcher.watch())
        deadline = time.monotonic() + 30
        while watcher.value != "v2" and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        task.cancel()

    started = time.monotonic()
    # A thread of its own: the browser tests leave an event loop running in this one.
    with caplog.at_level(logging.WARNING, logger="inference_atlas"), ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, run_until_it_recovers()).result()
    messages = [r.getMessage() for r in caplog.records if r.name == "inference_atlas"]
    assert messages == [
        "cannot read the data version from the database: down",
        "the database answers again",
    ]
    assert watcher.value == "v2" and watcher.read_at > started
