"""Fixtures for the operations tests: an app on a private copy of the seeded database, a
user with an API token in it, and a reader of /metrics."""

from collections.abc import Iterator

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from sqlmodel import Session

from app.accounts import users as service
from app.db import make_engine, writer
from tests.accounts.conftest import add_users, build_app
from tests.conftest import SEED_DIR
from tests.databases import copy_of

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


@pytest.fixture(scope="module")
def ops_url(tmp_path_factory: pytest.TempPathFactory, database_url: str) -> str:
    url = copy_of(database_url, tmp_path_factory.mktemp("ops"), SEED_DIR)
    add_users(url, {"ada": "admin"})
    return url


@pytest.fixture(scope="module")
def ada_token(ops_url: str) -> str:
    engine = make_engine(ops_url)
    with Session(writer(engine)) as session, session.begin():
        _, raw = service.add_token(session, "ada")
    engine.dispose()
    return raw


@pytest.fixture(scope="module")
def ops_app(ops_url: str) -> Iterator[FastAPI]:
    app = build_app(ops_url)
    with TestClient(app):  # the lifespan runs once for the module
        yield app


@pytest.fixture
def ops_client(ops_app: FastAPI) -> Iterator[TestClient]:
    client = TestClient(ops_app)  # no `with`: the module's lifespan is already running
    yield client
    client.close()


def scrape(client: TestClient, **headers: str) -> Samples:
    """Every sample /metrics reports, by name and labels."""
    response = client.get("/metrics", headers=headers)
    assert response.status_code == 200, response.text
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(response.text)
        for sample in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def label_values(samples: Samples, name: str, label: str) -> set[str]:
    return {dict(labels)[label] for (n, labels) in samples if n == name}
