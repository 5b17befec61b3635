"""Tell every app process at once that the data changed.

Each process answers anonymous readers from a render cache keyed by the data version, which
its `VersionWatcher` reads in the background. Polling alone leaves another process serving
the old data for up to a poll interval. On PostgreSQL the transaction that bumps the version
also sends a NOTIFY (delivered when it commits), and each process LISTENs on one connection
of its own, so it reads the new version within milliseconds; the poll stays as the fallback
for a lost connection. SQLite has no such signal: one machine, usually one process, polled.
"""

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Any, Protocol

from sqlalchemy import Engine, text
from sqlalchemy.orm import Session

if TYPE_CHECKING:  # imported where used: a SQLite instance never loads the driver (7 MB)
    import psycopg

CHANNEL = "atlas_data_version"

log = logging.getLogger("inference_atlas")


class ChangeSignal(Protocol):
    async def wait(self, timeout: float) -> None:
        """Return when the data may have changed, or after `timeout` seconds at most."""

    async def close(self) -> None: ...


class Timer:
    """No signal: wake up every `timeout` (SQLite)."""

    async def wait(self, timeout: float) -> None:
        await asyncio.sleep(timeout)

    async def close(self) -> None:
        return None


class PostgresListener:
    """LISTEN on the version channel with an async connection of its own.

    Async so that stopping the app cancels the wait at once and closes the connection
    cleanly, rather than leaving a thread blocked in a read.
    """

    def __init__(self, conninfo: str) -> None:
        self._conninfo = conninfo
        self._connection: psycopg.AsyncConnection[Any] | None = None
        self._failing = False

    async def wait(self, timeout: float) -> None:
        import psycopg

        try:
            connection = await self._connect()
            async for _ in connection.notifies(timeout=timeout, stop_after=1):
                pass
            self._failing = False
        except psycopg.Error as exc:
            # The poll still runs: a lost signal only slows changes down to its interval.
            if not self._failing:
                log.warning("listening for data changes failed (polling instead): %s", exc)
            self._failing = True
            await self.close()
            await asyncio.sleep(timeout)

    async def _connect(self) -> "psycopg.AsyncConnection[Any]":
        import psycopg

        if self._connection is None:
            connection = await psycopg.AsyncConnection.connect(self._conninfo, autocommit=True)
            await connection.execute(f"LISTEN {CHANNEL}")
            self._connection = connection
        return self._connection

    async def close(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            with contextlib.suppress(Exception):
                await connection.close()


def change_signal(engine: Engine) -> ChangeSignal:
    if engine.dialect.name != "postgresql":
        return Timer()
    url = engine.url.set(drivername="postgresql")
    return PostgresListener(url.render_as_string(hide_password=False))


def announce(session: Session, version: str) -> None:
    """Send the new version to every listening process when this transaction commits."""
    bind = session.get_bind()
    if bind.dialect.name == "postgresql":
        session.execute(text("SELECT pg_notify(:channel, :version)"),
                        {"channel": CHANNEL, "version": version})  # fmt: skip
