"""The shared read of the data version (app/data_version/fresh.py): every caller gets a read
that began after it asked, and a crowd shares reads instead of sending one each."""

import asyncio
import threading

import pytest

from app.data_version.fresh import FreshVersion


class Database:
    """A version the test moves, and a read that can be held open."""

    def __init__(self) -> None:
        self.version = "1.a"
        self.reads = 0
        self.hold = threading.Event()
        self.hold.set()
        self.started = threading.Event()

    def read(self) -> str:
        self.reads += 1
        seen = self.version  # the read's snapshot is taken when it starts
        self.started.set()
        self.hold.wait(5)
        return seen


def test_callers_at_the_same_moment_share_one_read() -> None:
    db = Database()
    fresh = FreshVersion(db.read)

    async def crowd() -> list[str]:
        return await asyncio.gather(*(fresh.current() for _ in range(40)))

    assert asyncio.run(crowd()) == ["1.a"] * 40
    assert db.reads == 1
    assert fresh.value == "1.a"


def test_a_caller_arriving_during_a_read_gets_the_next_one() -> None:
    # The read under way may have begun before a write that committed before this caller
    # arrived: it must not be handed that read's answer.
    db = Database()
    fresh = FreshVersion(db.read)

    async def scenario() -> tuple[str, str]:
        db.hold.clear()
        first = asyncio.ensure_future(fresh.current())
        await asyncio.to_thread(db.started.wait, 5)  # the first read has its snapshot
        db.version = "2.b"  # a write commits; its response is sent
        second = asyncio.ensure_future(fresh.current())  # a request after that response
        await asyncio.sleep(0.01)
        db.hold.set()
        return await first, await second

    assert asyncio.run(scenario()) == ("1.a", "2.b")
    assert db.reads == 2


def test_a_failed_read_reaches_its_callers_and_the_next_call_reads_again() -> None:
    answers = iter([OSError("database is locked"), "3.c"])

    def read() -> str:
        answer = next(answers)
        if isinstance(answer, Exception):
            raise answer
        return answer

    fresh = FreshVersion(read)

    async def twice() -> str:
        with pytest.raises(OSError, match="locked"):
            await fresh.current()
        return await fresh.current()

    assert asyncio.run(twice()) == "3.c"


def test_a_caller_that_gives_up_does_not_cancel_the_read_of_the_others() -> None:
    db = Database()
    fresh = FreshVersion(db.read)

    async def scenario() -> str:
        db.hold.clear()
        impatient = asyncio.ensure_future(fresh.current())
        patient = asyncio.ensure_future(fresh.current())
        await asyncio.sleep(0.01)
        impatient.cancel()
        db.hold.set()
        return await patient

    assert asyncio.run(scenario()) == "1.a"


@pytest.mark.database
def test_the_reader_sees_every_commit_made_elsewhere(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # One connection kept between reads must not keep a snapshot (PostgreSQL) either.
    from sqlmodel import Session

    from app.data_version.fresh import VersionReader
    from app.data_version.version import bump_data_version
    from app.migrations import migrate
    from tests.databases import new_engine

    engine = new_engine(tmp_path, "reader")
    migrate.upgrade(engine)
    reader = VersionReader(engine)
    try:
        seen = [reader()]
        for _ in range(3):
            with Session(engine) as session, session.begin():
                made = bump_data_version(session)
            seen.append(reader())
            assert seen[-1] == made
        assert len(set(seen)) == 4
    finally:
        reader.close()
        engine.dispose()
