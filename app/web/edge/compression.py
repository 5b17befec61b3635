"""Content encoding, one place for every answer: gzip for clients that accept it, plain for
those that do not.

A page from the render cache arrives already gzipped (compressed once, in a worker thread,
when it was built) and is passed through as it is, or decompressed for a client without
gzip. Any other answer of one body message is compressed here when it is worth it; a big
one in a worker thread, since compressing megabytes on the event loop would hold up every
other request. Streamed bodies (more than one message) pass through unchanged.
"""

import gzip
from collections.abc import Callable

from anyio import to_thread
from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.web.cache import accepts_gzip

MIN_GZIP_BYTES = 512
# Above this, (de)compression runs in a worker thread.
THREAD_BYTES = 64 * 1024
COMPRESSIBLE = (
    "text/",
    "application/json",
    "application/atom+xml",
    "application/xml",
    "image/svg+xml",
    "application/javascript",
)


class Compression:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        wants_gzip = accepts_gzip(Headers(scope=scope).get("accept-encoding", ""))
        start: Message | None = None

        async def send_encoded(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                start = message
                return
            if start is None:  # not ours to judge (a second body after a finished one)
                await send(message)
                return
            held, start = start, None
            if message.get("more_body", False):
                await send(held)  # streamed: sent as it comes
                await send(message)
                start = None
                return
            await _send_one(send, held, message.get("body", b""), wants_gzip)

        await self.app(scope, receive, send_encoded)


async def _send_one(send: Send, start: Message, body: bytes, wants_gzip: bool) -> None:
    headers = MutableHeaders(raw=list(start.get("headers", ())))
    encoding = headers.get("content-encoding")
    if encoding == "gzip" and not wants_gzip:
        body = await _maybe_threaded(gzip.decompress, body)
        del headers["content-encoding"]
    elif encoding is None and wants_gzip and _worth_compressing(headers, body, start):
        body = await _maybe_threaded(lambda b: gzip.compress(b, compresslevel=6), body)
        headers["content-encoding"] = "gzip"
    else:
        await send(start)
        await send({"type": "http.response.body", "body": body})
        return
    headers["content-length"] = str(len(body))
    if "accept-encoding" not in headers.get("vary", "").lower():
        headers.append("vary", "Accept-Encoding")
    await send({**start, "headers": headers.raw})
    await send({"type": "http.response.body", "body": body})


def _worth_compressing(headers: MutableHeaders, body: bytes, start: Message) -> bool:
    media = headers.get("content-type", "")
    return (
        len(body) >= MIN_GZIP_BYTES
        and start["status"] not in (204, 304)
        and media.startswith(COMPRESSIBLE)
    )


async def _maybe_threaded(work: Callable[[bytes], bytes], body: bytes) -> bytes:
    if len(body) < THREAD_BYTES:
        return work(body)
    return await to_thread.run_sync(work, body)
