"""Rendered responses cached by data version and request, with ETags, gzip and 304s.

A repeated request is answered from memory on the event loop; only a miss reaches a worker
thread and the database. Concurrent misses for the same key share one build, so a crowd
arriving through one shared link costs one render.
"""

import asyncio
import gzip
import hashlib
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from threading import Lock

from fastapi.responses import Response

from app.web.security_headers import SECURITY_HEADERS

# Cookie and Authorization: a signed-in user's page differs (their name, their forms), so
# no shared cache between us and them may hand it to anyone else.
VARY = (
    "HX-Request, HX-Target, HX-Boosted, HX-History-Restore-Request, Accept-Encoding, "
    "Cookie, Authorization"
)
MIN_GZIP_BYTES = 512
# Anonymous answers may be kept by browsers and by a shared cache (the Caddy in deploy/, a
# CDN) for 30 s, then served while one revalidation (a 304 on its ETag) runs, for up to 5 min:
# a crowd reading one page costs the app one request per half minute. A change made meanwhile
# shows within those 30 s (docs/deploy.md). A signed-in user's answers stay private, no-cache.
PUBLIC_CACHING = "public, max-age=30, stale-while-revalidate=300"

# The request headers an anonymous page may differ by (HTMX asks for parts of a page).
HX_HEADERS = ("hx-request", "hx-target", "hx-boosted", "hx-history-restore-request")

log = logging.getLogger("inference_atlas")


def page_key(
    scope: Mapping[str, object], header: Callable[[str], str | None]
) -> tuple[object, ...]:
    """What an anonymous page is cached under, beside the data version: the path, the query
    as sent, and the HTMX headers. `serve()` stores by it and `app.web.front` looks up by
    it, so the two cannot disagree."""
    query = scope.get("query_string", b"")
    assert isinstance(query, bytes)
    return (scope["path"], query.decode("latin-1"), *map(header, HX_HEADERS))


@dataclass(frozen=True)
class CachedPage:
    """A frozen response. A compressible body is kept only gzipped (a sixth of the memory or
    less): browsers and scripts that send Accept-Encoding get it as it is, the rest get it
    decompressed on the way out."""

    plain: bytes | None
    status_code: int
    headers: dict[str, str]
    gzipped: bytes | None = None
    # The route's template ("/systems/{slug}") when this page is the route's whole answer,
    # so app.web.front may send it without the route; None when the route adds to it.
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

    # The response headers as ASGI sends them, made once per page (app.web.front): without
    # content-length and the request id, which differ per answer.
    @cached_property
    def wire_plain(self) -> list[tuple[bytes, bytes]]:
        return _wire(self.headers)

    @cached_property
    def wire_gzipped(self) -> list[tuple[bytes, bytes]]:
        return _wire({**self.headers, "content-encoding": "gzip"})

    @cached_property
    def wire_not_modified(self) -> list[tuple[bytes, bytes]]:
        return _wire({k: v for k, v in self.headers.items() if k in NOT_MODIFIED_HEADERS})

    def respond(self, request_headers: Mapping[str, str]) -> Response:
        """This page as a response: 304 when the client has it, gzip when it accepts it."""
        if etag_matches(request_headers.get("if-none-match", ""), self.headers["etag"]):
            kept = {k: v for k, v in self.headers.items() if k in NOT_MODIFIED_HEADERS}
            return Response(status_code=304, headers=kept)
        if self.gzipped is not None and accepts_gzip(request_headers.get("accept-encoding", "")):
            headers = {**self.headers, "content-encoding": "gzip"}
            return Response(self.gzipped, self.status_code, headers)
        return Response(self.body, self.status_code, self.headers)


NOT_MODIFIED_HEADERS = ("etag", "cache-control", "vary")


def _wire(headers: Mapping[str, str]) -> list[tuple[bytes, bytes]]:
    """Latin-1 pairs, with the security headers the page does not set itself."""
    own = {name.lower() for name in headers}
    extra = [(n, v) for n, v in SECURITY_HEADERS if n not in own]
    return [
        (n.lower().encode("latin-1"), v.encode("latin-1")) for n, v in [*headers.items(), *extra]
    ]


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


@dataclass
class RenderCache:
    """An LRU of responses bounded by bytes; entries of older data versions age out."""

    max_bytes: int = 64 * 1024 * 1024
    # The matrix of a large team instance runs to several MB; it must still be cached.
    max_entry_bytes: int = 16 * 1024 * 1024
    _entries: OrderedDict[tuple[object, ...], CachedPage] = field(default_factory=OrderedDict)
    _bytes: int = 0
    _version: object = None  # the data version of every entry
    _lock: Lock = field(default_factory=Lock)
    _building: dict[tuple[object, ...], asyncio.Future[CachedPage]] = field(default_factory=dict)
    _followers: dict[tuple[object, ...], int] = field(default_factory=dict)
    # Read by /metrics; counted under the lock that get() takes anyway.
    hits: int = 0
    misses: int = 0

    def get(self, key: tuple[object, ...], count_miss: bool = True) -> CachedPage | None:
        """The page under `key`, or None. `count_miss=False` for a look that the full path
        repeats when it fails (app.web.front), so one request counts one miss."""
        with self._lock:
            page = self._entries.get(key)
            if page is None:
                self.misses += count_miss
                return None
            self.hits += 1
            self._entries.move_to_end(key)
            return page

    def __len__(self) -> int:
        return len(self._entries)

    def put(self, key: tuple[object, ...], page: CachedPage) -> None:
        """Keep `page` under `key`, whose first part is the data version. Pages of another
        version are dropped then: nothing looks them up once the version has moved on."""
        if page.size > self.max_entry_bytes:
            return
        with self._lock:
            if key[0] != self._version:
                self._entries.clear()
                self._bytes = 0
                self._version = key[0]
            old = self._entries.pop(key, None)
            self._bytes += page.size - (old.size if old else 0)
            self._entries[key] = page
            while self._bytes > self.max_bytes and self._entries:
                _, dropped = self._entries.popitem(last=False)
                self._bytes -= dropped.size

    def has_followers(self, key: tuple[object, ...]) -> bool:
        """Whether anyone besides the first asker waits for the build of `key`."""
        return self._followers.get(key, 0) > 0

    @property
    def bytes_used(self) -> int:
        return self._bytes

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._bytes = 0

    async def shared(
        self, key: tuple[object, ...], build: Callable[[], Awaitable[CachedPage]]
    ) -> CachedPage:
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
