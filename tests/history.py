"""A history of changes for tests: team users, their revisions (some hostile), written the
way every write must be, with the data version bumped in the same transaction."""

import datetime as dt
from collections.abc import Callable
from typing import Any

from sqlmodel import Session

from app.accounts import users as service
from app.data_version.version import bump_data_version
from app.db import lock_writes, make_engine, writer
from app.writes import revisions

PASSWORD = "correct horse battery staple"
HOSTILE_KEY = '<script>alert("key")</script>'
HOSTILE_MESSAGE = '<img src=x onerror=alert("message")> see <a href="javascript:alert(1)">here</a>'
HOSTILE_URL = "javascript:alert(document.cookie)"
START = dt.datetime(2026, 11, 2, 9, 30, tzinfo=dt.UTC)


def write(url: str, change: Callable[[Session], Any]) -> Any:
    """Run `change` in one write transaction that also bumps the data version."""
    engine = make_engine(url)
    try:
        with Session(writer(engine)) as session, session.begin():
            lock_writes(session)
            result = change(session)
            bump_data_version(session)
        return result
    finally:
        engine.dispose()


def users(session: Session, *names: str) -> dict[str, int]:
    """Editors with these names (made once); their ids by name."""
    out = {}
    for name in names:
        user = service.get_user(session, name) or service.add_user(
            session, name, "editor", PASSWORD
        )
        out[name] = user.id
    return out


def team_history(session: Session) -> None:
    """Five team changes, an hour apart, after the seed's own summary revision."""
    ids = users(session, "ann", "bob")
    at = iter(START + dt.timedelta(hours=h) for h in range(10))
    revisions.record(
        session,
        actor="ann",
        user_id=ids["ann"],
        entity="claim",
        action="create",
        key="vllm/speculative-decoding/our-lab",
        system_slug="vllm",
        at=next(at),
        after={"level": "yes", "note": "EAGLE-3 on our H100s"},
        message="Measured on our own cluster",
    )
    revisions.record(
        session,
        actor="bob",
        user_id=ids["bob"],
        entity="benchmark_result",
        action="update",
        key="our-lab-sglang-1",
        system_slug="sglang",
        at=next(at),
        before={"value": 2300.0, "unit": "tok/s", "hardware": "NVIDIA H100", "notes": "x" * 400},
        after={"value": 2460.0, "unit": "tok/s", "hardware": "NVIDIA H100", "notes": "y" * 400},
    )
    revisions.record(
        session,
        actor="ann",
        user_id=ids["ann"],
        entity="claim",
        action="delete",
        key="llama-cpp/vulkan/our-lab",
        system_slug="llama-cpp",
        at=next(at),
        before={"level": "partial"},
    )
    revisions.record(
        session,
        actor="seed",
        entity="system",
        action="update",
        key="vllm",
        system_slug="vllm",
        at=next(at),
        before={"name": "vLLM", "best_for": [{"text": "Serving many users", "source": "a"}]},
        after={
            "name": "vLLM",
            "best_for": [
                {"text": "Serving many users", "source": "a"},
                {"text": "Long prompts", "source": "b"},
            ],
        },
    )
    revisions.record(
        session,
        actor="bob",
        user_id=ids["bob"],
        entity="claim",
        action="withdraw",
        key=HOSTILE_KEY,
        system_slug="vllm",
        at=next(at),
        message=HOSTILE_MESSAGE,
        before={"url": "https://example.org/ok", "level": "yes"},
        after={"url": HOSTILE_URL, "level": "yes", "note": "<b>bold</b> & <i>more</i>"},
    )
