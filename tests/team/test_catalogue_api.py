"""The team catalogue API: the team's own hardware, models, workloads and systems; names that
stay one per entry; versions; published entries read-only but open to team aliases; every
change in the history; what then takes results and shows in the lists."""

from collections.abc import Callable
from typing import Any

import pytest
from bs4 import BeautifulSoup
from fastapi.testclient import TestClient
from sqlalchemy import Engine
from sqlmodel import Session, select

from app.models import Hardware, HardwareAlias, LanguageModel, Revision, System
from app.queries.decide import candidates
from tests.team.test_notes_api import count, problems
from tests.team.test_write_api import RESULT, SAME_ORIGIN, token_for

pytestmark = pytest.mark.database

H200_NVL = {
    "name": "NVIDIA H200 NVL",
    "aliases": ["H200 NVL", "H200-NVL 141GB"],
    "vendor": "NVIDIA",
    "memory_gb": 141,
    "form_factor": "pcie",
}
QWEN3 = {
    "name": "Qwen3 32B",
    "hf_id": "Qwen/Qwen3-32B",
    "family": "Qwen3",
    "parameters_b": "32",
    "kind": "dense",
}
WRITES = [
    ("post", "/api/v1/hardware", {"name": "Roles Only GPU"}),
    ("patch", "/api/v1/hardware/no-such-gpu", {"name": "x"}),
    ("delete", "/api/v1/hardware/no-such-gpu", None),
    ("post", "/api/v1/models", {"name": "Roles Only Model"}),
    ("patch", "/api/v1/models/no-such-model", {"name": "x"}),
    ("delete", "/api/v1/models/no-such-model", None),
    ("post", "/api/v1/workloads", {"name": "Roles only load"}),
    ("patch", "/api/v1/workloads/no-such-load", {"name": "x"}),
    ("delete", "/api/v1/workloads/no-such-load", None),
    ("post", "/api/v1/systems", {"name": "Roles Only Engine", "kind": "engine"}),
    ("patch", "/api/v1/systems/no-such-engine", {"name": "x"}),
    ("delete", "/api/v1/systems/no-such-engine", None),
]


@pytest.fixture(scope="module")
def editor(accounts_app: Any, accounts_engine: Engine) -> TestClient:
    return TestClient(accounts_app, headers=token_for(accounts_engine, "eddie"))


@pytest.mark.parametrize(("method", "path", "body"), WRITES)
def test_catalogue_writes_are_for_editors(
    clients: Callable[..., TestClient], accounts_engine: Engine, method: str, path: str, body: Any
) -> None:
    assert clients().request(method, path, json=body, headers=SAME_ORIGIN).status_code == 401
    viewer = token_for(accounts_engine, "vera")
    assert clients().request(method, path, json=body, headers=viewer).status_code == 403
    editor = token_for(accounts_engine, "eddie")
    answer = clients().request(method, path, json=body, headers=editor)
    assert answer.status_code == {"post": 201, "patch": 404, "delete": 404}[method], answer.text


def test_new_hardware_is_the_teams_named_by_its_aliases_and_takes_a_result(
    editor: TestClient, accounts_app: Any, accounts_engine: Engine
) -> None:
    response = editor.post("/api/v1/hardware", json=H200_NVL)
    assert response.status_code == 201, response.text
    made = response.json()
    assert made["slug"] == "nvidia-h200-nvl" and made["team"] is True
    assert (made["version"], made["by"], made["memory_gb"]) == (1, "eddie", 141)
    assert made["aliases"] == ["H200 NVL", "H200-NVL 141GB"]
    assert response.headers["location"] == "/api/v1/hardware/nvidia-h200-nvl"
    listed = {e["slug"]: e for e in TestClient(accounts_app).get("/api/v1/hardware").json()}
    assert listed["nvidia-h200-nvl"]["aliases"] == ["H200 NVL", "H200-NVL 141GB"]
    # A result names it by any of its names, in any case or spacing.
    result = editor.post("/api/v1/benchmarks", json=RESULT | {"hardware": "h200 nvl"})
    assert result.status_code == 201, result.text
    assert result.json()["hardware"] == "nvidia-h200-nvl"
    page = TestClient(accounts_app).get("/hardware/nvidia-h200-nvl")
    assert page.status_code == 200 and "NVIDIA H200 NVL" in page.text
    with Session(accounts_engine) as session:
        row = session.exec(select(Hardware).where(Hardware.slug == "nvidia-h200-nvl")).one()
        assert row.team and row.user_id is not None and row.sources == []
        revision = session.exec(
            select(Revision).where(Revision.entity == "hardware", Revision.key == row.slug)
        ).one()
        assert (revision.action, revision.actor) == ("create", "eddie")
        assert revision.after is not None and revision.after["memory_gb"] == 141


def test_a_model_keeps_its_hugging_face_id_as_an_alias(editor: TestClient) -> None:
    response = editor.post("/api/v1/models", json=QWEN3)
    assert response.status_code == 201, response.text
    made = response.json()
    assert made["slug"] == "qwen3-32b" and made["aliases"] == ["Qwen/Qwen3-32B"]
    assert made["parameters_b"] == 32 and made["kind"] == "dense"
    result = editor.post("/api/v1/benchmarks", json=RESULT | {"model": "qwen/qwen3-32b"})
    assert result.status_code == 201 and result.json()["model"] == "qwen3-32b"


def test_a_workload_with_its_shape_and_lengths(editor: TestClient) -> None:
    body = {
        "name": "Chat, 8k in / 1k out",
        "input_tokens": "8,192",
        "output_tokens": 1024,
        "shape": "chat",
        "aliases": ["chat 8k/1k"],
    }
    response = editor.post("/api/v1/workloads", json=body)
    assert response.status_code == 201, response.text
    made = response.json()
    assert made["slug"] == "chat-8k-in-1k-out"
    assert (made["input_tokens"], made["output_tokens"], made["shape"]) == (8192, 1024, "chat")
    assert made["description"]  # made up from the shape and lengths when not given


def test_a_name_another_entry_holds_is_refused_naming_the_holder(
    editor: TestClient, accounts_engine: Engine
) -> None:
    before = count(accounts_engine, Hardware)
    for body, field in (
        ({"name": "Our H100", "aliases": ["h100-sxm"]}, "aliases"),  # a published alias
        ({"name": "NVIDIA H100 SXM5 80GB"}, "name"),  # a published name
        ({"name": "Another", "slug": "nvidia-a100-80gb"}, "slug"),  # a published slug
    ):
        response = editor.post("/api/v1/hardware", json=body)
        assert response.status_code == 409, response.text
        assert response.json()["field"] == field
        assert response.json()["holder"] in {"nvidia-h100-sxm5-80gb", "nvidia-a100-80gb"}
    editor.post("/api/v1/hardware", json={"name": "Team Card One", "aliases": ["TC 1"]})
    taken = editor.post("/api/v1/hardware", json={"name": "Team Card Two", "aliases": ["tc-1"]})
    assert taken.status_code == 409 and taken.json()["holder"] == "team-card-one"
    assert "team-card-one" in taken.json()["detail"]
    assert count(accounts_engine, Hardware) == before + 1


def test_bad_fields_are_named_and_nothing_is_saved(
    editor: TestClient, accounts_engine: Engine
) -> None:
    before = count(accounts_engine, Hardware), count(accounts_engine, LanguageModel)
    wrong = {"name": "", "memory_gb": -1, "form_factor": "card", "colour": 1}
    bad = problems(editor.post("/api/v1/hardware", json=wrong))
    assert set(bad) == {"name", "memory_gb", "form_factor", "colour"}
    moe = problems(
        editor.post(
            "/api/v1/models", json={"name": "X", "architecture": "dense", "active_parameters_b": 3}
        )
    )
    assert "mixture of experts" in next(iter(moe.values()))
    long = problems(editor.post("/api/v1/workloads", json={"name": "x" * 201}))
    assert set(long) == {"name"}
    after = count(accounts_engine, Hardware), count(accounts_engine, LanguageModel)
    assert after == before


def test_changes_take_the_version_they_are_based_on(editor: TestClient) -> None:
    made = editor.post("/api/v1/hardware", json={"name": "Versioned GPU", "memory_gb": 24})
    slug = made.json()["slug"]
    missing = editor.patch(f"/api/v1/hardware/{slug}", json={"memory_gb": 48})
    assert missing.status_code == 428 and missing.json()["current"]["version"] == 1
    changed = editor.patch(f"/api/v1/hardware/{slug}", json={"memory_gb": "48", "version": 1})
    assert changed.status_code == 200, changed.text
    assert (changed.json()["memory_gb"], changed.json()["version"]) == (48, 2)
    stale = editor.patch(
        f"/api/v1/hardware/{slug}", json={"memory_gb": 96}, headers={"If-Match": '"1"'}
    )
    assert stale.status_code == 409 and stale.json()["current"]["memory_gb"] == 48
    assert editor.delete(f"/api/v1/hardware/{slug}").status_code == 428
    assert editor.delete(f"/api/v1/hardware/{slug}?version=2").status_code == 204
    assert editor.get(f"/api/v1/hardware/{slug}").status_code == 404


def test_an_entry_in_use_is_not_deleted_and_says_what_uses_it(editor: TestClient) -> None:
    made = editor.post("/api/v1/models", json={"name": "Busy Model 7B"}).json()
    result = editor.post("/api/v1/benchmarks", json=RESULT | {"model": "Busy Model 7B"}).json()
    refused = editor.delete(f"/api/v1/models/{made['slug']}?version=1")
    assert refused.status_code == 409
    assert refused.json()["used_by"] == [f"result {result['id']}"]
    withdrawn = editor.patch(
        f"/api/v1/models/{made['slug']}", json={"withdrawn": True, "version": 1}
    )
    assert withdrawn.status_code == 200 and withdrawn.json()["withdrawn"] is True


def test_published_entries_are_read_only_but_take_team_aliases(
    editor: TestClient, accounts_engine: Engine
) -> None:
    url = "/api/v1/hardware/nvidia-rtx-4090"
    refused = problems(editor.patch(url, json={"memory_gb": 48, "version": 1}))
    assert "read-only" in refused["memory_gb"]
    assert editor.delete(f"{url}?version=1").status_code == 422
    added = editor.patch(url, json={"aliases": ["Team 4090 box"], "version": 1})
    assert added.status_code == 200, added.text
    assert added.json()["team_aliases"] == ["Team 4090 box"]
    assert "RTX 4090" in added.json()["aliases"]  # the published aliases stay
    result = editor.post("/api/v1/benchmarks", json=RESULT | {"hardware": "team 4090 box"})
    assert result.json()["hardware"] == "nvidia-rtx-4090"
    with Session(accounts_engine) as session:
        team = session.exec(select(HardwareAlias).where(HardwareAlias.team)).all()
        assert "Team 4090 box" in {a.alias for a in team}


def test_catalogue_changes_are_in_the_history_and_its_feed(
    editor: TestClient, accounts_app: Any
) -> None:
    editor.post("/api/v1/hardware", json={"name": "Feed <b>GPU</b>"})
    reader = TestClient(accounts_app)
    page = reader.get("/changes", params={"kind": "hardware"})
    assert page.status_code == 200 and "feed-b-gpu-b" in page.text
    assert "<b>GPU</b>" not in page.text
    feed = reader.get("/changes.atom", params={"kind": "hardware"})
    assert feed.status_code == 200 and "feed-b-gpu-b" in feed.text


def test_a_team_system_takes_claims_and_results_and_can_be_withdrawn(
    editor: TestClient, accounts_app: Any, accounts_engine: Engine
) -> None:
    body = {
        "name": "Our vLLM fork",
        "kind": "engine",
        "licence": "Apache-2.0",
        "repository": "https://example.com/fork",
        "summary": "vLLM with our patches.",
    }
    response = editor.post("/api/v1/systems", json=body)
    assert response.status_code == 201, response.text
    slug = response.json()["slug"]
    assert slug == "our-vllm-fork" and response.json()["team"] is True
    clash = editor.post("/api/v1/systems", json={"name": "vLLM", "kind": "engine"})
    assert clash.status_code == 409 and clash.json()["holder"] == "vllm"
    claim = editor.put(f"/api/v1/systems/{slug}/claims/prefix-caching", json={"level": "yes"})
    assert claim.status_code == 201, claim.text
    result = editor.post("/api/v1/benchmarks", json=RESULT | {"system": slug})
    assert result.status_code == 201, result.text
    reader = TestClient(accounts_app)
    assert slug in {s["slug"] for s in reader.get("/api/v1/systems").json()}
    shown = reader.get(f"/systems/{slug}")
    assert shown.status_code == 200 and "team-added" in shown.text
    matrix = BeautifulSoup(reader.get("/matrix").text, "html.parser")
    row = matrix.select_one(f'th.system-col a[href="/systems/{slug}"]')
    assert row is not None and row.find_next_sibling(class_="team-badge") is not None
    compare = reader.get("/compare", params=[("s", slug), ("s", "vllm")])
    assert compare.status_code == 200, compare.text
    assert BeautifulSoup(compare.text, "html.parser").select(".compare-name + .team-badge")
    figures = reader.get("/api/v1/benchmarks", params={"system": slug}).json()
    assert [r["system"] for r in figures["results"]] == [slug]
    with Session(accounts_engine) as session:  # the guided flow weighs it like any system
        assert slug in {c.slug for c in candidates(session)}
    assert editor.delete(f"/api/v1/systems/{slug}?version=1").status_code == 409
    published = editor.patch("/api/v1/systems/vllm", json={"name": "x", "version": 1})
    assert published.status_code == 422
    gone = editor.patch(f"/api/v1/systems/{slug}", json={"withdrawn": True, "version": 1})
    assert gone.status_code == 200 and gone.json()["withdrawn"] is True
    with Session(accounts_engine) as session:
        row = session.exec(select(System).where(System.slug == slug)).one()
        assert row.team and row.withdrawn and row.version == 2
