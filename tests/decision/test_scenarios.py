"""The guided flow agrees with the recommendations the five articles make."""

from pathlib import Path

import pytest
from sqlalchemy import Engine
from sqlmodel import Session

from app.queries.decide import recommendation
from app.seeding.yamlio import read_yaml

SCENARIOS = read_yaml(Path(__file__).parent / "scenarios.yaml")


def test_there_are_at_least_forty_scenarios_from_all_the_articles() -> None:
    assert len(SCENARIOS) >= 40
    cited = " ".join(str(s["source"]) for s in SCENARIOS)
    for letter in "GSOLB":
        assert letter in cited


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s["id"] for s in SCENARIOS])
def test_scenario(engine: Engine, scenario: dict) -> None:
    answers = {q: tuple(options) for q, options in scenario["answers"].items()}
    with Session(engine) as session:
        result = recommendation(session, answers)
    top = [p.slug for p in result.ranked[:2]]
    expected = scenario["expect"]
    if scenario.get("differ"):
        assert set(top) == set(expected), f"top two {top}, expected both of {expected}"
        assert result.sources_differ, "the result must say that the sources differ"
        for name in (p.name for p in result.ranked[:2]):
            assert name in result.sources_differ
    else:
        assert top[0] in expected, f"first pick {top[0]}, expected one of {expected}"
    for pick in result.ranked[:3]:
        assert all(r.source for r in pick.reasons), f"{pick.slug} has an unsourced reason"
