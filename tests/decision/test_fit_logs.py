# ruff: noqa: E501 (log lines are quoted as the servers printed them)
"""Reading a server's startup log: lines in each server's own format, as printed in public
logs (vLLM 0.11-era V1 engine, SGLang 0.4, llama.cpp before and after the KV cache rename,
Ollama's estimator up to v0.12)."""

import pytest

from app.decision.fit_logs import MAX_CHARS, read_log

VLLM = """\
(EngineCore_DP0 pid=175) INFO 11-14 14:26:16 [gpu_worker.py:298] Available KV cache memory: 35.34 GiB
(EngineCore_DP0 pid=175) INFO 11-14 14:26:16 [kv_cache_utils.py:1087] GPU KV cache size: 463,136 tokens
(EngineCore_DP0 pid=175) INFO 11-14 14:26:16 [kv_cache_utils.py:1091] Maximum concurrency for 131,072 tokens per request: 3.53x
"""

SGLANG = """\
[2025-03-08 12:29:21 TP0] Load weight end. type=Qwen2ForCausalLM, dtype=torch.bfloat16, avail mem=6.09 GB, mem usage=15.54 GB.
[2025-03-08 12:29:21 TP0] KV Cache is allocated. #tokens: 46611, K size: 1.42 GB, V size: 1.42 GB
"""

LLAMA_CPP = """\
load_tensors:        CUDA0 model buffer size =  4403.49 MiB
llama_context: n_ctx         = 65536
llama_kv_cache:      CUDA0 KV buffer size =  6144.00 MiB
llama_kv_cache: size = 6144.00 MiB ( 65536 cells,  48 layers,  4/1 seqs), K (f16): 3072.00 MiB, V (f16): 3072.00 MiB
llama_context:      CUDA0 compute buffer size =   300.75 MiB
"""

LLAMA_CPP_SPLIT = """\
llama_kv_cache_init:  CUDA_Host KV buffer size =  1479.19 MiB
llama_kv_cache_init:      CUDA0 KV buffer size =   578.81 MiB
llama_kv_cache_init:      CUDA1 KV buffer size =  1472.00 MiB
"""

OLLAMA = (
    'time=2025-12-01T20:28:54.084Z level=INFO source=memory.go:356 msg="offload to cuda" '
    'layers.requested=-1 layers.model=33 layers.offload=33 layers.split="" '
    'memory.available="[23.3 GiB]" memory.gpu_overhead="0 B" memory.required.full="6.5 GiB" '
    'memory.required.partial="6.5 GiB" memory.required.kv="1.0 GiB" '
    'memory.required.allocations="[6.5 GiB]" memory.weights.total="4.9 GiB" '
    'memory.weights.repeating="4.5 GiB" memory.weights.nonrepeating="411.0 MiB" '
    'memory.graph.full="560.0 MiB" memory.graph.partial="677.5 MiB"\n'
)


def test_vllm_kv_memory_tokens_and_concurrency() -> None:
    reading = read_log(VLLM)
    assert reading.server == "vllm"
    assert reading.first("kv_memory").value == pytest.approx(35.34 * 2**30 / 1e9)  # 37.95 GB
    assert reading.first("kv_tokens").value == 463_136
    concurrency = reading.first("max_concurrency")
    assert (concurrency.value, concurrency.unit) == (3.53, "x at 131,072 tokens")


def test_sglang_kv_pool_in_its_binary_gb() -> None:
    reading = read_log(SGLANG)
    assert reading.server == "sglang"
    assert reading.first("kv_tokens").value == 46_611
    assert reading.first("kv_memory").value == pytest.approx(2.84 * 2**30 / 1e9)
    assert reading.first("weights").value == pytest.approx(15.54 * 2**30 / 1e9)


def test_llama_cpp_kv_buffers_per_device() -> None:
    reading = read_log(LLAMA_CPP)
    assert reading.server == "llama.cpp"
    assert reading.total("kv_memory") == pytest.approx(6144 * 2**20 / 1e9)
    assert reading.first("weights").value == pytest.approx(4403.49 * 2**20 / 1e9)
    assert reading.first("context").value == 65_536
    split = read_log(LLAMA_CPP_SPLIT)
    # Two GPUs' buffers add up; the host's is system memory, kept apart.
    assert split.total("kv_memory") == pytest.approx((578.81 + 1472) * 2**20 / 1e9)
    assert split.total("kv_host") == pytest.approx(1479.19 * 2**20 / 1e9)


def test_ollama_estimator_line() -> None:
    reading = read_log(OLLAMA)
    assert reading.server == "ollama"
    assert reading.first("kv_memory").value == pytest.approx(2**30 / 1e9)
    assert reading.first("weights").value == pytest.approx(4.9 * 2**30 / 1e9)


def test_text_that_is_no_log_reads_nothing_and_a_huge_paste_is_cut() -> None:
    assert read_log("hello\nworld").server is None
    huge = read_log("x" * (MAX_CHARS + 10) + "\n" + VLLM)
    assert huge.truncated and huge.facts == []
