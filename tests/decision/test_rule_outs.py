"""Rule-outs weigh the evidence with the project's own word first (issue 37): a need met by
another capability ("split a model over GPUs" by layers) and a "no" that first-party docs
contradict never rule a system out."""

from dataclasses import replace

from app.decision.engine import rank
from app.schemas import SourceRef
from tests.decision.test_engine import NEW, OLD, SOURCES, rule, system

OWN = SourceRef(
    slug="own", short="Own docs", title="The project's docs", date="2025-06", kind="project-docs"
)
SOURCES["own"] = OWN

SPLIT = rule(
    "multi-gpu",
    {"needs": ["multi-gpu"]},
    [],
    0,
    effect="exclude",
    requires={
        "lacking": {"capability": "tensor-parallelism", "alternatives": ["pipeline-parallelism"]}
    },
)


def test_a_lacking_test_is_met_only_when_every_alternative_is_lacking() -> None:
    cands = [
        # Ollama's case: an article says no tensor parallelism, its own docs split by layers.
        system(
            "layers",
            {"tensor-parallelism": {"new": "no"}, "pipeline-parallelism": {"own": "partial"}},
        ),
        system(
            "neither", {"tensor-parallelism": {"new": "no"}, "pipeline-parallelism": {"old": "no"}}
        ),
        system("half-said", {"tensor-parallelism": {"new": "no"}}),
    ]
    result = rank({"needs": ("multi-gpu",)}, cands, [SPLIT])
    assert [e.slug for e in result.excluded] == ["neither"]
    ranked = {p.slug: p for p in result.ranked}
    assert not ranked["layers"].unknowns, "pipeline parallelism answers the need"
    assert ranked["half-said"].unknowns, "a lack not shown for every alternative is unknown"


def test_a_no_that_first_party_evidence_outweighs_never_rules_out() -> None:
    # The newer article's "no" is the headline here (the test helper takes the newest), yet
    # the project's own docs say yes: the rule-out becomes a disputed reason, not a verdict.
    lone = rule(
        "tp-only",
        {"needs": ["multi-gpu"]},
        [],
        0,
        effect="exclude",
        requires={"lacking": {"capability": "tensor-parallelism"}},
    )
    contested = system(
        "contested", {"tensor-parallelism": {"own": "yes", "new": "no", "old": "no"}}
    )
    secondary = system("secondary", {"tensor-parallelism": {"old": "yes", "new": "no"}})
    result = rank({"needs": ("multi-gpu",)}, [contested, secondary], [lone])
    assert [e.slug for e in result.excluded] == ["secondary"], "two articles: by recency"
    kept = result.ranked[0]
    assert kept.slug == "contested"
    against = [r for r in kept.reasons if r.rule == "tp-only"]
    assert against and against[0].disputed and "Own docs" in against[0].disputed
    assert "counted at 0%" in against[0].disputed


def test_first_party_no_still_rules_out_against_articles() -> None:
    lone = rule(
        "tp-only",
        {"needs": ["multi-gpu"]},
        [],
        0,
        effect="exclude",
        requires={"lacking": {"capability": "tensor-parallelism"}},
    )
    own_no = system("own-no", {"tensor-parallelism": {"own": "no", "new": "yes"}})
    levels_no = {**own_no.levels, "tensor-parallelism": "no"}  # the weighed headline
    result = rank({"needs": ("multi-gpu",)}, [replace(own_no, levels=levels_no)], [lone])
    assert [e.slug for e in result.excluded] == ["own-no"]
    assert NEW.kind == OLD.kind == "article"
