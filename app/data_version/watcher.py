"""Each process's view of the data version, kept fresh in the background."""

import asyncio
import logging
import time
from collections.abc import Callable

from app.data_version.signal import ChangeSignal, Timer

log = logging.getLogger("inference_atlas")


class VersionWatcher:
    """The data version as this process last saw it: read in the background, never per request.

    A write in this process sets it at once. A change made by another process shows up as
    soon as `signal` says so (PostgreSQL's NOTIFY, see app/data_version/signal.py), else within
    `interval` seconds, or as soon as any request's own read sees the new version.
    """

    def __init__(
        self, read: Callable[[], str], interval: float = 1.0, signal: ChangeSignal | None = None
    ) -> None:
        self._read = read
        self.interval = interval
        self._signal = signal or Timer()
        self.value = ""
        self.read_at = float("-inf")

    def refresh(self) -> str:
        """Read the version now (blocking: call it from a thread)."""
        before = self.value
        read = self._read()
        # A request may have observed a newer version while this read was under way; the
        # read began earlier and must not put the older one back.
        if self.value == before:
            self.value = read
        self.read_at = time.monotonic()
        return self.value

    def observe(self, version: str) -> None:
        """A request read `version` inside its own transaction: take it as current."""
        self.value = version

    async def watch(self) -> None:
        """Poll forever; cancelled when the app stops. /healthz reports `read_at`."""
        failing = False
        while True:
            await self._signal.wait(self.interval)
            try:
                await asyncio.to_thread(self.refresh)
            except Exception as exc:
                # A locked or restarting database must not kill the watcher; try again, and
                # say so once per outage rather than every second.
                if not failing:
                    log.warning("cannot read the data version from the database: %s", exc)
                failing = True
                continue
            if failing:
                log.warning("the database answers again")
                failing = False
