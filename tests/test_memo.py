"""The one cache of things computed from the data (app/data_version/memo.py): one version
held at a time, never an older one stored over a newer, bounded, one per database."""

from pathlib import Path

from sqlalchemy import Engine
from sqlmodel import Session

from app.data_version.memo import PerDatabase, VersionedCache, is_older
from app.db import make_engine
from tests.databases import new_database_url


def test_a_value_is_found_only_under_the_version_it_was_built_from() -> None:
    cache: VersionedCache[str] = VersionedCache()
    cache.put("3.aa", "matrix", "built from 3")
    assert cache.get("3.aa", "matrix") == "built from 3"
    assert cache.get("4.bb", "matrix") is None


def test_a_newer_version_drops_the_old_values_as_soon_as_it_is_asked_for() -> None:
    cache: VersionedCache[str] = VersionedCache()
    cache.put("3.aa", "matrix", "old")
    cache.put("3.aa", "hardware", "old")
    assert cache.get("4.bb", "matrix") is None
    assert len(cache) == 0 and cache.version == "4.bb"


def test_a_slow_build_of_an_older_version_is_never_stored_over_a_newer_one() -> None:
    cache: VersionedCache[str] = VersionedCache()
    cache.put("5.cc", "matrix", "new")
    assert cache.put("4.bb", "matrix", "old, finished late") is False
    assert cache.get("5.cc", "matrix") == "new"
    assert cache.get("4.bb", "matrix") is None  # and a reader of the old one rebuilds
    assert cache.version == "5.cc"


def test_versions_of_another_database_replace_rather_than_compare() -> None:
    # The same count with another random part: nothing orders them, the last one wins.
    assert not is_older("5.dd", "5.cc")
    assert is_older("4.zz", "5.cc") and not is_older("6.aa", "5.cc")
    cache: VersionedCache[str] = VersionedCache()
    cache.put("5.cc", "k", "one")
    assert cache.put("5.dd", "k", "two") is True
    assert cache.get("5.dd", "k") == "two" and cache.get("5.cc", "k") is None


def test_the_bound_is_in_the_units_the_caller_measures() -> None:
    cache: VersionedCache[bytes] = VersionedCache(max_size=10, size_of=len, max_entry_size=8)
    cache.put("1.a", "a", b"12345")
    cache.put("1.a", "b", b"1234")
    assert cache.size == 9
    cache.put("1.a", "c", b"123")  # 12 > 10: the least recently used goes
    assert cache.get("1.a", "a") is None and cache.size == 7
    assert cache.put("1.a", "huge", b"123456789") is False  # bigger than one entry may be
    assert cache.get("1.a", "huge") is None


def test_none_is_a_value_that_is_kept() -> None:
    cache: VersionedCache[str | None] = VersionedCache()
    calls = []

    def build() -> None:
        calls.append(1)

    assert cache.get_or_build("1.a", "missing system", build) is None
    assert cache.get_or_build("1.a", "missing system", build) is None
    assert calls == [1]


def test_each_database_has_its_own_cache(tmp_path: Path) -> None:
    engines: list[Engine] = [
        make_engine(new_database_url(tmp_path, name)) for name in ("one", "two")
    ]
    memos: PerDatabase[int] = PerDatabase(lambda: VersionedCache())
    with Session(engines[0]) as first, Session(engines[1]) as second:
        assert memos.of(first) is not memos.of(second)
        assert memos.of(first) is memos.of(Session(engines[0]))
    assert len(memos.caches()) == 2
    for engine in engines:
        engine.dispose()
