"""serve(): shared builds for a crowd, nothing built for a client that already left."""

import asyncio
import gzip
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace
from typing import TypeVar

from fastapi.responses import Response
from sqlmodel import Session
from starlette.requests import Request

from app.data_version.fresh import FreshVersion
from app.web.cache import RenderCache
from app.web.render import build_slots, serve

T = TypeVar("T")


def run(coroutine: Coroutine[object, object, T]) -> T:
    """asyncio.run on its own thread: a browser test's session-wide loop may hold this one."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def request_for(app: object, disconnected: bool) -> Request:
    messages = [{"type": "http.request", "body": b""}]
    if disconnected:
        messages.append({"type": "http.disconnect"})

    async def receive() -> dict[str, object]:
        if messages:
            return messages.pop(0)
        await asyncio.sleep(3600)
        return {}

    scope = {
        "type": "http",
        "method": "GET",
        "path": "/x",
        "query_string": b"",
        "headers": [],
        "app": app,
    }
    return Request(scope, receive)  # type: ignore[arg-type]


def fake_app() -> SimpleNamespace:
    state = SimpleNamespace(
        render_cache=RenderCache(),
        fresh_version=FreshVersion(lambda: "1.test"),
        build_slots=build_slots(4, 4),
    )
    return SimpleNamespace(state=state)


class CountingSession:
    """Stands in for a session: answers the version query, counts builds."""

    def __init__(self) -> None:
        self.builds = 0
        self.info: dict[str, object] = {}

    def exec(self, _statement: object) -> SimpleNamespace:
        return SimpleNamespace(first=lambda: "1.test")

    def get_transaction(self) -> None:
        return None


def test_concurrent_misses_share_one_build() -> None:
    app, session = fake_app(), CountingSession()

    def build(_: Session) -> Response:
        session.builds += 1
        return Response(b"page" * 200)

    async def crowd() -> list[Response]:
        requests = [request_for(app, disconnected=False) for _ in range(20)]
        return await asyncio.gather(*(serve(r, session, build) for r in requests))  # type: ignore[arg-type]

    responses = run(crowd())
    assert session.builds == 1
    assert {gzip.decompress(bytes(r.body)) for r in responses} == {b"page" * 200}


def test_a_client_that_left_costs_no_build() -> None:
    app, session = fake_app(), CountingSession()

    def build(_: Session) -> Response:
        session.builds += 1
        return Response(b"page")

    response = run(serve(request_for(app, disconnected=True), session, build))  # type: ignore[arg-type]
    assert session.builds == 0 and response.status_code == 499
    assert app.state.render_cache.bytes_used == 0
