"""Shared links survive: tracking parameters vanish, unknown ones are noted, bad values named.

Also the bounds: however hostile the query string, the work and the reply stay small.
"""

import os

import pytest
from bs4 import BeautifulSoup
from fastapi.testclient import TestClient

PAGES = {
    "/compare?s=vllm&s=sglang": "/api/v1/compare?s=vllm&s=sglang",
    "/matrix?kind=engine": "/api/v1/matrix?kind=engine",
    "/hardware?hw=apple-silicon": "/api/v1/matrix?view=hardware&hw=apple-silicon",
    "/decide?hardware=nvidia-datacenter": "/api/v1/recommend?hardware=nvidia-datacenter",
    "/benchmarks?system=vllm": "/api/v1/benchmarks?system=vllm",
    "/systems/vllm": "/api/v1/systems/vllm",
}
TRACKING = "utm_source=slack&utm_medium=chat&fbclid=x1&gclid=y2&mc_cid=a&mc_eid=b&ref=hn"


@pytest.mark.parametrize("page", PAGES)
def test_tracking_parameters_redirect_to_the_clean_url(client: TestClient, page: str) -> None:
    response = client.get(
        f"{page}&{TRACKING}" if "?" in page else f"{page}?{TRACKING}", follow_redirects=False
    )
    assert response.status_code == 303
    assert response.headers["location"] == page
    followed = client.get(f"{page}&{TRACKING}" if "?" in page else f"{page}?{TRACKING}")
    assert followed.status_code == 200
    assert not BeautifulSoup(followed.text, "html.parser").select(".problem-banner")


@pytest.mark.parametrize("page", PAGES)
def test_unknown_parameters_are_noted_quietly_on_pages(client: TestClient, page: str) -> None:
    url = f"{page}&colour=red" if "?" in page else f"{page}?colour=red"
    response = client.get(url, follow_redirects=False)
    assert response.status_code == 200
    soup = BeautifulSoup(response.text, "html.parser")
    assert not soup.select(".problem-banner")
    assert "colour" in soup.select_one(".ignored-notice").get_text()


@pytest.mark.parametrize("api", PAGES.values())
def test_api_lists_ignored_parameters(client: TestClient, api: str) -> None:
    joiner = "&" if "?" in api else "?"
    body = client.get(f"{api}{joiner}colour=red&{TRACKING}").json()
    assert body["ignored_parameters"] == ["colour"], "tracking parameters vanish silently"


def test_list_endpoints_name_ignored_parameters_in_a_header(client: TestClient) -> None:
    response = client.get("/api/v1/systems?colour=red&utm_source=x")
    assert response.status_code == 200
    assert response.headers["x-ignored-parameters"] == "colour"


def test_htmx_pushes_the_canonical_url_without_tracking(client: TestClient) -> None:
    response = client.get(
        "/compare?s=vllm&s=sglang&fbclid=x",
        headers={"HX-Request": "true", "HX-Target": "suggestions"},
    )
    assert response.headers["hx-push-url"] == "/compare?s=vllm&s=sglang"


def test_unknown_values_are_still_named(client: TestClient) -> None:
    page = client.get("/compare?s=vllm&s=warp-drive")
    assert page.status_code == 422
    banner = BeautifulSoup(page.text, "html.parser").select_one(".problem-banner").get_text()
    assert "“warp-drive”" in banner and "vLLM" in banner
    api = client.get("/api/v1/benchmarks?metric=speed")
    assert api.status_code == 422
    [problem] = api.json()["detail"]
    assert problem["field"] == "metric" and problem["value"] == "speed" and problem["allowed"]


@pytest.mark.parametrize("value", ["%C2%B2", "9" * 4301, "-1", "1.5", "x"])
def test_bad_numbers_are_422_naming_the_field(client: TestClient, value: str) -> None:
    page = client.get(f"/benchmarks?cmin={value}")
    assert page.status_code == 422
    assert "cmin=" in BeautifulSoup(page.text, "html.parser").select_one(".problem-banner").text
    api = client.get(f"/api/v1/benchmarks?cmax={value}")
    assert api.status_code == 422 and api.json()["detail"][0]["field"] == "cmax"


def test_many_bad_values_give_a_small_error(client: TestClient) -> None:
    tokens = ",".join(f"bogus{i}" for i in range(800))
    api = client.get(f"/api/v1/matrix?need={tokens}")
    assert api.status_code == 422
    body = api.json()
    assert len(api.content) < 20_000
    assert len(body["detail"]) <= 10 and body["more_problems"] > 0
    assert sum(1 for p in body["detail"] if p["allowed"]) == 1, "allowed values listed once"
    normal = len(client.get("/matrix").content)
    page = client.get(f"/matrix?need={tokens}")
    assert page.status_code == 422
    assert len(page.content) < normal + 20_000
    banner = BeautifulSoup(page.text, "html.parser").select_one(".problem-banner")
    assert len(banner.select("code")) <= 6 and "more" in banner.get_text()


def test_error_responses_are_not_cached(client: TestClient) -> None:
    cache = client.app.state.render_cache  # type: ignore[attr-defined]
    before = cache.bytes_used
    for i in range(20):
        assert client.get(f"/matrix?need=nothing-{i}").status_code == 422
    assert cache.bytes_used == before


def test_render_cache_is_bounded_by_bytes(client: TestClient) -> None:
    from fastapi.responses import Response

    from app.web.cache import CachedPage, RenderCache

    cache = RenderCache(max_bytes=100_000, max_entry_bytes=60_000)
    page = CachedPage.of(Response(os.urandom(30_000)))  # random bytes do not compress
    for i in range(10):
        cache.put("1.a", i, page)
    assert cache.bytes_used <= 100_000
    assert cache.get("1.a", 9) is not None and cache.get("1.a", 0) is None
    cache.put("1.a", "big", CachedPage.of(Response(os.urandom(100_000))))
    assert cache.get("1.a", "big") is None, "one entry may not crowd out the rest"
    assert cache.get("1.a", 9) is not None


def test_a_new_data_version_drops_the_pages_of_the_old_one() -> None:
    from fastapi.responses import Response

    from app.web.cache import CachedPage, RenderCache

    cache = RenderCache()
    page = CachedPage.of(Response(b"x" * 1000))
    cache.put("1.a", "/matrix", page)
    cache.put("1.a", "/sources", page)
    cache.put("2.b", "/matrix", page)
    assert cache.get("1.a", "/sources") is None and len(cache) == 1
    assert cache.bytes_used == page.size
    text = CachedPage.of(Response(b"<tr><td>vLLM</td></tr>" * 5_000))
    assert text.size < 5_000, "a compressible page is kept gzipped only"
    assert text.body == b"<tr><td>vLLM</td></tr>" * 5_000
