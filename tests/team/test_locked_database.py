"""A writer that cannot get SQLite's write lock within the busy timeout gets a 503 with
Retry-After and a message, not a 500 with a traceback (a long import confirm held the lock)."""

import sqlite3
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import make_url

from tests.accounts.conftest import PASSWORD, SAME_ORIGIN, build_app, sign_in

# About SQLite's own lock: deselected on PostgreSQL (`sqlite`), where writers queue on an
# advisory lock instead.
pytestmark = [pytest.mark.database, pytest.mark.sqlite]


@pytest.fixture
def locked(fresh_url: str) -> Iterator[tuple[TestClient, sqlite3.Connection]]:
    app = build_app(fresh_url, sqlite_busy_timeout_ms=100)
    with TestClient(app) as client:
        assert sign_in(client, "eddie").status_code == 303
        holder = sqlite3.connect(make_url(fresh_url).database or "", isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # another writer in the middle of a long change
        yield client, holder
        holder.rollback()
        holder.close()


def test_a_note_behind_a_held_lock_gets_503_with_retry_after(
    locked: tuple[TestClient, sqlite3.Connection], caplog: pytest.LogCaptureFixture
) -> None:
    client, _ = locked
    response = client.post(
        "/api/v1/notes", json={"system": "vllm", "text": "Runs well here."}, headers=SAME_ORIGIN
    )
    assert response.status_code == 503
    assert response.headers["retry-after"] == "5"
    assert "busy with another change" in response.json()["detail"]
    assert "Traceback" not in caplog.text


def test_a_sign_in_behind_a_held_lock_gets_503_not_a_traceback(
    locked: tuple[TestClient, sqlite3.Connection],
) -> None:
    client, _ = locked
    fresh = TestClient(client.app)
    response = fresh.post(
        "/login",
        data={"name": "ada", "password": PASSWORD, "next": "/"},
        headers=SAME_ORIGIN,
        follow_redirects=False,
    )
    assert response.status_code == 503
    assert "try again in 5 seconds" in response.text


def test_the_same_write_goes_through_once_the_lock_is_released(
    locked: tuple[TestClient, sqlite3.Connection],
) -> None:
    client, holder = locked
    holder.rollback()
    response = client.post(
        "/api/v1/notes", json={"system": "vllm", "text": "Runs well here."}, headers=SAME_ORIGIN
    )
    assert response.status_code == 201, response.text
