"""The finer options of issue 36 part 6: NVIDIA generations under `nvidia-datacenter`, and the
model's family and attention (`traits`). Pure: matching, the hardware classes, what a named
model's facts tick."""

from app.decision.engine import rank
from app.decision.matching import condition, match
from app.decision.measured import BROAD, hardware_answers
from app.decision.questions import QUESTIONS_BY_ID, broader_than, covered_by
from app.decision.traits import fill_traits, model_traits
from app.decision.wording import when_clause
from tests.decision.test_engine import CUDA, OLD, rule, system

HOPPER, OLDER, BROAD_NV = "nvidia-hopper-or-newer", "nvidia-before-hopper", "nvidia-datacenter"


def test_the_broad_nvidia_answer_covers_both_generations_and_keeps_its_id() -> None:
    assert covered_by("hardware", BROAD_NV) == (HOPPER, OLDER)
    assert broader_than("hardware", HOPPER) == (BROAD_NV,)
    assert BROAD[BROAD_NV] == (HOPPER, OLDER)  # the hardware classes read the same options
    ids = QUESTIONS_BY_ID["hardware"].option_ids()
    assert ids.index(BROAD_NV) < ids.index(HOPPER) < ids.index(OLDER)


def test_a_rule_on_the_broad_option_holds_fully_for_a_generation_and_not_the_reverse() -> None:
    on_broad, on_hopper = [BROAD_NV], [HOPPER]
    assert condition("hardware", on_broad, {"hardware": (HOPPER,)}) == 1.0
    assert condition("hardware", on_broad, {"hardware": (OLDER,)}) == 1.0
    assert condition("hardware", on_hopper, {"hardware": (BROAD_NV,)}) == 0.5
    assert condition("hardware", on_hopper, {"hardware": (OLDER,)}) is None
    half = match({"hardware": on_hopper}, {"hardware": (BROAD_NV,)})
    assert half is not None and half.known == 0.5


def test_the_generation_decides_whether_h100_advice_counts() -> None:
    cands = [system("trt", CUDA), system("vllm", CUDA)]
    rules = [rule("h100-first", {"hardware": [HOPPER]}, ["trt"], weight=3)]

    def trt(hardware: str) -> float:
        return next(
            p.score for p in rank({"hardware": (hardware,)}, cands, rules).ranked if p.slug == "trt"
        )

    assert trt(HOPPER) == 1 + 3  # runs on it, and the advice in full
    assert trt(OLDER) == 1  # an A100 is not what the source spoke of
    assert 1 < trt(BROAD_NV) < trt(HOPPER)  # unknown generation: a guess, counted in part


def test_accelerators_fall_under_their_generation_and_the_broad_answer() -> None:
    assert hardware_answers("NVIDIA", "NVIDIA H100 SXM5 80GB") == {HOPPER, BROAD_NV}
    assert hardware_answers("NVIDIA", "NVIDIA B200 SXM 180GB") == {HOPPER, BROAD_NV}
    assert hardware_answers("NVIDIA", "NVIDIA GB200") == {HOPPER, BROAD_NV}
    assert hardware_answers("NVIDIA", "NVIDIA A100 80GB") == {OLDER, BROAD_NV}
    assert hardware_answers("NVIDIA", "NVIDIA L40S") == {OLDER, BROAD_NV}
    assert hardware_answers("NVIDIA", "NVIDIA GeForce RTX 4090") == {"nvidia-consumer"}


def test_traits_are_opt_in_like_needs() -> None:
    when = {"traits": ["deepseek", "mla"]}
    assert QUESTIONS_BY_ID["traits"].multiple
    assert match(when, {}) is None, "an unticked trait is not a trait"
    assert match(when, {"traits": ("internlm",)}) is None
    met = match(when, {"traits": ("mla",)})
    assert met is not None and met.known == 1.0
    assert when_clause(when) == (
        "when you serve a DeepSeek model or a model with multi-head latent attention"
    )


def test_a_models_facts_tick_its_family_and_mla() -> None:
    assert model_traits("DeepSeek-V2", 512) == [
        ("deepseek", "is of the DeepSeek-V2 family"),
        ("mla", "has kv_lora_rank 512 in its config (latent attention)"),
    ]
    assert [o for o, _ in model_traits("InternLM3", None)] == ["internlm"]
    assert model_traits("Kimi K2", 512)[0][0] == "mla"
    assert model_traits("Llama 3.1", None) == []
    assert model_traits(None, None) == [], "no facts: nothing ticked, never a 'no'"


def test_filled_traits_keep_what_was_ticked_in_the_questions_order() -> None:
    answer, said = fill_traits(("internlm",), "DeepSeek V3", "DeepSeek", 512)
    assert answer == ("deepseek", "internlm", "mla")
    assert said is not None and "DeepSeek V3 is of the DeepSeek family" in said
    assert "“A DeepSeek model (V3, R1, V3.2)”" in said
    assert fill_traits(("mla",), "Llama 3.1 8B", "Llama 3.1", None) == (("mla",), None)


def test_a_known_version_of_the_advice_leads_over_a_stronger_guess() -> None:
    """The same advice on "H100 or newer" (3) and on any NVIDIA data-centre GPU (2): a plain
    data-centre answer knows the second in full, so it counts, not a capped guess."""
    cands = [system("trt", CUDA), system("vllm", CUDA)]
    mid = rule("fixed-any", {"needs": ["fixed-model"]}, ["trt"], weight=2, advice="fixed")
    when = {"needs": ["fixed-model"], "hardware": [HOPPER]}
    hopper = rule("fixed-h100", when, ["trt"], weight=3, source=OLD, advice="fixed")
    result = rank({"hardware": (BROAD_NV,), "needs": ("fixed-model",)}, cands, [mid, hopper])
    trt = next(p for p in result.ranked if p.slug == "trt")
    advice = next(r for r in trt.reasons if r.rule == "fixed-any")
    assert advice.known == 1.0 and advice.weight == 2 + 0.25  # known in full, and corroborated
