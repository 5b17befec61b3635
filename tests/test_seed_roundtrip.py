"""seed -> database -> export reproduces the seed files byte for byte."""

from pathlib import Path

import pytest
from sqlalchemy import Engine

from app.seeding.export import export_seed
from app.seeding.prepare import seed
from tests.conftest import REAL_SEED_DIR, SEED_DIR

# Whole databases built, migrated and reseeded per test: the slow tier (and PostgreSQL too).
pytestmark = [pytest.mark.database, pytest.mark.slow]


def data_files(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): p.read_text()
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.suffix in {".yaml", ".csv"}
    }


def test_export_reproduces_the_seed_files(engine: Engine, tmp_path: Path) -> None:
    export_seed(engine, tmp_path)
    exported, original = data_files(tmp_path), data_files(SEED_DIR)
    assert sorted(exported) == sorted(original)
    for name, text in original.items():
        assert exported[name] == text, f"{name} changed in the round trip"


@pytest.mark.data
def test_export_reproduces_the_real_seed_files(real_engine: Engine, tmp_path: Path) -> None:
    export_seed(real_engine, tmp_path)
    exported, original = data_files(tmp_path), data_files(REAL_SEED_DIR)
    assert sorted(exported) == sorted(original)
    for name, text in original.items():
        assert exported[name] == text, f"{name} changed in the round trip"


def test_reseeding_is_idempotent(empty_engine: Engine, seed_copy: Path, tmp_path: Path) -> None:
    seed(empty_engine, seed_copy)
    seed(empty_engine, seed_copy)
    export_seed(empty_engine, tmp_path / "out")
    assert data_files(tmp_path / "out") == data_files(seed_copy)


def test_an_edit_survives_the_round_trip(
    empty_engine: Engine, seed_copy: Path, tmp_path: Path
) -> None:
    path = seed_copy / "claims" / "olla-servers-compared.yaml"
    path.write_text(
        path.read_text() + "powerinfer:\n  cpu-arm:\n    level: partial\n    note: test edit\n"
    )
    seed(empty_engine, seed_copy)
    export_seed(empty_engine, tmp_path / "out")
    exported = (tmp_path / "out" / "claims" / "olla-servers-compared.yaml").read_text()
    assert exported.endswith("powerinfer:\n  cpu-arm:\n    level: partial\n    note: test edit\n")
