"""Shared fixtures: one seeded database per test session, copies of seed/ to break."""

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine

from app.db import create_tables, make_engine
from app.main import create_app
from app.seeding.service import seed
from app.settings import PROJECT_ROOT, Settings

SEED_DIR = PROJECT_ROOT / "seed"
# The test client calls itself "testserver"; every app a test builds must answer to it.
os.environ["TRUSTED_HOSTS"] = "testserver,localhost,127.0.0.1"


@pytest.fixture(scope="session")
def database_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A SQLite file seeded once from the real seed/ folder."""
    path = tmp_path_factory.mktemp("db") / "atlas.db"
    url = f"sqlite:///{path}"
    engine = make_engine(url)
    create_tables(engine)
    seed(engine, SEED_DIR)
    engine.dispose()
    return url


@pytest.fixture(scope="session")
def engine(database_url: str) -> Iterator[Engine]:
    engine = make_engine(database_url)
    yield engine
    engine.dispose()


@pytest.fixture(scope="session")
def client(database_url: str) -> Iterator[TestClient]:
    app = create_app(Settings(database_url=database_url, seed_dir=SEED_DIR))
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture
def seed_copy(tmp_path: Path) -> Path:
    """A private copy of seed/ that a test may break."""
    target = tmp_path / "seed"
    shutil.copytree(SEED_DIR, target)
    return target


@pytest.fixture
def empty_engine(tmp_path: Path) -> Iterator[Engine]:
    engine = make_engine(f"sqlite:///{tmp_path / 'fresh.db'}")
    create_tables(engine)
    yield engine
    engine.dispose()
