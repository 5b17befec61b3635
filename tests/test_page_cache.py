"""app/web/edge/page_cache.py: an anonymous page already in the render cache is answered
before routing, exactly as the full path would answer it (the same layers add headers,
encoding and 304s to both); anything that could change the answer (a credential, an unlisted
host) goes the full way."""

import logging
from collections.abc import Iterator

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.db import get_session
from app.main import create_app
from app.settings import Settings
from app.web.security_headers import SECURITY_HEADERS
from tests.conftest import SEED_DIR

PAGES = ["/matrix", "/systems/vllm", "/compare?s=vllm&s=sglang", "/api/v1/benchmarks", "/"]


class RouteRanError(Exception):
    """Raised by the session dependency while a test asserts that no route runs."""


def _refuse_sessions() -> None:
    raise RouteRanError("a route ran")


@pytest.fixture(scope="module")
def app(database_url: str) -> Iterator[FastAPI]:
    app = create_app(Settings(database_url=database_url, seed_dir=SEED_DIR))
    with TestClient(app):
        yield app


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    app.dependency_overrides.clear()
    app.state.render_cache.clear()
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client
    app.dependency_overrides.clear()


def no_routes(app: FastAPI) -> None:
    app.dependency_overrides[get_session] = _refuse_sessions


@pytest.mark.parametrize("path", PAGES)
def test_a_cached_page_is_answered_without_the_route_as_the_route_answered(
    app: FastAPI, client: TestClient, path: str
) -> None:
    built = client.get(path, headers={"Accept-Encoding": "gzip"})
    assert built.status_code == 200
    no_routes(app)
    again = client.get(path, headers={"Accept-Encoding": "gzip"})
    assert again.status_code == 200, again.text
    assert again.content == built.content
    for name in ("etag", "content-type", "cache-control", "vary", "content-encoding"):
        assert again.headers[name] == built.headers[name], name
    for name, value in SECURITY_HEADERS:
        assert again.headers[name] == value
    assert again.headers["x-request-id"] != built.headers["x-request-id"]
    # A session dependency that refuses proves the route was never reached, and the
    # full path really does reach it for a page not yet cached.
    assert client.get("/systems/sglang").status_code == 500


def test_a_hit_honours_if_none_match_head_and_clients_without_gzip(
    app: FastAPI, client: TestClient
) -> None:
    built = client.get("/matrix")
    no_routes(app)
    etag = built.headers["etag"]
    not_modified = client.get("/matrix", headers={"If-None-Match": etag})
    assert not_modified.status_code == 304 and not_modified.content == b""
    assert not_modified.headers["etag"] == etag
    assert "content-security-policy" in not_modified.headers

    plain = client.get("/matrix", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers
    assert plain.content == built.content
    assert int(plain.headers["content-length"]) == len(built.content)

    head = client.head("/matrix", headers={"Accept-Encoding": "gzip"})
    assert head.status_code == 200 and head.content == b""
    raw = client.get("/matrix", headers={"Accept-Encoding": "gzip"}).headers
    assert head.headers["content-length"] == raw["content-length"]


@pytest.mark.parametrize(
    "headers",
    [
        {"Cookie": "atlas_session=some.signed.value"},
        {"Cookie": "theme=dark; __Host-atlas_session=x"},
        {"Authorization": "Bearer not-a-real-token"},
        {"Host": "elsewhere.example"},
    ],
)
def test_a_credential_or_an_unlisted_host_always_takes_the_full_path(
    app: FastAPI, client: TestClient, headers: dict[str, str]
) -> None:
    assert client.get("/matrix").status_code == 200  # cached now
    no_routes(app)
    response = client.get("/matrix", headers=headers)
    # The full path ran: the refusing session dependency answers 500, an unlisted host 400.
    assert response.status_code in (400, 500)
    assert response.status_code == (400 if "Host" in headers else 500)


def test_htmx_parts_are_cached_apart_from_the_page(app: FastAPI, client: TestClient) -> None:
    page = client.get("/matrix")
    part = client.get("/matrix", headers={"HX-Request": "true", "HX-Target": "matrix_results"})
    assert part.content != page.content
    no_routes(app)
    again = client.get("/matrix", headers={"HX-Request": "true", "HX-Target": "matrix_results"})
    assert again.content == part.content
    assert client.get("/matrix").content == page.content


def test_a_hit_is_counted_and_logged_under_its_route(
    app: FastAPI, client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    client.get("/systems/vllm")
    cache = app.state.render_cache
    hits = cache.hits
    with caplog.at_level(logging.INFO, logger="inference_atlas.access"):
        response = client.get("/systems/vllm")
    assert response.status_code == 200
    assert cache.hits == hits + 1
    lines = [r for r in caplog.records if r.name == "inference_atlas.access"]
    fields = lines[-1].fields  # type: ignore[attr-defined]
    assert fields["route"] == "/systems/{slug}" and fields["status"] == 200
    assert fields["request_id"] == response.headers["x-request-id"]


def test_a_private_instance_asks_for_a_sign_in_whatever_is_cached(database_url: str) -> None:
    settings = Settings(database_url=database_url, seed_dir=SEED_DIR, atlas_public_read=False)
    app = create_app(settings)
    with TestClient(app) as client:
        response = client.get("/matrix", follow_redirects=False)
        assert response.status_code in (303, 401)
        assert client.get("/matrix", follow_redirects=False).status_code == response.status_code
        assert client.get("/healthz").json() == {"status": "ok", "database": "ok"}
