"""The notes API: notes on published claims, figures and systems; naming the item; versions;
what readers see; every change in the history. (Who may write: test_write_api.WRITES.)"""

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, func
from sqlmodel import Session, select

from app.models import Revision, TeamNote
from app.queries.notes import MAX_NOTES_PER_ITEM
from tests.team.test_write_api import RESULT, cell, token_for

pytestmark = pytest.mark.database

CLAIM = {"system": "vllm", "capability": "prefix-caching", "source": "overview-early-2026"}
FIGURE = {"result": "ov-vllm-h100-peak"}
# genai-in-depth-serving-frameworks gives two readings of SGLang on x86 CPUs (they disagree).
TWO_READINGS = {
    "system": "sglang",
    "capability": "cpu-x86",
    "source": "genai-in-depth-serving-frameworks",
}


@pytest.fixture(scope="module")
def editor(accounts_app: Any, accounts_engine: Engine) -> TestClient:
    return TestClient(accounts_app, headers=token_for(accounts_engine, "eddie"))


@pytest.fixture(scope="module")
def admin(accounts_app: Any, accounts_engine: Engine) -> TestClient:
    return TestClient(accounts_app, headers=token_for(accounts_engine, "ada"))


def count(engine: Engine, model: Any) -> int:
    with Session(engine) as session:
        return session.exec(select(func.count()).select_from(model)).one()


def problems(response: Any) -> dict[str, str]:
    assert response.status_code == 422, response.text
    return {d["field"]: d["message"] for d in response.json()["detail"]}


def claim_of(client: TestClient, source: str, **where: str) -> dict[str, Any]:
    found = cell(client, where.get("system", "vllm"), where.get("capability", "prefix-caching"))
    return next(c for c in found["claims"] if c["source"]["slug"] == source)


# Adding, and what every reader then sees -----------------------------------------------------


def test_a_note_on_a_published_claim_is_served_beside_it_with_who_and_when(
    editor: TestClient, accounts_app: Any
) -> None:
    body = CLAIM | {"text": "  Wrong for V1: we use APC.  ", "link": "https://example.com/apc"}
    response = editor.post("/api/v1/notes", json=body)
    assert response.status_code == 201, response.text
    note = response.json()
    assert note["id"].startswith("note-") and response.headers["etag"] == '"1"'
    assert (note["on"], note["text"], note["by"], note["version"]) == (
        "claim",
        "Wrong for V1: we use APC.",
        "eddie",
        1,
    )
    anonymous = TestClient(accounts_app)
    served = claim_of(anonymous, "overview-early-2026")["team_notes"]
    assert [(n["id"], n["text"], n["link"], n["by"]) for n in served] == [
        (note["id"], "Wrong for V1: we use APC.", "https://example.com/apc", "eddie")
    ]
    # Only that source's claim carries it: the other sources' claims on the cell do not.
    others = cell(anonymous, "vllm", "prefix-caching")["claims"]
    assert sum(len(c["team_notes"]) for c in others) == 1
    listed = anonymous.get("/api/v1/notes", params=CLAIM).json()
    assert [n["id"] for n in listed["notes"]] == [note["id"]] and listed["total"] == 1


def test_notes_on_a_figure_and_on_a_system_and_the_listing_of_a_system(
    editor: TestClient, accounts_app: Any
) -> None:
    figure = editor.post("/api/v1/notes", json=FIGURE | {"text": "A peak, not sustained."})
    whole = editor.post("/api/v1/notes", json={"system": "sglang", "text": "Our default."})
    assert (figure.status_code, whole.status_code) == (201, 201)
    assert (figure.json()["on"], figure.json()["system"]) == ("result", "vllm")
    anonymous = TestClient(accounts_app)
    results = anonymous.get("/api/v1/benchmarks", params={"system": "vllm"}).json()["results"]
    peak = next(r for r in results if r["id"] == "ov-vllm-h100-peak")
    assert [n["text"] for n in peak["team_notes"]] == ["A peak, not sustained."]
    sglang = anonymous.get("/api/v1/systems/sglang").json()
    assert [n["text"] for n in sglang["team_notes"]] == ["Our default."]
    # `system` alone lists everything filed under the system, newest first, each with its item.
    everything = anonymous.get("/api/v1/notes", params={"system": "vllm"}).json()
    assert [n["on"] for n in everything["notes"]][:2] == ["result", "claim"]
    one = anonymous.get("/api/v1/notes", params=FIGURE).json()
    assert [n["text"] for n in one["notes"]] == ["A peak, not sustained."]
    paged = anonymous.get("/api/v1/notes", params={"limit": 1, "offset": 1}).json()
    assert len(paged["notes"]) == 1 and paged["total"] >= 3


def test_a_source_that_gives_two_readings_of_a_cell_is_asked_which(editor: TestClient) -> None:
    asked = problems(editor.post("/api/v1/notes", json=TWO_READINGS | {"text": "x"}))
    assert "gives 2 readings of this cell; say which: 1 (Opening table" in asked["reading"]
    assert (
        "3 is not one of the readings; allowed: 1–2"
        in problems(editor.post("/api/v1/notes", json=TWO_READINGS | {"reading": 3, "text": "x"}))[
            "reading"
        ]
    )
    made = editor.post("/api/v1/notes", json=TWO_READINGS | {"reading": 2, "text": "The ✗ one."})
    assert made.status_code == 201 and made.json()["reading"] == 2
    claims = cell(editor, "sglang", "cpu-x86")["claims"]
    noted = [
        (c["reading"], [n["text"] for n in c["team_notes"]])
        for c in claims
        if c["source"]["slug"] == TWO_READINGS["source"]
    ]
    assert sorted(noted) == [(1, []), (2, ["The ✗ one."])]


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        (CLAIM | {"text": ""}, "text", "at least 1 character"),
        (CLAIM | {"text": "x" * 2001}, "text", "at most 2000 characters"),
        (
            CLAIM | {"text": "x", "link": "javascript:alert(1)"},
            "link",
            "allowed: http:// or https://",
        ),
        (CLAIM | {"text": "x", "link": "ftp://example.com/a"}, "link", "not a web address"),
        (CLAIM | {"text": "x", "colour": "red"}, "colour", "not a field of a team note"),
        ({"text": "x"}, "system", "required: the system the note is on"),
        ({"system": "vllm", "capability": "prefix-caching", "text": "x"}, "source", "required"),
        (FIGURE | {"system": "vllm", "text": "x"}, "system", "named by its id alone"),
        (CLAIM | {"capability": "no-such-thing", "text": "x"}, "capability", "no capability"),
        (CLAIM | {"source": "team", "text": "x"}, "source", "no source has the slug 'team'"),
        (CLAIM | {"capability": "mobile", "text": "x"}, "source", "makes no claim on vllm/mobile"),
        ({"result": "no-such-figure", "text": "x"}, "result", "no benchmark result has the id"),
    ],
)
def test_a_bad_note_gets_422_naming_the_field(
    editor: TestClient, accounts_engine: Engine, body: dict[str, Any], field: str, words: str
) -> None:
    before = count(accounts_engine, TeamNote), count(accounts_engine, Revision)
    assert words in problems(editor.post("/api/v1/notes", json=body))[field]
    assert (count(accounts_engine, TeamNote), count(accounts_engine, Revision)) == before


def test_the_teams_own_claims_and_results_are_changed_not_annotated(editor: TestClient) -> None:
    claim = editor.put("/api/v1/systems/vllm/claims/mobile", json={"level": "no"})
    assert claim.status_code == 201
    refused = problems(
        editor.post(
            "/api/v1/notes",
            json={"system": "vllm", "capability": "mobile", "source": "team", "text": "x"},
        )
    )
    assert "the team's own claim" in refused["source"]
    result = editor.post("/api/v1/benchmarks", json=RESULT).json()
    refused = problems(editor.post("/api/v1/notes", json={"result": result["id"], "text": "x"}))
    assert "the team's own result" in refused["result"]


def test_an_item_takes_a_bounded_number_of_notes(editor: TestClient) -> None:
    item = {"system": "llama-cpp"}
    for n in range(MAX_NOTES_PER_ITEM):
        assert editor.post("/api/v1/notes", json=item | {"text": f"note {n}"}).status_code == 201
    refused = problems(editor.post("/api/v1/notes", json=item | {"text": "one more"}))
    assert f"already holds {MAX_NOTES_PER_ITEM} notes" in refused["system"]


# Changing and removing --------------------------------------------------------------------------


def test_a_change_based_on_an_old_version_is_refused_with_the_current_note(
    editor: TestClient, admin: TestClient
) -> None:
    made = editor.post("/api/v1/notes", json={"system": "tgi", "text": "First."}).json()
    path = f"/api/v1/notes/{made['id']}"
    unversioned = editor.patch(path, json={"text": "Second."})
    assert unversioned.status_code == 428 and unversioned.json()["current"]["version"] == 1
    first = admin.patch(
        path, json={"text": "Second.", "link": "https://example.com/2"}, headers={"If-Match": '"1"'}
    )
    assert first.status_code == 200 and first.headers["etag"] == '"2"'
    assert (first.json()["by"], first.json()["version"]) == ("ada", 2)
    stale = editor.patch(path, json={"text": "Mine.", "version": 1})
    assert stale.status_code == 409
    assert stale.json()["current"] == first.json()
    mixed = problems(
        editor.patch(path, json={"text": "x", "version": 1}, headers={"If-Match": '"2"'})
    )
    assert "the body says 1, If-Match says 2" in mixed["version"]
    unlinked = editor.patch(path, json={"link": None, "version": 2})
    assert unlinked.status_code == 200 and unlinked.json()["link"] is None
    assert (
        "a note needs text"
        in problems(editor.patch(path, json={"text": None, "version": 3}))["text"]
    )
    assert editor.get(path).json()["version"] == 3
    assert editor.delete(path, headers={"If-Match": '"2"'}).status_code == 409
    assert editor.delete(path, params={"version": 3}).status_code == 204
    assert editor.get(path).status_code == 404
    assert editor.patch(path, json={"text": "x", "version": 3}).status_code == 404


def test_every_change_is_a_revision_filed_under_the_system(
    editor: TestClient, accounts_app: Any
) -> None:
    made = editor.post("/api/v1/notes", json=CLAIM | {"text": "Filed."}).json()
    editor.patch(f"/api/v1/notes/{made['id']}", json={"text": "Filed again.", "version": 1})
    editor.delete(f"/api/v1/notes/{made['id']}", params={"version": 2})
    anonymous = TestClient(accounts_app)
    changes = anonymous.get("/api/v1/changes", params={"kind": "note", "system": "vllm"}).json()
    mine = [r for r in changes["revisions"] if r["key"].endswith(made["id"])]
    assert [r["action"] for r in mine] == ["delete", "update", "create"]
    assert {r["actor"] for r in mine} == {"eddie"}
    assert mine[0]["key"] == f"vllm/prefix-caching/overview-early-2026/{made['id']}"
    assert mine[1]["before"]["text"] == "Filed." and mine[1]["after"]["text"] == "Filed again."
    assert mine[2]["after"] == {"id": made["id"], "on": "claim", **CLAIM, "text": "Filed."}
    feed = anonymous.get("/changes.atom", params={"kind": "note"})
    assert feed.status_code == 200
    assert "Removed a team note on vLLM · Prefix caching" in feed.text
    page = anonymous.get("/changes", params={"kind": "note"})
    assert page.status_code == 200 and made["id"] in page.text


def test_the_kind_filter_offers_notes_before_any_note_exists(accounts_app: Any) -> None:
    # A new instance's history has no note yet; a link filtering by notes must still work.
    schema = TestClient(accounts_app).get("/openapi.json").json()
    kinds = next(
        p for p in schema["paths"]["/api/v1/changes"]["get"]["parameters"] if p["name"] == "kind"
    )["schema"]["enum"]
    assert "note" in kinds


# Reading ----------------------------------------------------------------------------------------


def test_listing_names_what_is_wrong_or_missing(accounts_app: Any) -> None:
    anonymous = TestClient(accounts_app)
    unknown = anonymous.get("/api/v1/notes", params={"system": "no-such-system"})
    assert unknown.status_code == 422 and unknown.json()["detail"][0]["field"] == "system"
    missing = anonymous.get("/api/v1/notes", params={"result": "no-such-figure"})
    assert missing.status_code == 404 and missing.json()["field"] == "result"
    half = anonymous.get("/api/v1/notes", params={"system": "vllm", "capability": "mobile"})
    # Each value is allowed; together they name no item (the schema fuzzer's rule: nothing
    # the schema allows is refused as invalid).
    assert half.status_code == 404 and half.json()["field"] == "source"
    headless = anonymous.get(
        "/api/v1/notes",
        params={"capability": "continuous-batching", "source": "overview-early-2026"},
    )
    assert headless.status_code == 404 and headless.json()["field"] == "system"
    too_many = anonymous.get("/api/v1/notes", params={"limit": 501})
    assert too_many.status_code == 422
    tracked = anonymous.get("/api/v1/notes", params={"utm_source": "chat", "colour": "red"})
    assert tracked.status_code == 200 and tracked.json()["ignored_parameters"] == ["colour"]


def test_the_notes_api_is_documented(accounts_app: Any) -> None:
    schema = TestClient(accounts_app).get("/openapi.json").json()
    notes, one = schema["paths"]["/api/v1/notes"], schema["paths"]["/api/v1/notes/{note_id}"]
    assert "security" not in notes["get"] and notes["post"]["security"] == [{"HTTPBearer": []}]
    body = notes["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert body["$ref"] == "#/components/schemas/TeamNoteIn"
    defined = schema["components"]["schemas"]
    assert defined["TeamNoteIn"]["required"] == ["text"]
    assert {"system", "capability", "source", "reading", "result", "link"} <= set(
        defined["TeamNoteIn"]["properties"]
    )
    assert {"patch", "delete"} <= set(one) and {"409", "428"} <= set(one["patch"]["responses"])
    params = {p["name"]: p for p in notes["get"]["parameters"]}
    assert "vllm" in params["system"]["schema"]["enum"]
    assert "overview-early-2026" in params["source"]["schema"]["enum"]
