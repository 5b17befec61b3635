"""Request bodies are bounded before they are read: 413 at once past Content-Length, a chunked
body cut off at the limit; a stalled body gets 408; an aborted upload is logged as such.

The security review's finding: six JSON write routes read and parsed a whole 200 MB body
before answering 401. Now every state-changing route refuses it first, signed in or not."""

import asyncio
import json
import logging
from collections.abc import Callable

import pytest
from fastapi import FastAPI, Request
from fastapi.testclient import TestClient
from starlette.types import Message, Receive, Scope, Send

from app.ops.metrics import Metrics
from app.web.edge.observe import Observe
from app.web.http_basics import DEFAULT_MAX_BODY_BYTES, HttpBasics
from tests.accounts.conftest import SAME_ORIGIN
from tests.team.test_every_write_route import covered_paths

Clients = Callable[..., TestClient]
MB = 1024 * 1024
UPLOAD_LIMIT = 4 * MB  # small, for the tests of the middleware alone


@pytest.mark.parametrize("who", [None, "eddie"])
def test_every_write_route_refuses_a_body_over_1_mb_before_anything_else(
    clients: Clients, who: str | None
) -> None:
    client = clients(who)
    too_big = b"{" + b" " * DEFAULT_MAX_BODY_BYTES + b"}"
    for method, path in dict.fromkeys(covered_paths()):
        if path in ("/imports", "/api/v1/imports"):
            continue  # uploads: their own limit, below
        response = client.request(
            method,
            path,
            content=too_big,
            headers={**SAME_ORIGIN, "Content-Type": "application/json"},
        )
        assert response.status_code == 413, (method, path, response.status_code)
        assert "at most 1.0 MB" in response.text
        assert response.headers["connection"] == "close"


def test_a_body_under_the_limit_still_reaches_the_route(clients: Clients) -> None:
    response = clients().post("/api/v1/notes", json={"text": "x" * 1000}, headers=SAME_ORIGIN)
    assert response.status_code == 401  # read, then refused for who asks


# The middleware alone, driven message by message: what it reads is counted.


def _inner() -> FastAPI:
    app = FastAPI()

    @app.post("/api/v1/things")
    async def things(body: dict[str, object]) -> dict[str, int]:
        return {"keys": len(body)}

    @app.post("/api/v1/imports")
    async def upload(request: Request) -> dict[str, int]:
        async with request.form() as form:
            return {"fields": len(form)}

    return app


def _wrapped(body_timeout: float = 30.0) -> HttpBasics:
    return HttpBasics(
        _inner(),
        max_query_bytes=8192,
        upload_limits={"/api/v1/imports": UPLOAD_LIMIT},
        body_timeout=body_timeout,
    )


def _call(
    app: object,
    path: str,
    headers: list[tuple[bytes, bytes]],
    chunks: Callable[[int], Message],
) -> tuple[list[Message], list[int]]:
    """Runs one POST; `chunks(i)` is the i-th message the client sends. Returns what was sent
    back and how many body bytes the app took."""
    taken = [0]
    sent: list[Message] = []
    calls = [0]

    async def receive() -> Message:
        message = chunks(calls[0])
        calls[0] += 1
        taken[0] += len(message.get("body", b""))
        return message

    async def send(message: Message) -> None:
        sent.append(message)

    scope: Scope = {
        "type": "http",
        "method": "POST",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "headers": headers,
        "client": ("127.0.0.1", 1),
        "state": {},
    }
    asyncio.run(app(scope, receive, send))  # type: ignore[operator]
    return sent, taken


def _status(sent: list[Message]) -> int:
    return int(next(m["status"] for m in sent if m["type"] == "http.response.start"))


def test_a_declared_length_over_the_limit_is_refused_without_reading_a_byte() -> None:
    def never(i: int) -> Message:
        raise AssertionError("the body was read")

    for path, length in (("/api/v1/things", 200 * MB), ("/api/v1/imports", UPLOAD_LIMIT + 1)):
        headers = [
            (b"content-length", str(length).encode()),
            (b"content-type", b"application/json"),
        ]
        sent, taken = _call(_wrapped(), path, headers, never)
        assert _status(sent) == 413 and taken == [0]
        assert "at most" in json.loads(sent[-1]["body"])["detail"]


@pytest.mark.parametrize(
    ("path", "content_type", "limit"),
    [
        ("/api/v1/things", b"application/json", DEFAULT_MAX_BODY_BYTES),
        ("/api/v1/imports", b"multipart/form-data; boundary=xyz", UPLOAD_LIMIT),
    ],
)
def test_a_chunked_body_is_cut_off_at_the_limit(path: str, content_type: bytes, limit: int) -> None:
    """An endless chunked body (no Content-Length): the app stops at the limit, not at its end."""
    chunk = 64 * 1024
    prefix = b'--xyz\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\n'

    def endless(i: int) -> Message:
        body = prefix if i == 0 and b"multipart" in content_type else b"[" * chunk
        return {"type": "http.request", "body": body, "more_body": True}

    sent, taken = _call(_wrapped(), path, [(b"content-type", content_type)], endless)
    assert _status(sent) == 413
    assert limit < taken[0] <= limit + chunk + len(prefix)


def test_a_stalled_body_gets_a_408() -> None:
    def stall(i: int) -> Message:
        if i == 0:
            return {"type": "http.request", "body": b"{", "more_body": True}
        raise AssertionError("unreachable")

    async def slow_receive_app(scope: Scope, receive: Receive, send: Send) -> None:
        await _wrapped(body_timeout=0.05)(scope, _stalling(receive), send)

    sent, _ = _call(
        slow_receive_app, "/api/v1/things", [(b"content-type", b"application/json")], stall
    )
    assert _status(sent) == 408


def _stalling(receive: Receive) -> Receive:
    calls = [0]

    async def stalling() -> Message:
        calls[0] += 1
        if calls[0] > 1:
            await asyncio.sleep(10)
        return await receive()

    return stalling


def test_an_aborted_upload_is_logged_as_aborted_not_as_a_server_error(
    caplog: pytest.LogCaptureFixture,
) -> None:
    def leave(i: int) -> Message:
        if i == 0:
            return {"type": "http.request", "body": b"--xyz\r\n", "more_body": True}
        return {"type": "http.disconnect"}

    app = Observe(_wrapped(), metrics=Metrics())
    with caplog.at_level(logging.INFO, logger="inference_atlas.access"):
        _call(
            app, "/api/v1/imports", [(b"content-type", b"multipart/form-data; boundary=xyz")], leave
        )
    [record] = [r for r in caplog.records if r.name == "inference_atlas.access"]
    assert record.levelno == logging.INFO
    assert record.fields["status"] == 499  # type: ignore[attr-defined]
