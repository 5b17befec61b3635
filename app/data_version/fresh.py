"""The data version as of *now*, for answering a request from the page cache.

The promise (docs/architecture.md): once a write's response is sent, every later request on
every server reflects it. A cached page may only be sent for the version the database holds
at some moment after the request arrived, so each cache look-up needs a read that *began*
after its request came in. One read per request would put a database round trip (in a worker
thread) in front of every cached page; instead the reads are shared: a request that arrives
while a read is under way waits for the next one, which starts as soon as the current one
ends. Under load one read answers every request that arrived during the one before, so the
cost per request falls as the crowd grows; alone, a request waits for one read.

A background poll or a NOTIFY cannot give this promise: both tell a process of a change some
time after it was committed, and a request in between would be served the old page.
"""

import asyncio
import contextlib
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from sqlalchemy import Engine
from sqlalchemy.pool import PoolProxiedConnection


class FreshVersion:
    """Shared reads of the data version; `read` blocks (it runs in a worker thread)."""

    def __init__(self, read: Callable[[], str]) -> None:
        self._read = read
        self._running: _Read | None = None
        self._next: _Read | None = None
        self._task: asyncio.Task[None] | None = None
        # A thread of its own: reads run one at a time, and the shared worker threads'
        # limiter and queue cost more than the read itself.
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="data-version")
        # The last version read and when (monotonic), for /healthz and /metrics.
        self.value = ""
        self.read_at = float("-inf")

    async def current(self) -> str:
        """A version read that began after this call; raises what the read raised."""
        running = self._running
        if running is not None and not running.begun:
            read = running  # its query has not started yet: it is fresh enough
        else:
            if self._next is None:
                self._next = _Read(asyncio.get_running_loop().create_future())
            read = self._next
            if running is None:
                self._start()
        # Shielded: a caller that is cancelled must not cancel the read others wait for.
        return await asyncio.shield(read.future)

    def close(self) -> None:
        """Stop the reading thread once its read (if any) is done."""
        self._thread.shutdown(wait=True)

    def _start(self) -> None:
        read, self._next = self._next, None
        assert read is not None
        self._running = read
        # Kept: the loop holds only a weak reference to a task.
        self._task = asyncio.get_running_loop().create_task(self._read_into(read))

    def _read_in_thread(self, read: "_Read") -> str:
        # Set before the query starts: callers that saw it unset arrived before the query.
        read.begun = True
        return self._read()

    async def _read_into(self, read: "_Read") -> None:
        future = read.future
        try:
            loop = asyncio.get_running_loop()
            value = await loop.run_in_executor(self._thread, self._read_in_thread, read)
        except asyncio.CancelledError:
            future.cancel()  # the app is stopping
            raise
        except Exception as exc:  # handed to every waiter, who raise it themselves
            future.set_exception(exc)
            future.exception()  # marked as retrieved, for when nobody waits any more
        else:
            self.value, self.read_at = value, time.monotonic()
            future.set_result(value)
        finally:
            self._running = None
            if self._next is not None:
                self._start()


@dataclass
class _Read:
    future: "asyncio.Future[str]"
    begun: bool = False


VERSION_SQL = "SELECT value FROM meta WHERE key = 'data_version'"


class VersionReader:
    """Reads the data version on one connection of its own, kept between reads.

    The read every cached answer waits for: one indexed row, without a session, the ORM or
    a pool check-out each time (those cost ten times the query). FreshVersion runs one read
    at a time, so the connection is never used by two threads at once."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._connection: PoolProxiedConnection | None = None

    def __call__(self) -> str:
        try:
            if self._connection is None:
                self._connection = self._engine.raw_connection()
            cursor = self._connection.cursor()
            try:
                cursor.execute(VERSION_SQL)
                row = cursor.fetchone()
            finally:
                cursor.close()
            # Ends the read's transaction (PostgreSQL), so the next read sees later commits.
            self._connection.rollback()
        except Exception:
            self.close()  # a broken connection is not reused: the next read opens another
            raise
        return str(row[0]) if row else "0"

    def close(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            with contextlib.suppress(Exception):
                connection.close()
