"""The scoring rules on a small made-up data set (no database): each test pins one behaviour."""

from typing import Any

from app.decision.engine import Answers, Candidate, ClaimRef, RuleSpec, rank, recommend
from app.decision.explain import why_not
from app.schemas import SourceRef

OLD = SourceRef(slug="old", short="Old", title="Old article", date="2026-01")
MID = SourceRef(slug="mid", short="Mid", title="Mid article", date="2026-03")
NEW = SourceRef(slug="new", short="New", title="New article", date="2026-06")
SOURCES = {"old": OLD, "mid": MID, "new": NEW}


def system(slug: str, claims: dict[str, dict[str, str]] | None = None, **extra: Any) -> Candidate:
    """A candidate with `claims` as capability -> {source slug: level}."""
    by_cap = {
        cap: [ClaimRef(level, SOURCES[src]) for src, level in levels.items()]
        for cap, levels in (claims or {}).items()
    }
    levels = {cap: max(cs, key=lambda c: c.source.date).level for cap, cs in by_cap.items()}
    return Candidate(
        slug=slug,
        name=slug.upper(),
        kind=extra.get("kind", "engine"),
        licence_family=extra.get("licence", "permissive"),
        levels=levels,
        evidence={c: [x.source for x in cs] for c, cs in by_cap.items()},
        licence_sources=[],
        summary_sources=[OLD],
        claims=by_cap,
        licences=extra.get("licences", []),
    )


def rule(
    slug: str,
    when: dict[str, list[str]],
    systems: list[str],
    weight: float = 3,
    source: SourceRef = NEW,
    effect: str = "boost",
    **extra: Any,
) -> RuleSpec:
    return RuleSpec(
        slug=slug,
        when=when,
        systems=systems,
        requires=extra.pop("requires", None),
        effect=effect,
        weight=weight,
        reason=f"{slug} ({{name}})",
        source=source,
        **extra,
    )


CUDA = {"nvidia-cuda": {"new": "yes"}}


def scores(answers: Answers, cands: list[Candidate], rules: list[RuleSpec]) -> dict[str, float]:
    return {p.slug: p.score for p in rank(answers, cands, rules).ranked}


def test_no_source_says_is_unknown_never_a_reason_against() -> None:
    cands = [system("a", CUDA), system("b"), system("c", {"nvidia-cuda": {"new": "no"}})]
    result = rank({"hardware": ("nvidia-datacenter",)}, cands, [])
    ranked = {p.slug: p for p in result.ranked}
    assert set(ranked) == {"a", "b"}, "only the explicit 'no' rules a system out"
    assert ranked["b"].confidence == "low" and ranked["b"].unknowns
    assert all(r.weight >= 0 for r in ranked["b"].reasons)
    assert [e.slug for e in result.excluded] == ["c"]


def test_a_requirement_rules_out_only_on_an_explicit_no() -> None:
    needs = rule(
        "need-api",
        {"needs": ["openai-api"]},
        [],
        0,
        effect="exclude",
        requires={"lacking": {"capability": "openai-api"}},
    )
    cands = [
        system("has", {"openai-api": {"new": "yes"}}),
        system("silent"),
        system("lacks", {"openai-api": {"new": "no"}}),
    ]
    result = rank({"needs": ("openai-api",)}, cands, [needs])
    assert [e.slug for e in result.excluded] == ["lacks"]
    silent = next(p for p in result.ranked if p.slug == "silent")
    assert silent.unknowns and "No source says" in silent.unknowns[0].text


def test_the_same_advice_counts_once_with_a_small_capped_bonus() -> None:
    advice = [
        rule(f"x-{s.slug}", {"scale": ["production"]}, ["x"], w, s, advice="x-default")
        for s, w in ((NEW, 3), (MID, 1), (OLD, 1))
    ]
    other = rule("y-specific", {"scale": ["production"]}, ["y"], 3, MID)
    result = rank({"scale": ("production",)}, [system("x"), system("y")], [*advice, other])
    x = next(p for p in result.ranked if p.slug == "x")
    assert x.score == 3.5, "3 for the strongest, 0.25 for each of two more sources"
    assert {a.slug for a in x.reasons[0].also} == {"mid", "old"}


def test_advice_matching_more_answers_outranks_generic_advice() -> None:
    generic = rule("generic", {"scale": ["production"]}, ["x"])
    specific = rule("specific", {"scale": ["production"], "workload": ["rag"]}, ["y"])
    got = scores(
        {"scale": ("production",), "workload": ("rag",)},
        [system("x"), system("y")],
        [generic, specific],
    )
    assert got["y"] > got["x"]


def test_a_default_gives_way_to_advice_using_a_question_it_ignores() -> None:
    default = rule("default", {"scale": ["production"]}, ["x"], fallback=True)
    gaudi = rule("gaudi", {"hardware": ["intel-gaudi"]}, ["y"])
    answers = {"scale": ("production",), "hardware": ("intel-gaudi",)}
    result = rank(answers, [system("x"), system("y")], [default, gaudi])
    x = next(p for p in result.ranked if p.slug == "x")
    assert result.ranked[0].slug == "y" and x.score == 0.75, "a default keeps a quarter"
    assert x.reasons[0].kind == "set-aside"


def test_half_known_rules_count_in_part_and_contradicted_ones_never() -> None:
    both = rule("both", {"hardware": ["apple-silicon"], "workload": ["agents"]}, ["x"], 2)
    cands = [system("x")]
    open_ = rank({"hardware": ("apple-silicon",)}, cands, [both]).ranked[0]
    assert open_.score == 1.0 and open_.reasons[0].known == 0.5
    shut = rank({"hardware": ("apple-silicon",), "workload": ("rag",)}, cands, [both]).ranked[0]
    assert shut.score == 0 and not shut.reasons


def test_a_broad_answer_meets_a_fine_condition_in_part() -> None:
    instinct = rule("instinct", {"hardware": ["amd-instinct"]}, ["x"], 2)
    broad = rule("any-amd", {"hardware": ["amd-gpu"]}, ["y"], 2)
    amd = {"amd-rocm": {"new": "yes"}}
    got = scores(
        {"hardware": ("amd-gpu",)}, [system("x", amd), system("y", amd)], [instinct, broad]
    )
    assert got == {"y": 3.0, "x": 2.0}, "half of 'Instinct' is known from 'AMD, either kind'"
    fine = scores({"hardware": ("amd-radeon",)}, [system("y", amd)], [broad])
    assert fine == {"y": 3.0}, "a rule for any AMD GPU holds for a Radeon"


def test_a_disputed_claim_counts_by_how_many_and_how_recent() -> None:
    penalty = rule(
        "recomputes",
        {"workload": ["rag"]},
        ["x"],
        2,
        OLD,
        effect="penalty",
        rests_on={"capability": "prefix-caching", "levels": ["no"]},
    )
    disputed = system("x", {"prefix-caching": {"old": "no", "mid": "yes", "new": "yes"}})
    agreed = system("x", {"prefix-caching": {"old": "no"}})
    weak = rank({"workload": ("rag",)}, [disputed], [penalty]).ranked[0].reasons[0]
    full = rank({"workload": ("rag",)}, [agreed], [penalty]).ranked[0].reasons[0]
    assert full.weight == -2 and full.disputed is None
    assert -1 < weak.weight < 0 and weak.disputed and "Old" in weak.disputed


def test_ties_are_reported_and_ordered_by_the_sourced_default() -> None:
    order = [
        rule("default-z", {}, ["zeta"], 3, effect="default"),
        rule("default-a", {}, ["alpha"], 1, effect="default"),
    ]
    result = rank({"interface": ("api",)}, [system("alpha"), system("zeta")], order)
    assert [p.slug for p in result.ranked] == ["zeta", "alpha"], "not name order"
    assert result.first_by == "default-order"
    assert result.tie and result.tie.slugs == ["zeta", "alpha"] and result.tie.no_advice
    assert result.tie.order and result.tie.order[0].source == "new"


def test_sources_that_disagree_are_named() -> None:
    one = rule("x-first", {"scale": ["production"]}, ["x"], 3, NEW)
    two = rule("y-first", {"scale": ["production"]}, ["y"], 2, OLD)
    result = rank({"scale": ("production",)}, [system("x"), system("y")], [one, two])
    assert result.differ == ["x", "y"]
    assert result.sources_differ and "favoured by New," in result.sources_differ
    assert result.sources_differ.endswith("by Old.")


def test_what_would_change_keeps_the_givens_and_says_when_nothing_would() -> None:
    mac = {"apple-silicon": {"new": "yes"}}
    rules = [
        rule("mac-x", {"hardware": ["apple-silicon"]}, ["x"], 2),
        rule("gaudi-y", {"hardware": ["intel-gaudi"]}, ["y"]),
        rule("gui-y", {"interface": ["gui"]}, ["y"]),
    ]
    cands = [system("x", mac), system("y", mac | {"intel-gaudi": {"new": "yes"}})]
    result = recommend({"hardware": ("apple-silicon",)}, cands, rules)
    assert result.changes and all(c.question != "hardware" for c in result.changes)
    assert {(c.question, c.option) for c in result.changes} == {("interface", "gui")}
    alone = recommend({"hardware": ("apple-silicon",)}, cands, rules[:2])
    assert alone.changes == [] and alone.nothing_single_changes


def test_an_answer_that_moves_nothing_is_reported() -> None:
    result = recommend(
        {"scale": ("production",), "interface": ("api",)},
        [system("x")],
        [rule("prod", {"scale": ["production"]}, ["x"])],
    )
    assert [u.question for u in result.unused_answers] == ["interface"]


def test_why_not_lists_both_sides_and_what_the_leader_has() -> None:
    rules = [
        rule("x-up", {"scale": ["production"]}, ["x"]),
        rule("y-up", {"scale": ["production"]}, ["y"], 1),
        rule("y-down", {"scale": ["production"]}, ["y"], 1, effect="penalty"),
    ]
    result = rank({"scale": ("production",)}, [system("x"), system("y")], rules)
    why = why_not(result, "y")
    assert why and why.position == 2 and why.leader == "x" and why.behind_by == 3
    assert [r.rule for r in why.reasons_for] == ["y-up"]
    assert [r.rule for r in why.reasons_against] == ["y-down"]
    assert [r.rule for r in why.leader_only] == ["x-up"]
    assert why_not(result, "nobody") is None


def test_a_must_have_rules_out_and_never_lifts_once_the_main_criteria_are_answered() -> None:
    """The issue-23 case: an H100 production team asks for throughput and ticks "OpenAI-compatible
    API"; a source's "LocalAI for OpenAI drop-ins" must not lift LocalAI above the others."""
    fast = rule("fast", {"priority": ["throughput"]}, ["vllm", "sglang"], 2)
    drop_in = rule("drop-in", {"needs": ["openai-api"]}, ["localai"], 3)
    needs = rule(
        "need-api",
        {"needs": ["openai-api"]},
        [],
        0,
        effect="exclude",
        requires={"lacking": {"capability": "openai-api"}},
    )
    api = {"openai-api": {"new": "yes"}}
    cands = [
        system("vllm", {**CUDA, **api}),
        system("sglang", CUDA),
        system("localai", {**CUDA, **api}),
        system("ollama", {**CUDA, "openai-api": {"new": "no"}}),
    ]
    rules = [fast, drop_in, needs]
    main = {"hardware": ("nvidia-datacenter",), "priority": ("throughput",)}
    without = scores(main, cands, rules)
    result = rank({**main, "needs": ("openai-api",)}, cands, rules)
    # Ruled out where a source says "no"; the rest keep exactly their scores and order.
    assert [e.slug for e in result.excluded] == ["ollama"]
    assert {p.slug: p.score for p in result.ranked} == {
        k: v for k, v in without.items() if k != "ollama"
    }
    # Unknown for this need where no source says.
    sglang = next(p for p in result.ranked if p.slug == "sglang")
    assert any("openai" in u.text.lower() or "has this" in u.text for u in sglang.unknowns)
    # Asked alone, the need is the main criterion: the source's pick for it leads.
    alone = rank({"needs": ("openai-api",)}, cands, rules)
    assert alone.ranked[0].slug == "localai"
