"""HTTP as clients expect it: HEAD, 405 with Allow, gzip, ETags, 414, hosts, local API docs."""

import hashlib
import os
import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from fastapi.testclient import TestClient

from app.settings import PROJECT_ROOT
from app.web.cache import accepts_gzip, etag_matches

GET_ROUTES = [
    "/",
    "/matrix",
    "/hardware",
    "/matrix.csv",
    "/benchmarks",
    "/benchmarks.csv",
    "/compare?s=vllm&s=sglang",
    "/decide?hardware=apple-silicon",
    "/systems/vllm",
    "/sources",
    "/api/v1/systems",
    "/api/v1/systems/vllm",
    "/api/v1/matrix",
    "/api/v1/benchmarks",
    "/api/v1/sweeps",
    "/api/v1/compare?s=vllm&s=sglang",
    "/api/v1/recommend?hardware=apple-silicon",
    "/openapi.json",
    "/healthz",
]


@pytest.mark.parametrize("path", GET_ROUTES)
def test_head_answers_like_get_without_a_body(client: TestClient, path: str) -> None:
    get = client.get(path)
    head = client.head(path)
    assert get.status_code == head.status_code == 200
    assert head.content == b""
    assert head.headers["content-type"] == get.headers["content-type"]
    assert head.headers.get("etag") == get.headers.get("etag")


@pytest.mark.parametrize("path", ["/matrix", "/api/v1/sources", "/healthz"])
def test_405_names_the_allowed_methods(client: TestClient, path: str) -> None:
    response = client.post(path)
    assert response.status_code == 405
    assert "GET" in response.headers["allow"]


@pytest.mark.parametrize(
    "path",
    [
        "/benchmarks",
        "/systems/vllm",
        "/compare?s=vllm&s=sglang",
        "/api/v1/benchmarks",
        "/benchmarks.csv",
        "/static/vendor/pico.min.css",
    ],
)
def test_gzip_is_negotiated(client: TestClient, path: str) -> None:
    plain = client.get(path, headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers
    zipped = client.get(path, headers={"Accept-Encoding": "br, gzip"})
    assert zipped.headers["content-encoding"] == "gzip"
    assert zipped.content == plain.content  # the client decoded it
    refused = client.get(path, headers={"Accept-Encoding": "gzip;q=0, identity"})
    assert "content-encoding" not in refused.headers


def test_accept_encoding_parser() -> None:
    assert accepts_gzip("gzip, deflate")
    assert accepts_gzip("*")
    assert accepts_gzip("deflate, gzip;q=0.5")
    assert not accepts_gzip("gzip;q=0")
    assert not accepts_gzip("*;q=0")
    assert not accepts_gzip("gzip;q=0, *")
    assert not accepts_gzip("deflate")
    assert not accepts_gzip("")


def test_if_none_match_parser() -> None:
    assert etag_matches('W/"abc"', 'W/"abc"')
    assert etag_matches('"abc"', 'W/"abc"'), "If-None-Match uses the weak comparison"
    assert etag_matches('"x", W/"abc" ', 'W/"abc"')
    assert etag_matches("*", 'W/"abc"')
    assert not etag_matches('W/"abcd"', 'W/"abc"')
    assert not etag_matches("", 'W/"abc"')


@pytest.mark.parametrize(
    "path", ["/systems/vllm", "/benchmarks.csv", "/api/v1/recommend?hardware=amd-gpu", "/sources"]
)
def test_every_response_has_an_etag_that_gives_304(client: TestClient, path: str) -> None:
    first = client.get(path)
    etag = first.headers["etag"]
    again = client.get(path, headers={"If-None-Match": f'"other", {etag}'})
    assert again.status_code == 304 and again.content == b""
    assert again.headers["etag"] == etag
    assert client.get(path, headers={"If-None-Match": '"other"'}).status_code == 200


def test_oversized_query_gets_414_with_a_message(client: TestClient) -> None:
    page = client.get("/matrix?need=" + "a," * 32_000)
    assert page.status_code == 414
    assert "query string" in page.text and "8192" in page.text
    api = client.get("/api/v1/matrix?need=" + "a," * 32_000)
    assert api.status_code == 414 and "detail" in api.json()


def test_trailing_slash_redirect_never_reflects_the_host(client: TestClient) -> None:
    response = client.get("/matrix/?kind=engine", follow_redirects=False)
    assert response.status_code == 308
    assert response.headers["location"] == "/matrix?kind=engine"
    sneaky = client.get("http://testserver//evil.example/", follow_redirects=False)
    assert sneaky.headers["location"] == "/evil.example"


@pytest.mark.parametrize(
    ("raw", "location"),
    [
        ("/%5Cevil.example/", "/%5Cevil.example"),
        ("/%09/evil.example/", "/%09/evil.example"),
        ("/%5C%5Cevil.example/", "/%5C%5Cevil.example"),
        ("/matrix%0a/", "/matrix%0a"),
        ("/%0d%0aSet-Cookie:%20x=1/", "/%0d%0aSet-Cookie:%20x=1"),
        ("///evil.example/", "/evil.example"),
    ],
)
def test_trailing_slash_redirect_stays_on_this_site(
    client: TestClient, raw: str, location: str
) -> None:
    """Built from the path as sent: the decoded `/\\evil.example` was followed off-site by
    Chromium, and a decoded line break ended in a traceback."""
    response = client.get(f"http://testserver{raw}", follow_redirects=False)
    assert response.status_code == 308
    assert response.headers["location"] == location
    target = response.headers["location"]
    assert target.startswith("/") and not target.startswith(("//", "/\\"))
    assert not any(c in target for c in "\\\t\r\n ")


def test_untrusted_host_is_refused(client: TestClient) -> None:
    response = client.get("/compare?s=vllm&s=sglang", headers={"Host": "evil.example"})
    assert response.status_code == 400
    assert "evil.example" not in response.text


def test_api_docs_load_pinned_local_assets(client: TestClient) -> None:
    page = client.get("/docs").text
    assert "/static/vendor/swagger-ui/swagger-ui-bundle.js" in page
    assert "cdn" not in page.lower()
    for name in ("swagger-ui-bundle.js", "swagger-ui.css"):
        assert (PROJECT_ROOT / "static/vendor/swagger-ui" / name).stat().st_size > 1000
        assert client.get(f"/static/vendor/swagger-ui/{name}").status_code == 200


def test_api_docs_have_a_way_back_and_a_dark_scheme(client: TestClient) -> None:
    soup = BeautifulSoup(client.get("/docs").text, "html.parser")
    assert soup.select_one("header nav a[href='/']") is not None
    sheet = soup.select_one("link[href='/static/css/docs.css']")["href"]
    assert "prefers-color-scheme: dark" in client.get(sheet).text


def test_cached_pages_are_stored_compressed_once(client: TestClient) -> None:
    # (This test used to compress the page itself and check gzip's ratio: true of any HTML.)
    cache = client.app.state.render_cache  # type: ignore[attr-defined]
    cache.clear()
    zipped = client.get("/benchmarks", headers={"Accept-Encoding": "gzip"})
    stored = cache.bytes_used
    raw = client.get("/benchmarks", headers={"Accept-Encoding": "identity"})
    assert zipped.headers["content-encoding"] == "gzip"
    assert "content-encoding" not in raw.headers and raw.content == zipped.content
    # One entry serves both encodings, and it is kept gzipped only (not beside the plain body).
    assert cache.bytes_used == stored and len(cache) == 1
    assert stored < len(raw.content) / 3


def test_anonymous_answers_may_be_kept_but_are_revalidated_on_every_use(
    client: TestClient,
) -> None:
    # A copy used without asking would show an editor's change undone to the next reader.
    response = client.get("/matrix")
    control = response.headers["cache-control"]
    assert control == "public, no-cache" and response.headers["etag"]
    revalidated = client.get("/matrix", headers={"If-None-Match": response.headers["etag"]})
    assert revalidated.status_code == 304 and revalidated.headers["cache-control"] == control


def test_static_files_are_linked_by_content_hash_and_immutable(client: TestClient) -> None:
    page = client.get("/").text
    [href] = re.findall(r'href="(/static/css/app\.css\?v=[0-9a-f]{12})"', page)
    content = (PROJECT_ROOT / "static/css/app.css").read_bytes()
    assert href.endswith(hashlib.sha256(content).hexdigest()[:12])
    assert client.get(href).headers["cache-control"] == "public, max-age=31536000, immutable"
    # Without the hash (or with an old one) the file may change: a short life only.
    for stale in ("/static/css/app.css", "/static/css/app.css?v=000000000000"):
        assert "immutable" not in client.get(stale).headers["cache-control"]


def test_an_asset_url_follows_its_content_but_the_disk_is_read_at_most_once_a_second(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.web import http_basics

    clock = [1000.0]
    monkeypatch.setattr(http_basics, "STATIC_ROOT", tmp_path)
    monkeypatch.setattr(http_basics, "_static_urls", {})
    monkeypatch.setattr(http_basics.time, "monotonic", lambda: clock[0])
    asset = tmp_path / "app.css"
    asset.write_text("a{}")
    first = http_basics.static_url("app.css")
    assert first == f"/static/app.css?v={hashlib.sha256(b'a{}').hexdigest()[:12]}"
    asset.write_text("b{}")
    os.utime(asset, (2_000_000_000, 2_000_000_000))  # a new mtime, as an edit gives
    clock[0] += 0.5
    assert http_basics.static_url("app.css") == first  # within the second: not looked at
    clock[0] += 1.0
    assert http_basics.static_url("app.css") == (
        f"/static/app.css?v={hashlib.sha256(b'b{}').hexdigest()[:12]}"
    )
    assert http_basics.static_url("missing.css") == "/static/missing.css"
