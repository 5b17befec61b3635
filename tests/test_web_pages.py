"""@page: the route FastAPI sees for a build, and what the build is handed inside serve()."""

import asyncio
import inspect
from concurrent.futures import ThreadPoolExecutor
from typing import Annotated, Any

import pytest
from fastapi import APIRouter, Request
from fastapi.responses import PlainTextResponse, Response
from sqlmodel import Session

from app.db import SessionDep
from app.web import pages
from app.web.deps import Deferred, reading
from app.web.pages import endpoint_of, page

Shout = Annotated[str, reading(lambda session, query: f"{query.get('word', '')}!")]


def build(slug: str, session: Session, said: Shout, q: str = "") -> Response:
    """A build that takes a path parameter, the session, a reading and a query parameter."""
    assert isinstance(session, Session)
    return PlainTextResponse(f"{slug} {said} {q}")


def test_the_route_takes_the_builds_parameters_with_the_session_as_a_dependency() -> None:
    endpoint = endpoint_of(build)
    params = inspect.signature(endpoint).parameters
    assert list(params) == ["slug", "session", "said", "q", "_page_request"]
    assert params["session"].annotation == SessionDep
    assert params["_page_request"].annotation is Request  # serve() needs it; build did not ask
    assert params["q"].default == ""
    # The operation id and the OpenAPI description come from these.
    assert (endpoint.__name__, endpoint.__doc__) == ("build", build.__doc__)


def test_a_reading_is_read_inside_serve_with_its_session(monkeypatch: pytest.MonkeyPatch) -> None:
    session = Session()
    served: list[Session] = []

    async def fake_serve(request: Request, given: Session, built: Any) -> Response:
        served.append(given)
        response: Response = built(given)
        return response

    monkeypatch.setattr(pages, "serve", fake_serve)
    said = Deferred(lambda s: "yes!" if s is session else "wrong session")
    call = endpoint_of(build)(slug="vllm", session=session, said=said, q="x", _page_request=None)
    # On its own thread, as in test_serve.py: a browser test's loop may hold this one.
    with ThreadPoolExecutor(1) as pool:
        response = pool.submit(asyncio.run, call).result()
    assert served == [session]
    assert response.body == b"vllm yes! x"


def test_page_registers_a_get_route_and_returns_the_build_unchanged() -> None:
    router = APIRouter()
    assert page(router, "/things/{slug}", name="thing")(build) is build
    (route,) = router.routes
    assert (getattr(route, "path", None), getattr(route, "methods", None)) == (
        "/things/{slug}",
        {"GET"},
    )
