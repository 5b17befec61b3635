"""The outbox: a transaction's revisions become one event, in that transaction; a rollback
files nothing; a reseed is one summary event."""

from pathlib import Path

import pytest
from sqlmodel import Session, select

from app.accounts.identity import SignedIn
from app.accounts.models import Role
from app.db import make_engine, writer
from app.seeding.prepare import seed
from app.webhooks.models import WebhookDelivery, WebhookEvent
from app.writes import revisions
from app.writes.webhooks import WebhookIn, add_webhook
from tests.conftest import SEED_DIR
from tests.databases import copy_of
from tests.test_seed_upsert import edit_yaml

pytestmark = pytest.mark.database
ADMIN = SignedIn(user_id=0, name="ops", role=Role.admin, via="token", credential=0)


@pytest.fixture
def engine(tmp_path: Path, database_url: str):
    engine = make_engine(copy_of(database_url, tmp_path, SEED_DIR))
    with Session(writer(engine)) as session, session.begin():
        add_webhook(session, ADMIN, WebhookIn(url="https://hooks.example.com/a"), True)
        add_webhook(
            session,
            ADMIN,
            WebhookIn(url="https://hooks.example.com/b", events=["note.created"]),
            True,
        )
    yield engine
    engine.dispose()


def events(engine) -> list[tuple[str, dict, int]]:
    with Session(engine) as session:
        rows = session.exec(select(WebhookEvent).order_by(WebhookEvent.id)).all()
        counts = {
            e.id: len(
                session.exec(select(WebhookDelivery).where(WebhookDelivery.event_id == e.id)).all()
            )
            for e in rows
        }
        return [(e.event, e.payload, counts[e.id]) for e in rows]


def change(session: Session, key: str) -> None:
    revisions.record(
        session,
        actor="eddie",
        entity="claim",
        key=key,
        action="update",
        before={"a": 1},
        after={"a": 2},
    )


def test_one_transaction_is_one_event_for_the_receivers_that_want_it(engine) -> None:
    with Session(writer(engine)) as session, session.begin():
        change(session, "vllm/prefix-caching/team")
        change(session, "sglang/prefix-caching/team")
    ((name, payload, receivers),) = events(engine)
    assert name == "claim.updated" and receivers == 1  # `*` only: the other wants notes
    assert [r["key"] for r in payload["revisions"]] == [
        "vllm/prefix-caching/team",
        "sglang/prefix-caching/team",
    ]


def test_a_rolled_back_change_files_nothing(engine) -> None:
    with pytest.raises(RuntimeError), Session(writer(engine)) as session, session.begin():
        change(session, "vllm/prefix-caching/team")
        raise RuntimeError("the change fails after its revision")
    with Session(writer(engine)) as session, session.begin():
        pass  # a later transaction on a fresh session files nothing left over
    assert events(engine) == []


def test_a_reseed_is_one_summary_event(engine, seed_copy: Path) -> None:
    edit_yaml(seed_copy / "systems" / "vllm.yaml", lambda d: d.update(summary="A new summary."))
    edit_yaml(seed_copy / "systems" / "sglang.yaml", lambda d: d.update(summary="Another one."))
    seed(engine, seed_copy)
    ((name, payload, receivers),) = events(engine)
    assert name == "seed.reseeded" and receivers == 1
    assert payload["actor"] == "seed" and payload["revisions"] == []
    assert payload["summary"] == {"system.updated": 2} and payload["revision_count"] == 2
