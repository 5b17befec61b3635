"""`inference-atlas export` and `import`, run as the installed command."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.backup.conftest import Instance, files
from tests.conftest import SEED_DIR
from tests.databases import new_database_url

pytestmark = [pytest.mark.slow, pytest.mark.database]

COMMAND = str(Path(sys.executable).parent / "inference-atlas")


def run(url: str, *arguments: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": url, "SEED_DIR": str(SEED_DIR)}
    return subprocess.run([COMMAND, *arguments], env=env, capture_output=True, text=True)


def test_export_then_import_into_a_new_database_then_refuse_then_replace(
    instance: Instance, tmp_path: Path
) -> None:
    exported = run(instance.url, "export", str(tmp_path / "backup"))
    assert exported.returncode == 0, exported.stderr
    counts = (
        "3 users, 4 API tokens, 2 sources, 2 withdrawn or team-added systems, "
        "1 withdrawn capability"
    )
    assert f"seed files and team.json ({counts}, " in exported.stdout
    entries = (
        ", 1 withdrawn metric, 2 withdrawn or team-added hardware entries, "
        "1 withdrawn or team-added model, 3 team aliases, "
    )
    assert entries in exported.stdout
    assert ", 1 team model's config.json, " in exported.stdout
    assert " benchmark results, 7 team notes" in exported.stdout
    assert "keep it as secret as the database" in exported.stdout
    assert files(tmp_path / "backup") == files(instance.backup)

    url = new_database_url(tmp_path, "cli-restore")
    restored = run(url, "import", str(tmp_path / "backup"))
    assert restored.returncode == 0, restored.stderr
    assert f"Loaded the published data from {tmp_path / 'backup'}." in restored.stdout
    assert f"Restored {counts}" in restored.stdout
    assert "everyone signs in again" in restored.stdout

    again = run(url, "import", str(tmp_path / "backup"))
    assert again.returncode == 1
    assert "already holds team data or users (3 users" in again.stderr
    assert "--replace" in again.stderr and "Nothing was imported." in again.stderr
    assert "Traceback" not in again.stderr

    replaced = run(url, "import", "--replace", str(tmp_path / "backup"))
    assert replaced.returncode == 0, replaced.stderr
    assert "Replaced what the database held (3 users" in replaced.stdout
    assert run(url, "export", str(tmp_path / "again")).returncode == 0
    assert files(tmp_path / "again") == files(instance.backup)


def test_a_broken_backup_exits_non_zero_naming_the_file(tmp_path: Path) -> None:
    (tmp_path / "backup").mkdir()
    (tmp_path / "backup" / "team.json").write_text("{")
    result = run(new_database_url(tmp_path, "cli-broken"), "import", str(tmp_path / "backup"))
    assert result.returncode == 1
    assert f"{tmp_path / 'backup' / 'team.json'}:" in result.stderr
    assert "not JSON" in result.stderr and "Nothing was written." in result.stderr
    assert "Traceback" not in result.stderr
