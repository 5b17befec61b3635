"""Rendered pages kept by data version and request, with their ETags, gzipped once.

A repeated anonymous request is answered from memory (app/web/edge/page_cache.py); only a
miss reaches a worker thread and the database. Concurrent misses for the same key share one
build, so a crowd arriving through one shared link costs one render.
"""

import asyncio
import datetime as dt
import gzip
import hashlib
import logging
from collections.abc import Awaitable, Callable, Hashable, Mapping
from dataclasses import dataclass
from functools import cached_property

from fastapi.responses import Response
from starlette.types import Receive, Scope, Send

from app.data_version.memo import VersionedCache

# Cookie and Authorization: a signed-in user's page differs (their name, their forms), so
# no shared cache between us and them may hand it to anyone else.
VARY = (
    "HX-Request, HX-Target, HX-Boosted, HX-History-Restore-Request, Accept-Encoding, "
    "Cookie, Authorization"
)
MIN_GZIP_BYTES = 512
# Anonymous answers may be stored by browsers and shared caches, but must be revalidated on
# every use: a page kept for even a few seconds would show an editor's change undone to the
# next reader. The revalidation is a 304 on the ETag, answered from the page cache without
# the page's bytes. A signed-in user's answers stay private.
PUBLIC_CACHING = "public, no-cache"

# The request headers an anonymous page may differ by (HTMX asks for parts of a page).
HX_HEADERS = ("hx-request", "hx-target", "hx-boosted", "hx-history-restore-request")

log = logging.getLogger("inference_atlas")


def page_key(
    scope: Mapping[str, object], header: Callable[[str], str | None], today: dt.date
) -> tuple[object, ...]:
    """What an anonymous page is cached under, beside the data version: every other input a
    page depends on. The path, the query as sent, the HTMX headers, and the day (pages say
    "today" and "3 months ago"). Never the Host: absolute links come from ATLAS_PUBLIC_URL,
    so no page depends on it. `serve()` stores by this key and the page cache looks up by
    it, so the two cannot disagree."""
    query = scope.get("query_string", b"")
    assert isinstance(query, bytes)
    return (scope["path"], query.decode("latin-1"), *map(header, HX_HEADERS), today)


@dataclass(frozen=True)
class CachedPage:
    """A frozen response. A compressible body is kept only gzipped (a sixth of the memory or
    less); app/web/edge/compression.py decompresses it for a client without gzip."""

    plain: bytes | None
    status_code: int
    headers: dict[str, str]
    gzipped: bytes | None = None
    # The route's template ("/systems/{slug}") when this page is the route's whole answer,
    # so the page cache (app/web/edge/page_cache.py) may send it before routing; None when
    # the route adds to it.
    route: str | None = None

    @classmethod
    def of(
        cls, response: Response, private: bool = False, route: str | None = None
    ) -> "CachedPage":
        """Freeze a response: hash it for the ETag and compress it once.

        `private` marks a signed-in user's response: browsers may keep it, shared caches
        (proxies, CDNs) must not."""
        body = bytes(response.body)
        headers = {k: v for k, v in response.headers.items() if k.lower() != "content-length"}
        headers["etag"] = f'W/"{hashlib.sha256(body).hexdigest()[:24]}"'
        headers.setdefault("cache-control", "private, no-cache" if private else PUBLIC_CACHING)
        headers["vary"] = VARY
        if len(body) < MIN_GZIP_BYTES:
            return cls(body, response.status_code, headers, route=route)
        gzipped = gzip.compress(body, compresslevel=6)
        return cls(None, response.status_code, headers, gzipped, route)

    @property
    def body(self) -> bytes:
        return self.plain if self.plain is not None else gzip.decompress(self.gzipped or b"")

    @property
    def size(self) -> int:
        return len(self.plain or b"") + len(self.gzipped or b"") + 200

    @cached_property
    def wire(self) -> list[tuple[bytes, bytes]]:
        """The response headers as ASGI sends them, made once per page."""
        headers = {**self.headers, "content-length": str(len(self.sent))}
        if self.gzipped is not None:
            headers["content-encoding"] = "gzip"
        return [(n.lower().encode("latin-1"), v.encode("latin-1")) for n, v in headers.items()]

    @property
    def sent(self) -> bytes:
        """The body as this layer sends it (gzipped when kept so)."""
        return self.gzipped if self.gzipped is not None else (self.plain or b"")

    async def send(self, send: Send) -> None:
        """This page as ASGI messages; the edge's outer layers encode it and answer 304s."""
        start = {"type": "http.response.start", "status": self.status_code, "headers": self.wire}
        await send(start)
        await send({"type": "http.response.body", "body": self.sent})

    def respond(self) -> Response:
        """This page as a response a route returns (the same bytes and headers as `send`)."""
        return _PageResponse(self)


class _PageResponse(Response):
    def __init__(self, page: CachedPage) -> None:
        self.page = page
        self.status_code = page.status_code
        self.background = None
        self.body = page.sent
        self.raw_headers = page.wire

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.page.send(send)


NOT_MODIFIED_HEADERS = ("etag", "cache-control", "vary")


def etag_matches(if_none_match: str, etag: str) -> bool:
    """RFC 9110 weak comparison against an If-None-Match list (or `*`)."""
    if if_none_match.strip() == "*":
        return True
    wanted = etag.removeprefix("W/")
    return any(tag.strip().removeprefix("W/") == wanted for tag in if_none_match.split(","))


def accepts_gzip(accept_encoding: str) -> bool:
    """Whether gzip is acceptable: named with q > 0, or covered by `*` with q > 0."""
    weights: dict[str, float] = {}
    for item in accept_encoding.lower().split(","):
        name, _, params = item.strip().partition(";")
        weights[name.strip()] = _quality(params)
    if "gzip" in weights:
        return weights["gzip"] > 0
    return weights.get("*", 0) > 0


def _quality(params: str) -> float:
    for param in params.split(";"):
        key, _, value = param.strip().partition("=")
        if key.strip() == "q":
            try:
                return float(value)
            except ValueError:
                return 0.0
    return 1.0


class RenderCache(VersionedCache[CachedPage]):
    """Whole pages by (data version, page key): the one versioned cache (app/data_version/
    memo.py) bounded by bytes, plus shared builds: concurrent misses for one key share one
    build, so a crowd arriving through one shared link costs one render."""

    def __init__(
        self, max_bytes: int = 64 * 1024 * 1024, max_entry_bytes: int = 16 * 1024 * 1024
    ) -> None:
        # The matrix of a large team instance runs to several MB; it must still be cached.
        super().__init__(max_size=max_bytes, size_of=_page_size, max_entry_size=max_entry_bytes)
        self._building: dict[Hashable, asyncio.Future[CachedPage]] = {}
        self._followers: dict[Hashable, int] = {}

    @property
    def bytes_used(self) -> int:
        return self.size

    def has_followers(self, key: Hashable) -> bool:
        """Whether anyone besides the first asker waits for the build of `key`."""
        return self._followers.get(key, 0) > 0

    async def shared(self, key: Hashable, build: Callable[[], Awaitable[CachedPage]]) -> CachedPage:
        """Build once for everyone asking for `key` at the same time."""
        pending = self._building.get(key)
        if pending is not None:
            self._followers[key] = self._followers.get(key, 0) + 1
            return await asyncio.shield(pending)
        future: asyncio.Future[CachedPage] = asyncio.get_running_loop().create_future()
        self._building[key] = future
        try:
            page = await build()
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # the waiters, if any, re-raise it; nobody else must
            raise
        finally:
            del self._building[key]
            self._followers.pop(key, None)
        future.set_result(page)
        return page


def _page_size(page: CachedPage) -> int:
    return page.size
