"""Failed sign-ins are limited per account and per address, in the database."""

from datetime import timedelta

import pytest
from sqlalchemy import Engine
from sqlmodel import Session, select

from app.accounts import limits
from app.accounts.models import SignInFailure, utcnow
from app.writes.sessions import forget_account, record_failure

pytestmark = pytest.mark.database


@pytest.fixture
def session(empty_engine: Engine):
    with Session(empty_engine) as session:
        yield session


def fail(session: Session, name: str, address: str, times: int, ago: timedelta = timedelta()):
    for _ in range(times):
        record_failure(session, name, address, utcnow() - ago)
    session.flush()


def test_five_failures_block_the_account_for_the_rest_of_the_window(session) -> None:
    fail(session, "ada", "10.0.0.1", 4)
    assert limits.blocked(session, "ada", "10.0.0.1", utcnow()) is None
    fail(session, "ada", "10.0.0.2", 1)
    stop = limits.blocked(session, "ada", "10.0.0.3", utcnow())
    assert stop is not None and stop.scope == "account"
    assert 14 * 60 < stop.retry_after <= 15 * 60
    assert stop.message == "Too many failed sign-ins for this account. Try again in 15 minutes."
    # Another account from the same addresses is not affected.
    assert limits.blocked(session, "eddie", "10.0.0.1", utcnow()) is None


def test_twenty_failures_from_one_address_block_it_for_every_name(session) -> None:
    for i in range(20):
        fail(session, f"guess{i}", "10.0.0.9", 1)
    stop = limits.blocked(session, "ada", "10.0.0.9", utcnow())
    assert stop is not None and stop.scope == "address"
    assert "from your address" in stop.message
    assert limits.blocked(session, "ada", "10.0.0.10", utcnow()) is None


def test_failures_older_than_the_window_do_not_count(session) -> None:
    fail(session, "ada", "10.0.0.1", 5, ago=timedelta(minutes=16))
    assert limits.blocked(session, "ada", "10.0.0.1", utcnow()) is None


def test_the_wait_is_until_enough_failures_leave_the_window(session) -> None:
    # Seven failures (parallel attempts can overshoot): the limit lifts when the third
    # oldest leaves the window, not the oldest.
    for minutes in (14, 13, 10, 5, 4, 3, 2):
        fail(session, "ada", "10.0.0.1", 1, ago=timedelta(minutes=minutes))
    stop = limits.blocked(session, "ada", "10.0.0.1", utcnow())
    assert stop is not None
    assert 4 * 60 < stop.retry_after <= 5 * 60
    assert stop.message.endswith("Try again in 5 minutes.")


def test_recording_prunes_old_rows_and_a_success_forgets_the_account(session) -> None:
    fail(session, "ada", "10.0.0.1", 3, ago=timedelta(hours=1))
    fail(session, "ada", "10.0.0.1", 2)
    assert len(session.exec(select(SignInFailure)).all()) == 2
    fail(session, "bob", "10.0.0.1", 1)
    forget_account(session, "ada")
    left = session.exec(select(SignInFailure)).all()
    assert [(f.name, f.address) for f in left] == [("bob", "10.0.0.1")]
