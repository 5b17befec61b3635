"""Hardware, models and workloads: the loader resolves names to slugs and refuses unknown or
ambiguous ones; the published figures map to the entries their articles support."""

import csv
from pathlib import Path

import pytest
from sqlalchemy import Engine
from sqlmodel import Session, select

from app.aliases import Names, alias_key, canonical_precision
from app.models import BenchmarkResult, Hardware
from app.seeding.load import SeedData, load_seed
from app.seeding.service import seed
from tests.conftest import SEED_DIR
from tests.test_seed_errors import line_number
from tests.test_seed_validation import (  # noqa: F401  (fixtures)
    OLLA_CSV,
    add_row,
    refused,
    seed_dir,
    seeded,
    small_seed,
)


@pytest.fixture(scope="module")
def data() -> SeedData:
    return load_seed(SEED_DIR)


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


def test_precisions_are_spelled_one_way_and_others_kept() -> None:
    assert [canonical_precision(p) for p in ("Int4", "fp8", "q4_k_m", " BF16 ")] == [
        "INT4", "FP8", "Q4_K_M", "BF16"]  # fmt: skip
    assert canonical_precision("EXL2 4.0bpw") == "EXL2 4.0bpw"


# -- the loader ----------------------------------------------------------------------------
def test_a_figure_may_name_its_hardware_by_alias(seed_dir: Path) -> None:
    add_row(seed_dir, hardware="h100 sxm", model="Llama-3.1-8B", workload="Online Serving",
            precision="int4")  # fmt: skip
    row = rows(load_seed(seed_dir))["osc-added"]
    assert (row.hardware, row.model, row.workload, row.precision) == (  # type: ignore[attr-defined]
        "nvidia-h100-sxm5-80gb", "llama-3.1-8b", "online-serving", "INT4")  # fmt: skip


@pytest.mark.parametrize(
    ("column", "value", "hint"),
    [
        ("hardware", "H100 SMX", "did you mean nvidia-h100-sxm5-80gb"),
        ("model", "Llama 3.2 8B", "did you mean llama-3.1-8b, llama-3-8b"),
        ("workload", "onlin serving", "did you mean online-serving"),
    ],
)
def test_an_unknown_name_is_refused_with_file_line_and_column(
    seed_dir: Path, seeded: Engine, column: str, value: str, hint: str
) -> None:
    line = add_row(seed_dir, **{column: value})
    [problem] = refused(seed_dir, seeded)
    assert problem.startswith(
        f"{OLLA_CSV}:{line}: row {line} (osc-added): column '{column}': unknown {column} "
        f"{value!r}; {hint}"
    )


def test_a_name_two_entries_claim_is_refused(seed_dir: Path, seeded: Engine) -> None:
    path = seed_dir / "hardware.yaml"
    text = path.read_text().replace("    - NVIDIA A100\n", "    - NVIDIA A100\n    - H100 SXM\n")
    path.write_text(text)
    [problem] = refused(seed_dir, seeded)
    line = line_number(path, "    - NVIDIA A100") + 1
    assert problem == (
        f"hardware.yaml:{line}: nvidia-a100-unspecified: the name 'H100 SXM' already belongs "
        "to 'nvidia-h100-sxm5-80gb'; a name may name one entry"
    )


def test_an_alias_that_repeats_the_name_is_refused(seed_dir: Path, seeded: Engine) -> None:
    path = seed_dir / "models.yaml"
    path.write_text(path.read_text().replace("    - Meta-Llama-3-8B\n", "    - Llama-3-8b\n"))
    [problem] = refused(seed_dir, seeded)
    assert problem.endswith(
        "llama-3-8b: alias 'Llama-3-8b' repeats a name the entry already answers to; remove it"
    )


def test_an_entry_cites_only_known_sources(seed_dir: Path, seeded: Engine) -> None:
    path = seed_dir / "workloads.yaml"
    path.write_text(path.read_text().replace("    - serving-engine-guide-18-tools\n",
                                             "    - serving-engine-guide\n", 1))  # fmt: skip
    [problem] = refused(seed_dir, seeded)
    assert problem.endswith(
        "decode-tg128: unknown source 'serving-engine-guide' (not in sources.yaml)"
    )


# -- the published data, checked against the articles ------------------------------------
def test_the_h100_without_a_variant_is_never_the_sxm5_part(data: SeedData) -> None:
    by_id = rows(data)
    # The headline table names the part in full and says "single GPU".
    table = [r for r in by_id.values() if r.id.startswith("bis-") and "-l70b-" in r.id]  # type: ignore[attr-defined]
    assert len(table) == 12
    assert {(r.hardware, r.gpus, r.model) for r in table} == {  # type: ignore[attr-defined]
        ("nvidia-h100-sxm5-80gb", 1, "llama-3.3-70b-instruct")}  # fmt: skip
    # "Llama 3.1 8B on H100", the overview's "Peak tokens/sec (H100)": no variant, no count.
    for slug in ("bis-sglang-l8b-throughput", "ov-vllm-h100-peak", "gid-vllm-h100-gpu-util"):
        row = by_id[slug]
        assert (row.hardware, row.gpus) == ("nvidia-h100-unspecified", None), slug  # type: ignore[attr-defined]
    sxm5 = {r.id for r in by_id.values() if r.hardware == "nvidia-h100-sxm5-80gb"}  # type: ignore[attr-defined]
    assert sxm5 == {r.id for r in table}


def test_gpu_counts_only_where_the_article_gives_one(data: SeedData) -> None:
    counted = {r.id: r.gpus for r in rows(data).values() if r.gpus is not None}  # type: ignore[attr-defined]
    powerinfer = {f"seg-powerinfer-{s}" for s in ("4090-avg", "4090-max", "vs-a100", "vs-llamacpp")}
    assert (
        set(counted)
        == {r for r in rows(data) if "-l70b-" in r and r.startswith("bis-")} | powerinfer
    )
    assert set(counted.values()) == {1}


def test_vague_entries_are_marked(data: SeedData) -> None:
    vague = {slug for slug, e in data.hardware.items() if e.vague}
    assert vague == {
        "nvidia-h100-unspecified", "nvidia-h100-or-newer", "nvidia-a100-unspecified",
        "amd-gpu-unspecified", "apple-silicon-unspecified", "cpu-unspecified",
        "unspecified-gpu", "unlisted-hardware",
    }  # fmt: skip
    assert {slug for slug, e in data.models.items() if e.vague} == {
        "deepseek-unspecified", "unnamed-7b", "small-models-unspecified",
        "various-incl-opt-175b", "unlisted-model",
    }  # fmt: skip
    by_id = rows(data)
    assert by_id["ov-llamacpp-cpu-speed"].model == "small-models-unspecified"  # type: ignore[attr-defined]
    assert by_id["seg-powerinfer-4090-avg"].model == "various-incl-opt-175b"  # type: ignore[attr-defined]
    assert by_id["seg-gguf-size-q4-k-m"].model == "unnamed-7b"  # type: ignore[attr-defined]


def test_every_figure_has_a_workload_and_keeps_its_setup_line(data: SeedData) -> None:
    for row in rows(data).values():
        assert row.workload and row.setup, row.id  # type: ignore[attr-defined]
    by_id = rows(data)
    assert by_id["seg-llamacpp-pp512"].workload == "prefill-pp512"  # type: ignore[attr-defined]
    assert data.workloads["prefill-pp512"].input_tokens == 512
    assert data.workloads["decode-tg128"].output_tokens == 128


def test_every_entry_says_where_it_comes_from(data: SeedData) -> None:
    for kind in ("hardware", "models"):
        for slug, entry in getattr(data, kind).items():
            assert entry.sources or slug.startswith("unlisted-"), slug
    # Facts only where an article gives them: the RTX 4090's memory is not in any source.
    assert data.hardware["nvidia-rtx-4090"].memory_gb is None
    assert data.hardware["nvidia-h100-sxm5-80gb"].memory_gb == 80
    assert data.models["deepseek-v3"].architecture == "moe"
    assert data.models["llama-3-70b"].architecture is None


def test_the_seed_files_hold_slugs_not_names() -> None:
    # The CSVs are written the way export writes them, so the round trip stays exact.
    data = load_seed(SEED_DIR)
    for path in (SEED_DIR / "benchmarks").glob("*.csv"):
        for row in csv.DictReader(path.read_text().splitlines()):
            for kind, entries in (("hardware", data.hardware), ("model", data.models),
                                  ("workload", data.workloads)):  # fmt: skip
                assert not row[kind] or row[kind] in entries, (path.name, row["id"], kind)


def test_reseeding_keeps_the_ids_of_entries(seed_dir: Path, seeded: Engine) -> None:
    with Session(seeded) as session:
        before = dict(session.exec(select(Hardware.slug, Hardware.id)).all())
        figures = session.exec(select(BenchmarkResult.slug, BenchmarkResult.hardware_id)).all()
    seed(seeded, seed_dir)
    with Session(seeded) as session:
        assert dict(session.exec(select(Hardware.slug, Hardware.id)).all()) == before
        again = session.exec(select(BenchmarkResult.slug, BenchmarkResult.hardware_id)).all()
    assert sorted(again) == sorted(figures)
