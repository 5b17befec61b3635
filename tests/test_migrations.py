"""Alembic owns the schema: the migrations build what the models describe, upgrades keep
every row, and a database made before migrations existed is rebuilt once from seed/."""

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Engine, MetaData, inspect, select, text
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, SQLModel

from app.db import make_engine
from app.migrations import migrate
from app.models import Claim, Revision
from app.seeding.prepare import prepare_database, seed_with_report
from app.writes.references import referenced_ids
from tests.conftest import REAL_SEED_DIR, SEED_DIR
from tests.databases import new_engine

# Whole databases built, migrated and reseeded per test: the slow tier (and PostgreSQL too).
pytestmark = [pytest.mark.database, pytest.mark.slow]


@pytest.fixture
def fresh(tmp_path: Path) -> Iterator[Engine]:
    engine = new_engine(tmp_path, "migrations")
    yield engine
    engine.dispose()


def schema_differences(engine: Engine) -> list[Any]:
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        return compare_metadata(context, SQLModel.metadata)


def test_the_migrations_build_exactly_the_models_tables(fresh: Engine, tmp_path: Path) -> None:
    migration = migrate.upgrade(fresh)
    assert (migration.before, migration.after) == (None, migrate.head_revision())
    assert schema_differences(fresh) == []
    # create_all (what a quick test database could use) makes the same tables too.
    other = new_engine(tmp_path, "create-all")
    SQLModel.metadata.create_all(other)
    assert schema_differences(other) == []
    assert sorted(inspect(other).get_table_names()) == sorted(
        t for t in inspect(fresh).get_table_names() if t != "alembic_version"
    )
    other.dispose()


def test_every_migration_goes_down_and_up_again(fresh: Engine) -> None:
    migrate.upgrade(fresh)
    migrate.downgrade(fresh, "base")
    assert "system" not in inspect(fresh).get_table_names()
    migrate.upgrade(fresh)
    assert schema_differences(fresh) == []


# What migration 0007 froze: each published figure's free text from before the vocabulary.
SNAPSHOT = json.loads((migrate.MIGRATIONS / "versions/0007_vocabulary.json").read_text())


def text_before_0007(table: str, row: dict[str, Any]) -> dict[str, Any]:
    """The columns an older schema has that the newest dropped, for one copied row."""
    if table != "benchmarkresult":
        return {}
    return dict(SNAPSHOT["published"][row["slug"]]["was"])


def copy_rows(source: Engine, target: Engine) -> dict[str, int]:
    """Copy every row the target's tables can hold (their columns only); return the counts.

    Columns the target has but the source no longer has (an older schema's) are filled the
    way that schema held them."""
    wanted, present = MetaData(), MetaData()
    wanted.reflect(target)
    present.reflect(source)
    counts = {}
    with source.connect() as reading, target.begin() as writing:
        for table in wanted.sorted_tables:
            if table.name == "alembic_version":
                continue
            origin = present.tables[table.name]
            columns = [origin.c[c.name] for c in table.columns if c.name in origin.c]
            rows = [dict(row) for row in reading.execute(select(*columns)).mappings()]
            if len(columns) < len(table.columns):
                if table.name == "benchmarkresult":
                    # Figures published after 0007 could not be in a database that old.
                    rows = [row for row in rows if row["slug"] in SNAPSHOT["published"]]
                rows = [row | text_before_0007(table.name, row) for row in rows]
            if rows:
                writing.execute(table.insert(), rows)
            counts[table.name] = len(rows)
    return counts


def count_ids(engine: Engine) -> None:
    """On PostgreSQL, move each id sequence past the ids rows were copied or inserted with:
    a later insert (a reseed adding figures) would otherwise start again at 1."""
    if engine.dialect.name != "postgresql":
        return
    tables = MetaData()
    tables.reflect(engine)
    with engine.begin() as connection:
        for table in tables.sorted_tables:
            if (
                "id" in table.c
                and connection.execute(
                    text(f"SELECT pg_get_serial_sequence('{table.name}', 'id')")
                ).scalar()
            ):
                connection.execute(
                    text(
                        f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), "
                        f"coalesce((SELECT max(id) FROM {table.name}), 0) + 1, false)"
                    )
                )


def count_rows(engine: Engine, names: list[str]) -> dict[str, int]:
    with engine.connect() as connection:
        return {
            n: connection.execute(text(f'SELECT count(*) FROM "{n}"')).scalar_one() for n in names
        }


@pytest.mark.data
def test_upgrading_from_the_baseline_keeps_every_row(tmp_path: Path) -> None:
    full = new_engine(tmp_path, "full")
    prepare_database(full, REAL_SEED_DIR)
    old = new_engine(tmp_path, "old")
    migrate.upgrade(old, migrate.BASELINE)
    before = copy_rows(full, old)
    # Every claim and figure of the real data is in the old database before the upgrade.
    assert before["claim"] == count_rows(full, ["claim"])["claim"] > 0
    with full.connect() as connection:
        figures = set(connection.execute(text("SELECT slug FROM benchmarkresult")).scalars())
    # ... as far as a database that old can hold them: the figures 0007 knew.
    assert before["benchmarkresult"] == len(figures & set(SNAPSHOT["published"])) > 0
    with old.connect() as connection:
        vllm = connection.execute(text("SELECT id, summary FROM system WHERE slug = 'vllm'")).one()

    migration = migrate.upgrade(old)

    assert (migration.before, migration.after) == (migrate.BASELINE, migrate.head_revision())
    assert count_rows(old, list(before)) == before
    with old.connect() as connection:
        assert (
            connection.execute(text("SELECT id, summary FROM system WHERE slug = 'vllm'")).one()
            == vllm
        )
        published = connection.execute(text("SELECT published FROM source")).scalars().all()
        withdrawn = connection.execute(text("SELECT count(*) FROM claim WHERE withdrawn")).scalar()
    assert published and all(published), "every source before the upgrade came from seed/"
    assert withdrawn == 0
    assert schema_differences(old) == []
    full.dispose()
    old.dispose()


def test_a_database_made_before_migrations_is_rebuilt_once(tmp_path: Path) -> None:
    full = new_engine(tmp_path, "full")
    prepare_database(full, SEED_DIR)
    legacy = new_engine(tmp_path, "legacy")
    migrate.upgrade(legacy, migrate.BASELINE)
    with legacy.begin() as connection:
        connection.execute(text("DROP TABLE alembic_version"))  # as create_all left it
    copy_rows(full, legacy)

    first = prepare_database(legacy, SEED_DIR)
    again = prepare_database(legacy, SEED_DIR)

    assert "system" in first.migration.rebuilt and first.seeded
    assert first.migration.after == migrate.head_revision()
    assert not again.migration.rebuilt and not again.seeded and not again.migration.changed
    assert schema_differences(legacy) == []
    full.dispose()
    legacy.dispose()


def legacy_database_with_accounts(tmp_path: Path, seed_dir: Path = SEED_DIR) -> Engine:
    """A database as create_all made it before migrations: seed data and an account."""
    from sqlmodel import Session

    from app.accounts.users import add_user

    full = new_engine(tmp_path, "full")
    prepare_database(full, seed_dir)
    with Session(full) as session:
        add_user(session, "ada", "editor", "correct horse battery")
        session.commit()
    legacy = new_engine(tmp_path, "legacy")
    migrate.upgrade(legacy, "0003")
    with legacy.begin() as connection:
        connection.execute(text("DROP TABLE revision"))
        connection.execute(text("DROP TABLE alembic_version"))
    for table in migrate.PRE_ALEMBIC_TABLES:  # back to the baseline's columns
        with legacy.begin() as connection:
            for column in ("withdrawn", "published"):
                if column in {c["name"] for c in inspect(connection).get_columns(table)}:
                    connection.execute(text(f'ALTER TABLE "{table}" DROP COLUMN {column}'))
    copy_rows(full, legacy)
    full.dispose()
    return legacy


def test_a_rebuild_before_migrations_keeps_the_accounts(tmp_path: Path) -> None:
    from sqlmodel import Session

    from app.accounts.users import get_user

    legacy = legacy_database_with_accounts(tmp_path)
    done = prepare_database(legacy, SEED_DIR)
    assert "system" in done.migration.rebuilt and done.seeded
    assert not set(done.migration.rebuilt) & set(migrate.ACCOUNT_TABLES)
    with Session(legacy) as session:
        assert get_user(session, "ada") is not None, "the account survived the rebuild"
    assert schema_differences(legacy) == []
    legacy.dispose()


@pytest.mark.data
def test_account_tables_of_another_version_stop_the_start(tmp_path: Path) -> None:
    legacy = legacy_database_with_accounts(tmp_path, REAL_SEED_DIR)
    with legacy.begin() as connection:
        connection.execute(text("ALTER TABLE user_account ADD COLUMN nickname VARCHAR(20)"))
    with pytest.raises(migrate.SchemaError, match="user_account"):
        prepare_database(legacy, REAL_SEED_DIR)
    with legacy.connect() as connection:
        systems = connection.execute(text("SELECT slug FROM system")).scalars().all()
        assert set(systems) == {p.stem for p in (REAL_SEED_DIR / "systems").glob("*.yaml")}
        assert connection.execute(text("SELECT name FROM user_account")).scalars().all() == ["ada"]
    legacy.dispose()


def test_upgrading_an_up_to_date_database_changes_nothing(fresh: Engine) -> None:
    migrate.upgrade(fresh)
    assert not migrate.upgrade(fresh).changed


@pytest.mark.sqlite
def test_sqlite_foreign_keys_are_enforced_again_after_a_migration(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'fk.db'}", pool_size=1)
    migrate.upgrade(engine, migrate.BASELINE)
    migrate.upgrade(engine)  # batch operations ran with the keys off
    with engine.connect() as connection:
        assert connection.execute(text("PRAGMA foreign_keys")).scalar() == 1
        connection.execute(select(1))
    engine.dispose()


def test_upgrading_a_team_database_keeps_its_published_and_team_rows(tmp_path: Path) -> None:
    """A database at the previous revision with users, a team source, team rows and history."""
    full = new_engine(tmp_path, "full")
    prepare_database(full, SEED_DIR)
    old = new_engine(tmp_path, "previous")
    migrate.upgrade(old, "0003")
    before = copy_rows(full, old)
    with old.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO user_account (name, role, password_hash, disabled, created_at) "
                "VALUES ('eddie', 'editor', 'x', false, '2026-11-01 10:00:00')"
            )
        )
        user = connection.execute(text("SELECT id FROM user_account")).scalar_one()
        connection.execute(
            text(
                "INSERT INTO source (id, slug, short, title, date, kind, position, published, "
                "withdrawn) SELECT max(id) + 1, 'team', 'Team', 'Our runs', '2026-11-01', "
                "'team-measurement', 0, false, false FROM source"
            )
        )
        # Explicit ids: the copied rows came with theirs, which PostgreSQL's sequences
        # have not counted.
        team, vllm, metric, capability = (
            connection.execute(
                text(f"SELECT id FROM {table} WHERE slug = :s"), {"s": slug}
            ).scalar_one()
            for table, slug in (
                ("source", "team"),
                ("system", "vllm"),
                ("metric", "throughput"),
                ("capability", "openai-api"),
            )
        )
        connection.execute(
            text(
                "INSERT INTO claim (id, system_id, capability_id, source_id, level, position, "
                "withdrawn) SELECT max(id) + 1, :s, :c, :t, 'no', 9999, false FROM claim"
            ),
            {"s": vllm, "c": capability, "t": team},
        )
        connection.execute(
            text(
                "INSERT INTO benchmarkresult (id, slug, system_id, metric_id, source_id, value, "
                "qualifier, unit, position, withdrawn) SELECT max(id) + 1, 'team-abc', :s, :m, "
                ":t, 1234.5, 'exact', 'tok/s', 9999, false FROM benchmarkresult"
            ),
            {"s": vllm, "m": metric, "t": team},
        )
        connection.execute(
            text(
                "INSERT INTO revision (id, at, actor, user_id, entity, key, action) "
                "SELECT coalesce(max(id), 0) + 1, '2026-11-02 09:00:00', 'eddie', :u, "
                "'benchmark_result', 'team-abc', 'create' FROM revision"
            ),
            {"u": user},
        )
    tables = [*before, "user_account", "revision"]
    counts = count_rows(old, tables)

    migrate.upgrade(old)

    assert count_rows(old, tables) == counts
    with old.connect() as connection:
        result = connection.execute(
            text("SELECT value, version, user_id FROM benchmarkresult WHERE slug = 'team-abc'")
        ).one()
        claim = connection.execute(
            text("SELECT level, version FROM claim WHERE source_id = :t"), {"t": team}
        ).one()
    assert tuple(result) == (1234.5, 1, None) and tuple(claim) == ("no", 1)
    assert schema_differences(old) == []
    full.dispose()
    old.dispose()


def test_upgrading_to_team_notes_keeps_every_row_and_notes_then_hold_published_rows(
    tmp_path: Path,
) -> None:
    """0005n adds the team_note table alone: a database at 0004 with a team source and team
    rows keeps all of them, and a note then keeps its claim through a reseed's removal."""
    full = new_engine(tmp_path, "full")
    prepare_database(full, SEED_DIR)
    old = new_engine(tmp_path, "at-0004")
    migrate.upgrade(old, "0004")
    copy_rows(full, old)
    with old.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO user_account (id, name, role, password_hash, disabled, created_at) "
                "VALUES (1, 'eddie', 'editor', 'x', false, '2026-11-01 10:00:00')"
            )
        )
        connection.execute(
            text(
                "INSERT INTO benchmarkresult (id, slug, system_id, metric_id, source_id, value, "
                "qualifier, unit, position, withdrawn, user_id, version) SELECT max(id) + 1, "
                "'team-abc', min(system_id), min(metric_id), min(source_id), 1.5, 'exact', "
                "'tok/s', 9999, false, 1, 2 FROM benchmarkresult"
            )
        )
    tables = ["claim", "benchmarkresult", "system", "source", "revision", "user_account"]
    counts = count_rows(old, tables)
    assert "team_note" not in inspect(old).get_table_names()

    migration = migrate.upgrade(old)

    # Through 0005n (team notes), 0006 (imports), 0007 (vocabulary), 0008 (first-party
    # sources), 0009 (hardware prices), 0010 (the team's catalogue), 0011 (models'
    # architectures and support), 0012 (hardware reported memory), 0013 (a chained claim's
    # engine page), 0014 (sign-in through a provider or proxy) and 0015 (webhooks), the newest.
    assert (migration.before, migration.after) == ("0004", migrate.head_revision())
    assert migrate.head_revision() == "0015"
    assert count_rows(old, tables) == counts
    assert count_rows(old, ["importbatch", "importrun"]) == {"importbatch": 0, "importrun": 0}
    assert schema_differences(old) == []
    with old.begin() as connection:
        team = connection.execute(
            text(
                "SELECT value, version, user_id, import_run_id FROM benchmarkresult "
                "WHERE slug = 'team-abc'"
            )
        ).one()
        assert tuple(team) == (1.5, 2, 1, None)  # made by hand, not imported
        claim, system = connection.execute(text("SELECT id, system_id FROM claim LIMIT 1")).one()
        connection.execute(
            text(
                "INSERT INTO team_note (slug, system_id, claim_id, text, user_id, version, "
                "created_at, updated_at) VALUES ('note-1', :s, :c, 'Checked.', 1, 1, "
                "'2026-11-24 09:00:00', '2026-11-24 09:00:00')"
            ),
            {"s": system, "c": claim},
        )
        # A note is on a claim or on a figure, never both.
        with pytest.raises(IntegrityError), connection.begin_nested():
            connection.execute(
                text(
                    "INSERT INTO team_note (slug, system_id, claim_id, result_id, text, "
                    "version, created_at, updated_at) SELECT 'note-2', :s, :c, min(id), "
                    "'x', 1, '2026-11-24 09:00:00', '2026-11-24 09:00:00' "
                    "FROM benchmarkresult"
                ),
                {"s": system, "c": claim},
            )
    # The note is a reference like any other: the rows it points at are protected.
    with Session(old) as session:
        assert referenced_ids(session, Claim.__table__, [claim]) == {claim}  # type: ignore[attr-defined]
    migrate.downgrade(old, "0004")
    assert "team_note" not in inspect(old).get_table_names()
    assert count_rows(old, tables) == counts
    full.dispose()
    old.dispose()


TEAM_ROWS = [
    # slug, hardware, model, workload, precision: free text as team rows held it before 0007
    ("team-sxm", "H100 SXM", "llama-3.1-8b", "online serving", "fp8"),
    ("team-h100", "NVIDIA H100", "Meta-Llama 3.3-70B-Instruct", None, None),
    ("team-box", "our lab box (2x L40S)", "Mistral 7B v0.3", "nightly regression run", "awq"),
    ("team-bare", None, None, None, None),
]


def entries(connection: Any, table: str) -> dict[int, str]:
    return dict(connection.execute(text(f"SELECT id, slug FROM {table}")).all())


@pytest.mark.data
def test_the_vocabulary_migration_maps_published_and_team_figures(tmp_path: Path) -> None:
    """A database at 0004 with the published figures (as free text) and team results."""
    full = new_engine(tmp_path, "full")
    prepare_database(full, REAL_SEED_DIR)
    old = new_engine(tmp_path, "at-0004")
    migrate.upgrade(old, "0004")
    before = copy_rows(full, old)
    with old.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO source (id, slug, short, title, date, kind, position, published, "
                "withdrawn) SELECT max(id) + 1, 'team', 'Team', 'Our runs', '2026-11-01', "
                "'team-measurement', 0, false, false FROM source"
            )
        )
        team, vllm, metric = (
            connection.execute(
                text(f"SELECT id FROM {table} WHERE slug = :s"), {"s": slug}
            ).scalar_one()
            for table, slug in (("source", "team"), ("system", "vllm"), ("metric", "throughput"))
        )
        for slug, hardware, model, workload, precision in TEAM_ROWS:
            connection.execute(
                text(
                    "INSERT INTO benchmarkresult (id, slug, system_id, metric_id, source_id, "
                    "value, qualifier, unit, hardware, model, workload, precision, position, "
                    "withdrawn, version) SELECT max(id) + 1, :slug, :s, :m, :t, 100, 'exact', "
                    "'tok/s', :h, :mo, :w, :p, 9999, false, 1 FROM benchmarkresult"
                ),
                {
                    "slug": slug,
                    "s": vllm,
                    "m": metric,
                    "t": team,
                    "h": hardware,
                    "mo": model,
                    "w": workload,
                    "p": precision,
                },
            )
    counts = count_rows(old, list(before))
    assert counts["benchmarkresult"] == before["benchmarkresult"] + len(TEAM_ROWS) > len(TEAM_ROWS)

    migrate.upgrade(old)

    assert count_rows(old, list(before)) == counts, "every figure is kept"
    with old.connect() as connection:
        hardware = entries(connection, "hardware")
        models = entries(connection, "languagemodel")
        workloads = entries(connection, "workload")
        rows = {
            r.slug: (
                hardware.get(r.hardware_id),
                r.gpus,
                models.get(r.model_id),
                workloads.get(r.workload_id),
                r.precision,
                r.setup,
                r.hardware_text,
                r.model_text,
            )
            for r in connection.execute(
                text(
                    "SELECT slug, hardware_id, gpus, model_id, workload_id, precision, setup, "
                    "hardware_text, model_text FROM benchmarkresult"
                )
            )
        }
    assert rows["team-sxm"] == (
        "nvidia-h100-sxm5-80gb",
        None,
        "llama-3.1-8b",
        "online-serving",
        "FP8",
        "online serving",
        "H100 SXM",
        "llama-3.1-8b",
    )
    # A bare "NVIDIA H100" is never taken to be the SXM5 part.
    assert rows["team-h100"] == (
        "nvidia-h100-unspecified",
        None,
        "llama-3.3-70b-instruct",
        None,
        None,
        None,
        "NVIDIA H100",
        "Meta-Llama 3.3-70B-Instruct",
    )
    assert rows["team-box"] == (
        "unlisted-hardware",
        None,
        "unlisted-model",
        "unspecified",
        "AWQ",
        "nightly regression run",
        "our lab box (2x L40S)",
        "Mistral 7B v0.3",
    )
    assert rows["team-bare"] == (None,) * 8
    assert rows["bis-vllm-l70b-throughput"] == (
        "nvidia-h100-sxm5-80gb",
        1,
        "llama-3.3-70b-instruct",
        "online-serving",
        "FP8",
        "Llama 3.3 70B serving at 100 concurrent requests, single GPU",
        None,
        None,
    )
    assert rows["bis-sglang-l8b-throughput"][:4] == (
        "nvidia-h100-unspecified",
        None,
        "llama-3.1-8b",
        "unspecified",
    )
    assert rows["bis-lmdeploy-l3-70b-int4-throughput"][4] == "INT4"
    assert schema_differences(old) == []

    # The migration gave every published figure what seed/ gives it: reseeding changes none
    # (it adds the figures published since 0007, which a database that old could not hold).
    count_ids(old)
    report = seed_with_report(old, REAL_SEED_DIR)[1]
    with Session(old) as session:
        changed = session.exec(
            select(Revision.key, Revision.before, Revision.after).where(
                Revision.entity == "benchmark_result",
                Revision.actor == "seed",
                Revision.action != "create",
            )
        ).all()
    # Except the move of the plain "H200" entry onto the SXM part nvidia-smi names that way
    # (issue 35): the frozen 0007 vocabulary still has the old entry.
    moved = ("nvidia-h200", "nvidia-h200-sxm-141gb")
    others = [
        key
        for key, before, after in changed
        if ((before or {}).get("hardware"), (after or {}).get("hardware")) != moved
    ]
    assert others == [], report.summary()
    full.dispose()
    old.dispose()


@pytest.mark.data
def test_the_vocabulary_migration_goes_back_to_the_articles_wording(tmp_path: Path) -> None:
    full = new_engine(tmp_path, "full")
    prepare_database(full, REAL_SEED_DIR)
    with full.connect() as connection:
        published = connection.execute(text("SELECT count(*) FROM benchmarkresult")).scalar_one()
    migrate.downgrade(full, "0004")
    with full.connect() as connection:
        row = connection.execute(
            text(
                "SELECT hardware, model, workload FROM benchmarkresult "
                "WHERE slug = 'bis-sglang-l8b-throughput'"
            )
        ).one()
        count = connection.execute(text("SELECT count(*) FROM benchmarkresult")).scalar_one()
    assert tuple(row) == ("NVIDIA H100", "Llama 3.1 8B", "Llama 3.1 8B throughput on one H100")
    assert count == published, "every figure is kept"
    full.dispose()


def test_the_first_party_migration_renames_vendor_docs_and_keeps_every_row(
    tmp_path: Path,
) -> None:
    """0008 adds since/how/page to claims and version/commit/read to sources: a database at
    0007 holding a vendor-docs source keeps every row, and the kind reads project-docs; going
    down, every first-party kind reads vendor-docs again and the new columns are gone."""
    old = new_engine(tmp_path, "at-0007")
    prepare_database(old, SEED_DIR)
    migrate.downgrade(old, "0007")
    with old.begin() as connection:
        connection.execute(
            text("UPDATE source SET kind = 'vendor-docs' WHERE slug = 'olla-servers-compared'")
        )
    tables = ["claim", "source", "sourcecaveat", "benchmarkresult", "system"]
    counts = count_rows(old, tables)
    assert counts["claim"] > 0

    migration = migrate.upgrade(old)

    assert (migration.before, migration.after) == ("0007", migrate.head_revision())
    assert count_rows(old, tables) == counts
    assert schema_differences(old) == []
    with old.begin() as connection:
        kinds: dict[str, str] = dict(
            connection.execute(text("SELECT slug, kind FROM source")).all()
        )
        assert kinds["olla-servers-compared"] == "project-docs"
        assert "vendor-docs" not in kinds.values()
        empty = connection.execute(
            text(
                "SELECT count(*) FROM claim WHERE since IS NOT NULL OR how IS NOT NULL "
                "OR page IS NOT NULL"
            )
        ).scalar_one()
        assert empty == 0
        connection.execute(
            text(
                "UPDATE source SET kind = 'release-notes', version = 'v1.2.0', read = '2026-11-25' "
                "WHERE slug = 'overview-early-2026'"
            )
        )

    migrate.downgrade(old, "0007")

    assert count_rows(old, tables) == counts
    columns = {c["name"] for c in inspect(old).get_columns("source")}
    assert not {"version", "commit", "read"} & columns
    assert not {"since", "how", "page"} & {c["name"] for c in inspect(old).get_columns("claim")}
    with old.connect() as connection:
        kinds = dict(connection.execute(text("SELECT slug, kind FROM source")).all())
    assert kinds["olla-servers-compared"] == kinds["overview-early-2026"] == "vendor-docs"
    old.dispose()


def _models(engine: Engine, column: str) -> dict[str, Any]:
    with engine.connect() as connection:
        rows = connection.execute(text(f"SELECT slug, {column} FROM languagemodel WHERE id > 900"))
        return {slug: value for slug, value in rows}


def test_the_model_support_migration_renames_architecture_to_kind_and_back(
    tmp_path: Path,
) -> None:
    """0011: dense/moe move from `architecture` to `kind` unchanged; `architecture` becomes
    the Hugging Face class; down maps the new kinds back onto dense/moe."""
    engine = new_engine(tmp_path, "models")
    migrate.upgrade(engine, "0010")
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO languagemodel (id, slug, name, architecture, active_parameters_b, "
                "sources, position) VALUES (901, 'big', 'Big', 'moe', 3, '[]', 0), "
                "(902, 'small', 'Small', 'dense', NULL, '[]', 1), "
                "(903, 'vague', 'Vague', NULL, NULL, '[]', 2)"
            )
        )

    migration = migrate.upgrade(engine, "0011")

    assert (migration.before, migration.after) == ("0010", "0011")
    assert _models(engine, "kind") == {"big": "moe", "small": "dense", "vague": None}
    assert _models(engine, "architecture") == {"big": None, "small": None, "vague": None}
    migrate.upgrade(engine)  # the later migrations leave these columns as they are
    assert schema_differences(engine) == []
    with engine.begin() as connection:
        connection.execute(
            text(
                "UPDATE languagemodel SET kind = 'hybrid', architecture = 'Qwen3NextForCausalLM' "
                "WHERE slug = 'big'"
            )
        )
        connection.execute(
            text(
                "UPDATE languagemodel SET kind = 'vision-language', base_id = 901, "
                "precision = 'FP8' WHERE slug = 'small'"
            )
        )
        connection.execute(text("UPDATE languagemodel SET kind = 'state-space' WHERE id = 903"))

    migrate.downgrade(engine, "0010")

    # A hybrid with experts was moe, a vision-language model dense; a state-space one unstated.
    assert _models(engine, "architecture") == {"big": "moe", "small": "dense", "vague": None}
    tables = set(inspect(engine).get_table_names())
    assert not tables & {"model_support", "model_config", "architecture"}
    assert "kind" not in {c["name"] for c in inspect(engine).get_columns("languagemodel")}
