"""Markup in a team entry's name is text everywhere it is shown: the pages (with their inline
SVG charts), the Atom feed, the CSV exports (also neutralised as OWASP says) and the PNG a
shared comparison unfurls with (drawn literally, no crash)."""

import csv
import io
import xml.etree.ElementTree as ET
from collections.abc import Callable
from typing import Any

import pytest
from bs4 import BeautifulSoup
from fastapi.testclient import TestClient
from PIL import Image, ImageDraw
from sqlalchemy import Engine

from tests.team.sweep_data import VLLM_SWEEP, import_file
from tests.team.test_write_api import RESULT, token_for

pytestmark = pytest.mark.database
Clients = Callable[..., TestClient]

HOSTILE = '<script>alert(1)</script> & "x"'
RAW = "<script>alert(1)</script>"
# A name a spreadsheet would run as a formula, as a system's name.
FORMULA = '=HYPERLINK("http://evil.example","x")'


@pytest.fixture(scope="module")
def hostile(accounts_app: Any, accounts_engine: Engine, accounts_url: str) -> dict[str, str]:
    """A team GPU, model and system named HOSTILE (and a system named FORMULA), with a
    result on them and an imported sweep; their slugs."""
    api = TestClient(accounts_app, headers=token_for(accounts_engine, "eddie"))
    slugs = {}
    for kind, extra in (
        ("hardware", {"memory_gb": 80}),
        ("models", {"parameters_b": 8}),
        ("systems", {"kind": "engine"}),
    ):
        made = api.post(f"/api/v1/{kind}", json={"name": HOSTILE, **extra})
        assert made.status_code == 201, made.text
        slugs[kind] = made.json()["slug"]
    formula = api.post("/api/v1/systems", json={"name": FORMULA, "kind": "engine"})
    assert formula.status_code == 201, formula.text
    slugs["formula"] = formula.json()["slug"]
    for system in (slugs["systems"], slugs["formula"]):
        result = RESULT | {"system": system, "hardware": HOSTILE, "model": HOSTILE}
        assert api.post("/api/v1/benchmarks", json=result).status_code == 201
    import_file(
        accounts_url,
        VLLM_SWEEP,
        system=slugs["systems"],
        hardware=HOSTILE,
        gpus=1,
        precision="FP8",
        model=HOSTILE,
    )
    return slugs


def _no_markup(html: str) -> None:
    assert RAW not in html and "<script>alert" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; " in html


def test_every_page_shows_the_name_as_text(clients: Clients, hostile: dict[str, str]) -> None:
    reader = clients("vera")  # signed in: never a cached page from before the names existed
    system, gpu, model = hostile["systems"], hostile["hardware"], hostile["models"]
    pages = [
        f"/systems/{system}",
        f"/hardware/{gpu}",
        f"/models/{model}",
        "/benchmarks",
        f"/benchmarks?system={system}",
        f"/compare?s={system}&s=vllm",
        "/matrix",
        "/changes",
        f"/benchmarks?hardware={gpu}#team_sweeps",
    ]
    for path in pages:
        shown = reader.get(path)
        assert shown.status_code == 200, path
        _no_markup(shown.text)
        page = BeautifulSoup(shown.text, "html.parser")
        assert not [s for s in page.select("script") if "alert(1)" in s.get_text()], path
    # The charts are inline SVG: the name is an SVG text node, never an element.
    charts = BeautifulSoup(reader.get(f"/benchmarks?system={system}").text, "html.parser")
    titles = [t.get_text() for svg in charts.select("svg") for t in svg.select("title")]
    assert [t for t in titles if HOSTILE in t], titles  # read back exactly as typed
    assert [svg for svg in charts.select("svg") if HOSTILE in svg.get("aria-label", "")]
    assert not [svg for svg in charts.select("svg") if svg.select("script")]
    editor = clients("eddie")
    for path in ("/catalogue", f"/catalogue/hardware/{gpu}/edit", "/imports"):
        _no_markup(editor.get(path).text)


def test_the_atom_feed_carries_the_name_as_text(clients: Clients, hostile: dict[str, str]) -> None:
    body = clients().get("/changes.atom").content
    assert RAW.encode() not in body
    feed = ET.fromstring(body)  # well formed, whatever the name held
    ns = {"a": "http://www.w3.org/2005/Atom"}
    texts = [e.text or "" for e in feed.iter() if e.tag.endswith(("title", "content"))]
    assert any(HOSTILE in t for t in texts), "the name read back exactly as typed"
    assert feed.findall("a:entry", ns)


def test_the_csv_exports_write_the_name_as_data(clients: Clients, hostile: dict[str, str]) -> None:
    reader = clients()
    exported = reader.get(f"/benchmarks.csv?system={hostile['systems']}")
    assert exported.status_code == 200
    rows = list(csv.reader(io.StringIO(exported.text)))
    # The export names entries by slug, which holds no markup; the rows are all there.
    assert {r[1] for r in rows[1:]} == {hostile["systems"]} and len(rows) > 40
    assert not [c for r in rows for c in r if "<" in c]
    # The matrix export carries each system's name: as typed, a formula neutralised.
    matrix = list(csv.reader(io.StringIO(reader.get("/matrix.csv").text)))
    names = {row[0]: row[1] for row in matrix[1:]}
    assert names[hostile["systems"]] == HOSTILE
    assert names[hostile["formula"]] == "'" + FORMULA


def test_the_share_preview_draws_the_name_literally(
    clients: Clients, hostile: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: list[str] = []
    original = ImageDraw.ImageDraw.text

    def spy(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> None:
        drawn.append(str(text))
        original(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", spy)
    shown = clients("vera").get(f"/compare/preview.png?s={hostile['systems']}&s=vllm")
    assert shown.status_code == 200 and shown.headers["content-type"] == "image/png"
    image = Image.open(io.BytesIO(shown.content))
    assert image.size[0] > 600 and image.format == "PNG"
    # The name is drawn as typed (or cut short with an ellipsis), never as entities.
    assert any(t.startswith("<script>") for t in drawn), drawn
    assert not [t for t in drawn if "&lt;" in t or "&amp;" in t]
