"""The team-catalogue issue's "Done when", walked through as a new user would, on SQLite and
(database tier) on PostgreSQL: add a GPU and a model by form and by API and post results on
them; import a vLLM file whose model the vocabulary knows by its Hugging Face id (no question
asked) and a llama-bench file of a GGUF it lacks (added from the preview in one step); both
on /benchmarks in contexts of their own; a team engine in the matrix and compare; a backup of
all of it restored into an empty database.

The fixture seed's vocabulary has Llama 3.1 8B but not its instruct model, so the team adds
that first, with its Hugging Face id, as it would any model the published data lacks."""

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup
from fastapi.testclient import TestClient
from sqlalchemy import Engine
from sqlmodel import Session, col, select

from app.backup.dump import export_backup
from app.backup.restore import restore_backup
from app.db import make_engine
from app.models import BenchmarkResult, Hardware, LanguageModel, LanguageModelAlias, System
from tests.accounts.conftest import SAME_ORIGIN, build_app
from tests.conftest import SEED_DIR
from tests.databases import new_database_url
from tests.team.html import RESULT_FORM, flash_of, page, post
from tests.team.test_write_api import token_for

pytestmark = pytest.mark.database
Clients = Callable[..., TestClient]
REAL = Path(__file__).parents[1] / "imports" / "real"
VLLM_FILE = (
    REAL / "vllm-bench" / "nerdalert-results-append.json"
)  # meta-llama/Llama-3.1-8B-Instruct
GGUF_FILE = REAL / "llama-bench" / "llama-cpp-readme-b5163.json"  # Qwen2.5 7B Q4_K_M, RTX 4080
GGUF_IN_FILE = "models/Qwen2.5-7B-Instruct-Q4_K_M.gguf"


def _upload(client: TestClient, path: Path, **fields: str) -> str:
    files = {"file": (path.name, path.read_bytes(), "application/json")}
    sent = client.post(
        "/imports", files=files, data=fields, headers=SAME_ORIGIN, follow_redirects=False
    )
    assert sent.status_code == 303, sent.text
    return str(sent.headers["location"])


def _confirm(client: TestClient, where: str) -> str:
    """Save a ready preview; the source its results were saved under."""
    saved = client.post(f"{where}/confirm", headers=SAME_ORIGIN, follow_redirects=False)
    assert saved.status_code == 303, saved.text
    return "import-" + where.rsplit("/", 1)[1]


def _problems(preview: BeautifulSoup) -> str:
    banner = preview.select_one(".problem-banner")
    return banner.get_text(" ", strip=True) if banner else ""


def test_the_team_catalogue_walkthrough(
    clients: Clients, accounts_app: Any, accounts_engine: Engine, tmp_path: Path
) -> None:
    eddie = clients("eddie")
    api = TestClient(accounts_app, headers=token_for(accounts_engine, "eddie"))

    # 1. "NVIDIA H200 NVL" by form; the API then refuses it again, naming the holder.
    gpu_form = {
        "name": "NVIDIA H200 NVL",
        "vendor": "NVIDIA",
        "memory_gb": "141",
        "form_factor": "pcie",
        "aliases": "H200 NVL",
    }
    added = post(eddie, "/catalogue/hardware", gpu_form)
    assert added.status_code == 303 and added.headers["location"] == "/hardware/nvidia-h200-nvl"
    again = api.post("/api/v1/hardware", json={"name": "NVIDIA H200 NVL"})
    assert again.status_code == 409 and "nvidia-h200-nvl" in again.text

    # 2. Qwen/Qwen3-32B by API; the form then refuses it again, naming the holder.
    model = {
        "name": "Qwen3 32B",
        "hf_id": "Qwen/Qwen3-32B",
        "family": "Qwen3",
        "parameters_b": 32,
        "architecture": "dense",
    }
    made = api.post("/api/v1/models", json=model)
    assert made.status_code == 201, made.text
    qwen = made.json()["slug"]
    refused = post(eddie, "/catalogue/model", {"name": "Qwen/Qwen3-32B"})
    assert refused.status_code == 409 and qwen in refused.text

    # 3. Results on them, typed as people type: aliases, any case, "2,550".
    by_form = post(
        eddie,
        "/systems/vllm/team-results",
        RESULT_FORM | {"hardware": "h200 nvl", "model": "qwen/qwen3-32b", "value": "2,550"},
    )
    assert by_form.status_code == 303, by_form.text
    body = {
        "system": "vllm",
        "metric": "throughput",
        "value": 2600,
        "unit": "tok/s",
        "hardware": "NVIDIA H200 NVL",
        "gpus": 1,
        "model": "Qwen/Qwen3-32B",
        "precision": "BF16",
        "concurrency": 64,
        "date": "2026-11-25",
    }
    by_api = api.post("/api/v1/benchmarks", json=body)
    assert by_api.status_code == 201, by_api.text
    on_them = api.get(f"/api/v1/benchmarks?hardware=nvidia-h200-nvl&model={qwen}").json()
    assert sorted(r["value"] for r in on_them["results"]) == [2550, 2600]

    # 4. A vLLM file naming meta-llama/Llama-3.1-8B-Instruct: the vocabulary knows the id.
    instruct = {
        "name": "Llama 3.1 8B Instruct",
        "hf_id": "meta-llama/Llama-3.1-8B-Instruct",
        "family": "Llama 3.1",
        "parameters_b": "8",
        "model_kind": "dense",
    }
    assert post(eddie, "/catalogue/model", instruct).status_code == 303
    vllm_where = _upload(
        eddie, VLLM_FILE, system="vllm", hardware="H200 NVL", gpus="1", precision="BF16"
    )
    preview = page(eddie.get(vllm_where))
    assert "model" not in _problems(preview)
    assert preview.select("form.import-offer") == []
    first = preview.select("table.import-runs tbody tr")[0].select("td")
    assert first[2].select_one("a")["href"] == "/models/llama-3.1-8b-instruct"
    vllm_source = _confirm(eddie, vllm_where)

    # 5. A llama-bench file of a GGUF (and a GPU) no entry knows: each added from the preview.
    gguf_where = _upload(eddie, GGUF_FILE, system="llama-cpp", gpus="1")
    preview = page(eddie.get(gguf_where))
    offers = {o.select_one("[name=kind]")["value"]: o for o in preview.select("form.import-offer")}
    assert set(offers) == {"hardware", "model"}
    assert offers["model"].select_one("[name=file]")["value"] == GGUF_IN_FILE
    for kind, name in (
        ("model", "Qwen2.5 7B Instruct Q4_K_M"),
        ("hardware", "NVIDIA GeForce RTX 4080"),
    ):
        file_name = offers[kind].select_one("[name=file]")["value"]
        step = eddie.post(
            f"{gguf_where}/entries",
            headers=SAME_ORIGIN,
            follow_redirects=False,
            data={"kind": kind, "file": file_name, "name": name},
        )
        assert step.status_code == 303 and step.headers["location"] == gguf_where
        assert f"Added the {'model' if kind == 'model' else 'hardware'}" in flash_of(
            eddie, gguf_where
        )
    preview = page(eddie.get(gguf_where))
    assert preview.select("form.import-offer") == []
    assert preview.select_one(".confirm-import button:not([disabled])") is not None, _problems(
        preview
    )
    gguf_source = _confirm(eddie, gguf_where)

    # 6. Both on /benchmarks, each in contexts of its own (its model and hardware).
    contexts = {}
    for source in (vllm_source, gguf_source):
        listed = api.get(f"/api/v1/benchmarks?source={source}").json()
        assert listed["matched"] > 0
        contexts[source] = {(r["hardware"], r["model"]) for r in listed["results"]}
    assert contexts[vllm_source] == {("nvidia-h200-nvl", "llama-3.1-8b-instruct")}
    [(gguf_gpu, gguf_model)] = contexts[gguf_source]
    assert gguf_model == "qwen2.5-7b-instruct-q4-k-m" and gguf_gpu == "nvidia-geforce-rtx-4080"
    reader = clients("vera")
    shown = page(reader.get("/benchmarks?origin=team"))
    groups = {g["id"]: g.get_text(" ", strip=True) for g in shown.select(".import-group")}
    assert "Llama 3.1 8B Instruct" in groups["import-" + vllm_source.removeprefix("import-")]
    assert "Qwen2.5 7B Instruct Q4_K_M" in groups["import-" + gguf_source.removeprefix("import-")]

    # 7. A team engine: in the matrix and, by its name, in compare.
    engine_made = api.post("/api/v1/systems", json={"name": "Our vLLM Fork", "kind": "engine"})
    assert engine_made.status_code == 201, engine_made.text
    fork = engine_made.json()["slug"]
    claim = api.put(f"/api/v1/systems/{fork}/claims/prefix-caching", json={"level": "yes"})
    assert claim.status_code in (200, 201), claim.text
    matrix = page(reader.get("/matrix"))
    row = matrix.select_one(f"tr#row-{fork}") or next(
        r for r in matrix.select("tr") if r.select_one(f"a[href='/systems/{fork}']")
    )
    assert "team-added" in row.get_text(" ", strip=True)
    compared = reader.get("/compare?s=Our vLLM Fork&s=vllm")
    assert compared.status_code == 200
    heads = page(compared).select(f"a[href='/systems/{fork}']")
    assert heads and "Our vLLM Fork" in heads[0].get_text()

    # 8. A backup of all of it, restored into an empty database, serves the same.
    with Session(accounts_engine) as session:
        team_results = session.exec(
            select(BenchmarkResult.slug).where(col(BenchmarkResult.user_id).is_not(None))
        ).all()
    export_backup(accounts_engine, tmp_path / "backup")
    url = new_database_url(tmp_path, "walkthrough-restored")
    restored_engine = make_engine(url)
    try:
        restore_backup(restored_engine, tmp_path / "backup", SEED_DIR)
        with Session(restored_engine) as session:
            gpu = session.exec(select(Hardware).where(Hardware.slug == "nvidia-h200-nvl")).one()
            assert gpu.team and gpu.memory_gb == 141
            names = session.exec(
                select(LanguageModelAlias.alias)
                .join(LanguageModel, LanguageModelAlias.languagemodel_id == LanguageModel.id)
                .where(LanguageModel.slug == qwen)
            ).all()
            assert "Qwen/Qwen3-32B" in names
            assert session.exec(select(System).where(System.slug == fork)).one().team
            again_results = session.exec(
                select(BenchmarkResult.slug).where(col(BenchmarkResult.user_id).is_not(None))
            ).all()
            assert sorted(again_results) == sorted(team_results)
        restored = TestClient(build_app(url))
        with restored:
            for source in (vllm_source, gguf_source):
                there = restored.get(f"/api/v1/benchmarks?source={source}").json()
                assert {(r["hardware"], r["model"]) for r in there["results"]} == contexts[source]
            assert (
                restored.get(f"/imports/{vllm_source.removeprefix('import-')}").status_code == 200
            )
            assert restored.get("/compare?s=Our vLLM Fork&s=vllm").status_code == 200
    finally:
        restored_engine.dispose()
