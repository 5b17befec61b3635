"""Rendered-page cache keyed by data version and normalised query, plus ETags for 304s."""

import gzip
import hashlib
import time
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from threading import Lock

from fastapi.responses import Response
from sqlalchemy import Engine
from sqlmodel import Session

from app.queries.catalogue import data_version


@dataclass(frozen=True)
class CachedPage:
    body: bytes
    status_code: int
    media_type: str
    etag: str
    headers: dict[str, str]
    gzipped: bytes = b""

    @classmethod
    def of(
        cls, body: bytes, status_code: int, media_type: str, headers: dict[str, str]
    ) -> "CachedPage":
        """Compress once when caching; matrix pages shrink about twentyfold."""
        gzipped = gzip.compress(body, compresslevel=6)
        return cls(body, status_code, media_type, headers["ETag"], headers, gzipped)

    def respond(self, request_headers: Mapping[str, str]) -> Response:
        """This page as a response: 304 when the client has it, gzip when it accepts it."""
        if self.etag in request_headers.get("if-none-match", ""):
            return Response(status_code=304, headers=self.headers)
        body, encoding = self.for_encoding(request_headers.get("accept-encoding", ""))
        return Response(body, self.status_code, {**self.headers, **encoding}, self.media_type)

    def for_encoding(self, accept_encoding: str) -> tuple[bytes, dict[str, str]]:
        if self.gzipped and "gzip" in accept_encoding:
            return self.gzipped, {"Content-Encoding": "gzip"}
        return self.body, {}


class RenderCache:
    """A small LRU of rendered responses; entries for older data versions simply age out."""

    def __init__(self, max_entries: int = 1024) -> None:
        self._entries: OrderedDict[tuple[object, ...], CachedPage] = OrderedDict()
        self._max = max_entries
        self._lock = Lock()

    def get(self, key: tuple[object, ...]) -> CachedPage | None:
        with self._lock:
            page = self._entries.get(key)
            if page is not None:
                self._entries.move_to_end(key)
            return page

    def put(self, key: tuple[object, ...], page: CachedPage) -> None:
        with self._lock:
            self._entries[key] = page
            self._entries.move_to_end(key)
            while len(self._entries) > self._max:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


class DataVersion:
    """The data version, re-read at most once a second (a seed in another process shows up fast)."""

    def __init__(self, engine: Engine, ttl: float = 1.0) -> None:
        self._engine = engine
        self._ttl = ttl
        self._value = ""
        self._read_at = float("-inf")

    def current(self) -> str:
        now = time.monotonic()
        if now - self._read_at > self._ttl:
            with Session(self._engine) as session:
                self._value = data_version(session)
            self._read_at = now
        return self._value

    def expire(self) -> None:
        """Forget the cached value, after a write in this process."""
        self._read_at = float("-inf")


def etag_for(key: tuple[object, ...]) -> str:
    digest = hashlib.sha256(repr(key).encode()).hexdigest()[:20]
    return f'W/"{digest}"'
