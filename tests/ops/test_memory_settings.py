"""The server's allocator setting: glibc's malloc kept to two arenas (app/ops/memory.py)."""

import ctypes.util
import platform
import subprocess
import sys

import pytest

from app.ops.memory import limit_malloc_arenas
from app.schemas import ClaimView, SourceRef


def test_the_arena_limit_takes_on_glibc_only() -> None:
    # In a child: the setting lasts for the process, and this one runs the other tests.
    code = "from app.ops.memory import limit_malloc_arenas as f; print(f())"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    glibc = platform.libc_ver()[0] == "glibc"
    assert out.stdout.strip() == str(glibc)


def test_without_a_c_library_nothing_is_tried(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ctypes.util, "find_library", lambda _name: None)
    assert limit_malloc_arenas() is False


def test_views_of_one_class_share_one_set_of_field_names() -> None:
    source = SourceRef(slug="a", short="A", title="A", kind="article", date="2026-01-01")
    one = ClaimView(level="yes", strength=None, note=None, source=source)
    two = ClaimView(level="no", strength=None, note="x", source=source)
    assert one.__pydantic_fields_set__ is two.__pydantic_fields_set__
    copied = one.model_copy(update={"level": "partial"})
    assert copied.level == "partial" and one.level == "yes"
    assert copied.__pydantic_fields_set__ is one.__pydantic_fields_set__
    assert set(one.model_dump()) == set(ClaimView.model_fields)
