"""The first data set: every system, every source, the figures and the disagreements."""

import datetime as dt
from collections import Counter
from typing import Any

import pytest
from sqlalchemy import Engine
from sqlmodel import Session, col, select

from app.models import BenchmarkResult, Claim, Hardware, LanguageModel, Source, System, SystemFact
from app.params.benchmarks import BenchmarkParams
from app.queries.benchmark_page import ResultIndex, build_benchmark_page
from app.queries.benchmarks import all_results
from app.queries.systems import get_system

pytestmark = pytest.mark.data  # the first data set itself (seed/), not the app's behaviour

PRODUCT_SLUGS = (
    "vllm",
    "sglang",
    "llama-cpp",
    "ollama",
    "lm-studio",
    "omlx",
    "mlx-lm",
    "tensorrt-llm",
    "tgi",
    "lmdeploy",
    "aphrodite",
    "mlc-llm",
    "deepspeed-mii",
    "triton",
    "ray-serve",
    "exllamav2",
    "powerinfer",
    "localai",
    "openllm",
    "ctranslate2",
    "candle",
    "docker-model-runner",
    "lemonade",
    "vllm-metal",
    "litellm",
    "olla",
)


@pytest.fixture(scope="module")
def session(real_engine: Engine):
    with Session(real_engine) as session:
        yield session


def benchmark(session: Session, slug: str) -> BenchmarkResult:
    row = session.exec(select(BenchmarkResult).where(BenchmarkResult.slug == slug)).one()
    return row


def test_every_product_slug_is_a_system(session: Session) -> None:
    slugs = set(session.exec(select(System.slug)).all())
    assert set(PRODUCT_SLUGS) <= slugs


def test_every_system_has_a_summary_best_for_and_a_source(session: Session) -> None:
    for slug in PRODUCT_SLUGS:
        detail = get_system(session, slug)
        assert detail is not None
        assert len(detail.summary) > 80, slug
        assert detail.best_for, f"{slug} has no best-for line"
        assert detail.sources, slug


ARTICLES = {
    "overview-early-2026",
    "genai-in-depth-serving-frameworks",
    "serving-engine-guide-18-tools",
    "olla-servers-compared",
    "best-inference-servers-2026",
}


def test_the_five_articles_are_sources_and_each_contributes(session: Session) -> None:
    sources = session.exec(select(Source)).all()
    claims = Counter(session.exec(select(Claim.source_id)).all())
    figures = Counter(session.exec(select(BenchmarkResult.source_id)).all())
    articles = [s for s in sources if s.kind == "article"]
    # Other articles came later (tool output quoted in issue threads, for device names).
    assert {s.slug for s in articles} >= ARTICLES, "the five the Atlas started from"
    for source in articles:
        if source.slug in ARTICLES:
            assert claims[source.id] and figures[source.id], source.slug


def test_the_first_party_docs_answer_with_their_flags(session: Session) -> None:
    """The projects' own docs (issue 21): facts read from them, each with the flag that turns
    the feature on where the docs give one (that each source names what it read and when is
    in tests/test_seed_invariants.py)."""
    vllm = cell(session, "vllm", "prefix-caching")
    [docs] = [c for c in vllm.claims if c.source.slug == "vllm-docs"]
    assert docs.level == "yes" and "--enable-prefix-caching" in (docs.how or "")
    sources = session.exec(select(Source).where(Source.kind == "project-docs")).all()
    hows = Counter(session.exec(select(Claim.source_id).where(col(Claim.how).is_not(None))).all())
    # The four docs first checked give flags, not only levels.
    first = {s.slug: hows[s.id] for s in sources if s.slug in FIRST_DOCS}  # type: ignore[index]
    assert set(first) == FIRST_DOCS and all(first.values()), first


FIRST_DOCS = {"vllm-docs", "sglang-docs", "llama-cpp-docs", "ollama-docs"}


def cell(session: Session, system: str, capability: str) -> Any:
    detail = get_system(session, system)
    assert detail is not None
    cells = {c.capability: c for g in (*detail.features, *detail.hardware) for c in g.cells}
    return cells[capability]


@pytest.mark.parametrize(
    ("slug", "value", "unit", "hardware"),
    [
        ("bis-trtllm-l70b-throughput", 2780, "tok/s", "nvidia-h100-sxm5-80gb"),
        ("bis-sglang-l70b-throughput", 2460, "tok/s", "nvidia-h100-sxm5-80gb"),
        ("bis-vllm-l70b-throughput", 2400, "tok/s", "nvidia-h100-sxm5-80gb"),
        ("bis-vllm-l70b-ttft-p50", 740, "ms", "nvidia-h100-sxm5-80gb"),
        ("bis-sglang-l70b-ttft-p95", 1380, "ms", "nvidia-h100-sxm5-80gb"),
        ("bis-lmdeploy-l3-70b-int4-throughput", 700, "tok/s", "nvidia-a100-80gb"),
    ],
)
def test_h100_table_figures_match_the_article(session, slug, value, unit, hardware) -> None:
    row = benchmark(session, slug)
    assert (row.value, row.unit, slug_of(session, Hardware, row.hardware_id)) == (
        value,
        unit,
        hardware,
    )


def slug_of(session: Session, model: Any, entry_id: int | None) -> str | None:
    return session.exec(select(model.slug).where(model.id == entry_id)).first()


def test_h100_rows_carry_their_full_context(session: Session) -> None:
    row = benchmark(session, "bis-sglang-l70b-throughput")
    assert slug_of(session, LanguageModel, row.model_id) == "llama-3.3-70b-instruct"
    assert row.gpus == 1, "the article's table is for a single GPU"
    assert row.precision == "FP8"
    assert row.concurrency == 100
    assert row.system_version == "v0.5.9"


def figures_for(session: Session, system: str, metric_word: str) -> list[BenchmarkResult]:
    system_id = session.exec(select(System.id).where(System.slug == system)).one()
    rows = session.exec(select(BenchmarkResult).where(BenchmarkResult.system_id == system_id))
    return [r for r in rows if metric_word in r.slug or metric_word in (r.setup or "")]


def test_bentoml_a100_decode_figures(session: Session) -> None:
    rows = session.exec(select(BenchmarkResult).where(BenchmarkResult.run_by == "BentoML")).all()
    a100 = set(
        session.exec(select(Hardware.id).where(col(Hardware.slug).startswith("nvidia-a100")))
    )
    values = {r.value for r in rows if r.hardware_id in a100}
    assert {4000, 2400, 2300, 2000, 700, 450, 650, 400} <= values


def test_llama_bench_figures(session: Session) -> None:
    values = {
        r.value
        for r in session.exec(select(BenchmarkResult).where(BenchmarkResult.precision == "Q4_0"))
    }
    assert {5765, 198} <= values


def test_ollama_versus_vllm_concurrency_figures(session: Session) -> None:
    values = {
        r.value
        for r in session.exec(select(BenchmarkResult).where(BenchmarkResult.concurrency == 50))
    }
    assert {155, 920} <= values


def test_cache_hit_rate_ranges_include_both_engines(session: Session) -> None:
    rows = session.exec(select(BenchmarkResult).where(BenchmarkResult.unit == "%")).all()
    ranges = {(r.low, r.high) for r in rows}
    assert (85, 95) in ranges and (15, 25) in ranges


def facts(session: Session, system: str, attribute: str) -> set[tuple[str, str]]:
    system_id = session.exec(select(System.id).where(System.slug == system)).one()
    rows = session.exec(
        select(SystemFact.value, Source.slug)
        .join(Source, Source.id == SystemFact.source_id)
        .where(SystemFact.system_id == system_id, SystemFact.attribute == attribute)
    )
    return set(rows.all())


def test_aphrodite_licence_disagreement_is_kept(session: Session) -> None:
    values = {value for value, _ in facts(session, "aphrodite", "licence")}
    assert {"AGPL-3.0", "Apache-2.0"} <= values


def test_tgi_status_disagreement_is_kept(session: Session) -> None:
    values = {(v.lower(), s) for v, s in facts(session, "tgi", "status")}
    assert any("archived" in v and s == "olla-servers-compared" for v, s in values)
    assert any("maintenance" in v for v, _ in values)


@pytest.mark.parametrize(
    ("system", "capability"),
    [("llama-cpp", "continuous-batching"), ("vllm", "prefix-caching")],
)
def test_known_disagreements_stay_visible_but_outweighed(session, system, capability) -> None:
    # An article's "no" against the project's own agreeing docs: shown, not disputed (issue 37).
    detail = get_system(session, system)
    cells = {c.capability: c for g in detail.features for c in g.cells}
    cell = cells[capability]
    assert not cell.disputed
    assert len({c.source.slug for c in cell.claims}) >= 2
    assert {c.outweighed for c in cell.claims if c.level == "no"} == {True}


def test_hardware_claims_cover_the_product_targets(session: Session) -> None:
    detail = get_system(session, "tgi")
    hardware = {c.capability for g in detail.hardware for c in g.cells if c.level in {"yes", "via"}}
    assert {"nvidia-cuda", "amd-rocm", "intel-gaudi", "aws-neuron"} <= hardware


def setting(r: Any) -> tuple[Any, ...]:
    return (r.metric, r.hardware, r.gpus, r.model, r.precision, r.concurrency, r.workload)


def test_contexts_on_the_vocabulary(real_engine: Engine) -> None:
    """The published figures grouped on the vocabulary: each figure in exactly one context,
    with the metric and setting of every figure beside it; figures that once differed only
    by wording now meet. (The counts of contexts were pinned here until issue 34; they grow
    with every source and said nothing about the grouping being right.)"""
    with Session(real_engine) as session:
        results = [
            r
            for r in all_results(session, dt.date(2026, 11, 22))
            if r.source.kind != "team-measurement"
        ]
        contexts = build_benchmark_page(session, BenchmarkParams(), ResultIndex(results)).contexts
    placed = [r.result.id for c in contexts for r in c.results]
    assert sorted(placed) == sorted(r.id for r in results), "each figure in one context"
    for context in contexts:
        for ranked in context.results:
            assert setting(ranked.result) == setting(context), ranked.result.id
    shared = [c for c in contexts if len({r.result.system for r in c.results}) > 1]
    # dstack's DeepSeek-R1 runs on 8x MI300X compare vLLM and SGLang, setting by setting.
    amd = [c for c in shared if c.hardware == "amd-instinct-mi300x"]
    assert amd and all({r.result.system for r in c.results} == {"vllm", "sglang"} for c in amd)
    # Figures the articles give for one comparison, once apart by wording, now meet.
    saturation = next(c for c in shared if c.metric == "saturation-concurrency")
    assert {r.result.system for r in saturation.results} == {"tgi", "vllm", "ollama", "llama-cpp"}
