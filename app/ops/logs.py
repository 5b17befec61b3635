"""Log records as text (for a person at a terminal) or one JSON object a line (LOG_FORMAT=json).

`serve` hands `logging_config()` to uvicorn, so its own records (start-up, errors with their
tracebacks) and ours go through the same handler and formatter. Every record written while a
request is being answered carries that request's id (REQUEST_ID, a context variable: worker
threads started with run_in_threadpool inherit it).
"""

import json
import logging
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
            }
        },
        "loggers": {
            "uvicorn": {"handlers": ["main"], "level": level, "propagate": False},
            "uvicorn.access": {"handlers": [], "level": "WARNING", "propagate": False},
            # Alembic announces its context at every start-up; `serve` says what it did.
            "alembic": {"level": "WARNING"},
        },
        "root": {"handlers": ["main"], "level": level},
    }
