"""What a revision changed, field by field, as short text (pure: no database)."""

import datetime as dt
from typing import Any

from app.present.change_words import MAX_VALUE_CHARS, field_changes
from app.schemas import RevisionView


def revision(before: dict[str, Any] | None, after: dict[str, Any] | None) -> RevisionView:
    return RevisionView(
        id=1,
        at=dt.datetime(2026, 1, 1, tzinfo=dt.UTC),
        actor="ann",
        user_id=None,
        entity="claim",
        key="k",
        system=None,
        action="update",
        before=before,
        after=after,
        message=None,
    )


def changes(before: dict[str, Any] | None, after: dict[str, Any] | None) -> list[tuple]:
    return [(c.field, c.before, c.after) for c in field_changes(revision(before, after))]


def test_only_fields_that_differ() -> None:
    assert changes({"a": 1, "b": "x", "c": True}, {"a": 1, "b": "y", "c": False}) == [
        ("b", "x", "y"),
        ("c", "yes", "no"),
    ]
    assert changes({"a": 1}, {"a": 1}) == []


def test_created_and_deleted_items_show_every_field_on_their_side() -> None:
    assert changes(None, {"level": "yes", "value": 2.0}) == [
        ("level", None, "yes"),
        ("value", None, "2"),
    ]
    assert changes({"level": "no"}, None) == [("level", "no", None)]
    assert changes({"note": "gone"}, {"level": "yes"}) == [
        ("note", "gone", None),
        ("level", None, "yes"),
    ]


def test_lists_show_the_entries_removed_and_added() -> None:
    a, b, c = {"text": "A", "source": "s"}, {"text": "B", "source": "s"}, {"text": "C"}
    assert changes({"best_for": [a, b]}, {"best_for": [a, c]}) == [
        ("best_for", "text: B, source: s", "text: C")
    ]
    assert changes({"best_for": [a, b]}, {"best_for": [b, a]}) == [
        ("best_for", "(the same entries in another order)", "(reordered)")
    ]
    assert changes({"tags": ["x"]}, {"tags": ["x", "y"]}) == [("tags", None, "y")]


def test_long_values_are_cut_short_and_whitespace_folded() -> None:
    ((_, before, after),) = changes({"note": "a\n\n b " * 200}, {"note": "short"})
    assert before is not None and len(before) == MAX_VALUE_CHARS and before.endswith("…")
    assert "\n" not in before and "  " not in before
    assert after == "short"
