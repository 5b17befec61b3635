"""Shared /compare links unfurl with a picture drawn on the server, cached like every page."""

import io

from bs4 import BeautifulSoup
from fastapi.testclient import TestClient
from PIL import Image
from sqlalchemy import Engine
from sqlmodel import Session

from app.present.share_image import key_rows
from app.queries.compare import build_comparison


def test_the_page_points_unfurlers_at_its_preview(client: TestClient) -> None:
    soup = BeautifulSoup(client.get("/compare?s=vllm&s=sglang&diff=1").text, "html.parser")
    image = soup.select_one('meta[property="og:image"]')["content"]
    # From ATLAS_PUBLIC_URL (the tests' default), never from the Host header.
    assert image == "http://127.0.0.1:8000/compare/preview.png?s=vllm&s=sglang"
    assert soup.select_one('meta[name="twitter:image"]')["content"] == image
    assert soup.select_one('meta[name="twitter:card"]')["content"] == "summary_large_image"
    assert "differences" in soup.select_one('meta[property="og:image:alt"]')["content"]
    start = BeautifulSoup(client.get("/compare").text, "html.parser")
    assert not start.select('meta[property="og:image"]')
    assert start.select_one('meta[name="twitter:card"]')["content"] == "summary"


def test_the_preview_is_a_large_png_served_from_the_cache(client: TestClient) -> None:
    url = "/compare/preview.png?s=llama-cpp&s=ollama&s=lm-studio"
    response = client.get(url)
    assert response.status_code == 200 and response.headers["content-type"] == "image/png"
    assert Image.open(io.BytesIO(response.content)).size == (1200, 630)
    again = client.get(url, headers={"If-None-Match": response.headers["etag"]})
    assert again.status_code == 304


def test_a_bad_preview_request_says_what_was_wrong(client: TestClient) -> None:
    response = client.get("/compare/preview.png?s=vllm&s=nope")
    assert response.status_code == 422 and "s='nope'" in response.text


def test_the_preview_shows_only_real_differences(engine: Engine) -> None:
    with Session(engine) as session:
        comparison = build_comparison(session, ["llama-cpp", "ollama"], diff=False)
    rows = key_rows(comparison)
    assert rows and all(r.differs and not r.gap for r in rows)
    assert "flash-attention" not in {r.key for r in rows}


def test_the_preview_draws_without_system_fonts(engine: Engine, monkeypatch) -> None:
    # A slim container may have no fonts at all: Pillow's own font must do.
    import app.present.share_image as preview

    monkeypatch.setattr(preview, "FONT_DIRS", ())
    preview.font.cache_clear()
    try:
        with Session(engine) as session:
            comparison = build_comparison(session, ["vllm", "sglang"], diff=False)
        png = preview.preview_png(comparison, ["vLLM", "SGLang"], "atlas.example")
        assert Image.open(io.BytesIO(png)).size == (1200, 630)
    finally:
        preview.font.cache_clear()


def test_a_forged_host_never_reaches_what_another_client_is_served(
    seed_copy,
    tmp_path,  # type: ignore[no-untyped-def]
) -> None:
    from app.main import create_app
    from app.settings import Settings
    from tests.databases import new_database_url

    settings = Settings(
        database_url=new_database_url(tmp_path),
        seed_dir=seed_copy,
        trusted_hosts="*",
        public_url="https://atlas.example.com",
    )
    url = "/compare?s=vllm&s=sglang"
    with TestClient(create_app(settings)) as client:
        forged = client.get(
            url, headers={"Host": "evil.example", "X-Forwarded-Host": "evil.example"}
        )
        honest = client.get(url, headers={"Host": "atlas.example.com"})
        feed = client.get("/changes.atom", headers={"Host": "evil.example"})
    for response in (forged, honest):
        soup = BeautifulSoup(response.text, "html.parser")
        image = soup.select_one('meta[property="og:image"]')["content"]
        assert image.startswith("https://atlas.example.com/compare/preview.png?")
        assert soup.select_one("[data-copy]")["data-copy"].startswith("https://atlas.example.com/")
        assert "evil.example" not in response.text
    assert "evil.example" not in feed.text and 'xml:base="https://atlas.example.com/"' in feed.text
