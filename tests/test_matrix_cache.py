"""Repeat visits cost a 304; a new data version renders afresh."""

from pathlib import Path

from bs4 import BeautifulSoup
from fastapi.testclient import TestClient

from app.main import create_app
from app.seeding.prepare import seed
from app.seeding.yamlio import dump_yaml, read_yaml
from app.settings import Settings
from app.web.cache import PUBLIC_CACHING
from tests.databases import new_database_url


def test_etag_gives_304_and_differs_per_query(client: TestClient) -> None:
    first = client.get("/matrix?kind=proxy")
    etag = first.headers["etag"]
    assert first.headers["cache-control"] == PUBLIC_CACHING
    again = client.get("/matrix?kind=proxy", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    other = client.get("/matrix?kind=engine")
    assert other.headers["etag"] != etag
    fragment = client.get(
        "/matrix?kind=proxy", headers={"HX-Request": "true", "HX-Target": "matrix_results"}
    )
    assert fragment.headers["etag"] != etag, "the fragment and the page are different bodies"


def test_cached_response_equals_a_fresh_render(client: TestClient) -> None:
    """A page answered from the cache (by the page cache, before routing) carries the same
    body and headers as one built afresh: security headers, type, ETag, caching and all."""
    cache = client.app.state.render_cache  # type: ignore[attr-defined]
    url = "/hardware?hw=vulkan"
    cache.clear()
    hits = cache.hits
    fresh = client.get(url)
    assert cache.hits == hits, "built, not found"
    cached = client.get(url)
    assert cache.hits > hits, "the second answer came from the cache"
    assert cached.content == fresh.content
    assert soup_of(cached).select_one("h1") is not None
    varying = {"date", "x-request-id", "server-timing"}
    assert {k: v for k, v in cached.headers.items() if k not in varying} == {
        k: v for k, v in fresh.headers.items() if k not in varying
    }


def soup_of(response) -> BeautifulSoup:
    return BeautifulSoup(response.text, "html.parser")


def test_new_data_version_renders_afresh(seed_copy: Path, tmp_path: Path) -> None:
    app = create_app(Settings(database_url=new_database_url(tmp_path, "c"), seed_dir=seed_copy))
    with TestClient(app) as client:
        before = client.get("/matrix")
        rows = len(BeautifulSoup(before.text, "html.parser").select("table.matrix tbody tr"))
        (seed_copy / "systems" / "litellm.yaml").unlink()
        _forget_in_rules(seed_copy / "rules.yaml", "litellm")  # its only other mentions
        seed(app.state.engine, seed_copy)
        after = client.get("/matrix", headers={"If-None-Match": before.headers["etag"]})
        assert after.status_code == 200
        assert (
            len(BeautifulSoup(after.text, "html.parser").select("table.matrix tbody tr"))
            == rows - 1
        )


def _forget_in_rules(path: Path, slug: str) -> None:
    """Take a system out of every rule; a rule that named only it goes too."""
    rules = read_yaml(path)
    for name in [n for n, r in rules.items() if slug in r.get("systems", [])]:
        rules[name]["systems"].remove(slug)
        if not rules[name]["systems"]:
            del rules[name]
    path.write_text(dump_yaml(rules))
