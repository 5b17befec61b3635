"""Revisions: who changed what, when, from what to what. Call `record` in the transaction
that makes the change, so a change and its revision are committed (or rolled back) together,
and with them the webhook event that tells receivers of it (writes/outbox.py).
"""

import datetime as dt
from collections.abc import Mapping
from typing import Any, Literal, Required, TypedDict, Unpack, get_args

from sqlalchemy import insert
from sqlmodel import Session

from app.models import Revision
from app.writes import outbox

Action = Literal["create", "update", "delete", "withdraw"]
ACTIONS: tuple[str, ...] = get_args(Action)
SEED_ACTOR = "seed"
"""The actor of every revision a reseed writes."""

ENTITIES = (
    "dataset",
    "source",
    "capability_category",
    "capability",
    "metric",
    "system",
    "claim",
    "benchmark_result",
    "rule",
)
"""The kinds of item the seed records revisions of."""
TEAM_ENTITIES = ("note", "hardware_price", "hardware", "model", "workload")
"""Kinds only team changes make (team claims and results are `claim`, `benchmark_result`)."""
ACCOUNT_ENTITY = "user_account"
"""A change of a user's role: recorded, but never in the public history (the account list
is not for anonymous readers: it hands out names to guess passwords for)."""


class RevisionFields(TypedDict, total=False):
    """What a revision says: `record`'s and `revision_values`'s keyword arguments."""

    actor: Required[str]
    entity: Required[str]
    key: Required[str]
    action: Required[Action]
    before: Mapping[str, object] | None
    after: Mapping[str, object] | None
    system_slug: str | None
    user_id: int | None
    message: str | None
    at: dt.datetime | None


def record(session: Session, **fields: Unpack[RevisionFields]) -> Revision:
    """Add one revision to `session` (written with the caller's commit) and return it.

    `entity` names the kind of row ("system", "claim", "benchmark_result", ...) and `key`
    its stable key as text ("vllm", "vllm/prefix-caching/source-slug", a result id); `before`
    and `after` are JSON-ready documents of the row (None where it did not or no longer
    exists); `system_slug` files the change under a system's history.
    """
    values = revision_values(**fields)
    revision = Revision(**values)
    session.add(revision)
    outbox.note(session, [values])
    return revision


def record_many(session: Session, revisions: list[dict[str, Any]]) -> None:
    """Insert many revisions made by `revision_values` in one statement (an import's
    thousands of results: built one ORM object at a time they held the write lock for a
    minute)."""
    if revisions:
        session.execute(insert(Revision), revisions)
        outbox.note(session, revisions)


def revision_values(**fields: Unpack[RevisionFields]) -> dict[str, Any]:
    """One revision's column values, checked (see `record`)."""
    actor, entity, key, action = fields["actor"], fields["entity"], fields["key"], fields["action"]
    before, after = fields.get("before"), fields.get("after")
    if action not in ACTIONS:
        raise ValueError(f"unknown revision action {action!r}; allowed: {', '.join(ACTIONS)}")
    if not actor.strip():
        raise ValueError("a revision needs an actor: 'seed' or the user's name")
    if before is None and after is None:
        raise ValueError(f"revision of {entity} {key!r} has neither a before nor an after")
    return {
        "at": fields.get("at") or dt.datetime.now(dt.UTC),
        "actor": actor,
        "user_id": fields.get("user_id"),
        "entity": entity,
        "key": key,
        "system_slug": fields.get("system_slug"),
        "action": action,
        "before": None if before is None else dict(before),
        "after": None if after is None else dict(after),
        "message": fields.get("message"),
    }
