"""Results are ranked only inside one context; contexts come from the data."""

import datetime as dt

from sqlalchemy import Engine
from sqlmodel import Session

from app.params.benchmarks import BenchmarkParams
from app.queries.benchmark_page import ResultIndex, build_benchmark_page
from app.queries.benchmarks import all_results
from app.queries.contexts import group_contexts
from app.schemas import BenchmarkView, SourceRef


def page(engine: Engine, **filters):
    with Session(engine) as session:
        results = all_results(session, dt.date(2026, 11, 22))
        return build_benchmark_page(session, BenchmarkParams(**filters), ResultIndex(results))


def test_h100_table_is_one_ranked_context(engine: Engine) -> None:
    contexts = page(engine, metric=("throughput",)).contexts
    h100 = next(c for c in contexts if c.hardware == "nvidia-h100-sxm5-80gb")
    assert h100.ranked
    assert [(r.result.system, r.rank) for r in h100.results] == [
        ("tensorrt-llm", 1),
        ("sglang", 2),
        ("vllm", 3),
    ]
    assert h100.results[2].behind_best == 2780 / 2400


def test_lmdeploy_a100_and_ollama_4090_are_kept_apart(engine: Engine) -> None:
    contexts = page(engine, metric=("throughput",)).contexts
    h100 = next(c for c in contexts if c.hardware == "nvidia-h100-sxm5-80gb")
    h100_ids = {r.result.id for r in h100.results}
    assert "bis-lmdeploy-l3-70b-int4-throughput" not in h100_ids
    assert "bis-ollama-4090-throughput" not in h100_ids
    for context in contexts:
        if context.ranked:
            assert len({r.result.hardware for r in context.results}) == 1


def test_no_ranked_context_mixes_hardware_models_or_metrics(engine: Engine) -> None:
    for context in page(engine).contexts:
        if not context.ranked:
            assert context.why_not_ranked
            assert all(r.rank is None for r in context.results)
            continue
        fields = {
            (
                r.result.metric,
                r.result.hardware,
                r.result.gpus,
                r.result.model,
                r.result.precision,
                r.result.concurrency,
                r.result.workload,
            )
            for r in context.results
        }
        assert len(fields) == 1
        assert context.metric_kind == "absolute"


def test_bentoml_a100_decode_context_ranks_lmdeploy_first(engine: Engine) -> None:
    contexts = page(engine, metric=("decode-throughput",)).contexts
    eight_b = next(
        c
        for c in contexts
        if c.model == "llama-3-8b" and c.concurrency == 100 and c.hardware == "nvidia-a100-80gb"
    )
    assert eight_b.ranked and eight_b.results[0].result.system == "lmdeploy"


def view(id_: str, system: str, value: float, unit: str, hardware: str = "H100") -> BenchmarkView:
    source = SourceRef(slug="s", short="s", title="s", date="2026")
    return BenchmarkView(
        id=id_,
        system=system,
        system_name=system,
        metric="ttft",
        metric_name="TTFT",
        metric_kind="absolute",
        better="lower",
        value=value,
        low=None,
        high=None,
        qualifier="exact",
        unit=unit,
        hardware=hardware,
        model="m",
        precision=None,
        concurrency=None,
        workload="w",
        system_version=None,
        baseline=None,
        run_by=None,
        date=None,
        note=None,
        source=source,
    )


def test_units_are_normalised_before_ranking() -> None:
    [context] = group_contexts(
        [view("a", "a", 1.2, "s"), view("b", "b", 900, "ms")], {"ttft": "ms"}
    )
    assert context.unit == "ms"
    assert [(r.result.id, r.value, r.rank) for r in context.results] == [
        ("b", 900, 1),
        ("a", 1200, 2),
    ]


def test_different_hardware_is_never_ranked_together() -> None:
    contexts = group_contexts(
        [view("a", "a", 1, "s"), view("b", "b", 2, "s", "A100")], {"ttft": "s"}
    )
    assert len(contexts) == 2
    assert not any(c.ranked for c in contexts)


def test_equal_figures_share_a_rank() -> None:
    [context] = group_contexts(
        [view("a", "a", 5, "s"), view("b", "b", 5, "s"), view("c", "c", 7, "s")], {"ttft": "s"}
    )
    assert [(r.result.id, r.rank) for r in context.results] == [("a", 1), ("b", 1), ("c", 3)]


def figure(
    id_: str, system: str, metric: str, value: float, unit: str, **fields: object
) -> BenchmarkView:
    base = view(id_, system, value, unit).model_dump()
    base.update(
        metric=metric, metric_name=metric, better="higher" if "throughput" in metric else "lower"
    )
    source = SourceRef(slug=str(fields.pop("source", "s")), short="s", title="s", date="2026")
    return BenchmarkView(**{**base, **fields, "source": source})


UNITS = {"throughput": "tok/s", "ttft": "ms", "gpu-utilisation": "%"}


def test_a_scatter_point_pairs_figures_of_one_run_only() -> None:
    from app.present.context_charts import throughput_vs_ttft

    results = [
        # vLLM: the team's 0.19 throughput and an article's 0.18 TTFT: nobody measured that pair.
        figure("t1", "vllm", "throughput", 1000, "tok/s", system_version="0.19", source="team"),
        figure("f1", "vllm", "ttft", 80, "ms", system_version="0.18", source="article"),
        # SGLang and LMDeploy: both figures from one run of one source.
        figure("t2", "sglang", "throughput", 900, "tok/s", source="article"),
        figure("f2", "sglang", "ttft", 70, "ms", source="article"),
        figure("t3", "lmdeploy", "throughput", 800, "tok/s", source="article"),
        figure("f3", "lmdeploy", "ttft", 60, "ms", source="article"),
    ]
    [(_, _, chart)] = throughput_vs_ttft(group_contexts(results, UNITS))
    assert sorted(p.label for p in chart.points) == ["lmdeploy", "sglang"]


def test_utilisation_is_never_ranked_as_speed() -> None:
    from app.present.context_charts import describe_ratio

    busy = [
        figure("u1", "a", "gpu-utilisation", 90, "%", better="higher"),
        figure("u2", "b", "gpu-utilisation", 80, "%", better="higher"),
    ]
    [context] = group_contexts(busy, UNITS)
    assert not context.ranked and "not how fast" in (context.why_not_ranked or "")
    fast = [
        figure("t1", "a", "throughput", 1130, "tok/s"),
        figure("t2", "b", "throughput", 1000, "tok/s"),
    ]
    [ranked] = group_contexts(fast, UNITS)
    assert describe_ratio(ranked.results[1], ranked) == "the leader is 1.13× faster"
