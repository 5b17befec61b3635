"""Every file of tests/imports/real/ (result files people committed to public repositories,
listed with their sources in SOURCES.md) parses, and two or more of its numbers, read off the
raw file by hand, come out where they belong; the files that must be refused are refused for
their true reason."""

import io
import json
import tarfile
import zipfile
from pathlib import Path
from typing import Any

import pytest

from app.importers import (
    MAX_SET_FILES,
    ParsedFile,
    ResultFileError,
    is_archive,
    parse_result_file,
    parse_result_set,
    unpack_archive,
)
from app.importers.sets import MAX_SET_BYTES

REAL = Path(__file__).parent / "real"

# (file, format, runs, run index, expected values of that run). A key naming a ParsedRun
# field is compared with the field, any other key with run.metrics[key].
CASES: list[tuple[str, str, int, int, dict[str, Any]]] = [
    # vLLM, legacy benchmark_serving.py (May 2025, with the misspelt "request_goodput:").
    (
        "vllm-bench/llmd-h100-1p1d-rate3.6.json",
        "vllm-bench",
        1,
        0,
        {
            "request_rate": 3.6,
            "concurrency": None,
            "request_throughput": 3.4924899488507317,
            "ttft_mean": 249.5401489152573,
            "model": "meta-llama/Llama-3.1-8B-Instruct",
        },
    ),
    (
        "vllm-bench/llmd-a100-2replicas.json",
        "vllm-bench",
        1,
        0,
        {
            "request_rate": 1.8,
            "output_throughput": 345.78793386173123,
            "ttft_p99": 1628.2638817280522,
        },
    ),
    # vLLM bench serve 0.25.1: rate "inf" as a string, a concurrency limit of 2.
    (
        "vllm-bench/er0080-bench-serve-v0.25.1.json",
        "vllm-bench",
        1,
        0,
        {
            "request_rate_unlimited": True,
            "concurrency": 2,
            "request_throughput": 5.180810671273421,
            "ttft_mean": 215.53594200008774,
        },
    ),
    # vLLM bench sweep: each run=N.json is a bench serve result; summary.json lists them.
    (
        "vllm-sweep/SERVE--max_num_seqs=4-BENCH--max_concurrency=2-num_prompts=8/run=1.json",
        "vllm-bench",
        1,
        0,
        {"concurrency": 2, "request_throughput": 12.460566958863927},
    ),
    (
        "vllm-sweep/SERVE--max_num_seqs=8-BENCH--max_concurrency=2-num_prompts=8/summary.json",
        "vllm-bench",
        2,
        0,
        {"request_throughput": 11.950037467159987, "ttft_mean": 46.89306787258829},
    ),
    # SGLang, the late-2024 layout: no request_throughput (derived), medians only.
    (
        "sglang-bench/datacrunch-llama-3.3-70b-online.jsonl",
        "sglang-bench",
        7,
        0,
        {
            "request_rate": 1.0,
            "successful_requests": 300,
            "request_throughput": 300 / 298.3675805060193,
            "ttft_median": 85.74514742940664,
        },
    ),
    (
        "sglang-bench/datacrunch-llama-405b-online.jsonl",
        "sglang-bench",
        6,
        3,
        {"request_rate": 8.0, "output_throughput": 1820.6538850305435},
    ),
    (
        "sglang-bench/datacrunch-deepseek-dp-mla.jsonl",
        "sglang-bench",
        1,
        0,
        {
            "request_rate_unlimited": True,  # written as JSON Infinity
            "successful_requests": 10000,
            "output_throughput": 12412.394674113431,
        },
    ),
    # SGLang 0.5.5 / 0.5.6 with server_info (the second one disaggregated).
    (
        "sglang-bench/tonyli15-agg-c8.jsonl",
        "sglang-bench",
        1,
        0,
        {
            "concurrency": 8,
            "request_throughput": 25.36630611684931,
            "ttft_mean": 115.28786353766918,
            "engine_version": "0.5.5.post3",
            "model": "Qwen/Qwen2.5-3B-Instruct",
        },
    ),
    (
        "sglang-bench/tonyli15-pd-1p1d-c64.jsonl",
        "sglang-bench",
        1,
        0,
        {
            "concurrency": 64,
            "request_throughput": 9.335204764526567,
            "ttft_mean": 5398.151867231354,
            "engine_version": "0.5.6",
        },
    ),
    # llama-bench build 7951 on AMD GPUs: 84 tests each.
    (
        "llama-bench/orion-7900xtx-rocm.json",
        "llama-bench",
        84,
        0,
        {
            "test": "pp128",
            "prompt_tok_s": 737.300172,
            "engine_version": "b7951",
            "kv_cache_dtype": "q8_0",
            "precision": "MXFP4",
        },
    ),
    (
        "llama-bench/orion-8060s-vulkan-radv.json",
        "llama-bench",
        84,
        0,
        {
            "prompt_tok_s": 862.169703,
            "compute_backends": "Vulkan RADV",
            "gpu_name": "Radeon 8060S Graphics",
        },
    ),
    # llama.cpp's own README examples: build 1275's "mostly Q4_0", and build 5163.
    (
        "llama-bench/llama-cpp-readme-b1275.json",
        "llama-bench",
        2,
        1,
        {"test": "tg128", "generation_tok_s": 130.965708, "precision": "Q4_0"},
    ),
    (
        "llama-bench/llama-cpp-readme-b1275.jsonl",
        "llama-bench",
        2,
        0,
        {"line": 1, "prompt_tok_s": 2410.974041, "precision": "Q4_0"},
    ),
    (
        "llama-bench/llama-cpp-readme-b5163.json",
        "llama-bench",
        2,
        0,
        {"prompt_tok_s": 7100.002165, "precision": "Q4_K_M", "engine_version": "b5163"},
    ),
    # GenAI-Perf (Triton 24.12 SDK), pasted in perf_analyzer issue #298.
    (
        "genai-perf/perf-analyzer-issue298-streaming.json",
        "genai-perf",
        1,
        0,
        {
            "concurrency": 100,
            "request_throughput": 17.222547659562533,
            "ttft_mean": 184.63779366666665,
            "engine": "tensorrtllm",
        },
    ),
    (
        "genai-perf/perf-analyzer-issue298-nonstreaming.json",
        "genai-perf",
        1,
        0,
        {
            "concurrency": 100,
            "request_throughput": 21.621765653636075,
            "e2e_latency_mean": 4610.6156361171425,
        },
    ),
    # AIPerf's own example of October 2025 (blocks under "records", short tags).
    (
        "aiperf/aiperf-example-run1-2025-10.json",
        "aiperf",
        1,
        0,
        {
            "concurrency": 100,
            "request_throughput": 9.551622221540914,
            "ttft_mean": 2343.219436988764,
            "successful_requests": 89,
            "model": "openai/gpt-oss-20b",
        },
    ),
    # GuideLLM v0.2-v0.3 layout (args per benchmark, no config) ...
    (
        "guidellm/guidellm-own-benchmarks-stripped-2025-07.json",
        "guidellm",
        1,
        0,
        {
            "concurrency": 1,
            "request_throughput": 1.5481806532737452,
            "ttft_mean": 16.792535781860348,
            "model": "example_model",
            "dataset": "prompt_tokens=256,output_tokens=128",
            "successful_requests": 46,
        },
    ),
    (
        "guidellm/graz-dev-old-benchmarks-trimmed.json",
        "guidellm",
        1,
        0,
        {
            "request_rate_unlimited": True,
            "request_throughput": 5.035245200174767,
            "successful_requests": 1000,
            "model": "qwen2.5-7b",
        },
    ),
    # ... v0.5 (metadata version 1, top-level args, config per benchmark) ...
    (
        "guidellm/danielkorat-gpt-oss-20b-tp4-trimmed.json",
        "guidellm",
        1,
        0,
        {
            "concurrency": 1,
            "request_throughput": 0.03333333333333333,
            "model": "openai/gpt-oss-20b",
            "tool_version": "0.5.0.dev0",
        },
    ),
    # ... and v0.8 (metadata version 2, config.spec).
    (
        "guidellm/llmd-guidellm-report-v2.json",
        "guidellm",
        2,
        1,
        {
            "request_rate": 4.0,
            "request_throughput": 0.7940882013937378,
            "tool_version": "0.8.0.dev18",
        },
    ),
]

CASES += [
    # vLLM bench serve on B200 (Jan 2026) and a legacy --append-result file of 12 runs.
    (
        "vllm-bench/benchmaxxing-b200-glm47-fp8-c100.json",
        "vllm-bench",
        1,
        0,
        {
            "concurrency": 100,
            "request_throughput": 11.391910818368752,
            "ttft_mean": 2209.299349929206,
        },
    ),
    (
        "vllm-bench/nerdalert-results-append.json",
        "vllm-bench",
        12,
        11,
        {
            "line": 12,
            "request_rate_unlimited": True,
            "request_throughput": 26.94614157374034,
            "ttft_mean": 17419.655205215113,
        },
    ),
    # SGLang 0.5.8.post1 with --output-details (trimmed), tp 4 dp 2.
    (
        "sglang-bench/benchmaxxing-a100-gpt-oss-120b-c100-trimmed.jsonl",
        "sglang-bench",
        1,
        0,
        {
            "concurrency": 100,
            "request_throughput": 11.87010338334097,
            "ttft_mean": 4037.9629086377104,
            "engine_version": "0.5.8.post1",
            "tensor_parallel": 4,
        },
    ),
]

CASES += [
    # AIPerf 0.10.0 (schema 1.3): phases as a list, models.items; a concurrency and a rate run.
    (
        "aiperf/anud18-5090-chatbot-c16-trimmed.json",
        "aiperf",
        1,
        0,
        {
            "concurrency": 16,
            "request_throughput": 5.232059072013586,
            "ttft_mean": 119.13046247916667,
            "model": "qwen3.6-nvfp4",
            "tool_version": "0.10.0",
        },
    ),
    (
        "aiperf/anud18-5090-chatbot-r1.0-trimmed.json",
        "aiperf",
        1,
        0,
        {
            "request_rate": 1.0,
            "concurrency": None,
            "request_throughput": 1.0096964703337958,
            "output_throughput_per_user": 186.7355543508577,
        },
    ),
]

CASES += [
    # GenAI-Perf committed by two teams: Triton 25.01 SDK (flat input_config) ...
    (
        "genai-perf/wellflat-k8s-dev-2025-09-16.json",
        "genai-perf",
        1,
        0,
        {
            "concurrency": 1,
            "request_throughput": 0.31455262548511714,
            "ttft_mean": 2197.1986507727274,
            "successful_requests": 66,
            "model": "openai/gpt-oss-20b",
        },
    ),
    # ... Triton 25.07 SDK: nested config whose analyze.sweep_parameters.concurrency is a
    # min/max range (1-1024); the run's own load is perf_analyzer.stimulus.concurrency.
    (
        "genai-perf/wellflat-k8s-dev-telemetry-2025-09-30.json",
        "genai-perf",
        1,
        0,
        {
            "concurrency": 1,
            "request_throughput": 0.4701030011153585,
            "ttft_mean": 1524.6265132,
            "output_throughput_per_user": 129.22766466149542,
            "gpu_count": 1,  # of the 8 in telemetry_stats, only GPU 3 had memory in use
        },
    ),
    # ... and genai-perf 0.0.15 from PyPI, non-streaming (its TTFT is the request latency).
    (
        "genai-perf/egham-adaptive-long-c50-nonstreaming.json",
        "genai-perf",
        1,
        0,
        {
            "concurrency": 50,
            "request_throughput": 5.384645317406846,
            "output_throughput": 1727.1774334022466,
            "e2e_latency_mean": 7508.434758058441,
            "ttft_mean": None,
        },
    ),
    (
        "genai-perf/egham-adaptive-quick-c10-nonstreaming.json",
        "genai-perf",
        1,
        0,
        {
            "concurrency": 10,
            "request_throughput": 0.4001412790337953,
            "e2e_latency_mean": 20050.898785066664,
            "successful_requests": 15,
        },
    ),
    # AIPerf of January 2026 (flat metrics, input_config.loadgen, telemetry_data of 8 GPUs).
    (
        "aiperf/wellflat-k8s-dev-2026-01.json",
        "aiperf",
        1,
        0,
        {
            "concurrency": 1,
            "request_throughput": 0.19245648570156926,
            "ttft_mean": 82.84651240000001,
            "successful_requests": 100,
            "gpu_name": "NVIDIA A100-SXM4-80GB",
            "gpu_count": 1,  # DCGM saw the node's 8; gpu_0 alone was busy
        },
    ),
]

CASES.append(
    # llama-bench build 5606 on an RTX 4090 (June 2025): model_type "llama ?B Q3_K - Large".
    (
        "llama-bench/brayniac-rtx4090-b5606.json",
        "llama-bench",
        2,
        1,
        {
            "test": "tg1280",
            "generation_tok_s": 85.498819,
            "precision": "Q3_K_L",
            "engine_version": "b5606",
            "gpu_name": "NVIDIA GeForce RTX 4090",
        },
    )
)

CASES.append(
    # llm-d's own example Benchmark Report v0.2, YAML (its TTFT equals its request latency).
    (
        "llmd-report/br_v0_2_example.yaml",
        "llmd-report",
        1,
        0,
        {"request_rate": 10.0, "gpu_count": 16, "output_throughput": 2262.448},
    )
)

# Files that are refused, with the reason that is true of them.
REFUSED = [
    ("vllm-bench/er0080-all-failed-v0.25.1.json", "bad-value", "no request succeeded"),
]


def parse(relative: str) -> ParsedFile:
    path = REAL / relative
    return parse_result_file(path.name, path.read_bytes())


def test_every_file_of_the_corpus_is_listed_here_and_in_sources() -> None:
    files = {str(p.relative_to(REAL)) for p in REAL.rglob("*") if p.suffix != ".md" and p.is_file()}
    listed = {case[0] for case in CASES} | {case[0] for case in REFUSED}
    sweep = {f for f in files if f.startswith("vllm-sweep/")}  # checked by the sweep tests
    assert files - sweep == listed - sweep
    sources = (REAL / "SOURCES.md").read_text()
    for name in files - sweep:
        assert Path(name).name in sources, name


@pytest.mark.parametrize(("relative", "tool", "count", "index", "expected"), CASES)
def test_real_file_parses_with_its_numbers(
    relative: str, tool: str, count: int, index: int, expected: dict[str, Any]
) -> None:
    parsed = parse(relative)
    assert parsed.format == tool
    assert len(parsed.runs) == count
    run = parsed.runs[index]
    for key, value in expected.items():
        got = getattr(run, key) if hasattr(run, key) else run.metrics.get(key)
        if isinstance(value, float):
            assert got == pytest.approx(value, rel=1e-12), key
        else:
            assert got == value, key


@pytest.mark.parametrize(("relative", "kind", "reason"), REFUSED)
def test_refused_file_says_why(relative: str, kind: str, reason: str) -> None:
    with pytest.raises(ResultFileError) as caught:
        parse(relative)
    assert caught.value.kind == kind
    assert reason in str(caught.value)
    assert Path(relative).name in str(caught.value)


def test_an_older_sglang_record_derives_its_request_rate_and_says_so() -> None:
    run = parse("sglang-bench/datacrunch-llama-3.3-70b-online.jsonl").runs[0]
    assert "request_throughput" in run.derived
    assert run.metric_sources["request_throughput"] == "completed / duration"
    assert "ttft_mean" not in run.metrics  # that layout wrote only the median
    newer = parse("sglang-bench/tonyli15-agg-c8.jsonl").runs[0]
    assert "request_throughput" not in newer.derived


def test_a_non_streaming_run_has_no_time_to_first_token() -> None:
    run = parse("genai-perf/perf-analyzer-issue298-nonstreaming.json").runs[0]
    assert not any(key.startswith(("ttft_", "tpot_", "itl_")) for key in run.metrics)
    assert "output_throughput_per_user" not in run.metrics  # nothing to derive it from
    assert any("streaming" in note for note in run.notes)
    streamed = parse("genai-perf/perf-analyzer-issue298-streaming.json").runs[0]
    assert streamed.metrics["ttft_mean"] < streamed.metrics["e2e_latency_mean"]


def test_a_ttft_equal_to_the_request_latency_is_dropped_without_a_streaming_flag() -> None:
    data = json.loads((REAL / "genai-perf/perf-analyzer-issue298-nonstreaming.json").read_text())
    del data["input_config"]["streaming"]
    (run,) = parse_result_file("x.json", json.dumps(data).encode()).runs
    assert "ttft_mean" not in run.metrics
    assert run.metrics["e2e_latency_mean"] == pytest.approx(4610.6156361171425)


def test_telemetry_counts_only_the_gpus_that_worked_and_says_so() -> None:
    data = json.loads((REAL / "aiperf/wellflat-k8s-dev-2026-01.json").read_text())
    gpus = data["telemetry_data"]["endpoints"]["dcgm-exporter.prometheus.svc.cluster.local:9400"]
    (run,) = parse_result_file("x.json", json.dumps(data).encode()).runs
    assert run.gpu_count == 1 and any("8 GPUs; 1 worked" in note for note in run.notes)
    # A second busy GPU counts; with no utilisation or memory figures every GPU counts.
    gpus["gpus"]["gpu_5"]["metrics"]["gpu_utilization"]["avg"] = 40.0
    assert parse_result_file("x.json", json.dumps(data).encode()).runs[0].gpu_count == 2
    for gpu in gpus["gpus"].values():
        del gpu["metrics"]["gpu_utilization"], gpu["metrics"]["gpu_memory_used"]
    (run,) = parse_result_file("x.json", json.dumps(data).encode()).runs
    assert run.gpu_count == 8 and not any("worked" in note for note in run.notes)


def test_older_guidellm_sweep_strategy_comes_from_args() -> None:
    run = parse("guidellm/graz-dev-old-benchmarks-trimmed.json").runs[0]
    assert run.label == "throughput"
    assert run.metric_sources["request_throughput"].startswith("metrics.requests_per_second")


def sweep_files() -> list[tuple[str, bytes]]:
    root = REAL / "vllm-sweep"
    return [(p.relative_to(root).as_posix(), p.read_bytes()) for p in root.rglob("*.json")]


def test_a_vllm_sweep_directory_is_one_set_of_every_run() -> None:
    parsed = parse_result_set("vllm-sweep", sweep_files())
    assert parsed.format == "vllm-bench"
    # run=0/run=1 of two server settings; each summary.json repeats its runs and is passed over.
    assert [round(r.metrics["request_throughput"], 6) for r in parsed.runs] == [
        5.85923,
        12.460567,
        11.950037,
        11.655204,
    ]
    assert [r.index for r in parsed.runs] == [0, 1, 2, 3]
    assert parsed.runs[2].source.startswith("SERVE--max_num_seqs=8-") and parsed.runs[
        2
    ].source.endswith("run=0.json")
    assert parsed.runs[2].raw["max_num_seqs"] == 8
    assert any("summary.json" in note for note in parsed.notes)


def test_an_archive_of_a_sweep_is_the_same_set() -> None:
    files = sweep_files()
    zipped = io.BytesIO()
    with zipfile.ZipFile(zipped, "w") as archive:
        for name, data in files:
            archive.writestr(f"sweep/{name}", data)
        archive.writestr("sweep/x.pytorch.json", b'[{"benchmark": {}, "model": {}, "metric": {}}]')
        archive.writestr("../escape.json", b"{}")
    tarred = io.BytesIO()
    with tarfile.open(fileobj=tarred, mode="w:gz") as archive:
        for name, data in files:
            info = tarfile.TarInfo(f"sweep/{name}")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    for data in (zipped.getvalue(), tarred.getvalue()):
        assert is_archive(data)
        parsed = parse_result_set("a", unpack_archive("a", data))
        assert len(parsed.runs) == 4


def test_a_set_is_refused_whole_when_one_result_is_wrong_or_the_tools_differ() -> None:
    files = sweep_files()
    broken = [*files, ("late/run=0.json", b'{"completed": 3, "model_id": "m"}')]
    with pytest.raises(ResultFileError) as caught:
        parse_result_set("s", broken)
    assert caught.value.file == "late/run=0.json" and caught.value.kind == "missing-field"
    mixed = [
        *files,
        ("llama.json", (REAL / "llama-bench/llama-cpp-readme-b1275.json").read_bytes()),
    ]
    with pytest.raises(ResultFileError) as caught:
        parse_result_set("s", mixed)
    assert "one tool's results" in caught.value.message and "llama.json" in caught.value.message
    with pytest.raises(ResultFileError) as caught:
        parse_result_set("s", [("notes.txt", b"hello"), ("plot.png", b"\x89PNG")])
    assert caught.value.kind == "empty"


def test_a_set_is_bounded_in_files_and_bytes() -> None:
    many = [(f"{i}.json", b"{}") for i in range(MAX_SET_FILES + 1)]
    with pytest.raises(ResultFileError) as caught:
        parse_result_set("s", many)
    assert caught.value.kind == "too-many-runs"
    zipped = io.BytesIO()
    with zipfile.ZipFile(zipped, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("big.json", b" " * (MAX_SET_BYTES + 1))  # compresses to almost nothing
    with pytest.raises(ResultFileError) as caught:
        unpack_archive("bomb.zip", zipped.getvalue())
    assert caught.value.kind == "too-large"


def test_a_guidellm_report_of_many_benchmarks_is_one_sweep_of_its_loads() -> None:
    runs = parse("guidellm/llmd-guidellm-report-v2.json").runs
    assert [run.request_rate for run in runs] == [2.0, 4.0]
