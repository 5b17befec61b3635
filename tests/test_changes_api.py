"""/api/v1/changes and /changes.atom: the same history as JSON and as an Atom 1.0 feed."""

import datetime as dt
import xml.etree.ElementTree as ET
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.present.atom import ATOM
from app.settings import Settings
from tests.conftest import SEED_DIR
from tests.databases import copy_of
from tests.history import HOSTILE_KEY, HOSTILE_MESSAGE, HOSTILE_URL, team_history, write

pytestmark = pytest.mark.database

NS = {"a": ATOM}


@pytest.fixture(scope="module")
def history_url(tmp_path_factory: pytest.TempPathFactory, database_url: str) -> str:
    url = copy_of(database_url, tmp_path_factory.mktemp("changes-api"), SEED_DIR)
    write(url, team_history)
    return url


@pytest.fixture(scope="module")
def client(history_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(database_url=history_url, seed_dir=SEED_DIR))) as c:
        yield c


def feed_of(client: TestClient, query: str = "") -> ET.Element:
    response = client.get(f"/changes.atom{query}")
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/atom+xml; charset=utf-8"
    return ET.fromstring(response.content)


# --- JSON ----------------------------------------------------------------------------------


def test_json_lists_revisions_newest_first_with_before_and_after(client: TestClient) -> None:
    body = client.get("/api/v1/changes").json()
    assert [r["id"] for r in body["revisions"]] == [6, 5, 4, 3, 2, 1]
    assert body["next"] is None and body["ignored_parameters"] == []
    bob = body["revisions"][3]
    assert bob["actor"] == "bob" and bob["entity"] == "benchmark_result"
    assert bob["before"]["value"] == 2300.0 and bob["after"]["value"] == 2460.0
    assert bob["system"] == "sglang" and bob["action"] == "update" and bob["user_id"]
    assert dt.datetime.fromisoformat(bob["at"]) == dt.datetime(2026, 11, 2, 10, 30, tzinfo=dt.UTC)
    assert body["revisions"][0]["key"] == HOSTILE_KEY, "JSON carries the text as it was written"


def test_json_filters_match_the_page(client: TestClient) -> None:
    def keys(query: str) -> list[str]:
        return [r["key"] for r in client.get(f"/api/v1/changes?{query}").json()["revisions"]]

    assert keys("user=ann") == ["llama-cpp/vulkan/our-lab", "vllm/speculative-decoding/our-lab"]
    assert keys("system=vllm&kind=system") == ["vllm"]
    assert keys("kind=dataset&user=seed") == ["published"]
    assert keys("system=tgi") == []


def test_json_pages_follow_next_to_the_end(client: TestClient) -> None:
    url: str | None = "/api/v1/changes?limit=4"
    pages = []
    while url:
        body = client.get(url).json()
        pages.append([r["id"] for r in body["revisions"]])
        url = body["next"]
    assert pages == [[6, 5, 4, 3], [2, 1]]
    assert client.get("/api/v1/changes?limit=4&before=3&user=ann").json()["revisions"][0]["id"] == 2


def test_json_refuses_unknown_values_naming_the_field_and_what_is_allowed(
    client: TestClient,
) -> None:
    response = client.get("/api/v1/changes?user=zed&kind=widget")
    assert response.status_code == 422
    detail = {d["field"]: d for d in response.json()["detail"]}
    assert detail["user"]["value"] == "zed" and detail["user"]["allowed"] == ["ann", "bob", "seed"]
    assert "claim" in detail["kind"]["allowed"] and "benchmark_result" in detail["kind"]["allowed"]
    system = client.get("/api/v1/changes?system=vllmm").json()["detail"][0]
    assert (
        system["field"] == "system" and "vllm" in system["allowed"] and "tgi" in system["allowed"]
    )
    for query in ("limit=0", "limit=501", "before=0", "before=soon"):
        bad = client.get(f"/api/v1/changes?{query}")
        assert bad.status_code == 422, query
        assert bad.json()["detail"][0]["field"] == query.split("=")[0]
    assert len(client.get("/api/v1/changes?limit=500").json()["revisions"]) == 6


def test_json_ignores_unknown_parameters_and_names_them(client: TestClient) -> None:
    body = client.get("/api/v1/changes?user=ann&utm_source=x&colour=red").json()
    assert len(body["revisions"]) == 2 and body["ignored_parameters"] == ["colour"]


def test_openapi_documents_the_parameters_and_their_allowed_values(client: TestClient) -> None:
    operation = client.get("/openapi.json").json()["paths"]["/api/v1/changes"]["get"]
    parameters = {p["name"]: p for p in operation["parameters"]}
    assert set(parameters) == {"user", "system", "kind", "before", "limit"}
    assert parameters["user"]["schema"]["enum"] == ["ann", "bob", "seed"]
    assert "claim" in parameters["kind"]["schema"]["enum"]
    assert parameters["limit"]["schema"]["maximum"] == 500
    assert "422" in operation["responses"]
    schema = operation["responses"]["200"]["content"]["application/json"]["schema"]
    assert schema["$ref"].endswith("/ChangesResponse")


# --- Atom ----------------------------------------------------------------------------------


def test_the_feed_is_atom_with_one_entry_per_revision(client: TestClient) -> None:
    feed = feed_of(client)
    assert feed.tag == f"{{{ATOM}}}feed"
    assert feed.findtext("a:id", namespaces=NS) == "tag:inference-atlas,2026:changes"
    assert feed.findtext("a:title", namespaces=NS) == "Inference Atlas: changes"
    assert feed.findtext("a:updated", namespaces=NS) == "2026-11-02T13:30:00Z"
    links = {link.get("rel"): link for link in feed.findall("a:link", NS)}
    assert links["self"].get("href") == "/changes.atom"
    assert links["self"].get("type") == "application/atom+xml"
    assert links["alternate"].get("href") == "/changes"
    entries = feed.findall("a:entry", NS)
    assert len(entries) == 6
    ann = entries[4]
    assert ann.findtext("a:id", namespaces=NS).startswith("tag:inference-atlas,2026:revision/2/")
    # In words, linked to the changed cell; the history entry is the related link.
    assert ann.findtext("a:title", namespaces=NS) == (
        "Added our-lab's claim on vLLM · Speculative decoding"
    )
    assert ann.findtext("a:updated", namespaces=NS) == "2026-11-02T09:30:00Z"
    assert ann.findtext("a:author/a:name", namespaces=NS) == "ann"
    entry_links = {link.get("rel"): link.get("href") for link in ann.findall("a:link", NS)}
    assert entry_links == {
        "alternate": "/matrix/cell?system=vllm&capability=speculative-decoding",
        "related": "/changes?before=3#change-2",
    }
    # Relative links resolve against the site's address, given as xml:base on the feed.
    assert feed.get("{http://www.w3.org/XML/1998/namespace}base") == "http://127.0.0.1:8000/"
    content = ann.find("a:content", NS)
    assert content.get("type") == "text"
    assert content.text.splitlines() == [
        "Measured on our own cluster",
        "System: vllm",
        "level: — → yes",
        "note: — → EAGLE-3 on our H100s",
    ]


def test_entry_ids_are_stable_and_unique(client: TestClient) -> None:
    def ids(query: str = "") -> list[str]:
        return [
            e.findtext("a:id", namespaces=NS) for e in feed_of(client, query).findall("a:entry", NS)
        ]

    everything = ids()
    assert len(set(everything)) == len(everything)
    assert ids("?user=ann") == [everything[2], everything[4]], "one revision, one id in any feed"
    assert all(i.startswith("tag:") for i in everything)


def test_the_feed_takes_the_same_filters_and_pages(client: TestClient) -> None:
    feed = feed_of(client, "?system=vllm&limit=2")
    assert feed.findtext("a:title", namespaces=NS) == "Inference Atlas: changes on vLLM"
    assert feed.findtext("a:id", namespaces=NS) == "tag:inference-atlas,2026:changes?system=vllm"
    links = {link.get("rel"): link.get("href") for link in feed.findall("a:link", NS)}
    assert links["next"] == "/changes.atom?system=vllm&before=5&limit=2"
    assert len(feed.findall("a:entry", NS)) == 2
    last = feed_of(client, "?system=vllm&before=5&limit=2")
    assert [e.findtext("a:author/a:name", namespaces=NS) for e in last.findall("a:entry", NS)] == [
        "ann"
    ]
    assert "next" not in {link.get("rel") for link in last.findall("a:link", NS)}
    empty = feed_of(client, "?system=tgi")
    assert empty.findall("a:entry", NS) == [] and empty.findtext("a:updated", namespaces=NS)
    assert feed_of(client, "?kind=claim&user=ann").findtext("a:title", namespaces=NS) == (
        "Inference Atlas: claim changes by ann"
    )


def test_hostile_text_stays_text_in_the_feed(client: TestClient) -> None:
    raw = client.get("/changes.atom?user=bob").content
    assert b"<script>" not in raw and b"<img" not in raw
    entry = ET.fromstring(raw).find("a:entry", NS)
    assert entry.findtext("a:title", namespaces=NS) == f"Withdrew claim {HOSTILE_KEY}"
    lines = entry.findtext("a:content", namespaces=NS).splitlines()
    assert lines[0] == HOSTILE_MESSAGE
    assert f"url: https://example.org/ok → {HOSTILE_URL}" in lines
    assert entry.find("a:content", NS).get("type") == "text", "readers show it, never run it"


def test_bad_filters_get_a_plain_422(client: TestClient) -> None:
    response = client.get("/changes.atom?kind=widget")
    assert response.status_code == 422
    assert response.headers["content-type"].startswith("text/plain")
    assert "kind='widget' is not allowed" in response.text


def test_characters_xml_cannot_carry_are_replaced(
    tmp_path_factory: pytest.TempPathFactory, database_url: str
) -> None:
    from app.writes import revisions

    url = copy_of(database_url, tmp_path_factory.mktemp("control"), SEED_DIR)
    write(
        url,
        lambda s: revisions.record(
            s,
            actor="seed",
            entity="claim",
            action="update",
            key="a\x01b\x1bc",
            before={"v": "x\x0c"},
            after={"v": "y"},
            message="bell\x07",
        ),
    )
    with TestClient(create_app(Settings(database_url=url, seed_dir=SEED_DIR))) as c:
        entry = ET.fromstring(c.get("/changes.atom").content).find("a:entry", NS)
    assert entry.findtext("a:title", namespaces=NS) == "Changed claim a\ufffdb\ufffdc"
    assert entry.findtext("a:content", namespaces=NS).startswith("bell\ufffd")


def test_a_private_instance_shows_the_history_to_signed_in_people_only(history_url: str) -> None:
    settings = Settings(database_url=history_url, seed_dir=SEED_DIR, atlas_public_read=False)
    with TestClient(create_app(settings)) as anonymous:
        for path in ("/changes", "/changes.atom", "/systems/vllm"):
            response = anonymous.get(path, follow_redirects=False)
            assert response.status_code == 303, path
            assert response.headers["location"].startswith("/login")
        assert anonymous.get("/api/v1/changes").status_code == 401
