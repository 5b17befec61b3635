"""The observer never changes what a route sends: streamed bodies, HTMX fragments, errors."""

import asyncio
import logging
from collections.abc import AsyncIterator

import pytest
from bs4 import BeautifulSoup
from fastapi.responses import StreamingResponse
from fastapi.testclient import TestClient

from app.settings import Settings
from tests.accounts.conftest import build_app
from tests.ops.conftest import scrape, value

CHUNKS = [b"first,", b"second,", b"third"]


def test_a_streamed_response_arrives_whole_and_is_timed_to_its_end(ops_url: str) -> None:
    app = build_app(ops_url)

    async def chunks() -> AsyncIterator[bytes]:
        for chunk in CHUNKS:
            await asyncio.sleep(0.05)
            yield chunk

    @app.get("/test-stream")
    async def stream() -> StreamingResponse:
        return StreamingResponse(chunks(), media_type="text/plain")

    with TestClient(app) as client:
        response = client.get("/test-stream")
        assert response.content == b"".join(CHUNKS)
        assert response.headers["x-request-id"]
        assert "content-security-policy" in response.headers
        samples = scrape(client)
    seconds = value(samples, "atlas_http_request_duration_seconds_sum", route="/test-stream")
    assert seconds >= 0.15  # three chunks 50 ms apart: the last byte, not the headers


def test_an_htmx_request_still_gets_its_fragment(ops_client: TestClient) -> None:
    headers = {"HX-Request": "true", "HX-Target": "matrix_results"}
    response = ops_client.get("/matrix?kind=engine", headers=headers)
    soup = BeautifulSoup(response.text, "html.parser")
    assert response.status_code == 200 and response.headers["x-request-id"]
    assert soup.select_one("html") is None  # the block alone, not the page
    assert soup.select("table")
    assert "HX-Request" in response.headers["vary"]


def test_an_unhandled_error_is_counted_and_logged_as_a_500(
    ops_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    app = build_app(ops_url)

    @app.get("/test-broken")
    async def broken() -> None:
        raise RuntimeError("broken on purpose")

    with TestClient(app, raise_server_exceptions=False) as client:
        with caplog.at_level(logging.INFO, logger="inference_atlas.access"):
            response = client.get("/test-broken")
        assert response.status_code == 500 and response.headers["x-request-id"]
        labels = {"route": "/test-broken", "method": "GET", "status": "500"}
        assert value(scrape(client), "atlas_http_requests_total", **labels) == 1
    [line] = [r for r in caplog.records if r.name == "inference_atlas.access"]
    assert line.levelno == logging.ERROR and line.fields["status"] == 500  # type: ignore[attr-defined]


def test_log_settings_take_any_case() -> None:
    settings = Settings(log_format="JSON", log_level="debug")  # type: ignore[arg-type]
    assert (settings.log_format, settings.log_level) == ("json", "DEBUG")
