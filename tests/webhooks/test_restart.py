"""A delivery filed while its receiver is down survives a restart of the app and is delivered
once the receiver is back: real `inference-atlas serve` processes on one database."""

import time
from pathlib import Path

import pytest
from sqlmodel import Session, select

from app.accounts.identity import SignedIn
from app.accounts.models import Role
from app.db import make_engine, writer
from app.webhooks.models import WebhookDelivery
from app.writes.webhooks import WebhookIn, add_webhook
from tests.conftest import SEED_DIR
from tests.databases import copy_of
from tests.live_servers import editor_token, free_port, send_json, serving
from tests.webhooks.receiver import receiving
from tests.webhooks.test_webhooks_api import RESULT, SECRET

pytestmark = pytest.mark.slow
ADMIN = SignedIn(user_id=0, name="ops", role=Role.admin, via="token", credential=0)


def deliveries(url: str) -> list[WebhookDelivery]:
    engine = make_engine(url)
    with Session(engine) as session:
        rows = list(session.exec(select(WebhookDelivery)).all())
    engine.dispose()
    return rows


def wait_for(check, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "gave up waiting"
        time.sleep(0.2)


def test_a_pending_delivery_survives_a_restart(tmp_path: Path, database_url: str) -> None:
    url = copy_of(database_url, tmp_path, SEED_DIR)
    port = free_port()
    engine = make_engine(url)
    with Session(writer(engine)) as session, session.begin():
        given = WebhookIn(url=f"http://127.0.0.1:{port}/hook", secret=SECRET)
        add_webhook(session, ADMIN, given, allow_private=True)
    engine.dispose()
    env = {"DATABASE_URL": url, "SEED_DIR": str(SEED_DIR), "ATLAS_WEBHOOKS_ALLOW_PRIVATE": "true"}
    token = editor_token(env)
    with serving(tmp_path, env, count=1) as (base,):
        status, _ = send_json(f"{base}/api/v1/benchmarks", RESULT, token)
        assert status == 201
        # Nothing listens on the receiver's port: the first attempt fails, a retry is due.
        wait_for(lambda: any(d.attempts >= 1 for d in deliveries(url)))
    (waiting,) = deliveries(url)
    assert waiting.status == "pending" and "Connect" in (waiting.last_error or "")
    with receiving(SECRET, port=port) as receiver, serving(tmp_path, env, count=1):
        wait_for(lambda: len(receiver.received) == 1)
        wait_for(lambda: deliveries(url)[0].status == "delivered")
    (got,) = receiver.received
    assert got.signed and got.headers["x-atlas-event"] == "result.created"
    assert got.headers["x-atlas-delivery"] == waiting.key
