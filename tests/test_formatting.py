import pytest

from app.present.formatting import age, figure
from app.schemas import BenchmarkView


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


@pytest.mark.parametrize(
    ("value", "low", "high", "unit", "qualifier", "shown"),
    [
        (850.0, None, None, "ms", "exact", "850 ms"),
        (999.0, None, None, "ms", "exact", "999 ms"),
        (1000.0, None, None, "ms", "exact", "1 s"),
        (2350.0, None, None, "ms", "approx", "~2.35 s"),
        (None, 800.0, 12400.0, "ms", "exact", "0.8–12.4 s"),
        (None, 200.0, 900.0, "ms", "exact", "200–900 ms"),
        (2300.0, None, None, "tok/s", "exact", "2,300 tok/s"),
    ],
)
def test_latencies_past_a_second_read_in_seconds(
    value: float | None,
    low: float | None,
    high: float | None,
    unit: str,
    qualifier: str,
    shown: str,
) -> None:
    result = BenchmarkView.model_construct(
        value=value, low=low, high=high, unit=unit, qualifier=qualifier
    )
    assert figure(result) == shown
