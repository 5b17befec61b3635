"""Issue 13: figures and claims filed under the right system, metric and direction.

Each test pins one correction checked against the article it comes from, so a later edit
cannot quietly put a figure back under a system or metric it does not describe.
"""

from pathlib import Path

import pytest
from sqlalchemy import Engine
from sqlmodel import Session, col, select

from app.models import BenchmarkResult, Metric, Source, System, SystemFact
from app.queries.systems import get_system
from app.seeding.errors import SeedError
from app.seeding.export import export_seed
from app.seeding.load import load_seed
from app.seeding.prepare import seed
from tests.conftest import REAL_SEED_DIR

GENAI = "genai-in-depth-serving-frameworks"


@pytest.fixture(scope="module")
def session(real_engine: Engine):
    with Session(real_engine) as session:
        yield session


def cell(session: Session, system: str, capability: str):
    detail = get_system(session, system)
    assert detail is not None
    cells = {c.capability: c for g in (*detail.features, *detail.hardware) for c in g.cells}
    return cells.get(capability)


# -- a source that contradicts itself -------------------------------------------------


@pytest.mark.data
def test_sglang_cpu_cell_keeps_both_readings_of_the_genai_article(session: Session) -> None:
    # Opening table: "NVIDIA · AMD (MI300/MI355) · Intel Xeon · ..."; matrix: CPU support ✗.
    # SGLang's own docs say yes, so the article's "no" is kept but outweighed (issue 37).
    x86 = cell(session, "sglang", "cpu-x86")
    assert x86 is not None and not x86.disputed
    assert [c.outweighed for c in x86.claims if c.level == "no"] == [True]
    from_genai = [c for c in x86.claims if c.source.slug == GENAI]
    assert sorted(c.level for c in from_genai) == ["no", "yes"]
    assert all(c.note for c in from_genai)
    assert len({c.note for c in from_genai}) == 2


def write_claims(seed_copy: Path, text: str) -> None:
    path = seed_copy / "claims" / "olla-servers-compared.yaml"
    path.write_text(path.read_text() + text)


def test_two_readings_from_one_source_round_trip(
    empty_engine: Engine, seed_copy: Path, tmp_path: Path
) -> None:
    readings = (
        "powerinfer:\n  cpu-arm:\n"
        "    - level: yes\n      note: first reading\n"
        "    - level: no\n      note: second reading\n"
    )
    write_claims(seed_copy, readings)
    seed(empty_engine, seed_copy)
    export_seed(empty_engine, tmp_path / "out")
    exported = (tmp_path / "out" / "claims" / "olla-servers-compared.yaml").read_text()
    assert exported.endswith(readings)


@pytest.mark.parametrize(
    "readings",
    [
        "powerinfer:\n  cpu-arm:\n    - level: yes\n      note: only one\n",
        "powerinfer:\n  cpu-arm:\n    - level: yes\n    - level: no\n",
        "powerinfer:\n  cpu-arm:\n    - {level: yes, note: same}\n    - {level: no, note: same}\n",
    ],
    ids=["single-entry", "no-notes", "same-note"],
)
def test_a_list_of_readings_needs_two_entries_with_their_own_notes(
    seed_copy: Path, readings: str
) -> None:
    write_claims(seed_copy, readings)
    with pytest.raises(SeedError) as error:
        load_seed(seed_copy)
    assert "powerinfer.cpu-arm" in str(error.value)


@pytest.mark.data
def test_the_real_seed_loads() -> None:
    assert load_seed(REAL_SEED_DIR).claims[GENAI]["sglang"]["cpu-x86"]


# -- figures under the right system, metric and direction -----------------------------

SEG = "serving-engine-guide-18-tools"
OVERVIEW = "overview-early-2026"


def rows(session: Session, **where: str) -> list[tuple[BenchmarkResult, Metric, str, str]]:
    """Benchmark rows with their metric, system slug and source slug."""
    statement = (
        select(BenchmarkResult, Metric, System.slug, Source.slug)
        .join(Metric, col(Metric.id) == col(BenchmarkResult.metric_id))
        .join(System, col(System.id) == col(BenchmarkResult.system_id))
        .join(Source, col(Source.id) == col(BenchmarkResult.source_id))
    )
    out = []
    for row, metric, system, source in session.exec(statement):
        found = {"system": system, "source": source, "metric": metric.slug, "id": row.slug}
        if all(found[k] == v for k, v in where.items()):
            out.append((row, metric, system, source))
    return out


def one(session: Session, slug: str) -> tuple[BenchmarkResult, Metric, str, str]:
    (found,) = rows(session, id=slug)
    return found


def row_source(session: Session, slug: str) -> str:
    return one(session, slug)[3]


def claim_notes(session: Session, system: str, capability: str, source: str) -> list[str]:
    found = cell(session, system, capability)
    assert found is not None, (system, capability)
    return [c.note or "" for c in found.claims if c.source.slug == source]


@pytest.mark.data
def test_contiguous_kv_waste_is_not_filed_as_a_vllm_figure(session: Session) -> None:
    # Overview: one contiguous block per request "wastes 60–80% of capacity"; 18-tool guide
    # 3.1: pre-reserved regions give "average 60–80% memory waste". A property of the old
    # layout, not of vLLM: vLLM's own figures are the paged ones (under 4% / under 5%).
    for source in (OVERVIEW, SEG):
        waste = rows(session, system="vllm", metric="memory-waste", source=source)
        assert waste, source
        assert all((r.value or 0) <= 5 and r.high is None for r, *_ in waste), source
        assert any("60" in note for note in claim_notes(session, "vllm", "paged-kv-cache", source))
    assert not [r for r, *_ in rows(session, metric="memory-waste") if (r.high or 0) >= 60]


@pytest.mark.data
def test_cpu_variance_is_a_spread_not_a_throughput_gain(session: Session) -> None:
    row, metric, system, _ = one(session, "ov-llamacpp-cpu-variance")
    assert (system, metric.slug, metric.better) == ("llama-cpp", "host-cpu-spread", "lower")
    assert (row.value, row.qualifier, row.unit) == (5, "less-than", "%")
    assert not rows(session, system="llama-cpp", metric="relative-throughput", source=OVERVIEW)


@pytest.mark.data
def test_tensorrt_llm_utilisation_gain_is_a_gpu_utilisation_figure(session: Session) -> None:
    row, metric, system, _ = one(session, "gid-trtllm-util-gain")
    assert (system, metric.slug, metric.better) == (
        "tensorrt-llm",
        "gpu-utilisation-gain",
        "higher",
    )
    assert (row.low, row.high, row.unit) == (10, 20, "%")


@pytest.mark.data
@pytest.mark.parametrize(
    ("slug", "system", "value", "qualifier"),
    [
        ("seg-lmsys-sglang-structured-latency", "sglang", 3.7, "exact"),  # "3.7x lower latency"
        ("seg-fastgen-latency-vs-vllm", "deepspeed-mii", 2, "up-to"),  # "up to 2x reduction"
    ],
)
def test_latency_reductions_are_higher_is_better_factors(
    session: Session, slug: str, system: str, value: float, qualifier: str
) -> None:
    row, metric, found_system, _ = one(session, slug)
    assert (found_system, metric.slug, metric.better) == (system, "latency-reduction", "higher")
    assert (row.value, row.qualifier, row.unit) == (value, qualifier, "x")


@pytest.mark.data
def test_lower_is_better_ratios_are_latency_ratios_above_one(session: Session) -> None:
    # vLLM's p99 TTFT "80% larger than competitors" is a true latency ratio (1.8): worse.
    row, metric, system, _ = one(session, "bis-vllm-ttft-p99-vs-others")
    assert metric.slug == "relative-latency"
    assert (row.slug, system, row.value, metric.better) == (
        "bis-vllm-ttft-p99-vs-others",
        "vllm",
        1.8,
        "lower",
    )


@pytest.mark.data
def test_other_parties_eagle3_and_kernel_figures_are_not_sglang_figures(session: Session) -> None:
    # 18-tool guide 4.5: Groq (6x+, Llama-3.1-70B) and SambaNova (2x+, Llama-3.1-405B)
    # report EAGLE 3 speed-ups on their own stacks; 4.4: FlashInfer's cascade kernel is up to
    # 31x over basic PagedAttention. None is an SGLang measurement.
    sglang = rows(session, system="sglang", source=SEG)
    assert not [r for r, *_ in sglang if r.run_by in ("Groq", "SambaNova")]
    assert not [r for r, *_ in sglang if r.value == 31 or "FlashInfer" in (r.setup or "")]
    eagle = " ".join(claim_notes(session, "sglang", "spec-eagle", SEG))
    assert "Groq" in eagle and "SambaNova" in eagle
    assert "31x" in " ".join(claim_notes(session, "sglang", "flashinfer", SEG))


@pytest.mark.data
def test_7b_in_6gb_is_memory_to_run_not_memory_at_rest(session: Session) -> None:
    row, metric, system, _ = one(session, "osc-llamacpp-7b-4bit-ram")
    assert (system, metric.slug, metric.better) == ("llama-cpp", "run-memory", "lower")
    assert (row.value, row.unit, row.precision) == (6, "GB", "4-bit")
    # The article's one figure about memory at rest is Olla's ~50 MB idle.
    at_rest = rows(session, metric="memory-footprint", source=row_source(session, row.slug))
    assert {system for _, _, system, _ in at_rest} == {"olla"}


@pytest.mark.data
def test_kv_quantisation_halving_is_a_property_of_the_technique(session: Session) -> None:
    # 18-tool 4.1: KV quantisation is "supported by TensorRT-LLM and LMDeploy"; 8-bit KV
    # "saves 50% memory". A general figure, not a measurement of either engine.
    for system in ("tensorrt-llm", "lmdeploy"):
        assert not rows(session, system=system, metric="memory-savings", source=SEG)
        assert "halves" in " ".join(claim_notes(session, system, "kv-cache-quantization", SEG))


# -- LMDeploy claims ------------------------------------------------------------------

# The 18-tool guide's LMDeploy drawbacks: "NVIDIA CUDA only". That rules out every other
# accelerator platform; it says nothing about CPUs, phones or browsers, so no claim there.
NOT_CUDA = (
    "amd-rocm",
    "apple-silicon",
    "intel-gpu",
    "intel-gaudi",
    "aws-neuron",
    "google-tpu",
    "ascend-npu",
    "ibm-spyre",
    "vulkan",
)


@pytest.mark.data
@pytest.mark.parametrize("capability", NOT_CUDA)
def test_lmdeploy_cuda_only_excludes_the_other_accelerators(session, capability) -> None:
    found = cell(session, "lmdeploy", capability)
    assert found is not None
    assert [c.level for c in found.claims if c.source.slug == SEG] == ["no"]


@pytest.mark.data
def test_lmdeploy_ascend_article_no_is_kept_but_outweighed(session: Session) -> None:
    # Overview and GenAI list Ascend NPU support; the 18-tool guide says CUDA only. LMDeploy's
    # own docs say yes, so the guide's "no" stays visible, outweighed, and nothing is disputed.
    found = cell(session, "lmdeploy", "ascend-npu")
    assert found is not None and not found.disputed
    assert {c.source.slug for c in found.claims if c.outweighed} == {SEG}
    assert {c.source.slug for c in found.claims if c.level == "yes"} >= {OVERVIEW, GENAI}


@pytest.mark.data
def test_lmdeploy_cuda_only_adds_no_cpu_or_edge_claims(session: Session) -> None:
    for capability in ("cpu-x86", "cpu-arm", "mobile", "browser-webgpu"):
        found = cell(session, "lmdeploy", capability)
        assert found is None or SEG not in {c.source.slug for c in found.claims}, capability


@pytest.mark.data
def test_olla_article_makes_no_quantisation_breadth_claim_for_lmdeploy(session: Session) -> None:
    # Its text only calls LMDeploy strong "particularly for quantised models"; no formats.
    found = cell(session, "lmdeploy", "quantization-breadth")
    sources = {c.source.slug for c in found.claims} if found else set()
    assert "olla-servers-compared" not in sources


# -- system attributes only as far as the sources go --------------------------------


def system_facts(session: Session, system: str, attribute: str) -> set[tuple[str, str]]:
    system_id = session.exec(select(System.id).where(System.slug == system)).one()
    statement = (
        select(SystemFact.value, Source.slug)
        .join(Source, col(Source.id) == col(SystemFact.source_id))
        .where(SystemFact.system_id == system_id, SystemFact.attribute == attribute)
    )
    return set(session.exec(statement).all())


@pytest.mark.data
def test_deepspeed_mii_status_is_not_stated_as_active(session: Session) -> None:
    # The 18-tool guide gives DeepSpeed-MII no status line, only "decreasing development
    # activity" among its drawbacks; the 2026 article says nothing about its status.
    detail = get_system(session, "deepspeed-mii")
    assert detail is not None and detail.status == "unknown"
    values = {value for value, _ in system_facts(session, "deepspeed-mii", "status")}
    assert "active" not in values
    assert any("declining" in value for value in values)


@pytest.mark.data
def test_sglang_language_is_the_one_the_sources_give(session: Session) -> None:
    # 18-tool table 5.1: Python/C++. GenAI only says its load balancer is written in Rust.
    detail = get_system(session, "sglang")
    assert detail is not None and detail.language == "Python/C++"
    assert system_facts(session, "sglang", "language") == {("Python/C++", SEG)}
    routing = " ".join(claim_notes(session, "sglang", "cache-aware-routing", GENAI))
    assert "Rust" in routing


# -- our words, not the articles' ------------------------------------------------------


@pytest.mark.data
@pytest.mark.parametrize(
    "copied",
    [
        "No prefix caching as of early 2026",  # overview, MLC-LLM weaknesses
        "Internal AI tools for small teams",  # 18-tool guide, Ollama use cases
        "safest default for new production deployments",  # 2026 article, TL;DR
        "deployed at AMD itself",  # GenAI, non-NVIDIA scenario
        "Python overhead at high concurrency",  # GenAI, vLLM limitations
    ],
)
def test_near_verbatim_article_lines_are_reworded(copied: str) -> None:
    for path in sorted(REAL_SEED_DIR.rglob("*")):
        if path.suffix in {".yaml", ".csv"}:
            assert copied.lower() not in path.read_text().lower(), path.name
