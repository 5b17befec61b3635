"""Read models memoised per data version: computed once, recomputed after a change."""

from pathlib import Path

from sqlalchemy import Engine
from sqlmodel import Session

from app.data_version.version import per_version
from app.seeding.prepare import seed


def test_memo_is_per_data_version(empty_engine: Engine, seed_copy: Path) -> None:
    calls: list[str] = []

    @per_version(max_entries=4)
    def name_of(session: Session, slug: str) -> str:
        calls.append(slug)
        return slug.upper()

    seed(empty_engine, seed_copy)
    with Session(empty_engine) as session:
        assert name_of(session, "vllm") == "VLLM"
        assert name_of(session, "vllm") == "VLLM"
    assert calls == ["vllm"]
    seed(empty_engine, seed_copy)  # a new data version
    with Session(empty_engine) as session:
        name_of(session, "vllm")
        for slug in ("a", "b", "c", "d"):
            name_of(session, slug)
        name_of(session, "vllm")  # pushed out by the four newer entries
    assert calls == ["vllm", "vllm", "a", "b", "c", "d", "vllm"]
