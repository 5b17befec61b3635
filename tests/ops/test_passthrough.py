"""The observer never changes what a route sends: streamed bodies, HTMX fragments, errors."""

import asyncio
from collections.abc import AsyncIterator

from bs4 import BeautifulSoup
from fastapi.responses import StreamingResponse
from fastapi.testclient import TestClient

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
