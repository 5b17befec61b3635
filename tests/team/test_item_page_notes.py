"""The team's notes on the figure and claim pages (and their JSON twins), and what an editor
gets there: a link to add a note, which a reader does not see."""

from typing import Any

import pytest
from bs4 import BeautifulSoup
from fastapi.testclient import TestClient
from sqlalchemy import Engine

from tests.team.test_write_api import token_for

pytestmark = pytest.mark.database

FIGURE = "bis-trtllm-l70b-throughput"
CLAIM = "/systems/vllm/claims/prefix-caching/overview-early-2026"


@pytest.fixture(scope="module")
def editor(accounts_app: Any, accounts_engine: Engine) -> TestClient:
    return TestClient(accounts_app, headers=token_for(accounts_engine, "eddie"))


def test_a_note_shows_on_its_figures_page_and_in_the_json(editor: TestClient, clients: Any) -> None:
    body = {"result": FIGURE, "text": "We measured 2,650 on our H100s."}
    assert editor.post("/api/v1/notes", json=body).status_code == 201
    reader = clients()
    soup = BeautifulSoup(reader.get(f"/benchmarks/{FIGURE}").text, "html.parser")
    notes = soup.find(id="notes-heading").find_parent("section")
    assert "We measured 2,650 on our H100s." in notes.select_one(".team-note").get_text()
    assert notes.select_one("a.note-add") is None  # a reader cannot add one
    figure = reader.get(f"/api/v1/benchmarks/{FIGURE}").json()["figure"]
    assert [n["text"] for n in figure["team_notes"]] == ["We measured 2,650 on our H100s."]
    signed_in = clients("eddie")
    page = BeautifulSoup(signed_in.get(f"/benchmarks/{FIGURE}").text, "html.parser")
    assert page.select_one("#notes-heading ~ .team-actions a.note-add")


def test_a_note_shows_on_its_claims_page_and_in_the_json(editor: TestClient, clients: Any) -> None:
    body = {
        "system": "vllm",
        "capability": "prefix-caching",
        "source": "overview-early-2026",
        "text": "Wrong for V1: prefix caching is on by default.",
    }
    assert editor.post("/api/v1/notes", json=body).status_code == 201
    reader = clients()
    soup = BeautifulSoup(reader.get(CLAIM).text, "html.parser")
    reading = soup.select_one(".claim-reading")
    assert "on by default" in reading.select_one(".team-note").get_text()
    readings = reader.get(f"/api/v1{CLAIM}").json()["readings"]
    assert [n["text"] for n in readings[0]["team_notes"]] == [body["text"]]
