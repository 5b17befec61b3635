"""The inference-atlas command line."""

from pathlib import Path

import pytest
from typer.testing import CliRunner

from app.cli import cli
from tests.conftest import REAL_SEED_DIR, SEED_DIR
from tests.databases import new_database_url

pytestmark = pytest.mark.slow


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """DATABASE_URL names a new database; returns where a SQLite file for it would be."""
    monkeypatch.setenv("DATABASE_URL", new_database_url(tmp_path, "cli"))
    return tmp_path / "cli.db"


@pytest.mark.data
def test_seed_then_export(env: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(cli, ["seed", "--seed-dir", str(REAL_SEED_DIR)])
    assert result.exit_code == 0, result.output
    systems = len(list((REAL_SEED_DIR / "systems").glob("*.yaml")))
    assert f"Loaded {systems} systems" in result.output
    result = runner.invoke(cli, ["export", str(tmp_path / "out")])
    assert result.exit_code == 0
    assert (tmp_path / "out" / "systems" / "vllm.yaml").read_text() == (
        REAL_SEED_DIR / "systems" / "vllm.yaml"
    ).read_text()


def test_seeding_from_a_backup_folder_says_team_json_is_left_for_import(
    env: Path, seed_copy: Path, tmp_path: Path
) -> None:
    runner = CliRunner()
    assert runner.invoke(cli, ["seed", "--seed-dir", str(seed_copy)]).exit_code == 0
    backup = tmp_path / "backup"
    assert runner.invoke(cli, ["export", str(backup)]).exit_code == 0
    result = runner.invoke(cli, ["seed", "--seed-dir", str(backup)])
    assert result.exit_code == 0, result.output
    assert f"{backup / 'team.json'} was not read" in result.output
    assert f"run: inference-atlas import {backup}" in result.output


def test_migrate_upgrades_and_seeds_once(
    env: Path, seed_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.migrations.migrate import head_revision

    monkeypatch.setenv("SEED_DIR", str(seed_copy))
    first = CliRunner().invoke(cli, ["migrate"])
    assert first.exit_code == 0, first.output
    assert f"Migrated the database from empty to {head_revision()}." in first.output
    assert "Seeded the empty database" in first.output
    again = CliRunner().invoke(cli, ["migrate"])
    assert again.exit_code == 0, again.output
    assert again.output == f"The database is at the newest schema ({head_revision()}).\n"
    reseed = CliRunner().invoke(cli, ["seed", "--seed-dir", str(seed_copy)])
    assert reseed.exit_code == 0 and "Nothing changed." in reseed.output


def test_seed_with_errors_exits_non_zero_and_writes_nothing(env: Path, seed_copy: Path) -> None:
    (seed_copy / "systems" / "tgi.yaml").write_text("name: [\n")
    result = CliRunner().invoke(cli, ["seed", "--seed-dir", str(seed_copy)])
    assert result.exit_code == 1
    assert "systems/tgi.yaml" in result.output
    assert "Nothing was written." in result.output


def test_check_validates_without_a_database(env: Path, seed_copy: Path) -> None:
    result = CliRunner().invoke(cli, ["check", "--seed-dir", str(seed_copy)])
    assert result.exit_code == 0
    assert "valid" in result.output
    assert not env.exists()


@pytest.mark.sqlite
def test_seed_waits_for_a_locked_database_then_says_so(tmp_path: Path) -> None:
    import os
    import sqlite3
    import subprocess
    import sys

    url = f"sqlite:///{tmp_path / 'locked.db'}"
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "SEED_DIR": str(SEED_DIR),
        "SQLITE_BUSY_TIMEOUT_MS": "300",
    }
    cli = str(Path(sys.executable).parent / "inference-atlas")
    assert subprocess.run([cli, "seed"], env=env, capture_output=True).returncode == 0
    holder = sqlite3.connect(tmp_path / "locked.db", isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another writer in the middle of its work
    try:
        run = subprocess.run([cli, "seed"], env=env, capture_output=True, text=True)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert run.returncode == 1
    assert "locked by another writer for 0.3 s" in run.stderr
    assert "Nothing was written" in run.stderr and "Traceback" not in run.stderr
