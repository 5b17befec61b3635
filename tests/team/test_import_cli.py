"""`inference-atlas import-results`: result files become team results, all or nothing, each
under a source describing its file and linked to the run (with its raw metrics)."""

import json
import re
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func
from sqlmodel import Session, col, select
from typer.testing import CliRunner

from app.cli import cli
from app.db import make_engine
from app.models import (
    BenchmarkResult,
    Hardware,
    ImportBatch,
    ImportRun,
    LanguageModel,
    Metric,
    Revision,
    Source,
)
from tests.accounts.conftest import USERS, add_users
from tests.conftest import SEED_DIR
from tests.databases import copy_of

FIXTURES = Path(__file__).parents[1] / "imports" / "fixtures"
SWEEP = FIXTURES / "vllm-bench" / "sweep-append-result.json"
LLAMA = FIXTURES / "llama-bench" / "rtx4090-llama3.1-8b-q4km.json"
H100 = ["--system", "vllm", "--hardware", "NVIDIA H100 SXM5 80GB", "--gpus", "1"]
# The files name "meta-llama/Llama-3.1-8B-Instruct", which no entry lists: the user says which.
LLAMA_8B = ["--model", "llama-3.1-8b"]


@pytest.fixture
def url(tmp_path: Path, database_url: str, monkeypatch: pytest.MonkeyPatch) -> str:
    url = copy_of(database_url, tmp_path, SEED_DIR)
    add_users(url, USERS)
    monkeypatch.setenv("DATABASE_URL", url)
    return url


def counts(url: str) -> tuple[int, int, int, int]:
    engine = make_engine(url)
    with Session(engine) as session:
        found = tuple(
            session.exec(select(func.count()).select_from(model)).one()
            for model in (BenchmarkResult, ImportBatch, ImportRun, Revision)
        )
    engine.dispose()
    return found  # type: ignore[return-value]


def run(*args: str | Path) -> object:
    return CliRunner().invoke(cli, ["import-results", *map(str, args)])


def test_a_vllm_sweep_is_saved_with_its_runs_and_source(url: str) -> None:
    before = counts(url)
    result = run(SWEEP, *H100, *LLAMA_8B, "--precision", "FP8", "--user", "eddie")
    assert result.exit_code == 0, result.output
    assert "vLLM bench serve (--save-result JSON), 4 runs" in result.output
    engine = make_engine(url)
    with Session(engine) as session:
        [batch] = session.exec(select(ImportBatch)).all()
        source = session.get(Source, batch.source_id)
        assert source is not None and source.kind == "team-measurement"
        assert not source.published and SWEEP.name in source.title and "eddie" in source.title
        runs = session.exec(select(ImportRun).order_by(col(ImportRun.position))).all()
        assert [r.setup["concurrency"] for r in runs] == [1, 4, 16, 64]
        rows = session.exec(
            select(BenchmarkResult, Metric)
            .join(Metric, col(Metric.id) == BenchmarkResult.metric_id)
            .where(BenchmarkResult.source_id == source.id)
        ).all()
        by_run: dict[int, dict[str, float]] = {}
        for row, metric in rows:
            assert row.run_by == "eddie" and row.precision == "FP8" and row.system_version is None
            assert entry(session, Hardware, row.hardware_id) == "nvidia-h100-sxm5-80gb"
            assert entry(session, LanguageModel, row.model_id) == "llama-3.1-8b"
            assert row.gpus == 1 and row.workload_id is None
            assert row.setup and row.setup.startswith("vLLM bench serve: ")
            by_run.setdefault(row.import_run_id, {})[metric.slug] = row.value  # type: ignore[arg-type]
        for imported in runs:
            saved = by_run[imported.id]  # type: ignore[index]
            # Each saved figure is the run's normalised metric; the raw numbers stay with the run.
            assert saved["throughput"] == pytest.approx(imported.metrics["output_throughput"])
            assert saved["ttft-p99"] == pytest.approx(imported.raw["p99_ttft_ms"])
            assert saved["throughput-per-user"] == pytest.approx(
                1000 / imported.metrics["tpot_mean"]
            )
    engine.dispose()
    after = counts(url)
    assert after[0] - before[0] == len(rows) and after[2] == 4
    assert after[3] - before[3] == len(rows), "one revision per saved result"
    assert f"Saved {len(rows)} results from 1 files as eddie." in result.output


def entry(session: Session, table: Any, row_id: int | None) -> str | None:
    found = session.get(table, row_id) if row_id else None
    return found.slug if found else None


def test_llama_bench_needs_only_the_model_its_file_name_does_not_settle(url: str) -> None:
    """The system, GPU and precision come from the file; its GPU name is an alias of an entry."""
    before = counts(url)
    asked = run(LLAMA, "--user", "ada")
    assert asked.exit_code == 1 and counts(url) == before
    assert (
        "model: the file names the model '/models/Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf', "
        "which is not an entry of the Atlas's vocabulary: say which entry it is (did you mean "
    ) in asked.output
    assert "llama-3.1-8b" in asked.output and "(give --model)" in asked.output

    result = run(LLAMA, "--user", "ada", "--model", "Llama 3.1 8B")
    assert result.exit_code == 0, result.output
    engine = make_engine(url)
    with Session(engine) as session:
        rows = session.exec(
            select(BenchmarkResult).where(col(BenchmarkResult.import_run_id).is_not(None))
        ).all()
        assert rows and {r.precision for r in rows} == {"Q4_K_M"}
        assert {entry(session, Hardware, r.hardware_id) for r in rows} == {"nvidia-rtx-4090"}
        assert {entry(session, LanguageModel, r.model_id) for r in rows} == {"llama-3.1-8b"}
    engine.dispose()


def test_a_name_the_vocabulary_lacks_is_refused_with_a_suggestion(url: str) -> None:
    before = counts(url)
    result = run(SWEEP, *H100, "--model", "Llama 3.1 8 B", "--precision", "FP8", "--user", "eddie")
    assert result.exit_code == 1
    assert "model: unknown model 'Llama 3.1 8 B'; did you mean llama-3.1-8b" in result.output
    assert counts(url) == before


def test_a_dry_run_shows_the_runs_and_saves_nothing(url: str) -> None:
    before = counts(url)
    result = run(SWEEP, *H100, *LLAMA_8B, "--precision", "FP8", "--user", "eddie", "--dry-run")
    assert result.exit_code == 0, result.output
    assert "Dry run: nothing was saved." in result.output
    assert "64 concurrent" in result.output
    assert counts(url) == before


def test_missing_context_is_named_with_its_flag_and_nothing_is_saved(url: str) -> None:
    before = counts(url)
    result = run(SWEEP, "--system", "vllm", "--user", "eddie")
    assert result.exit_code == 1
    assert "hardware: which hardware ran it? the file does not name the GPU (give --hardware)" in (
        result.output
    )
    assert "precision:" in result.output and "Nothing was saved." in result.output
    assert counts(url) == before


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((), "--user: name the editor or admin the results are attributed to"),
        (("--user", "vera"), "--user: vera is a viewer; results need an editor or admin"),
        (("--user", "nobody"), "--user: there is no active user called 'nobody'"),
    ],
)
def test_results_are_attributed_to_an_editor(url: str, args: tuple[str, ...], message: str) -> None:
    before = counts(url)
    result = run(LLAMA, *args)
    assert result.exit_code == 1 and message in result.output
    assert counts(url) == before


def test_one_bad_file_among_several_saves_none(url: str) -> None:
    before = counts(url)
    bad = FIXTURES / "bad" / "truncated-append.json"
    result = run(SWEEP, bad, *H100, *LLAMA_8B, "--precision", "FP8", "--user", "eddie")
    assert result.exit_code == 1
    assert "truncated-append.json" in result.output and "Nothing was saved." in result.output
    assert counts(url) == before


def test_an_unknown_system_is_refused_by_the_write_rules(url: str) -> None:
    result = run(
        SWEEP,
        "--system",
        "vllm-turbo",
        "--hardware",
        "H100",
        "--precision",
        "FP8",
        *LLAMA_8B,
        "--user",
        "eddie",
    )
    assert result.exit_code == 1
    assert "system: line 1: no system has the slug 'vllm-turbo'" in result.output


def test_every_import_source_slug_is_a_valid_slug(url: str) -> None:
    from app.seeding.schema import SLUG_PATTERN

    for _ in range(3):
        result = run(LLAMA, "--user", "ada", *LLAMA_8B)
        assert result.exit_code == 0, result.output
    engine = make_engine(url)
    with Session(engine) as session:
        slugs = session.exec(select(Source.slug).where(col(Source.slug).startswith("import-")))
        found = list(slugs)
    engine.dispose()
    assert len(found) == 3 and all(re.fullmatch(SLUG_PATTERN, slug) for slug in found)


EVERY_FILE = sorted(
    path
    for path in FIXTURES.glob("*/*")
    if path.parent.name != "bad" and not path.name.endswith(".pytorch.json")  # a side file
)


@pytest.mark.parametrize("path", EVERY_FILE, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_format_imports_from_the_command_line(url: str, path: Path) -> None:
    """Each tool's files save with the context the uploader gives; llama-bench names its
    server itself. What the file says about the hardware and model is overridden here."""
    before = counts(url)
    system = [] if path.parent.name == "llama-bench" else ["--system", "vllm"]
    result = run(
        path,
        *system,
        "--hardware",
        "unlisted-hardware",
        "--gpus",
        "1",
        "--precision",
        "BF16",
        "--model",
        "unlisted-model",
        "--user",
        "eddie",
    )
    assert result.exit_code == 0, result.output
    after = counts(url)
    assert after[1] == before[1] + 1 and after[2] > before[2], "one import, its runs"
    assert after[0] > before[0] and "from 1 files as eddie" in result.output


REAL = Path(__file__).parents[1] / "imports" / "real"
# Every file of the real corpus but the one refused for its true reason (no request
# succeeded; pinned in tests/imports/test_real_corpus.py) and the sweep directory (below).
REAL_FILES = sorted(
    path
    for path in REAL.rglob("*")
    if path.suffix in (".json", ".jsonl", ".yaml")
    and path.name != "er0080-all-failed-v0.25.1.json"
    and "vllm-sweep" not in path.parts
)


@pytest.mark.parametrize("path", REAL_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_real_file_imports_from_the_command_line(url: str, path: Path) -> None:
    before = counts(url)
    system = [] if path.parent.name == "llama-bench" else ["--system", "vllm"]
    result = run(
        path,
        *system,
        "--hardware",
        "unlisted-hardware",
        "--gpus",
        "1",
        "--precision",
        "BF16",
        "--model",
        "unlisted-model",
        "--user",
        "eddie",
    )
    assert result.exit_code == 0, result.output
    assert counts(url)[0] > before[0]


def test_a_one_run_file_names_its_problem_without_an_empty_place(url: str) -> None:
    one = REAL / "vllm-bench" / "llmd-h100-1p1d-rate3.6.json"
    result = run(
        one,
        "--system",
        "vllm-turbo",
        "--hardware",
        "H100",
        "--precision",
        "FP8",
        *LLAMA_8B,
        "--user",
        "eddie",
    )
    assert result.exit_code == 1
    assert "system: no system has the slug 'vllm-turbo'" in result.output
    assert ": :" not in result.output


@pytest.mark.parametrize("command", ["import-results", "user-add"])
def test_a_fresh_database_is_migrated_and_seeded_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    """A team's first command on a new database file: no 'no system has the slug vllm'."""
    url = f"sqlite:///{tmp_path / 'new.db'}"
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setenv("SEED_DIR", str(SEED_DIR))
    runner = CliRunner()
    if command == "user-add":
        args = ["user", "add", "eddie", "--role", "editor", "--password-stdin"]
        added = runner.invoke(cli, args, input="a long enough passphrase 9\n")
        assert added.exit_code == 0, added.output
        assert "Seeded the empty database" in added.output
        imported = run(SWEEP, *H100, "--precision", "FP8", *LLAMA_8B, "--user", "eddie")
        assert imported.exit_code == 0, imported.output
        assert "from 1 files as eddie" in imported.output
    else:
        imported = run(SWEEP, *H100, "--precision", "FP8", *LLAMA_8B, "--user", "eddie")
        # Migrated and seeded, so the one thing missing is a user to attribute results to.
        assert imported.exit_code == 1
        assert "Seeded the empty database" in imported.output
        assert "no system has the slug" not in imported.output
        assert "there is no active user called 'eddie'" in imported.output
    engine = make_engine(url)
    with Session(engine) as session:
        assert session.exec(select(func.count()).select_from(Hardware)).one() > 0
    engine.dispose()


def test_a_sweep_directory_is_imported_as_one_sweep_of_all_its_runs(url: str) -> None:
    before = counts(url)
    result = run(
        REAL / "vllm-sweep",
        *H100,
        "--precision",
        "FP8",
        "--model",
        "unlisted-model",
        "--user",
        "eddie",
    )
    assert result.exit_code == 0, result.output
    after = counts(url)
    assert (after[1] - before[1], after[2] - before[2]) == (1, 4), "one import of four runs"
    assert "vllm-sweep: vLLM bench serve (--save-result JSON), 4 runs" in result.output


def test_a_saved_import_is_written_as_llmd_reports(url: str, tmp_path: Path) -> None:
    result = run(
        REAL / "vllm-sweep",
        *H100,
        "--precision",
        "FP8",
        "--model",
        "unlisted-model",
        "--user",
        "eddie",
    )
    assert result.exit_code == 0, result.output
    engine = make_engine(url)
    with Session(engine) as session:
        key = session.exec(
            select(ImportBatch.key).where(ImportBatch.file_name == "vllm-sweep")
        ).one()
    engine.dispose()
    out = tmp_path / "reports.json"
    written = CliRunner().invoke(cli, ["export-llmd-report", key, "--out", str(out)])
    assert written.exit_code == 0, written.output
    reports = json.loads(out.read_text())
    assert [r["version"] for r in reports] == ["0.2"] * 4
    assert reports[1]["results"]["request_performance"]["aggregate"]["throughput"]["request_rate"][
        "mean"
    ] == pytest.approx(12.460566958863927)
    one = CliRunner().invoke(cli, ["export-llmd-report", key, "--run", "9"])
    assert one.exit_code == 1 and "has no run 9" in one.output
