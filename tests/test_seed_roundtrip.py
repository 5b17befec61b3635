"""seed -> database -> export reproduces the seed files byte for byte."""

from pathlib import Path

from sqlalchemy import Engine

from app.seeding.export import export_seed
from app.seeding.service import seed
from tests.conftest import SEED_DIR


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
        path.read_text() + "candle:\n  cpu-arm:\n    level: partial\n    note: test edit\n"
    )
    seed(empty_engine, seed_copy)
    export_seed(empty_engine, tmp_path / "out")
    exported = (tmp_path / "out" / "claims" / "olla-servers-compared.yaml").read_text()
    assert exported.endswith("candle:\n  cpu-arm:\n    level: partial\n    note: test edit\n")


def test_a_database_of_older_tables_is_rebuilt_from_the_seed(tmp_path: Path) -> None:
    import sqlite3

    from app.db import make_engine
    from app.seeding.service import prepare_database, stale_tables

    engine = make_engine(f"sqlite:///{tmp_path / 'old.db'}")
    prepare_database(engine, SEED_DIR)
    engine.dispose()
    with sqlite3.connect(tmp_path / "old.db") as db:
        db.execute("ALTER TABLE rule DROP COLUMN advice")  # as an older version made it
    engine = make_engine(f"sqlite:///{tmp_path / 'old.db'}")
    assert stale_tables(engine) == ["rule"]
    assert prepare_database(engine, SEED_DIR), "reseeded"
    assert stale_tables(engine) == []
    engine.dispose()


def test_a_rebuild_of_published_tables_keeps_the_accounts(tmp_path: Path) -> None:
    import sqlite3

    import pytest
    from sqlmodel import Session

    from app.accounts.service import add_user, get_user
    from app.db import make_engine
    from app.seeding.service import SchemaError, prepare_database

    engine = make_engine(f"sqlite:///{tmp_path / 'old.db'}")
    prepare_database(engine, SEED_DIR)
    with Session(engine) as session:
        add_user(session, "ada", "editor", "correct horse battery")
        session.commit()
    engine.dispose()
    with sqlite3.connect(tmp_path / "old.db") as db:
        db.execute("ALTER TABLE rule DROP COLUMN advice")
    engine = make_engine(f"sqlite:///{tmp_path / 'old.db'}")
    assert prepare_database(engine, SEED_DIR), "the published tables were rebuilt and reseeded"
    with Session(engine) as session:
        assert get_user(session, "ada") is not None, "the account survived the rebuild"
    engine.dispose()
    with sqlite3.connect(tmp_path / "old.db") as db:
        db.execute("ALTER TABLE user_account ADD COLUMN nickname TEXT")
    engine = make_engine(f"sqlite:///{tmp_path / 'old.db'}")
    with pytest.raises(SchemaError, match="user_account"):
        prepare_database(engine, SEED_DIR)
    with Session(engine) as session:
        assert get_user(session, "ada") is not None, "nothing was dropped"
    engine.dispose()
