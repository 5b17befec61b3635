"""Revisions: who changed what, when, from what to what. Call `record` in the transaction
that makes the change, so a change and its revision are committed (or rolled back) together.
"""

import datetime as dt
from collections.abc import Mapping
from typing import Any, Literal, get_args

from sqlalchemy import insert
from sqlmodel import Session

from app.models import Revision

Action = Literal["create", "update", "delete", "withdraw"]
ACTIONS: tuple[str, ...] = get_args(Action)
SEED_ACTOR = "seed"
"""The actor of every revision a reseed writes."""

ENTITIES = ("dataset", "source", "capability_category", "capability", "metric", "system",
            "claim", "benchmark_result", "rule")  # fmt: skip
"""The kinds of item the seed records revisions of."""
TEAM_ENTITIES = ("note", "hardware_price", "hardware", "model", "workload")
"""Kinds only team changes make (team claims and results are `claim`, `benchmark_result`)."""


def record(
    session: Session,
    *,
    actor: str,
    entity: str,
    key: str,
    action: Action,
    before: Mapping[str, object] | None = None,
    after: Mapping[str, object] | None = None,
    system_slug: str | None = None,
    user_id: int | None = None,
    message: str | None = None,
    at: dt.datetime | None = None,
) -> Revision:
    """Add one revision to `session` (written with the caller's commit) and return it.

    `entity` names the kind of row ("system", "claim", "benchmark_result", ...) and `key`
    its stable key as text ("vllm", "vllm/prefix-caching/source-slug", a result id); `before`
    and `after` are JSON-ready documents of the row (None where it did not or no longer
    exists); `system_slug` files the change under a system's history.
    """
    revision = Revision(**revision_values(actor=actor, entity=entity, key=key, action=action,
                                          before=before, after=after, system_slug=system_slug,
                                          user_id=user_id, message=message, at=at))  # fmt: skip
    session.add(revision)
    return revision


def record_many(session: Session, revisions: list[dict[str, Any]]) -> None:
    """Insert many revisions made by `revision_values` in one statement (an import's
    thousands of results: built one ORM object at a time they held the write lock for a
    minute)."""
    if revisions:
        session.execute(insert(Revision), revisions)


def revision_values(
    *,
    actor: str,
    entity: str,
    key: str,
    action: Action,
    before: Mapping[str, object] | None = None,
    after: Mapping[str, object] | None = None,
    system_slug: str | None = None,
    user_id: int | None = None,
    message: str | None = None,
    at: dt.datetime | None = None,
) -> dict[str, Any]:
    """One revision's column values, checked (see `record`)."""
    if action not in ACTIONS:
        raise ValueError(f"unknown revision action {action!r}; allowed: {', '.join(ACTIONS)}")
    if not actor.strip():
        raise ValueError("a revision needs an actor: 'seed' or the user's name")
    if before is None and after is None:
        raise ValueError(f"revision of {entity} {key!r} has neither a before nor an after")
    return {
        "at": at or dt.datetime.now(dt.UTC),
        "actor": actor,
        "user_id": user_id,
        "entity": entity,
        "key": key,
        "system_slug": system_slug,
        "action": action,
        "before": None if before is None else dict(before),
        "after": None if after is None else dict(after),
        "message": message,
    }
