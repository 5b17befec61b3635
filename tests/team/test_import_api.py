"""The import API: upload a result file, get a preview (nothing saved), confirm it (all or
nothing); who may do it; files that cannot be read; the size limit."""

import json
import threading
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, event

from app.models import BenchmarkResult, ImportBatch, ImportRun
from app.routes.api import imports as imports_api
from app.writes import imports as import_writes
from tests.accounts.conftest import SAME_ORIGIN
from tests.team.test_import_cli import EVERY_FILE, REAL_FILES
from tests.team.test_write_api import count, token_for

pytestmark = pytest.mark.database

FIXTURES = Path(__file__).parents[1] / "imports" / "fixtures"
SWEEP = FIXTURES / "vllm-bench" / "sweep-append-result.json"
CONTEXT = {
    "system": "vllm",
    "hardware": "NVIDIA H100 SXM5 80GB",
    "precision": "FP8",
    "model": "llama-3.1-8b",
}


def upload(client: TestClient, path: Path, **fields: str) -> Any:
    files = {"file": (path.name, path.read_bytes(), "application/json")}
    return client.post("/api/v1/imports", files=files, data=fields)


@pytest.fixture(autouse=True)
def no_daily_quota(monkeypatch: pytest.MonkeyPatch) -> None:
    """One editor uploads every fixture and corpus file in this module, more than a day's
    quota allows; the quota has tests of its own (test_import_quota.py)."""
    monkeypatch.setattr(import_writes, "IMPORTS_PER_DAY", 1000)


@pytest.fixture(scope="module")
def editor(accounts_app: Any, accounts_engine: Engine) -> TestClient:
    return TestClient(accounts_app, headers=token_for(accounts_engine, "eddie"))


def test_a_preview_saves_nothing_and_confirming_saves_every_run(
    editor: TestClient, accounts_engine: Engine
) -> None:
    results = count(accounts_engine, BenchmarkResult)
    preview = upload(editor, SWEEP, **CONTEXT, gpus="1")
    assert preview.status_code == 201, preview.text
    body = preview.json()
    assert preview.headers["location"] == f"/api/v1/imports/{body['id']}"
    assert (body["state"], body["ready"], body["format"], body["by"]) == (
        "pending",
        True,
        "vllm-bench",
        "eddie",
    )
    assert [r["setup"]["concurrency"] for r in body["runs"]] == [1, 4, 16, 64]
    assert all(r["setup"]["gpus"] == 1 for r in body["runs"])
    # Names are vocabulary slugs: the alias given, and the model the user chose for the file's.
    first = body["runs"][0]["setup"]
    assert (first["hardware"], first["model"]) == ("nvidia-h100-sxm5-80gb", "llama-3.1-8b")
    assert {(r["hardware"], r["model"], r["gpus"]) for r in body["results"]} == {
        ("nvidia-h100-sxm5-80gb", "llama-3.1-8b", 1)
    }
    assert count(accounts_engine, BenchmarkResult) == results
    again = editor.get(f"/api/v1/imports/{body['id']}")
    assert again.status_code == 200 and again.json()["runs"] == body["runs"]

    confirmed = editor.post(f"/api/v1/imports/{body['id']}/confirm")
    assert confirmed.status_code == 201, confirmed.text
    saved = confirmed.json()["saved"]
    assert len(saved) == len(body["results"]) and count(accounts_engine, ImportRun) >= 4
    assert {s["source"] for s in saved} == {confirmed.json()["context"] and saved[0]["source"]}
    assert saved[0]["source"].startswith("import-")
    assert count(accounts_engine, BenchmarkResult) == results + len(saved)
    # A second confirmation saves nothing more.
    twice = editor.post(f"/api/v1/imports/{body['id']}/confirm")
    assert twice.status_code == 422 and "already saved" in twice.text
    served = editor.get("/api/v1/benchmarks?origin=team&system=vllm&metric=throughput-per-user")
    assert served.status_code == 200
    per_user = [r for r in served.json()["results"] if r["source"]["slug"] == saved[0]["source"]]
    assert len(per_user) == 4


def test_missing_context_is_named_and_the_preview_cannot_be_confirmed(
    editor: TestClient, accounts_engine: Engine
) -> None:
    preview = upload(editor, SWEEP, system="vllm")
    assert preview.status_code == 201
    body = preview.json()
    assert body["ready"] is False and body["results"] == []
    assert body["problems"]["hardware"].startswith("which hardware ran it?")
    # The file's model is none of the entries' names: asked for, with the close ones offered.
    assert body["runs"][0]["setup"]["model_in_file"] == "meta-llama/Llama-3.1-8B-Instruct"
    assert "'meta-llama/Llama-3.1-8B-Instruct'" in body["problems"]["model"]
    assert "did you mean llama-3.1-8b" in body["problems"]["model"]
    results = count(accounts_engine, BenchmarkResult)
    refused = editor.post(f"/api/v1/imports/{body['id']}/confirm")
    assert refused.status_code == 422 and "hardware" in refused.text
    assert count(accounts_engine, BenchmarkResult) == results
    # The context given afterwards (no new upload) makes it ready.
    wrong = editor.patch(f"/api/v1/imports/{body['id']}", json={"gpus": "many"})
    assert wrong.status_code == 422 and "gpus" in wrong.text
    fixed = editor.patch(f"/api/v1/imports/{body['id']}", json=CONTEXT | {"gpus": 8})
    assert fixed.status_code == 200, fixed.text
    assert fixed.json()["ready"] is True and fixed.json()["problems"] == {}
    assert {r["setup"]["gpus"] for r in fixed.json()["runs"]} == {8}
    assert "parsed" not in fixed.json()
    saved = editor.post(f"/api/v1/imports/{body['id']}/confirm")
    assert saved.status_code == 201
    assert count(accounts_engine, BenchmarkResult) == results + len(saved.json()["saved"])


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("bad/truncated-append.json", "truncated-append.json: line"),
        ("bad/results.json.gz", "gunzip"),  # a zip or tar of results is a sweep (below)
        ("bad/zero-ttft.jsonl", "zero-ttft.jsonl: line 3, field mean_ttft_ms"),
        ("bad/negative-throughput.json", "negative-throughput.json"),
    ],
)
def test_files_that_cannot_be_read_are_422s_naming_the_problem(
    editor: TestClient, accounts_engine: Engine, name: str, message: str
) -> None:
    batches = count(accounts_engine, ImportBatch)
    refused = upload(editor, FIXTURES / name, **CONTEXT)
    assert refused.status_code == 422
    [problem] = refused.json()["detail"]
    assert problem["field"] == "file" and message in problem["message"]
    assert count(accounts_engine, ImportBatch) == batches


def test_a_file_over_the_size_limit_is_a_413(
    editor: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(imports_api, "MAX_UPLOAD_BYTES", 1000)
    big = {"file": ("big.json", b"{" + b" " * 2000 + b"}", "application/json")}
    refused = editor.post("/api/v1/imports", files=big, data=CONTEXT)
    assert refused.status_code == 413
    assert "the limit is 1,000 bytes per file" in refused.json()["detail"]


WRITES = [
    ("post", "/api/v1/imports"),
    ("patch", "/api/v1/imports/nope"),
    ("post", "/api/v1/imports/nope/confirm"),
]


@pytest.mark.parametrize(("method", "path"), WRITES)
def test_the_import_writes_need_an_editor(
    clients: Any, accounts_engine: Engine, method: str, path: str
) -> None:
    anonymous = clients().request(method, path, headers=SAME_ORIGIN)
    assert anonymous.status_code == 401 and anonymous.headers["www-authenticate"] == "Bearer"
    viewer = clients().request(method, path, headers=token_for(accounts_engine, "vera"))
    assert viewer.status_code == 403
    assert clients("vera").request(method, path, headers=SAME_ORIGIN).status_code == 403
    # Past the role check: an answer about the request itself (no file; no such import).
    for who in ("eddie", "ada"):
        answer = clients(who).request(method, path, headers=SAME_ORIGIN, json={})
        assert answer.status_code == (404 if "nope" in path else 422)


def test_only_editors_import_and_only_the_uploader_confirms(
    clients: Any, accounts_engine: Engine, editor: TestClient
) -> None:
    anonymous = upload(clients(), SWEEP, **CONTEXT)
    assert anonymous.status_code == 401 and "Bearer" in anonymous.headers["www-authenticate"]
    viewer = TestClient(editor.app, headers=token_for(accounts_engine, "vera"))
    assert upload(viewer, SWEEP, **CONTEXT).status_code == 403
    key = upload(editor, SWEEP, **CONTEXT).json()["id"]
    assert viewer.post(f"/api/v1/imports/{key}/confirm").status_code == 403
    other = TestClient(editor.app, headers=token_for(accounts_engine, "ada"))
    # An admin may look at and confirm anyone's; an unknown id is a 404.
    assert other.get(f"/api/v1/imports/{key}").status_code == 200
    assert editor.post("/api/v1/imports/nope/confirm").status_code == 404


@pytest.mark.parametrize(
    "path",
    EVERY_FILE + REAL_FILES,
    ids=lambda p: f"{p.parent.parent.name}/{p.parent.name}/{p.name}",
)
def test_every_format_imports_through_the_api(
    editor: TestClient, accounts_engine: Engine, path: Path
) -> None:
    context = {
        "hardware": "unlisted-hardware",
        "gpus": "1",
        "precision": "BF16",
        "model": "unlisted-model",
    }
    if path.parent.name != "llama-bench":  # llama-bench names its server itself
        context["system"] = "sglang"
    preview = upload(editor, path, **context)
    assert preview.status_code == 201, preview.text
    body = preview.json()
    assert body["ready"], body["problems"]
    assert body["format"] == path.parent.name
    before = count(accounts_engine, BenchmarkResult)
    confirmed = editor.post(f"/api/v1/imports/{body['id']}/confirm")
    assert confirmed.status_code == 201, confirmed.text
    assert count(accounts_engine, BenchmarkResult) == before + len(body["results"]) > before


def test_several_files_or_an_archive_are_one_sweep(
    editor: TestClient, accounts_engine: Engine
) -> None:
    import io
    import zipfile

    root = REAL_FILES[0].parents[1] / "vllm-sweep"
    found = sorted(root.rglob("run=*.json"))
    parts = [
        ("file", (p.parent.name[:20] + "/" + p.name, p.read_bytes(), "application/json"))
        for p in found
    ]
    several = editor.post("/api/v1/imports", files=parts, data=CONTEXT | {"gpus": "1"})
    assert several.status_code == 201, several.text
    assert len(several.json()["runs"]) == 4
    zipped = io.BytesIO()
    with zipfile.ZipFile(zipped, "w") as archive:
        for path in root.rglob("*.json"):
            archive.writestr(path.relative_to(root).as_posix(), path.read_bytes())
    files = {"file": ("sweep.zip", zipped.getvalue(), "application/zip")}
    archived = editor.post("/api/v1/imports", files=files, data=CONTEXT | {"gpus": "1"})
    assert archived.status_code == 201, archived.text
    body = archived.json()
    assert len(body["runs"]) == 4 and body["file"] == "sweep.zip"
    assert editor.post(f"/api/v1/imports/{body['id']}/confirm").status_code == 201


def test_a_saved_import_exports_as_llmd_reports_that_import_back_the_same(
    editor: TestClient,
) -> None:
    source = REAL_FILES[0].parents[1] / "vllm-bench" / "er0080-bench-serve-v0.25.1.json"
    preview = upload(editor, source, **CONTEXT, gpus="2").json()
    key = preview["id"]
    assert editor.get(f"/api/v1/imports/{key}/llmd-report").status_code == 404  # not saved
    confirmed = editor.post(f"/api/v1/imports/{key}/confirm")
    assert confirmed.status_code == 201
    anyone = TestClient(editor.app)  # a saved import is team data every reader sees
    listed = anyone.get(f"/api/v1/imports/{key}/llmd-report")
    assert listed.status_code == 200
    [report] = listed.json()
    assert report == anyone.get(f"/api/v1/imports/{key}/llmd-report?run=0").json()
    assert anyone.get(f"/api/v1/imports/{key}/llmd-report?run=7").status_code == 404
    # Any one of the run's team results gives the same report.
    result = confirmed.json()["saved"][0]
    slug = result.get("id") or result.get("slug")
    assert anyone.get(f"/api/v1/benchmarks/{slug}/llmd-report").json() == report
    assert anyone.get("/api/v1/benchmarks/nope/llmd-report").status_code == 404
    files = {"file": ("report.json", json.dumps(report).encode(), "application/json")}
    back = editor.post("/api/v1/imports", files=files, data=CONTEXT | {"gpus": "2"}).json()
    assert back["format"] == "llmd-report"
    (before,), (after,) = preview["runs"], back["runs"]
    assert after["metrics"] == pytest.approx(before["metrics"])
    for key_ in ("concurrency", "gpus", "precision", "model", "hardware", "input_tokens"):
        assert after["setup"].get(key_) == before["setup"].get(key_), key_


def test_confirming_a_large_import_costs_the_same_statements_as_a_small_one(
    accounts_app: Any, accounts_engine: Engine, tmp_path: Path
) -> None:
    """A confirm holds the write lock (sign-ins, notes and other writers wait for it), so
    its statements must not grow with the file: every run, result and revision goes in by
    one bulk statement per table (one ORM object a row held the lock for a minute at
    16,000 results)."""
    admin = TestClient(accounts_app, headers=token_for(accounts_engine, "ada"))
    first_run = json.loads(SWEEP.read_text().splitlines()[0])

    def statements_to_confirm(runs: int) -> tuple[int, int]:
        lines = [json.dumps(first_run | {"max_concurrency": n + 1}) for n in range(runs)]
        path = tmp_path / f"sweep-{runs}.jsonl"
        path.write_text("\n".join(lines))
        preview = upload(admin, path, **CONTEXT, gpus="1").json()
        assert preview["ready"], preview["problems"]
        executed: list[tuple[int, str]] = []

        def count_statement(*args: Any) -> None:
            executed.append((threading.get_ident(), args[2]))

        event.listen(Engine, "before_cursor_execute", count_statement)
        try:
            confirmed = admin.post(f"/api/v1/imports/{preview['id']}/confirm")
        finally:
            event.remove(Engine, "before_cursor_execute", count_statement)
        assert confirmed.status_code == 201, confirmed.text
        # The statements of the confirm's own thread (the server's data-version watcher
        # reads on another now and then).
        [writer] = {thread for thread, sql in executed if sql.startswith("INSERT INTO revision")}
        return sum(thread == writer for thread, _ in executed), len(confirmed.json()["saved"])

    statements_to_confirm(1)  # the first confirm also reads what later ones find cached
    small, small_saved = statements_to_confirm(2)
    large, large_saved = statements_to_confirm(60)
    assert large_saved == 30 * small_saved
    # A read of the data version may or may not fall in the request (caches): one or two
    # statements either way, against the 30 times as many a per-row save would add.
    assert large <= small + 2
