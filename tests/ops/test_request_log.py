"""Request ids and the one log line per request: fields, JSON, and nothing secret in it."""

import io
import json
import logging
import threading
import time
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from app.ops.logs import (
    REQUEST_ID,
    JsonFormatter,
    NonBlockingHandler,
    RequestIdFilter,
    logging_config,
)
from app.ops.observe import loggable_query


@pytest.fixture
def json_lines() -> Iterator[io.StringIO]:
    """What the request log writes, through the JSON formatter that LOG_FORMAT=json uses."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    handler.addFilter(RequestIdFilter())
    logger = logging.getLogger("inference_atlas.access")
    logger.addHandler(handler)
    level = logger.level
    logger.setLevel(logging.INFO)
    yield stream
    logger.removeHandler(handler)
    logger.setLevel(level)


def records(stream: io.StringIO) -> list[dict]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def test_every_response_carries_a_request_id(ops_client: TestClient) -> None:
    first = ops_client.get("/sources").headers["x-request-id"]
    second = ops_client.get("/sources").headers["x-request-id"]
    assert len(first) == 32 and first != second
    # Also on answers made before any route runs.
    assert ops_client.get("/matrix", headers={"Host": "evil.example"}).headers["x-request-id"]


@pytest.mark.parametrize(
    ("sent", "kept"),
    [
        ("3f2a9c1e-8d4b-4f6a-9e2d-1c5b7a0f3e9d", True),
        ("caddy.abc:42", True),
        ("has spaces in it", False),
        ("x" * 129, False),
        ("", False),
    ],
)
def test_a_sane_incoming_request_id_is_kept(ops_client: TestClient, sent: str, kept: bool) -> None:
    echoed = ops_client.get("/healthz", headers={"X-Request-ID": sent}).headers["x-request-id"]
    assert (echoed == sent) is kept
    assert len(echoed) <= 128 and " " not in echoed


def test_one_json_line_per_request(ops_client: TestClient, json_lines: io.StringIO) -> None:
    response = ops_client.get("/systems/vllm?diff=1", headers={"X-Request-ID": "req-123"})
    [line] = records(json_lines)
    assert line["level"] == "info" and line["logger"] == "inference_atlas.access"
    assert line["request_id"] == response.headers["x-request-id"] == "req-123"
    assert (line["method"], line["route"], line["path"]) == (
        "GET",
        "/systems/{slug}",
        "/systems/vllm",
    )
    assert (line["status"], line["query"], line["user"]) == (200, "diff=1", None)
    assert line["client"] == "testclient"
    assert 0 < line["duration_ms"] < 60_000
    assert line["time"].endswith("Z")


def test_no_secrets_in_the_log_line(
    ops_client: TestClient, json_lines: io.StringIO, ada_token: str
) -> None:
    secrets = [ada_token, "cookie-value-s3cret", "p4ssw0rd-in-query", "tok-in-query"]
    headers = {
        "Authorization": f"Bearer {ada_token}",
        "Cookie": "atlas_session=cookie-value-s3cret",
    }
    url = "/sources?password=p4ssw0rd-in-query&api_token=tok-in-query&q=plain"
    assert ops_client.get(url, headers=headers).status_code == 200
    raw = json_lines.getvalue()
    [line] = records(json_lines)
    assert line["user"] == "ada"  # who asked is known, how they proved it is not written
    assert not [s for s in secrets if s in raw]
    assert "q=plain" in line["query"] and "password=%5Bredacted%5D" in line["query"]


def test_server_errors_are_logged_as_errors(
    ops_client: TestClient, json_lines: io.StringIO
) -> None:
    ops_client.get("/healthz")
    assert records(json_lines)[0]["level"] == "info"
    fresh = ops_client.app.state.fresh_version  # type: ignore[attr-defined]
    read = fresh._read

    def down() -> str:
        raise OSError("database is locked")

    fresh._read = down
    try:
        assert ops_client.get("/healthz").status_code == 503
    finally:
        fresh._read = read
    assert records(json_lines)[1]["level"] == "error"


def test_app_records_carry_the_request_id_and_tracebacks() -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    handler.addFilter(RequestIdFilter())
    logger = logging.getLogger("tests.ops.app-record")
    logger.addHandler(handler)
    token = REQUEST_ID.set("abc-1")
    try:
        try:
            raise ValueError("boom")
        except ValueError:
            logger.error("it broke for %s", "us", exc_info=True)
    finally:
        REQUEST_ID.reset(token)
        logger.removeHandler(handler)
    line = json.loads(stream.getvalue())
    assert (line["message"], line["request_id"], line["level"]) == (
        "it broke for us",
        "abc-1",
        "error",
    )
    assert "ValueError: boom" in line["exception"]


def test_the_access_log_can_be_switched_off(ops_url: str, json_lines: io.StringIO) -> None:
    from tests.accounts.conftest import build_app

    with TestClient(build_app(ops_url, access_log=False)) as client:
        assert client.get("/healthz").headers["x-request-id"]
    assert json_lines.getvalue() == ""


def test_query_redaction_covers_secret_looking_keys() -> None:
    assert loggable_query("need=prefix-caching&hw=rocm") == "need=prefix-caching&hw=rocm"
    assert (
        loggable_query("token=a&API_KEY=b&x=1") == "token=%5Bredacted%5D&API_KEY=%5Bredacted%5D&x=1"
    )
    assert len(loggable_query("q=" + "x" * 5000)) == 1024


def test_uvicorn_access_log_is_replaced_not_doubled() -> None:
    config = logging_config("json")
    assert config["loggers"]["uvicorn.access"] == {
        "handlers": [],
        "level": "WARNING",
        "propagate": False,
    }
    assert config["formatters"]["main"]["()"] == "app.ops.logs.JsonFormatter"
    assert logging_config("text")["formatters"]["main"]["()"] == "uvicorn.logging.DefaultFormatter"


def test_the_request_log_never_waits_for_a_stalled_stream() -> None:
    """A reader of standard error that stops reading (a full pipe) must not stop requests:
    lines queue, past the capacity they are dropped and counted, nothing blocks."""
    release = threading.Event()

    class StalledStream(io.StringIO):
        def write(self, text: str) -> int:
            release.wait(10)
            return super().write(text)

    stream = StalledStream()
    handler = NonBlockingHandler(capacity=3, stream=stream)
    logger = logging.getLogger("tests.nonblocking")
    logger.propagate, logger.level = False, logging.INFO
    logger.addHandler(handler)
    try:
        started = time.monotonic()
        for n in range(10):
            logger.info("line %d", n)  # returns at once although nothing can be written
        assert time.monotonic() - started < 1
        assert handler.dropped >= 10 - 3 - 1  # one may be in the writer's hands already
        release.set()
        while not handler.queue.empty():
            time.sleep(0.01)
        logger.info("after")  # the next line written says how many were lost
        handler.stop()  # drains what is left
    finally:
        logger.removeHandler(handler)
    written = stream.getvalue()
    assert written.count("line ") <= 4 and "line 0" in written
    assert "request log lines were dropped" in written and written.endswith("after\n")
