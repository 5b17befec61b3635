"""Hardware, models and workloads: names resolve to slugs, and the published figures map to the
entries their articles support (the loader's refusals are in tests/test_seed_validation.py)."""

import csv

import pytest

from app.seeding.load import load_seed
from app.seeding.reader import SeedData
from app.seeding.schema import MOE_KINDS
from app.vocabulary.names import Names, alias_key, canonical_precision
from tests.conftest import REAL_SEED_DIR


@pytest.fixture(scope="module")
def data() -> SeedData:
    return load_seed(REAL_SEED_DIR)


def rows(data: SeedData) -> dict[str, object]:
    return {row.id: row for source in data.benchmarks.values() for row in source}


# -- names ---------------------------------------------------------------------------------
def test_names_ignore_case_spacing_and_dashes() -> None:
    names = Names.of("hardware", [("nvidia-h100-sxm5-80gb", ["NVIDIA H100 SXM5 80GB", "H100 SXM"])])
    for text in (
        "h100 sxm",
        "H100  SXM",
        "h100-sxm",
        "NVIDIA_H100_SXM5_80GB",
        "Nvidia-H100-Sxm5-80gb",
    ):
        assert names.resolve(text) == "nvidia-h100-sxm5-80gb", text
    assert names.resolve("H100") is None
    assert alias_key("  A100\t80GB ") == "a100 80gb"


def test_an_unknown_name_gets_a_did_you_mean() -> None:
    names = Names.of(
        "hardware",
        [("nvidia-h100-sxm5-80gb", ["H100 SXM"]), ("nvidia-a100-80gb", ["A100 80GB"])],
    )
    assert names.unknown("H100 SMX", "x") == (
        "unknown hardware 'H100 SMX'; did you mean nvidia-h100-sxm5-80gb?"
    )
    assert names.unknown("TPU v5e", "a slug in hardware.yaml") == (
        "unknown hardware 'TPU v5e'; allowed: a slug in hardware.yaml"
    )


LLAMAS = [
    ("llama-3.3-70b-instruct", ["Llama 3.3 70B Instruct", "meta-llama/Llama-3.3-70B-Instruct"]),
    ("llama-3.1-8b", ["Llama 3.1 8B", "meta-llama/Llama-3.1-8B"]),
    ("llama-3-8b", ["Llama 3 8B", "Meta-Llama-3-8B"]),
    ("llama-3-70b", ["Llama 3 70B"]),
]
INSTRUCT_8B = (
    "llama-3.1-8b-instruct",
    ["Llama 3.1 8B Instruct", "Meta-Llama-3.1-8B-Instruct", "meta-llama/Llama-3.1-8B-Instruct"],
)


def test_model_files_and_repository_ids_name_their_model() -> None:
    names = Names.of("model", [*LLAMAS, INSTRUCT_8B])
    for text in (
        "meta-llama/Llama-3.1-8B-Instruct",
        "meta-llama/meta-llama-3.1-8b-instruct",
        "Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf",
        "/models/Meta-Llama-3.1-8B-Instruct-IQ4_XS.gguf",
        "bartowski/Meta-Llama-3.1-8B-Instruct-GGUF",
        "someone/Llama-3.1-8B-Instruct-AWQ",
        "llama 3.1 8b instruct.Q8_0",
    ):
        assert names.resolve(text) == "llama-3.1-8b-instruct", text
    # The packing is stripped, never the model's own words: a base model file stays the base.
    assert names.resolve("Meta-Llama-3-8B.Q4_0.gguf") == "llama-3-8b"
    assert names.resolve("Meta-Llama-3.1-70B-Instruct-Q4_K_M.gguf") is None
    assert names.resolve("Llama 3.1 8B Instruct abliterated") is None


def test_punctuation_is_ignored_where_one_entry_holds_the_name() -> None:
    systems = Names.of(
        "system",
        [("llama-cpp", ["llama.cpp"]), ("tensorrt-llm", ["TensorRT-LLM"]), ("vllm", ["vLLM"])],
    )
    for text, slug in (
        ("llama.cpp", "llama-cpp"),
        ("LLAMA.CPP", "llama-cpp"),
        ("llama cpp", "llama-cpp"),
        ("TensorRT LLM", "tensorrt-llm"),
        ("tensorrt_llm", "tensorrt-llm"),
        ("VLLM", "vllm"),
    ):
        assert systems.resolve(text) == slug, text
    # Two entries that differ only by punctuation: the loose form names neither.
    clash = Names.of("model", [("a", ["Qwen 2.5"]), ("b", ["Qwen 2 5"])])
    assert clash.resolve("Qwen 2.5") == "a" and clash.resolve("Qwen-2.5") == "a"
    assert clash.resolve("Qwen (2.5)") is None


def test_did_you_mean_puts_the_same_family_and_size_first() -> None:
    names = Names.of("model", LLAMAS)  # no instruct 8B entry: the nearest must come first
    for text in (
        "Llama 3.1 8B Instruct",
        "meta-llama/Llama-3.1-8B-Instruct",
        "Meta-Llama-3.1-8B-Instruct-Q4_K_M",
    ):
        for by_words in (False, True):
            close = names.suggest(text, by_words=by_words)
            assert close[:2] == ["llama-3.1-8b", "llama-3-8b"], (text, by_words, close)
    # A size tells models apart more than a version: another 70B before the 3.1 8B.
    assert names.suggest("Llama 3.1 70B")[:2] == ["llama-3-70b", "llama-3.3-70b-instruct"]


@pytest.mark.data
def test_the_names_tools_print_resolve_in_the_real_vocabulary(data: SeedData) -> None:
    hardware = Names.of("hardware", ((s, [e.name, *e.aliases]) for s, e in data.hardware.items()))
    models = Names.of("model", ((s, [e.name, *e.aliases]) for s, e in data.models.items()))
    for text, slug in (
        ("NVIDIA H100 80GB HBM3", "nvidia-h100-sxm5-80gb"),  # nvidia-smi, SXM5 part
        ("NVIDIA A100-SXM4-80GB", "nvidia-a100-80gb"),
        ("NVIDIA H200-SXM-141GB", "nvidia-h200-sxm-141gb"),
        ("AMD Instinct MI300X", "amd-instinct-mi300x"),  # rocm-smi
        ("NVIDIA B200", "nvidia-b200"),
        ("NVIDIA H100 NVL", "nvidia-h100-nvl-94gb"),
        ("NVIDIA H200 NVL", "nvidia-h200-nvl-141gb"),
        ("TPU v5e", "google-tpu-v5e"),
        ("Trillium", "google-tpu-v6e"),
    ):
        assert hardware.resolve(text) == slug, text
    assert hardware.resolve("NVIDIA H100") == "nvidia-h100-unspecified"
    # nvidia-smi prints the SXM part as plain "NVIDIA H200" and the NVL card with its suffix, so
    # a plain H200 (and the old nvidia-h200 slug) is the SXM part, never the NVL one.
    for text in ("H200", "NVIDIA H200", "nvidia-h200", "H200 141GB", "NVIDIA H200 SXM 141GB"):
        assert hardware.resolve(text) == "nvidia-h200-sxm-141gb", text
    # An Apple chip named without its memory is the chip entry, never a configuration of it.
    assert hardware.resolve("M4 Max") == "apple-m4-max"
    assert hardware.resolve("64GB M4 Max") == "apple-m4-max-64gb"
    assert hardware.resolve("Apple M2 Ultra") == "apple-m2-ultra"
    assert data.hardware["apple-m4-max"].memory_gb is None
    assert data.hardware["apple-m4-max-64gb"].memory_gb == 64
    for text, slug in (
        ("meta-llama/Llama-3.1-8B-Instruct", "llama-3.1-8b-instruct"),
        ("meta-llama/Meta-Llama-3.1-8B-Instruct", "llama-3.1-8b-instruct"),
        ("Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf", "llama-3.1-8b-instruct"),
        ("meta-llama/Llama-3.1-8B", "llama-3.1-8b"),
        ("Qwen/Qwen3-30B-A3B", "qwen3-30b-a3b"),
        ("openai/gpt-oss-120b", "gpt-oss-120b"),
        ("deepseek-ai/DeepSeek-R1", "deepseek-r1"),
    ):
        assert models.resolve(text) == slug, text
    assert models.suggest("Llama 3.1 70B Instruct FP8")[0] == "llama-3.1-70b-instruct"


@pytest.mark.data
def test_apple_chip_entries_answer_the_apple_silicon_question(data: SeedData) -> None:
    from app.decision.measured import hardware_answers

    chips = {s: e for s, e in data.hardware.items() if s.startswith("apple-m")}
    assert {"apple-m4-max", "apple-m4-max-64gb", "apple-m2-ultra"} <= set(chips)
    for slug, entry in chips.items():
        assert hardware_answers(entry.vendor, entry.name) == {"apple-silicon"}, slug


@pytest.mark.data
def test_active_parameters_only_where_a_model_card_gives_them(data: SeedData) -> None:
    active = {s: m.active_parameters_b for s, m in data.models.items() if m.active_parameters_b}
    assert active["deepseek-v3"] == 37 and active["gpt-oss-120b"] == 5.1
    assert "mixtral-8x7b-instruct" not in active  # its README gives no count
    assert all(data.models[s].kind in MOE_KINDS for s in active)


def test_precisions_are_spelled_one_way_and_others_kept() -> None:
    assert [canonical_precision(p) for p in ("Int4", "fp8", "q4_k_m", " BF16 ")] == [
        "INT4",
        "FP8",
        "Q4_K_M",
        "BF16",
    ]
    assert canonical_precision("EXL2 4.0bpw") == "EXL2 4.0bpw"


# -- the published data, checked against the articles ------------------------------------
@pytest.mark.data
def test_the_h100_without_a_variant_is_never_the_sxm5_part(data: SeedData) -> None:
    by_id = rows(data)
    # The headline table names the part in full and says "single GPU".
    table = [r for r in by_id.values() if r.id.startswith("bis-") and "-l70b-" in r.id]  # type: ignore[attr-defined]
    # Three engines by four columns: the article's table, cell by cell.
    assert {(r.system, r.metric) for r in table} == {  # type: ignore[attr-defined]
        (system, metric)
        for system in ("tensorrt-llm", "sglang", "vllm")
        for metric in ("throughput", "ttft-p50", "ttft-p95", "cold-start")
    }
    assert {(r.hardware, r.gpus, r.model) for r in table} == {  # type: ignore[attr-defined]
        ("nvidia-h100-sxm5-80gb", 1, "llama-3.3-70b-instruct")
    }
    # "Llama 3.1 8B on H100", the overview's "Peak tokens/sec (H100)": no variant, no count.
    for slug in ("bis-sglang-l8b-throughput", "ov-vllm-h100-peak", "gid-vllm-h100-gpu-util"):
        row = by_id[slug]
        assert (row.hardware, row.gpus) == ("nvidia-h100-unspecified", None), slug  # type: ignore[attr-defined]
    sxm5 = {r.id for r in by_id.values() if r.hardware == "nvidia-h100-sxm5-80gb"}  # type: ignore[attr-defined]
    assert sxm5 == {r.id for r in table}


@pytest.mark.data
def test_gpu_counts_only_where_the_article_gives_one(data: SeedData) -> None:
    # The benchmark reports (the projects' own pages, dstack's runs) state the GPU count of
    # every figure; among the five articles only the H100 table and PowerInfer's runs do.
    reports = ("sgl060-", "tgiv3-", "dsr1-")
    by_report = {i: r for i, r in rows(data).items() if i.startswith(reports)}
    assert by_report and all(r.gpus for r in by_report.values())  # type: ignore[attr-defined]
    assert {r.gpus for r in by_report.values()} == {1, 4, 8}  # type: ignore[attr-defined]
    articles = {s for s, source in data.sources.items() if source.kind == "article"}
    counted = {
        r.id: r.gpus
        for source in articles
        for r in data.benchmarks.get(source, [])
        if r.gpus is not None
    }
    powerinfer = {f"seg-powerinfer-{s}" for s in ("4090-avg", "4090-max", "vs-a100", "vs-llamacpp")}
    assert (
        set(counted)
        == {r for r in rows(data) if "-l70b-" in r and r.startswith("bis-")} | powerinfer
    )
    assert set(counted.values()) == {1}


@pytest.mark.data
def test_vague_entries_are_marked(data: SeedData) -> None:
    # The articles' open names (seed/README), each an entry that says so, never a guess.
    vague = {slug for slug, e in data.hardware.items() if e.vague}
    assert {
        "nvidia-h100-unspecified",
        "nvidia-h100-or-newer",
        "nvidia-a100-unspecified",
        "amd-gpu-unspecified",
        "apple-silicon-unspecified",
        "cpu-unspecified",
        "unspecified-gpu",
        "unlisted-hardware",
    } <= vague
    assert {
        "deepseek-unspecified",
        "unnamed-7b",
        "small-models-unspecified",
        "various-incl-opt-175b",
        "unlisted-model",
    } <= {slug for slug, e in data.models.items() if e.vague}
    # An entry whose slug says it is open is marked so, and a vague entry states no facts.
    for entries in (data.hardware, data.models, data.workloads):
        for slug, entry in entries.items():
            if any(w in slug for w in ("unspecified", "unlisted", "unnamed", "or-newer")):
                assert entry.vague, slug
    for slug in vague:
        assert data.hardware[slug].memory_gb is None, slug
    by_id = rows(data)
    assert by_id["ov-llamacpp-cpu-speed"].model == "small-models-unspecified"  # type: ignore[attr-defined]
    assert by_id["seg-powerinfer-4090-avg"].model == "various-incl-opt-175b"  # type: ignore[attr-defined]
    assert by_id["seg-gguf-size-q4-k-m"].model == "unnamed-7b"  # type: ignore[attr-defined]


@pytest.mark.data
def test_every_figure_has_a_workload_and_keeps_its_setup_line(data: SeedData) -> None:
    for row in rows(data).values():
        assert row.workload and row.setup, row.id  # type: ignore[attr-defined]
    by_id = rows(data)
    assert by_id["seg-llamacpp-pp512"].workload == "prefill-pp512"  # type: ignore[attr-defined]
    assert data.workloads["prefill-pp512"].input_tokens == 512
    assert data.workloads["decode-tg128"].output_tokens == 128


@pytest.mark.data
def test_every_entry_says_where_it_comes_from(data: SeedData) -> None:
    for kind in ("hardware", "models"):
        for slug, entry in getattr(data, kind).items():
            assert entry.sources or slug.startswith("unlisted-"), slug
    # Facts only where an article gives them: the RTX 4090's memory is not in any source.
    assert data.hardware["nvidia-rtx-4090"].memory_gb is None
    assert data.hardware["nvidia-h100-sxm5-80gb"].memory_gb == 80
    assert data.models["deepseek-v3"].kind == "moe"
    assert data.models["deepseek-v3"].architecture == "DeepseekV3ForCausalLM"
    assert data.models["unlisted-model"].kind is None


@pytest.mark.data
def test_the_seed_files_hold_slugs_not_names() -> None:
    # The CSVs are written the way export writes them, so the round trip stays exact.
    data = load_seed(REAL_SEED_DIR)
    for path in (REAL_SEED_DIR / "benchmarks").glob("*.csv"):
        for row in csv.DictReader(path.read_text().splitlines()):
            for kind, entries in (
                ("hardware", data.hardware),
                ("model", data.models),
                ("workload", data.workloads),
            ):
                assert not row[kind] or row[kind] in entries, (path.name, row["id"], kind)
