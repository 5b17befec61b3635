"""What a webhook delivery says, how it is signed and when it is tried again. Pure.

One write transaction is one event: its revisions, each named `<entity>.<action>`
(`claim.updated`, `result.created`), under the name of the whole (`import.confirmed` for a
confirmed import, `seed.reseeded` for a reseed, else its first revision's name).
"""

import hashlib
import hmac
import json
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

# The revision record's entity names, said as a reader would (a benchmark result is "result").
ENTITY_WORDS = {"benchmark_result": "result"}
ACTION_WORDS = {
    "create": "created",
    "update": "updated",
    "delete": "deleted",
    "withdraw": "withdrawn",
}
IMPORT_CONFIRMED = "import.confirmed"
RESEEDED = "seed.reseeded"
PING = "ping"
SPECIAL_EVENTS = (IMPORT_CONFIRMED, RESEEDED, PING)
EVERYTHING = "*"

MAX_REVISIONS = 50
"""Revisions one body carries at most; a bigger transaction (an import of thousands of
results) says how many there were and links to the history instead."""
MAX_BODY_BYTES = 256 * 1024
"""A body over this is sent without the revisions' before and after documents."""

RETRY_DELAYS = tuple(
    timedelta(seconds=s) for s in (10, 30, 60, 300, 900, 1800, 3600, 7200, 14400, 28800, 28800)
)
"""The wait after each failed attempt: three retries in the first two minutes (a receiver
restarting), then longer and longer ones, about a day in all; after the last, it has failed."""


def event_name(entity: str, action: str) -> str:
    """`benchmark_result`, `create` -> `result.created`."""
    return f"{ENTITY_WORDS.get(entity, entity)}.{ACTION_WORDS.get(action, action)}"


def known_events(entities: Iterable[str]) -> list[str]:
    """Every event name a receiver may ask for, given the entities revisions are kept of."""
    names = {event_name(e, a) for e in entities for a in ACTION_WORDS}
    return sorted(names) + list(SPECIAL_EVENTS)


def wants(subscribed: Sequence[str], names: Iterable[str]) -> bool:
    """Whether a receiver that asked for `subscribed` is sent an event of these names."""
    return EVERYTHING in subscribed or any(n in subscribed for n in names)


def build_payload(
    key: str,
    revisions: Sequence[Mapping[str, Any]],
    named: tuple[str, Mapping[str, Any]] | None,
    seed_actor: str,
) -> dict[str, Any]:
    """The stored payload of one transaction's event (links relative: see `body`)."""
    names = [event_name(r["entity"], r["action"]) for r in revisions]
    first = revisions[0]
    reseed = all(r["actor"] == seed_actor for r in revisions)
    event = named[0] if named else RESEEDED if reseed else names[0]
    payload: dict[str, Any] = {
        "id": key,
        "event": event,
        "events": sorted({event, *names}),
        "at": _stamp(max(r["at"] for r in revisions)),
        "actor": first["actor"],
        "revision_count": len(revisions),
        "links": {"changes": "/changes"},
    }
    if named:
        payload["subject"] = dict(named[1])
    if reseed:
        payload["summary"] = dict(sorted(Counter(names).items()))
        payload["revisions"] = []
        return payload
    payload["revisions"] = [
        _revision(r, n) for r, n in zip(revisions[:MAX_REVISIONS], names, strict=False)
    ]
    payload["truncated"] = len(revisions) > MAX_REVISIONS
    return payload


def ping_payload(key: str, at: datetime, actor: str) -> dict[str, Any]:
    """The payload of a test delivery an admin asked for."""
    return {
        "id": key,
        "event": PING,
        "events": [PING],
        "at": _stamp(at),
        "actor": actor,
        "revision_count": 0,
        "revisions": [],
        "links": {"changes": "/changes"},
    }


def _revision(r: Mapping[str, Any], name: str) -> dict[str, Any]:
    return {
        "event": name,
        "entity": r["entity"],
        "key": r["key"],
        "action": r["action"],
        "system": r.get("system_slug"),
        "actor": r["actor"],
        "at": _stamp(r["at"]),
        "message": r.get("message"),
        "before": r.get("before"),
        "after": r.get("after"),
    }


def body(
    payload: Mapping[str, Any], base: str, link: Callable[[Mapping[str, Any]], str | None]
) -> bytes:
    """The bytes sent: the payload, each revision with the `link` of what it changed, every
    link made absolute on `base` (ATLAS_PUBLIC_URL), and without the before/after documents
    when it would be over MAX_BODY_BYTES."""
    document = dict(payload)
    document["links"] = {k: base + v for k, v in payload.get("links", {}).items()}
    if "subject" in payload and payload["subject"].get("link"):
        document["subject"] = payload["subject"] | {"link": base + payload["subject"]["link"]}
    document["revisions"] = [
        r | {"link": base + path if (path := link(r)) else None}
        for r in payload.get("revisions", [])
    ]
    encoded = _encode(document)
    if len(encoded) > MAX_BODY_BYTES:
        document["revisions"] = [
            {k: v for k, v in r.items() if k not in ("before", "after")}
            for r in document["revisions"]
        ]
        document["truncated"] = True
        encoded = _encode(document)
    return encoded


def signature(secret: str, content: bytes) -> str:
    """The X-Atlas-Signature-256 header: `sha256=` and the body's HMAC-SHA256 in hex."""
    digest = hmac.new(secret.encode(), content, hashlib.sha256).hexdigest()
    return f"sha256={digest}"


def retry_at(attempts: int, now: datetime) -> datetime | None:
    """When to try again after `attempts` failed attempts; None once it has failed for good."""
    if attempts > len(RETRY_DELAYS):
        return None
    return now + RETRY_DELAYS[attempts - 1]


def _encode(document: Mapping[str, Any]) -> bytes:
    return json.dumps(document, separators=(",", ":"), ensure_ascii=False, default=str).encode()


def _stamp(at: datetime | str) -> str:
    return at if isinstance(at, str) else at.isoformat().replace("+00:00", "Z")
