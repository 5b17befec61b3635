"""Two admins demoting each other at the same moment leave one admin, never none.

The security review found that on PostgreSQL both demotions could read "two admins" and
both commit (10 tries of 10 left zero admins). Account changes now take the write lock
first (accounts/users.py, writes/transaction.py); this test runs the race the way the
users page does, on SQLite and again on PostgreSQL (`database`)."""

import threading
from collections.abc import Callable

import pytest
from sqlalchemy import Engine, func
from sqlmodel import Session, col, select

from app.accounts import users as service
from app.accounts.models import UserAccount
from app.db import make_engine, reader, writer
from app.writes.transaction import write_transaction

pytestmark = pytest.mark.database

ROUNDS = 5


def active_admins(engine: Engine) -> set[str]:
    with Session(engine) as session:
        return set(
            session.exec(
                select(UserAccount.name).where(
                    UserAccount.role == "admin", ~col(UserAccount.disabled)
                )
            ).all()
        )


def at_once(*changes: Callable[[Session], object], engine: Engine) -> list[str]:
    """Run each change in its own thread and request-like session, released together;
    the refusals they met, in no particular order."""
    start = threading.Barrier(len(changes))
    refused: list[str] = []

    def run(change: Callable[[Session], object]) -> None:
        # As a request: a reading session first (get_session), then write_transaction.
        with Session(reader(engine)) as session:
            session.exec(select(func.count()).select_from(UserAccount)).one()
            start.wait(timeout=10)
            try:
                with write_transaction(session):
                    change(session)
            except service.AccountError as exc:
                refused.append(str(exc))

    threads = [threading.Thread(target=run, args=(change,)) for change in changes]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return refused


def test_two_admins_demoting_each_other_at_once_leave_one(fresh_url: str) -> None:
    engine = make_engine(fresh_url)
    try:
        for _ in range(ROUNDS):
            with Session(writer(engine)) as session, session.begin():
                for name in ("ada", "eddie"):  # whoever lost the last round is made admin again
                    service.set_role(session, name, "admin")
            assert active_admins(engine) == {"ada", "eddie"}
            refused = at_once(
                lambda session: service.set_role(session, "eddie", "editor"),
                lambda session: service.set_role(session, "ada", "editor"),
                engine=engine,
            )
            assert len(refused) == 1 and "only active admin" in refused[0]
            assert len(active_admins(engine)) == 1
    finally:
        engine.dispose()


def test_an_admin_disabled_while_demoting_the_other_leaves_one(fresh_url: str) -> None:
    engine = make_engine(fresh_url)
    try:
        with Session(writer(engine)) as session, session.begin():
            service.set_role(session, "eddie", "admin")
        refused = at_once(
            lambda session: service.disable_user(session, "ada"),
            lambda session: service.set_role(session, "eddie", "viewer"),
            engine=engine,
        )
        assert len(refused) == 1
        assert len(active_admins(engine)) == 1
    finally:
        engine.dispose()
