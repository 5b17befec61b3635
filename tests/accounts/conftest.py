"""Fixtures for the account tests: private copies of the seeded database, users in them,
apps with a known secret, and clients that sign in the way a browser does."""

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import Engine
from sqlmodel import Session

from app.accounts import passwords
from app.accounts import users as service
from app.db import make_engine, writer
from app.main import create_app
from app.settings import Settings
from tests.conftest import SEED_DIR
from tests.databases import copy_of

PASSWORD = "correct horse battery staple"
SECRET = "a-test-secret-that-is-long-enough-for-production"
# What a browser sends with a form posted from one of our own pages.
SAME_ORIGIN = {"Sec-Fetch-Site": "same-origin", "Origin": "http://testserver"}
USERS = {"ada": "admin", "eddie": "editor", "vera": "viewer"}


@pytest.fixture
def production_cost(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Passwords hashed at the production cost, for the tests about that cost (the suite
    hashes at Argon2's minimum, ATLAS_PASSWORD_HASH: tests/conftest.py)."""
    monkeypatch.delenv("ATLAS_PASSWORD_HASH", raising=False)
    passwords._hasher.cache_clear()
    passwords._dummy_hash.cache_clear()
    yield
    passwords._hasher.cache_clear()
    passwords._dummy_hash.cache_clear()


def add_users(url: str, users: dict[str, str]) -> None:
    engine = make_engine(url)
    with Session(writer(engine)) as session, session.begin():
        for name, role in users.items():
            service.add_user(session, name, role, PASSWORD)
    engine.dispose()


def sign_in(client: TestClient, name: str, password: str = PASSWORD, next_path: str = "/"):
    return client.post(
        "/login",
        data={"name": name, "password": password, "next": next_path},
        headers=SAME_ORIGIN,
        follow_redirects=False,
    )


@pytest.fixture(scope="module")
def accounts_url(tmp_path_factory: pytest.TempPathFactory, database_url: str) -> str:
    """A seeded database with an admin (ada), an editor (eddie) and a viewer (vera)."""
    url = copy_of(database_url, tmp_path_factory.mktemp("accounts"), SEED_DIR)
    add_users(url, USERS)
    return url


@pytest.fixture
def fresh_url(tmp_path: Path, database_url: str) -> str:
    """A seeded database of this test's own (for tests that count failed sign-ins)."""
    url = copy_of(database_url, tmp_path, SEED_DIR)
    add_users(url, {"ada": "admin", "eddie": "editor"})
    return url


def build_app(url: str, **settings: object) -> FastAPI:
    values: dict[str, object] = {"database_url": url, "seed_dir": SEED_DIR, "secret_key": SECRET}
    return create_app(Settings(**(values | settings)))  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def accounts_app(accounts_url: str) -> Iterator[FastAPI]:
    app = build_app(accounts_url)
    with TestClient(app):  # runs the lifespan once for the module's clients
        yield app


@pytest.fixture
def clients(accounts_app: FastAPI) -> Iterator[Callable[..., TestClient]]:
    """New clients (own cookie jars) on the module's app: clients() or clients("ada")."""
    made: list[TestClient] = []

    def make(name: str | None = None, **kwargs: object) -> TestClient:
        client = TestClient(accounts_app, **kwargs)  # type: ignore[arg-type]
        made.append(client)
        if name is not None:
            response = sign_in(client, name)
            assert response.status_code == 303, response.text
        return client

    yield make
    for client in made:
        client.close()


@pytest.fixture(scope="module")
def accounts_engine(accounts_url: str) -> Iterator[Engine]:
    engine = make_engine(accounts_url)
    yield engine
    engine.dispose()
