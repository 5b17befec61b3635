"""Log records as text (for a person at a terminal) or one JSON object a line (LOG_FORMAT=json).

`serve` hands `logging_config()` to uvicorn, so its own records (start-up, errors with their
tracebacks) and ours go through the same handler and formatter. Every record written while a
request is being answered carries that request's id (REQUEST_ID, a context variable: worker
threads started with run_in_threadpool inherit it).
"""

import atexit
import json
import logging
import logging.handlers
import queue
import sys
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any, Literal

LogFormat = Literal["json", "text"]
LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR"]

REQUEST_ID: ContextVar[str | None] = ContextVar("atlas_request_id", default=None)


class RequestIdFilter(logging.Filter):
    """Stamps each record with the id of the request being answered, if any."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = REQUEST_ID.get()
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, message, request_id, then the record's
    `fields` (the request log's method, route, status…) and any traceback."""

    def format(self, record: logging.LogRecord) -> str:
        document: dict[str, Any] = {
            "time": _timestamp(record.created),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        request_id = getattr(record, "request_id", None)
        if request_id:
            document["request_id"] = request_id
        document.update(getattr(record, "fields", None) or {})
        if record.exc_info:
            document["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            document["stack"] = self.formatStack(record.stack_info)
        return json.dumps(document, ensure_ascii=False, default=str)


class NonBlockingHandler(logging.handlers.QueueHandler):
    """The request log's handler: the record is stamped where it is logged (the filters run
    there, so the request's id is known), then queued; a thread of its own formats it and
    writes it to the stream. A slow
    reader of standard error (a full pipe, a stalled log collector) then never blocks the
    event loop. Past `capacity` lines waiting, lines are dropped, counted, and the count is
    written once the writer catches up."""

    def __init__(self, capacity: int = 10_000, stream: Any = None) -> None:
        super().__init__(queue.Queue(capacity))
        self.dropped = 0
        writer = _Writer(stream or sys.stderr, self)
        self.listener = logging.handlers.QueueListener(self.queue, writer)
        self.listener.start()
        atexit.register(self.stop)

    def stop(self) -> None:
        """Write what is queued and end the writer thread (at exit; safe to call twice)."""
        if getattr(self.listener, "_thread", None) is not None:
            self.listener.stop()

    def prepare(self, record: logging.LogRecord) -> logging.LogRecord:
        # Formatting waits for the writer thread: the record's values are plain and final.
        return record

    def enqueue(self, record: logging.LogRecord) -> None:
        try:
            self.queue.put_nowait(record)
        except queue.Full:
            self.dropped += 1


class _Writer(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes the already formatted lines; says how many were dropped since the last one."""

    def __init__(self, stream: Any, owner: NonBlockingHandler) -> None:
        super().__init__(stream)
        self.owner = owner

    def format(self, record: logging.LogRecord) -> str:
        return self.owner.format(record)  # with the formatter the configuration gave it

    def emit(self, record: logging.LogRecord) -> None:
        dropped, self.owner.dropped = self.owner.dropped, 0
        if dropped:
            notice = f"{dropped} request log lines were dropped: the log could not keep up"
            super().emit(logging.makeLogRecord({"msg": notice, "levelno": logging.WARNING}))
        super().emit(record)


def _timestamp(created: float) -> str:
    moment = datetime.fromtimestamp(created, UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def logging_config(log_format: LogFormat, level: LogLevel = "INFO") -> dict[str, Any]:
    """A dictConfig for uvicorn's `log_config`: one handler on standard error for everything.

    uvicorn's access log is silenced: the app writes its own line per request (app.ops.observe),
    with the route, duration, request id and user that uvicorn's line lacks."""
    formatter: dict[str, Any] = {"()": "app.ops.logs.JsonFormatter"}
    if log_format == "text":
        formatter = {"()": "uvicorn.logging.DefaultFormatter", "fmt": "%(levelprefix)s %(message)s"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"request_id": {"()": "app.ops.logs.RequestIdFilter"}},
        "formatters": {"main": formatter},
        "handlers": {
            "main": {
                "class": "logging.StreamHandler",
                "stream": "ext://sys.stderr",
                "formatter": "main",
                "filters": ["request_id"],
            },
            # The same lines, written by a thread of their own (never blocks a request).
            "access": {
                "()": "app.ops.logs.NonBlockingHandler",
                "stream": "ext://sys.stderr",
                "formatter": "main",
                "filters": ["request_id"],
            },
        },
        "loggers": {
            "inference_atlas.access": {"handlers": ["access"], "level": level, "propagate": False},
            "uvicorn": {"handlers": ["main"], "level": level, "propagate": False},
            "uvicorn.access": {"handlers": [], "level": "WARNING", "propagate": False},
            # Alembic announces its context at every start-up; `serve` says what it did.
            "alembic": {"level": "WARNING"},
        },
        "root": {"handlers": ["main"], "level": level},
    }
