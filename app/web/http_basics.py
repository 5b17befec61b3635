"""HTTP as clients expect it, for every route at once (a pure ASGI middleware).

- HEAD is answered as GET without the body (uptime checkers and link previews use it).
- A query string past the limit gets a 414 that says so, before any work is done.
- A request body past its limit (1 MB; an upload's own limit on the upload routes) gets a
  413 before any of it is read: at once when Content-Length says so, and for a chunked body
  as soon as the bytes received pass the limit (nothing past it is read, kept or parsed).
  A body that stops arriving for `body_timeout` seconds gets a 408; a client that goes away
  mid-body is noted as aborted (status 499 in the log), not as a server error.
- `/path/` redirects to `/path` with a relative Location, so the Host header is never echoed.
- Static files are gzipped when the client accepts it.
"""

import asyncio
import gzip
import hashlib
import json
import re
import time
from functools import cache
from pathlib import Path

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect
from starlette.responses import FileResponse, Response
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.web.cache import accepts_gzip

MB = 1024 * 1024
# Every request body but an upload's: JSON writes and form posts are a few KB.
DEFAULT_MAX_BODY_BYTES = 1 * MB
BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# Set in the scope when the client went away before its body was complete (logged as 499).
ABORTED = "atlas.aborted"


class BodyTooLargeError(HTTPException):
    """Raised from `receive` once a streamed body passes its limit. An HTTPException, so
    FastAPI's body parsing hands it on unchanged (any other error there becomes a 400)."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, _too_large_detail(None, limit))


class BodyTimeoutError(HTTPException):
    def __init__(self, seconds: float) -> None:
        super().__init__(408, f"The request body stopped arriving for {seconds:g} s.")


class HttpBasics:
    def __init__(
        self,
        app: ASGIApp,
        max_query_bytes: int,
        max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
        upload_limits: dict[str, int] | None = None,
        body_timeout: float = 30.0,
    ) -> None:
        self.app = app
        self.max_query_bytes = max_query_bytes
        self.max_body_bytes = max_body_bytes
        # Exact path -> limit, for the routes that take a file.
        self.upload_limits = upload_limits or {}
        self.body_timeout = body_timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        query: bytes = scope.get("query_string", b"")
        if len(query) > self.max_query_bytes:
            await _too_long(scope, send, len(query), self.max_query_bytes)
            return
        path: str = scope["path"]
        if path != "/" and path.endswith("/") and not path.startswith("/static/"):
            await _redirect_without_slash(send, scope)
            return
        if scope["method"] == "HEAD":
            await self.app({**scope, "method": "GET"}, receive, _without_body(send))
            return
        if scope["method"] in BODY_METHODS:
            await self._bounded(scope, receive, send)
            return
        await self.app(scope, receive, send)

    async def _bounded(self, scope: Scope, receive: Receive, send: Send) -> None:
        limit = self.upload_limits.get(scope["path"], self.max_body_bytes)
        declared = _content_length(scope)
        if declared is not None and declared > limit:
            await send_plain(scope, send, 413, _too_large_detail(declared, limit), _CLOSE)
            return
        received = 0
        timeout = self.body_timeout

        async def bounded_receive() -> Message:
            nonlocal received
            try:
                message = await asyncio.wait_for(receive(), timeout)
            except TimeoutError:
                raise BodyTimeoutError(timeout) from None
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLargeError(limit)
            elif message["type"] == "http.disconnect":
                scope[ABORTED] = True
            return message

        started = False

        async def noting_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, bounded_receive, noting_send)
        except ClientDisconnect:
            scope[ABORTED] = True
        except (BodyTooLargeError, BodyTimeoutError) as exc:
            # Raised where no handler turned it into a reply (a route reading its own body).
            if started:
                raise
            await send_plain(scope, send, exc.status_code, exc.detail, _CLOSE)


_CLOSE = ((b"connection", b"close"),)


def _content_length(scope: Scope) -> int | None:
    for name, value in scope["headers"]:
        if name == b"content-length":
            return int(value) if value.isdigit() else None
    return None


def _too_large_detail(length: int | None, limit: int) -> str:
    said = f"is {_size(length)}" if length is not None else "is longer than that"
    return (
        f"The request body {said}; this route reads at most {_size(limit)}. "
        "Send less at once (several requests, or a smaller file)."
    )


def _size(n: int) -> str:
    if n >= MB:
        return f"{n / MB:.1f} MB"
    return f"{n / 1024:.1f} KB" if n >= 1024 else f"{n} bytes"


def _without_body(send: Send) -> Send:
    async def send_headers_only(message: Message) -> None:
        if message["type"] != "http.response.body":
            await send(message)
        elif not message.get("more_body", False):
            await send({"type": "http.response.body", "body": b"", "more_body": False})

    return send_headers_only


async def _too_long(scope: Scope, send: Send, length: int, limit: int) -> None:
    detail = (
        f"The query string is {length} bytes long; this server reads at most {limit}. "
        "Remove some filters or values and try again."
    )
    await send_plain(scope, send, 414, detail)


async def send_plain(
    scope: Scope,
    send: Send,
    status: int,
    detail: str,
    headers: tuple[tuple[bytes, bytes], ...] = (),
) -> None:
    """An error answered before any route runs: JSON under /api, plain text elsewhere."""
    if scope["path"].startswith("/api/"):
        body, media = json.dumps({"detail": detail}).encode(), b"application/json"
    else:
        body, media = detail.encode(), b"text/plain; charset=utf-8"
    await _send(send, status, body, [(b"content-type", media), *headers])


async def _redirect_without_slash(send: Send, scope: Scope) -> None:
    """308 from `/path/` to `/path`, built from the path as sent (still percent-encoded).

    The decoded path would turn `/%5Cevil.example/` into `/\\evil.example`, which browsers
    read as `//evil.example` (another site), and `%0a` into a line break in a header. The
    raw path keeps every such byte encoded; leading slashes and backslashes collapse to one
    slash, so the target is always a path on this site."""
    raw: bytes = scope.get("raw_path") or scope["path"].encode()
    raw = raw.split(b"?", 1)[0]
    target = b"/" + _REDIRECT_UNSAFE.sub(_percent, raw).lstrip(b"/\\").rstrip(b"/")
    query: bytes = scope.get("query_string", b"")
    location = target + (b"?" + _REDIRECT_UNSAFE.sub(_percent, query) if query else b"")
    await _send(send, 308, b"", [(b"location", location)])


# Bytes a Location must not carry as they are: controls, space, backslash, non-ASCII.
_REDIRECT_UNSAFE = re.compile(rb"[\x00-\x20\x5c\x7f-\xff]")


def _percent(match: re.Match[bytes]) -> bytes:
    return b"%%%02X" % match.group()[0]


async def _send(send: Send, status: int, body: bytes, headers: list[tuple[bytes, bytes]]) -> None:
    headers = [*headers, (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


COMPRESSIBLE = ("text/", "application/javascript", "application/json", "image/svg+xml")
STATIC_ROOT = Path(__file__).resolve().parents[2] / "static"
# A static URL that names its content's hash (`?v=…`, from static_url) never changes: any
# cache may keep it a year without asking again. Without the hash: an hour, then revalidate.
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "public, max-age=3600"


@cache
def _content_hash(path: str, mtime: float) -> str:
    return hashlib.sha256((STATIC_ROOT / path).read_bytes()).hexdigest()[:12]


def static_url(path: str) -> str:
    """`/static/<path>?v=<hash of its content>`: a new URL whenever the file changes, so the
    file can be cached as immutable (templates call it as `static_url("css/app.css")`).

    Every page names a handful of assets; the file is looked at on disk at most once a
    second (a stat per asset per page was a few per cent of a page miss), which still
    follows an edit made while a development server runs."""
    now = time.monotonic()
    known = _static_urls.get(path)
    if known is not None and now - known[0] < STATIC_RECHECK_SECONDS:
        return known[1]
    try:
        mtime = (STATIC_ROOT / path).stat().st_mtime
    except OSError:
        url = f"/static/{path}"
    else:
        url = f"/static/{path}?v={_content_hash(path, mtime)}"
    _static_urls[path] = (now, url)  # one assignment: safe from several threads
    return url


STATIC_RECHECK_SECONDS = 1.0
_static_urls: dict[str, tuple[float, str]] = {}


class CompressedStaticFiles(StaticFiles):
    """Static files with negotiated gzip; each file is compressed once, in a worker thread."""

    def __init__(self, directory: Path) -> None:
        super().__init__(directory=directory)
        self._gzipped: dict[tuple[str, float], bytes] = {}

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await self._compressed_response(path, scope)
        if response.status_code == 200:
            response.headers["cache-control"] = _static_caching(path, scope)
        return response

    async def _compressed_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        accept = Headers(scope=scope).get("accept-encoding", "")
        if not isinstance(response, FileResponse) or not accepts_gzip(accept):
            return response
        if not (response.media_type or "").startswith(COMPRESSIBLE):
            return response
        mtime = response.stat_result.st_mtime if response.stat_result else 0.0
        body = await run_in_threadpool(self._compressed, str(response.path), mtime)
        headers = {k: v for k, v in response.headers.items() if k != "content-length"}
        headers |= {"content-encoding": "gzip", "vary": "Accept-Encoding"}
        return Response(body, response.status_code, headers)

    def _compressed(self, path: str, mtime: float) -> bytes:
        key = (path, mtime)
        body = self._gzipped.get(key)
        if body is None:
            body = self._gzipped[key] = gzip.compress(Path(path).read_bytes(), compresslevel=9)
        return body


def _static_caching(path: str, scope: Scope) -> str:
    """Immutable when the URL's `v` is the file's current hash, else a short public life."""
    query = scope.get("query_string", b"").decode("latin-1")
    wanted = next((v for k, _, v in (p.partition("=") for p in query.split("&")) if k == "v"), "")
    if wanted and wanted == static_url(path).partition("?v=")[2]:
        return IMMUTABLE
    return REVALIDATE
