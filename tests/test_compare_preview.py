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
    assert image == "http://testserver/compare/preview.png?s=vllm&s=sglang"
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
