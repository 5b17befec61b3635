"""The write API: a team's results and claims, who may write, versions, all-or-nothing."""

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, func
from sqlmodel import Session, select

from app.accounts import users as accounts
from app.db import writer
from app.models import BenchmarkResult, Claim, Revision
from app.queries.revisions import list_revisions
from app.seeding.prepare import seed
from tests.accounts.conftest import SAME_ORIGIN
from tests.conftest import SEED_DIR

pytestmark = pytest.mark.database

RESULT = {
    "system": "vllm",
    "metric": "throughput",
    "value": 2450,
    "unit": "tok/s",
    "hardware": "H100 SXM",
    "gpus": 1,
    "model": "Llama 3.1 8B",
    "precision": "fp16",
    "concurrency": 32,
    "workload": "online serving",
    "setup": "chat, 1k in / 256 out",
    "system_version": "0.11.0",
    "date": "2026-11-20",
    "note": "our nightly run",
}


def token_for(engine: Engine, name: str) -> dict[str, str]:
    with Session(writer(engine)) as session, session.begin():
        _, raw = accounts.add_token(session, name, None)
    return {"Authorization": f"Bearer {raw}"}


@pytest.fixture(scope="module")
def editor(accounts_app: Any, accounts_engine: Engine) -> TestClient:
    return TestClient(accounts_app, headers=token_for(accounts_engine, "eddie"))


def count(engine: Engine, model: Any) -> int:
    with Session(engine) as session:
        return session.exec(select(func.count()).select_from(model)).one()


def cell(client: TestClient, system: str, capability: str) -> dict[str, Any]:
    detail = client.get(f"/api/v1/systems/{system}").json()
    return next(
        c
        for group in detail["features"] + detail["hardware"]
        for c in group["cells"]
        if c["capability"] == capability
    )


# Who may write ---------------------------------------------------------------------------------

WRITES = [
    ("post", "/api/v1/benchmarks", RESULT),
    ("patch", "/api/v1/benchmarks/team-0000000000", {"value": 1}),
    ("delete", "/api/v1/benchmarks/team-0000000000", None),
    ("put", "/api/v1/systems/vllm/claims/anthropic-api", {"level": "no"}),
    ("delete", "/api/v1/systems/vllm/claims/anthropic-api", None),
    ("post", "/api/v1/notes", {"system": "vllm", "text": "We run it in production."}),
    ("patch", "/api/v1/notes/note-0000000000", {"text": "x"}),
    ("delete", "/api/v1/notes/note-0000000000", None),
    (
        "put",
        "/api/v1/hardware/nvidia-h100-sxm5-80gb/price",
        {"usd_per_gpu_hour": 2.0, "basis": "a test price"},
    ),
]


@pytest.mark.parametrize(("method", "path", "body"), WRITES)
def test_every_write_refuses_anonymous_people_and_viewers(
    clients: Callable[..., TestClient], accounts_engine: Engine, method: str, path: str, body: Any
) -> None:
    anonymous = clients().request(method, path, json=body, headers=SAME_ORIGIN)
    assert anonymous.status_code == 401
    assert anonymous.headers["www-authenticate"] == "Bearer"
    viewer = clients().request(method, path, json=body, headers=token_for(accounts_engine, "vera"))
    assert viewer.status_code == 403
    signed_in_viewer = clients("vera").request(method, path, json=body, headers=SAME_ORIGIN)
    assert signed_in_viewer.status_code == 403


@pytest.mark.parametrize("who", ["eddie", "ada"])
@pytest.mark.parametrize(("method", "path", "body"), WRITES)
def test_editors_and_admins_get_past_the_role_check(
    clients: Callable[..., TestClient], who: str, method: str, path: str, body: Any
) -> None:
    # Past the role check: a real answer about the data, not 401/403.
    response = clients(who).request(method, path, json=body, headers=SAME_ORIGIN)
    # A price is set over whatever was there (200); a claim needs a version once it exists.
    expected = {"post": 201, "patch": 404, "put": {200, 201, 428}, "delete": {404, 428}}[method]
    assert response.status_code in (expected if isinstance(expected, set) else {expected})


def test_a_cross_site_form_post_with_the_cookie_is_refused(
    clients: Callable[..., TestClient], accounts_engine: Engine
) -> None:
    before = count(accounts_engine, BenchmarkResult)
    response = clients("eddie").post(
        "/api/v1/benchmarks",
        json=RESULT,
        headers={"Sec-Fetch-Site": "cross-site", "Origin": "http://evil.example"},
    )
    assert response.status_code == 403
    assert count(accounts_engine, BenchmarkResult) == before


# Results ---------------------------------------------------------------------------------------


def test_a_posted_result_is_served_as_team_measured_with_its_revision(
    editor: TestClient, accounts_engine: Engine
) -> None:
    response = editor.post("/api/v1/benchmarks", json=RESULT)
    assert response.status_code == 201, response.text
    saved = response.json()
    assert saved["id"].startswith("team-") and saved["version"] == 1 and saved["by"] == "eddie"
    assert response.headers["etag"] == '"1"'
    served = editor.get("/api/v1/benchmarks", params={"origin": "team"}).json()["results"]
    mine = next(r for r in served if r["id"] == saved["id"])
    assert mine["value"] == 2450 and mine["source"]["kind"] == "team-measurement"
    with Session(accounts_engine) as session:
        [revision] = list_revisions(session, user="eddie", entity="benchmark_result", limit=500)[
            -1:
        ]
    assert revision.action == "create" and revision.after is not None
    # Names are stored as the vocabulary's slugs, precision in the seed's spelling.
    assert (saved["hardware"], saved["gpus"], saved["model"], saved["workload"]) == (
        "nvidia-h100-sxm5-80gb",
        1,
        "llama-3.1-8b",
        "online-serving",
    )
    assert saved["precision"] == "FP16" and mine["hardware_name"] == "NVIDIA H100 SXM5 80GB"
    assert revision.after["hardware"] == "nvidia-h100-sxm5-80gb" and revision.system == "vllm"


def test_a_list_of_results_is_saved_whole_or_not_at_all(
    editor: TestClient, accounts_engine: Engine
) -> None:
    before = count(accounts_engine, BenchmarkResult), count(accounts_engine, Revision)
    bad = [RESULT, RESULT | {"unit": "ms"}, RESULT | {"metric": "no-such-metric"}]
    response = editor.post("/api/v1/benchmarks", json=bad)
    assert response.status_code == 422
    fields = {d["field"]: d["message"] for d in response.json()["detail"]}
    assert "does not fit the metric 'throughput'; allowed: tok/s" in fields["[1].unit"]
    assert "no metric has the slug 'no-such-metric'" in fields["[2].metric"]
    assert (count(accounts_engine, BenchmarkResult), count(accounts_engine, Revision)) == before
    good = editor.post("/api/v1/benchmarks", json=[RESULT, RESULT | {"concurrency": 64}])
    assert good.status_code == 201
    assert len({r["id"] for r in good.json()["results"]}) == 2
    assert count(accounts_engine, BenchmarkResult) == before[0] + 2


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"value": None}, "value", "give either 'value' or both 'low' and 'high'"),
        ({"value": None, "low": 5, "high": 2}, "value", "'low' (5) is above 'high' (2)"),
        ({"unit": "parsecs"}, "unit", "Input should be"),
        ({"date": "2026-02-30"}, "date", "not a calendar date"),
        ({"concurrency": 0}, "concurrency", "greater than or equal to 1"),
        ({"speed": 3}, "speed", "not a field of a team result"),
        ({"system": "no-such-server"}, "system", "no system has the slug 'no-such-server'"),
        ({"note": "x" * 2001}, "note", "at most 2000 characters"),
        ({"gpus": 0}, "gpus", "greater than or equal to 1"),
        # Hardware, models and workloads come from the shared vocabulary, never free text.
        (
            {"hardware": "1x H100 SMX"},
            "hardware",
            "hardware='1x H100 SMX': not a known hardware name; "
            "did you mean nvidia-h100-sxm5-80gb?",
        ),
        (
            {"model": "Llama 3.2 8B"},
            "model",
            "model='Llama 3.2 8B': not a known model name; did you mean llama-3.1-8b",
        ),
        (
            {"workload": "chat"},
            "workload",
            "workload='chat': not a known workload name; "
            "did you mean online-serving, multi-turn-chat?",
        ),
        (
            {"hardware": "TPU v5e pod"},
            "hardware",
            "not a known hardware name; allowed: a slug or alias from GET /api/v1/hardware",
        ),
    ],
)
def test_a_bad_result_gets_422_naming_the_field(
    editor: TestClient, change: dict[str, Any], field: str, words: str
) -> None:
    response = editor.post("/api/v1/benchmarks", json=RESULT | change)
    assert response.status_code == 422
    detail = {d["field"]: d["message"] for d in response.json()["detail"]}
    assert field in detail and words in detail[field], detail


def test_a_change_based_on_an_old_version_is_refused_with_the_current_row(
    editor: TestClient,
) -> None:
    made = editor.post("/api/v1/benchmarks", json=RESULT).json()
    path = f"/api/v1/benchmarks/{made['id']}"
    unversioned = editor.patch(path, json={"value": 2500})
    assert unversioned.status_code == 428 and unversioned.json()["current"]["version"] == 1
    first = editor.patch(path, json={"value": 2500}, headers={"If-Match": '"1"'})
    assert first.status_code == 200 and first.json()["version"] == 2
    assert first.headers["etag"] == '"2"'
    second = editor.patch(path, json={"value": 2600, "version": 1})  # based on what it read
    assert second.status_code == 409
    assert second.json()["current"] == first.json() | {"version": 2}
    assert editor.delete(path, headers={"If-Match": "1"}).status_code == 409
    assert editor.delete(path, params={"version": 2}).status_code == 204
    assert editor.patch(path, json={"value": 1, "version": 2}).status_code == 404


def test_published_figures_cannot_be_changed_through_the_api(
    editor: TestClient, accounts_engine: Engine
) -> None:
    with Session(accounts_engine) as session:
        published = session.exec(select(BenchmarkResult.slug).limit(1)).one()
    response = editor.patch(f"/api/v1/benchmarks/{published}", json={"value": 1, "version": 1})
    assert response.status_code == 422
    assert "belongs to the seed files" in response.json()["detail"][0]["message"]


# Claims ----------------------------------------------------------------------------------------


def test_a_team_claim_that_disagrees_makes_the_cell_disputed(editor: TestClient) -> None:
    before = cell(editor, "vllm", "openai-api")
    assert before["level"] == "yes" and not before["disputed"]
    path = "/api/v1/systems/vllm/claims/openai-api"
    made = editor.put(path, json={"level": "partial", "note": "our proxy strips tool calls"})
    assert made.status_code == 201 and made.json()["version"] == 1
    after = cell(editor, "vllm", "openai-api")
    assert after["disputed"]
    team = [c for c in after["claims"] if c["source"]["kind"] == "team-measurement"]
    assert [(c["level"], c["note"]) for c in team] == [("partial", "our proxy strips tool calls")]
    again = editor.put(path, json={"level": "no"})
    assert again.status_code == 428
    changed = editor.put(path, json={"level": "no", "version": 1})
    assert changed.status_code == 200 and changed.json()["version"] == 2
    assert editor.put(path, json={"level": "yes", "version": 1}).status_code == 409
    assert editor.delete(path, headers={"If-Match": '"2"'}).status_code == 204
    assert not cell(editor, "vllm", "openai-api")["disputed"]
    assert editor.delete(path, headers={"If-Match": '"2"'}).status_code == 404


def test_claims_on_unknown_cells_or_with_bad_levels_are_refused(editor: TestClient) -> None:
    assert editor.put("/api/v1/systems/nope/claims/openai-api", json={"level": "yes"}).json() == {
        "detail": "no system has the slug 'nope'"
    }
    unknown = editor.put("/api/v1/systems/vllm/claims/teleport", json={"level": "yes"})
    assert unknown.status_code == 404 and "teleport" in unknown.json()["detail"]
    bad = editor.put("/api/v1/systems/vllm/claims/openai-api", json={"level": "sometimes"})
    assert bad.status_code == 422 and bad.json()["detail"][0]["field"] == "level"


# Reseeding -------------------------------------------------------------------------------------


def test_reseeding_keeps_every_team_row(editor: TestClient, accounts_engine: Engine) -> None:
    made = editor.post("/api/v1/benchmarks", json=RESULT | {"value": 777}).json()
    put = editor.put("/api/v1/systems/sglang/claims/openai-api", json={"level": "partial"})
    assert put.status_code in (200, 201)
    with Session(accounts_engine) as session:
        team_claims = session.exec(select(Claim).where(Claim.user_id != None)).all()  # noqa: E711
        ids = {c.id for c in team_claims}
    seed(accounts_engine, SEED_DIR)
    with Session(accounts_engine) as session:
        kept = session.exec(select(BenchmarkResult).where(BenchmarkResult.slug == made["id"])).one()
        assert kept.value == 777 and kept.version == 1
        assert {c.id for c in session.exec(select(Claim).where(Claim.user_id != None))} == ids  # noqa: E711
    assert cell(editor, "sglang", "openai-api")["disputed"]


def test_the_write_api_is_documented_with_every_schema_it_names(editor: TestClient) -> None:
    schema = editor.get("/openapi.json").json()

    def refs(node: Any) -> list[str]:
        if isinstance(node, dict):
            return [r for k, v in node.items() for r in ([v] if k == "$ref" else refs(v))]
        return [r for v in node for r in refs(v)] if isinstance(node, list) else []

    defined = schema["components"]["schemas"]
    assert {r.rsplit("/", 1)[1] for r in refs(schema)} <= set(defined)
    post = schema["paths"]["/api/v1/benchmarks"]["post"]
    assert post["security"] == [{"HTTPBearer": []}]
    assert {"system", "metric", "unit"} <= set(defined["TeamResultIn"]["required"])
    claims = schema["paths"]["/api/v1/systems/{slug}/claims/{capability}"]
    assert {"put", "delete"} <= set(claims) and "409" in claims["put"]["responses"]


def test_a_change_may_name_hardware_by_alias_and_keeps_the_rest(editor: TestClient) -> None:
    saved = editor.post("/api/v1/benchmarks", json=RESULT).json()
    response = editor.patch(
        f"/api/v1/benchmarks/{saved['id']}",
        json={"hardware": "NVIDIA H100", "gpus": 8, "version": saved["version"]},
    )
    assert response.status_code == 200, response.text
    changed = response.json()
    # A bare "NVIDIA H100" is the entry for an H100 of unstated variant, not the SXM5 part.
    assert (changed["hardware"], changed["gpus"], changed["model"]) == (
        "nvidia-h100-unspecified",
        8,
        "llama-3.1-8b",
    )
    wrong = editor.patch(
        f"/api/v1/benchmarks/{saved['id']}", json={"model": "lama 3.1 8b", "version": 2}
    )
    assert wrong.status_code == 422
    [detail] = wrong.json()["detail"]
    assert detail["field"] == "model" and "did you mean llama-3.1-8b" in detail["message"]
