"""A real HTTP server that receives webhooks on 127.0.0.1, checks their signatures the way
docs/webhooks.md tells a receiver to, and answers with the status codes it is told to (a
receiver failing on purpose)."""

import hashlib
import hmac
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Received:
    headers: dict[str, str]
    body: bytes
    signed: bool  # the signature matched the body and the secret

    @property
    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Receiver:
    secret: str
    url: str = ""
    answers: list[int] = field(default_factory=list)  # status codes to give, then 200s
    received: list[Received] = field(default_factory=list)
    hold: threading.Event | None = None  # when set, each request waits for it

    def verify(self, body: bytes, header: str) -> bool:
        expected = "sha256=" + hmac.new(self.secret.encode(), body, hashlib.sha256).hexdigest()
        return hmac.compare_digest(expected, header)


@contextmanager
def receiving(secret: str, answers: list[int] | None = None, port: int = 0) -> Iterator[Receiver]:
    receiver = Receiver(secret, answers=list(answers or []))

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            content = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            if receiver.hold is not None:
                receiver.hold.wait(10)
            headers = {k.lower(): v for k, v in self.headers.items()}
            signed = receiver.verify(content, headers.get("x-atlas-signature-256", ""))
            receiver.received.append(Received(headers, content, signed))
            code = receiver.answers.pop(0) if receiver.answers else 200
            self.send_response(code)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    receiver.url = f"http://127.0.0.1:{server.server_address[1]}/hook"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield receiver
    finally:
        server.shutdown()
        server.server_close()
