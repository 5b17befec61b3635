"""Throughput per GPU at a service level (app/measures/service_level.py), checked by hand."""

import pytest

from app.measures.service_level import (
    NO_FIGURES,
    NOT_MEASURED_TO,
    NOT_REACHED,
    Level,
    LevelPoint,
    at_level,
    cost_per_million,
)

# One setup at five loads: heavier loads give more per GPU and less per user.
CURVE = [
    LevelPoint("c=1", per_gpu=100, per_user=100, ttft_p99=20, tpot_p99=10),
    LevelPoint("c=4", per_gpu=300, per_user=80, ttft_p99=30, tpot_p99=12.5),
    LevelPoint("c=16", per_gpu=900, per_user=40, ttft_p99=80, tpot_p99=25),
    LevelPoint("c=64", per_gpu=1500, per_user=20, ttft_p99=400, tpot_p99=50),
    # Beaten by c=16 on both axes: off the frontier, so never interpolated through.
    LevelPoint("c=32", per_gpu=800, per_user=30, ttft_p99=None, tpot_p99=None),
]


def test_per_user_target_interpolates_between_the_two_bracketing_loads() -> None:
    # 50 lies a quarter of the way from 40 (c=16, 900) to 80 (c=4, 300): 900 - 0.25 * 600.
    found = at_level(CURVE, Level(per_user=50))
    assert found.reached and found.per_gpu == pytest.approx(750)
    assert found.between == ("c=16", "c=4")
    assert found.weights == pytest.approx((0.75, 0.25))


def test_a_dominated_load_is_not_a_bracket() -> None:
    # 35 lies between c=64 (20, 1500) and c=16 (40, 900): 1500 - 0.75 * 600 = 1050; through the
    # beaten c=32 (30, 800) it would be 850.
    found = at_level(CURVE, Level(per_user=35))
    assert found.per_gpu == pytest.approx(1050) and found.between == ("c=64", "c=16")


def test_a_measured_load_exactly_at_the_level_is_its_own_figure() -> None:
    found = at_level(CURVE, Level(per_user=40))
    assert found.per_gpu == pytest.approx(900) and found.between == ("c=16", "c=16")


def test_never_extrapolated_either_side() -> None:
    beyond = at_level(CURVE, Level(per_user=120))
    assert (beyond.reached, beyond.per_gpu, beyond.why) == (False, None, NOT_REACHED)
    assert beyond.nearest is not None and beyond.nearest.load == "c=1"
    short = at_level(CURVE, Level(per_user=10))
    assert (short.reached, short.per_gpu, short.why) == (False, None, NOT_MEASURED_TO)
    assert short.nearest is not None and short.nearest.load == "c=64"


def test_latency_ceilings() -> None:
    # p99 TTFT <= 100 ms: between c=64 (400 ms, 1500) and c=16 (80 ms, 900),
    # 300/320 of the way to c=16: 1500 - 0.9375 * 600 = 937.5.
    ttft = at_level(CURVE, Level(ttft_p99=100))
    assert ttft.per_gpu == pytest.approx(937.5) and ttft.between == ("c=64", "c=16")
    # p99 TPOT <= 30 ms: between c=64 (50, 1500) and c=16 (25, 900): 1500 - 0.8 * 600 = 1020.
    assert at_level(CURVE, Level(tpot_p99=30)).per_gpu == pytest.approx(1020)


def test_several_targets_the_tightest_one_binds() -> None:
    both = at_level(CURVE, Level(per_user=50, ttft_p99=100))
    assert both.per_gpu == pytest.approx(750) and both.binding == "per_user"
    # One target out of reach makes the whole level out of reach.
    assert not at_level(CURVE, Level(per_user=50, ttft_p99=5)).reached


def test_a_curve_without_the_metric_says_so() -> None:
    bare = [LevelPoint("c=1", 100, 50), LevelPoint("c=2", 180, 45)]
    found = at_level(bare, Level(ttft_p99=100))
    assert (found.reached, found.why) == (False, NO_FIGURES)


def test_level_description() -> None:
    assert Level(per_user=50, ttft_p99=500).describe() == (
        "per-user throughput ≥ 50 tok/s/user and p99 TTFT ≤ 500 ms"
    )
    assert not Level()


def test_cost_per_million_tokens() -> None:
    # $2.49 an hour for 750 tok/s: 2.49 / (750 * 3600) * 1e6 = $0.9222 per million tokens.
    assert cost_per_million(2.49, 750) == pytest.approx(0.922222, rel=1e-5)
    assert cost_per_million(None, 750) is None
    assert cost_per_million(2.49, None) is None and cost_per_million(2.49, 0) is None


def test_repeats_min_max_then_iqr() -> None:
    from app.measures.repeats import spread, within_noise

    three = spread([1000, 940, 1030])
    assert (three.median, three.low, three.high, three.n, three.kind) == (
        1000,
        940,
        1030,
        3,
        "min–max",
    )
    # Five runs: inclusive quartiles of 10, 20, 30, 40, 100 are 20 and 40 (the stray 100 is out).
    five = spread([40, 10, 100, 30, 20])
    assert (five.median, five.low, five.high, five.kind) == (30, 20, 40, "IQR")
    assert spread([7.0]).kind == "one run" and spread([7.0]).relative == 0
    assert within_noise(three, spread([1020, 1100])) and not within_noise(three, spread([1040]))


def test_version_steps_flag_changes_larger_than_the_spread() -> None:
    from app.measures.versions import TOO_FEW, VersionFigure, steps

    # No repeats: 10%. 1000 -> 1080 (+8%) is within it; 1080 -> 900 (-16.7%) is a regression.
    found, note = steps(
        [VersionFigure("0.9", 1000), VersionFigure("0.10", 1080), VersionFigure("0.11", 900)]
    )
    assert note == "" and [s.flag for s in found] == ["", "", "regression"]
    assert found[2].change == pytest.approx(-180 / 1080)
    # With repeats the spread is the bar: 1800 (1700–1950, 13.9% wide) -> 1900 (+5.6%) is not
    # flagged; -> 2100 (+16.7%) is an improvement.
    spread = VersionFigure("1", 1800, 1700, 1950)
    assert steps([spread, VersionFigure("2", 1900)])[0][1].flag == ""
    assert steps([spread, VersionFigure("2", 2100)])[0][1].flag == "improvement"
    assert steps([spread])[1] == TOO_FEW
    # A version that does not reach the level breaks the chain rather than counting as zero.
    gap = steps([VersionFigure("1", 1000), VersionFigure("2", None), VersionFigure("3", 500)])[0]
    assert [s.change for s in gap] == [None, None, None]


def test_measured_evidence_weighs_within_a_group_only() -> None:
    from app.decision.measured import MEASURED_WEIGHT, Measured, hardware_answers, measured_reasons
    from app.schemas import SourceRef

    team = SourceRef(
        slug="import-1", short="Our team", title="t", date="2026-11", kind="team-measurement"
    )
    h100 = "H100 · Llama · FP8"
    figures = [
        Measured("vllm", h100, "vLLM 0.11.2", 2000.0, "at ≥ 50 tok/s/user", team, cost=0.35),
        Measured("sglang", h100, "SGLang", 1500.0, "at ≥ 50 tok/s/user", team),
        # SGLang in another group too: only its best group's weight counts.
        Measured("sglang", "A100 · Llama", "SGLang", 100.0, "at ≥ 50 tok/s/user", team),
    ]
    found = measured_reasons(figures)
    assert found["vllm"][0].weight == MEASURED_WEIGHT
    assert found["sglang"][0].weight == pytest.approx(MEASURED_WEIGHT)  # alone in the A100 group
    assert "$0.35 per million output tokens" in found["vllm"][0].text
    assert measured_reasons(figures[:2])["sglang"][0].weight == pytest.approx(1.5)
    h100 = hardware_answers("NVIDIA", "NVIDIA H100 SXM5 80GB")
    assert h100 == {"nvidia-hopper-or-newer", "nvidia-datacenter"}
    assert hardware_answers("NVIDIA", "NVIDIA A100 80GB") == {
        "nvidia-before-hopper",
        "nvidia-datacenter",
    }
    assert hardware_answers("AMD", "AMD Instinct MI300X") == {"amd-instinct", "amd-gpu"}
    assert hardware_answers("NVIDIA", "GeForce RTX 4090") == {"nvidia-consumer"}


def test_goodput_share_is_a_floor_read_like_per_user() -> None:
    # Share of requests within the run's goodput targets: 100, 95, 75, 40 % at c=1..64.
    shares = {"c=1": 100.0, "c=4": 95.0, "c=16": 75.0, "c=64": 40.0}
    curve = [
        LevelPoint(p.load, p.per_gpu, p.per_user, goodput=shares.get(p.load)) for p in CURVE[:4]
    ]
    # 85 lies halfway from 75 (c=16, 900) to 95 (c=4, 300): 900 - 0.5 * 600 = 600.
    found = at_level(curve, Level(goodput=85))
    assert found.reached and found.per_gpu == pytest.approx(600)
    assert found.between == ("c=16", "c=4") and found.binding == "goodput"
    assert Level(goodput=85).describe() == "requests within the run's goodput targets ≥ 85 %"
    # A curve whose files carry no goodput does not answer; nothing is made up.
    missing = at_level(CURVE, Level(goodput=85))
    assert (missing.reached, missing.per_gpu, missing.why) == (False, None, NO_FIGURES)
