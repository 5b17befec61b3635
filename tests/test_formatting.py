import pytest

from app.present.formatting import age


@pytest.mark.parametrize(
    ("days", "shown"),
    [
        (None, ""),
        (-2, "today"),
        (0, "today"),
        (1, "1 day"),
        (6, "6 days"),
        (13, "13 days"),
        (14, "2 weeks"),
        (59, "8 weeks"),
        (61, "2 months"),
        (365, "1 year"),
        (412, "1 year 2 months"),
        (800, "2 years 2 months"),
    ],
)
def test_age_reads_as_a_person_would_say_it(days: int | None, shown: str) -> None:
    assert age(days) == shown
