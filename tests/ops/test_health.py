"""/healthz: answers HEAD, any Host, and 503 once the database has stopped answering."""

import asyncio

from fastapi.testclient import TestClient

from app.web.edge.health import HealthCheck


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


def test_healthz_fails_when_the_database_does_not_answer(ops_client: TestClient) -> None:
    fresh = ops_client.app.state.fresh_version  # type: ignore[attr-defined]
    read = fresh._read

    def down() -> str:
        raise OSError("database is locked")

    fresh._read = down
    try:
        response = ops_client.get("/healthz")
    finally:
        fresh._read = read
    assert response.status_code == 503
    assert response.json() == {
        "status": "unavailable",
        "database": "cannot read the data version: database is locked",
    }
    assert ops_client.get("/healthz").status_code == 200  # the next read is a new one


def test_healthz_gives_up_on_a_read_that_hangs() -> None:
    async def never() -> str:
        await asyncio.sleep(3600)
        return ""

    check = HealthCheck(lambda *_: None, read_version=never, timeout=0.05)  # type: ignore[arg-type]
    status, body = asyncio.run(check.health())
    assert status == 503 and b"no answer within 0.05 s" in body
