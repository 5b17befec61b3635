"""Shared fixtures: one seeded database per test session, copies of the seed to break.

Behaviour tests run on the fixture seed (tests/fixture_seed/: a few systems cut from seed/, in
the same file format), which loads in about a second. Tests of the real data set in seed/ are
marked `data` and use the `real_*` fixtures, which load seed/ once per session when asked for.

The suite runs on SQLite, or on PostgreSQL when ATLAS_TEST_DATABASE_URL names a server
(see tests/databases.py and scripts/postgres.sh). Tests marked `postgres` need that server;
tests marked `sqlite` are about SQLite itself and are skipped on PostgreSQL.
"""

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine

from app.accounts.passwords import TEST_COST
from app.main import create_app
from app.settings import PROJECT_ROOT, Settings
from tests.databases import BACKEND, ON_POSTGRES, drop_created, new_engine, seeded_url

# What the behaviour tests seed from; REAL_SEED_DIR is the published data set (the data tier).
SEED_DIR = Path(__file__).parent / "fixture_seed"
REAL_SEED_DIR = PROJECT_ROOT / "seed"
# The test client calls itself "testserver"; every app a test builds must answer to it.
os.environ["TRUSTED_HOSTS"] = "testserver,localhost,127.0.0.1"
# Argon2 at its minimum cost: sign-ins in tests take no time (app/accounts/passwords.py).
os.environ["ATLAS_PASSWORD_HASH"] = TEST_COST
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def pytest_report_header() -> str:
    return f"database: {BACKEND}"


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("postgres") and not ON_POSTGRES:
        message = "needs PostgreSQL: set ATLAS_TEST_DATABASE_URL (scripts/postgres.sh does)"
        if IN_CI:
            # CI runs these against a real server; a skip there would hide a broken setup.
            pytest.fail(message, pytrace=False)
        pytest.skip(message)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not ON_POSTGRES:
        return
    # Tests about SQLite itself are left out of the PostgreSQL run rather than skipped, so
    # that any skip in that run means something is missing.
    about_sqlite = [item for item in items if item.get_closest_marker("sqlite")]
    if about_sqlite:
        config.hook.pytest_deselected(items=about_sqlite)
        items[:] = [item for item in items if not item.get_closest_marker("sqlite")]


def pytest_sessionfinish() -> None:
    drop_created()


@pytest.fixture(scope="session")
def database_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A database migrated and seeded once from the fixture seed."""
    return seeded_url(tmp_path_factory.mktemp("db"), SEED_DIR)


@pytest.fixture(scope="session")
def engine(database_url: str) -> Iterator[Engine]:
    from app.db import make_engine

    engine = make_engine(database_url)
    yield engine
    engine.dispose()


@pytest.fixture(scope="session")
def client(database_url: str) -> Iterator[TestClient]:
    app = create_app(Settings(database_url=database_url, seed_dir=SEED_DIR))
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture(scope="session")
def real_database_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A database migrated and seeded once from the real seed/ folder (the `data` tier)."""
    return seeded_url(tmp_path_factory.mktemp("real-db"), REAL_SEED_DIR)


@pytest.fixture(scope="session")
def real_engine(real_database_url: str) -> Iterator[Engine]:
    from app.db import make_engine

    engine = make_engine(real_database_url)
    yield engine
    engine.dispose()


@pytest.fixture(scope="session")
def real_client(real_database_url: str) -> Iterator[TestClient]:
    app = create_app(Settings(database_url=real_database_url, seed_dir=REAL_SEED_DIR))
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture
def seed_copy(tmp_path: Path) -> Path:
    """A private copy of the fixture seed that a test may break."""
    target = tmp_path / "seed"
    shutil.copytree(SEED_DIR, target)
    return target


@pytest.fixture
def empty_engine(tmp_path: Path) -> Iterator[Engine]:
    """A new database at the newest schema, with no rows."""
    from app.migrations import migrate

    engine = new_engine(tmp_path, "fresh")
    migrate.upgrade(engine)
    yield engine
    engine.dispose()
