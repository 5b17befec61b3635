"""Fixtures for the webhook tests: a seeded database of the module's own with an admin, an
editor and a viewer, an app whose own sender is off (the tests run senders on an injected
clock), and token clients."""

import asyncio
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import Engine
from sqlmodel import Session

from app.accounts import users as accounts
from app.db import make_engine, writer
from app.webhooks.models import utcnow
from app.webhooks.sender import Sender
from tests.accounts.conftest import USERS, add_users, build_app
from tests.conftest import SEED_DIR
from tests.databases import copy_of


def token_for(engine: Engine, name: str) -> dict[str, str]:
    with Session(writer(engine)) as session, session.begin():
        _, raw = accounts.add_token(session, name, None)
    return {"Authorization": f"Bearer {raw}"}


@pytest.fixture(scope="module")
def hooks_url(tmp_path_factory: pytest.TempPathFactory, database_url: str) -> str:
    url = copy_of(database_url, tmp_path_factory.mktemp("webhooks"), SEED_DIR)
    add_users(url, USERS)
    return url


@pytest.fixture(scope="module")
def hooks_engine(hooks_url: str) -> Iterator[Engine]:
    engine = make_engine(hooks_url)
    yield engine
    engine.dispose()


@pytest.fixture(scope="module")
def hooks_app(hooks_url: str) -> Iterator[FastAPI]:
    app = build_app(
        hooks_url,
        atlas_webhooks_send=False,
        atlas_webhooks_allow_private=True,
        public_url="https://atlas.example.com",
    )
    with TestClient(app):
        yield app


@pytest.fixture(scope="module")
def as_user(hooks_app: FastAPI, hooks_engine: Engine) -> Callable[[str], TestClient]:
    made: dict[str, TestClient] = {}

    def client(name: str) -> TestClient:
        if name not in made:
            made[name] = TestClient(hooks_app, headers=token_for(hooks_engine, name))
        return made[name]

    return client


class Clock:
    """A clock the test moves: senders read it instead of the time."""

    def __init__(self) -> None:
        self.now = utcnow() + timedelta(seconds=1)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def run_round(sender: Sender) -> int:
    """One sender round (claim what is due, send, record), then close its client."""

    async def once() -> int:
        try:
            return await sender.run_once()
        finally:
            await sender.close()

    return asyncio.run(once())
