"""llama-bench -o json and -o jsonl: single-stream tests, hardware and build from the file."""

from datetime import UTC, datetime

import pytest

from app.importers.formats.llama_bench import quant_from_model_type
from app.importers.formats.llama_bench import test_label as label_of
from tests.imports.helpers import parse

CUDA_JSON = "llama-bench/rtx4090-llama3.1-8b-q4km.json"
METAL_JSONL = "llama-bench/m2max-qwen2.5-7b-q8.jsonl"


def test_json_array_gives_one_run_per_test_with_its_label_and_metric():
    parsed = parse(CUDA_JSON)
    assert parsed.format == "llama-bench"
    pp, tg, deep = parsed.runs
    assert [run.test for run in parsed.runs] == ["pp512", "tg128", "tg128 @ d4096"]
    assert [run.source for run in parsed.runs] == ["[0]", "[1]", "[2]"]
    assert pp.metrics == {"prompt_tok_s": pytest.approx(13871.53)}
    assert tg.metrics == {"generation_tok_s": pytest.approx(151.82)}
    assert deep.metrics == {"generation_tok_s": pytest.approx(139.07)}
    assert (pp.configured_input_tokens, pp.configured_output_tokens) == (512, None)
    assert tg.configured_output_tokens == 128


def test_hardware_precision_and_build_come_from_the_file():
    run = parse(CUDA_JSON).runs[0]
    assert run.gpu_name == "NVIDIA GeForce RTX 4090" and run.gpu_count == 1
    assert run.cpu_info == "AMD Ryzen 9 7950X 16-Core Processor"
    assert run.compute_backends == "CUDA"
    assert run.model == "/models/Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf"
    assert run.model_description == "llama 8B Q4_K - Medium"
    assert run.precision == "Q4_K_M"
    assert run.kv_cache_dtype == "f16"
    assert (run.engine, run.engine_version) == ("llama.cpp", "b6641")
    assert run.extras["build_commit"] == "5ef22d28"
    assert run.concurrency == 1  # one stream by construction
    assert run.measured_at == datetime(2026, 2, 11, 9, 41, 7, tzinfo=UTC)
    assert run.successful_requests is None  # no requests in a microbenchmark
    assert run.raw["stddev_ts"] == pytest.approx(38.840284)
    assert "samples_ns" not in run.raw and "samples_ts" not in run.raw
    assert run.extras["no_kv_offload"] == "false"


def test_jsonl_lines_and_the_combined_pg_test():
    runs = parse(METAL_JSONL).runs
    assert [run.line for run in runs] == [1, 2, 3]
    assert [run.test for run in runs] == ["pp512", "tg128", "pp512+tg128"]
    assert runs[2].metrics == {"prompt_generation_tok_s": pytest.approx(176.3)}
    assert runs[0].compute_backends == "Metal,BLAS"
    assert runs[0].gpu_name == "Apple M2 Max"
    assert runs[0].precision == "Q8_0"
    assert runs[0].kv_cache_dtype == "q8_0"
    assert runs[0].engine_version == "b6712"


@pytest.mark.parametrize(
    ("model_type", "quant"),
    [
        ("llama 8B Q4_K - Medium", "Q4_K_M"),
        ("llama 70B Q3_K - Small", "Q3_K_S"),
        ("qwen3moe 30B.A3B Q8_0", "Q8_0"),
        ("gemma3 ?B BF16", "BF16"),
        ("llama 8B all F32", "F32"),
        ("llama 8B IQ4_XS - 4.25 bpw", "IQ4_XS"),
        ("something unexpected", None),
    ],
)
def test_quantisation_is_read_from_model_type(model_type, quant):
    assert quant_from_model_type(model_type) == quant


@pytest.mark.parametrize(
    ("n_prompt", "n_gen", "depth", "label"),
    [
        (512, 0, 0, "pp512"),
        (0, 128, 0, "tg128"),
        (512, 128, 0, "pp512+tg128"),
        (0, 32, 8192, "tg32 @ d8192"),
    ],
)
def test_test_labels_match_llama_bench_markdown(n_prompt, n_gen, depth, label):
    assert label_of(n_prompt, n_gen, depth) == label
