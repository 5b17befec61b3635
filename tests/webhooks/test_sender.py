"""The sender against a real receiver: two senders on one database never send one delivery
twice; a name that resolves to a private address at send time is refused; a write does not
wait for a receiver that hangs."""

import asyncio
import threading
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine
from sqlmodel import Session

from app.accounts.identity import SignedIn
from app.accounts.models import Role
from app.db import writer
from app.webhooks.sender import Sender
from app.writes.webhooks import queue_test
from tests.webhooks.conftest import Clock, run_round
from tests.webhooks.receiver import receiving
from tests.webhooks.test_webhooks_api import RESULT, SECRET, register, remove_all

pytestmark = pytest.mark.database
ADMIN = SignedIn(user_id=1, name="ada", role=Role.admin, via="token", credential=0)
Users = Callable[[str], TestClient]


def test_two_senders_on_one_database_never_send_a_delivery_twice(
    as_user: Users, hooks_url: str, hooks_engine: Engine
) -> None:
    from app.db import make_engine

    with receiving(SECRET) as receiver:
        hook = register(as_user, receiver.url, secret=SECRET)
        with Session(writer(hooks_engine)) as session, session.begin():
            keys = {queue_test(session, ADMIN, hook["id"]) for _ in range(30)}
        # Two servers: each its own engine (connection pool) on the one database.
        engines = [make_engine(hooks_url), make_engine(hooks_url)]
        clock = Clock()
        senders = [
            Sender(
                e, public_base="https://a.example", allow_private=True, clock=clock, concurrency=3
            )
            for e in engines
        ]

        async def race() -> list[int]:
            sent = [0, 0]

            async def drain(i: int) -> None:
                while n := await senders[i].run_once():
                    sent[i] += n

            await asyncio.gather(drain(0), drain(1))
            for s in senders:
                await s.close()
            return sent

        sent = asyncio.run(race())
        for e in engines:
            e.dispose()
    got = [r.headers["x-atlas-delivery"] for r in receiver.received]
    assert sorted(got) == sorted(keys) and len(got) == 30  # each once, none twice
    # Both ran rounds side by side; which one won each row is up to the database's timing.
    assert sum(sent) == 30, sent
    remove_all(as_user)


def test_a_name_resolving_to_a_private_address_is_refused_at_send_time(
    as_user: Users, hooks_engine: Engine
) -> None:
    hook = register(as_user, "https://hooks.example.com/rebound", secret=SECRET)
    as_user("ada").post(f"/api/v1/webhooks/{hook['id']}/test")

    async def rebound(host: str, port: int) -> list[str]:
        return ["10.0.0.7"]  # public when registered, private now

    sender = Sender(hooks_engine, public_base="https://a.example", clock=Clock(), resolver=rebound)
    assert run_round(sender) == 1
    (delivery,) = as_user("ada").get(f"/api/v1/webhooks/{hook['id']}/deliveries").json()
    assert delivery["status"] == "pending" and delivery["last_code"] is None
    assert "10.0.0.7, a private address" in delivery["last_error"]
    remove_all(as_user)


@pytest.mark.slow  # a second app with its own sender running: seconds, for the fast tier
def test_a_write_does_not_wait_for_a_receiver_that_hangs(
    hooks_app: Any, as_user: Users, hooks_url: str
) -> None:
    with receiving(SECRET) as receiver:
        receiver.hold = threading.Event()
        register(as_user, receiver.url, secret=SECRET)
        from tests.accounts.conftest import build_app

        app = build_app(
            hooks_url, atlas_webhooks_allow_private=True, atlas_webhooks_poll_seconds=0.05
        )
        from app.db import make_engine
        from tests.webhooks.conftest import token_for

        engine = make_engine(hooks_url)
        with TestClient(app, headers=token_for(engine, "eddie")) as client:
            first = client.post("/api/v1/benchmarks", json=RESULT)
            # The sender now holds the first delivery at the receiver, which answers nothing
            # until released; writes go on being answered meanwhile.
            second = client.post("/api/v1/benchmarks", json=RESULT | {"concurrency": 64})
            assert (first.status_code, second.status_code) == (201, 201)
            assert receiver.received == []
            receiver.hold.set()
            for _ in range(200):
                if len(receiver.received) == 2:
                    break
                threading.Event().wait(0.05)
        engine.dispose()
    assert len(receiver.received) == 2 and all(r.signed for r in receiver.received)
    remove_all(as_user)
