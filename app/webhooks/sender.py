"""The sender: a task started with the app that sends due deliveries, off the request path.

Each round it claims a few due deliveries with a lease (app/writes/webhooks.py claim_due, in
a worker thread: the event loop never waits on the database), sends them at once with httpx
(at most `concurrency` in flight, each bounded by a timeout), and records each attempt. It
wakes when this process commits a change that filed deliveries, and otherwise polls, for
other servers' changes and for retries coming due. A slow or dead receiver costs a write
nothing: the write only filed rows in its own transaction.
"""

import asyncio
import contextlib
import logging
import socket
import time
import uuid
from collections.abc import Awaitable, Callable, Mapping
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx2 as httpx
from anyio import to_thread
from sqlalchemy import Engine
from sqlmodel import Session

from app.db import writer
from app.present.change_words import describe
from app.queries.webhooks import anything_due
from app.schemas import Names, RevisionView
from app.webhooks.addresses import RefusedAddressError, check_addresses
from app.webhooks.events import body, signature
from app.webhooks.models import utcnow
from app.writes import outbox
from app.writes.webhooks import Attempt, Claimed, claim_due, finish_attempt

log = logging.getLogger("inference_atlas.webhooks")

LEASE = timedelta(seconds=60)
"""How long a claim holds: well over the longest send (`timeout`), so a lease only runs out
when its server died mid-send, and then another server sends the delivery again."""
USER_AGENT = "InferenceAtlas-Webhooks/1"

Resolver = Callable[[str, int], Awaitable[list[str]]]


async def resolve(host: str, port: int) -> list[str]:
    """The addresses `host` resolves to now, without blocking the event loop."""
    loop = asyncio.get_running_loop()
    found = await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return sorted({str(info[4][0]) for info in found})


class Sender:
    """Sends the outbox's due deliveries; `run()` until `stop()`."""

    def __init__(
        self,
        engine: Engine,
        *,
        public_base: str,
        allow_private: bool = False,
        timeout: float = 10.0,
        concurrency: int = 4,
        poll_seconds: float = 2.0,
        clock: Callable[[], datetime] = utcnow,
        resolver: Resolver = resolve,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.engine = writer(engine)
        self.reader = engine
        self.name = f"{socket.gethostname()[:40]}-{uuid.uuid4().hex[:12]}"
        self.public_base = public_base
        self.allow_private = allow_private
        self.timeout = timeout
        self.concurrency = concurrency
        self.poll_seconds = poll_seconds
        self.clock = clock
        self.resolver = resolver
        # No kept connections: each send goes to the address checked just before it, and a
        # pooled connection would be reused for another name on the same address.
        self.client = httpx.AsyncClient(
            timeout=httpx.Timeout(timeout),
            limits=httpx.Limits(max_connections=concurrency, max_keepalive_connections=0),
            follow_redirects=False,
            trust_env=False,
            transport=transport,
        )
        self._wake = asyncio.Event()
        self._stopping = False

    async def run(self) -> None:
        """Send rounds until stopped; a failing round is logged and tried again later."""
        loop = asyncio.get_running_loop()

        def wake() -> None:  # called in the worker thread that committed
            loop.call_soon_threadsafe(self._wake.set)

        forget = outbox.on_enqueue(wake)
        try:
            while not self._stopping:
                try:
                    sent = await self.run_once()
                except Exception:
                    log.exception("webhook sender round failed")
                    sent = 0
                if sent < self.concurrency:  # a full round: more may be waiting
                    await self._sleep()
        finally:
            forget()
            await self.close()

    async def close(self) -> None:
        """Close the HTTP client (`run()` does so itself when stopped)."""
        await self.client.aclose()

    async def stop(self) -> None:
        self._stopping = True
        self._wake.set()

    async def _sleep(self) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(), self.poll_seconds)
        self._wake.clear()

    async def run_once(self) -> int:
        """Claim what is due now, send it, record how it went; returns how many were sent."""
        now = self.clock()
        claimed = await to_thread.run_sync(self._claim, now)
        await asyncio.gather(*(self._deliver(c) for c in claimed))
        return len(claimed)

    def _claim(self, now: datetime) -> list[Claimed]:
        with Session(self.reader) as session, session.begin():
            if not anything_due(session, now):
                return []
        with Session(self.engine) as session, session.begin():
            return claim_due(session, self.name, now, self.concurrency, LEASE)

    def _finish(self, claimed: Claimed, attempt: Attempt) -> str:
        with Session(self.engine) as session, session.begin():
            return finish_attempt(session, claimed, self.name, attempt)

    async def _deliver(self, claimed: Claimed) -> None:
        started = time.monotonic()
        code, error = await self._send(claimed)
        ms = round((time.monotonic() - started) * 1000)
        attempt = Attempt(self.clock(), code, error, ms)
        status = await to_thread.run_sync(self._finish, claimed, attempt)
        log.info(
            "webhook delivery %s (%s) attempt %d: %s -> %s",
            claimed.key,
            claimed.event,
            claimed.attempts + 1,
            code or error,
            status,
        )

    async def _send(self, claimed: Claimed) -> tuple[int | None, str | None]:
        """POST the delivery; its status code, or None and what went wrong."""
        content = body(claimed.payload, self.public_base, _link)
        headers = {
            "Content-Type": "application/json",
            "User-Agent": USER_AGENT,
            "X-Atlas-Event": claimed.event,
            "X-Atlas-Delivery": claimed.key,
            "X-Atlas-Signature-256": signature(claimed.secret, content),
        }
        try:
            url, extensions = await self._pinned(claimed.url, headers)
            async with self.client.stream(
                "POST", url, content=content, headers=headers, extensions=extensions
            ) as response:
                # The body is never read: the status code is the whole answer.
                return response.status_code, _error_of(response.status_code)
        except RefusedAddressError as exc:
            return None, str(exc)[:300]
        except (httpx.HTTPError, OSError) as exc:
            return None, f"{type(exc).__name__}: {exc}"[:300] or type(exc).__name__

    async def _pinned(self, url: str, headers: dict[str, str]) -> tuple[str, dict[str, Any]]:
        """The URL with its host replaced by an address checked just now (so the connection
        goes where the check looked, whatever the name resolves to a moment later), the Host
        header and TLS name kept as the receiver's."""
        parts = urlsplit(url)
        host = parts.hostname or ""
        port = parts.port or (443 if parts.scheme == "https" else 80)
        try:
            addresses = await self.resolver(host, port)
        except OSError as exc:
            raise RefusedAddressError(f"{host} does not resolve: {exc}") from exc
        if not addresses:
            raise RefusedAddressError(f"{host} does not resolve")
        if not self.allow_private:
            check_addresses(host, addresses)
        address = addresses[0]
        literal = f"[{address}]" if ":" in address else address
        headers["Host"] = parts.netloc.rpartition("@")[2]
        pinned = urlunsplit(parts._replace(netloc=f"{literal}:{port}"))
        return pinned, {"sni_hostname": host} if parts.scheme == "https" else {}


def _error_of(code: int) -> str | None:
    return None if 200 <= code < 300 else f"HTTP {code}"


def _link(revision: Mapping[str, Any]) -> str | None:
    """Where to see what a revision changed, relative to the site (app/present/change_words)."""
    view = RevisionView(
        id=0,
        at=revision["at"],
        actor=revision["actor"],
        user_id=None,
        entity=revision["entity"],
        key=revision["key"],
        system=revision.get("system"),
        action=revision["action"],
        before=revision.get("before"),
        after=revision.get("after"),
        message=revision.get("message"),
    )
    return describe(view, Names()).link
