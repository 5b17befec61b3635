"""How each server accounts for memory where it differs from the general fit arithmetic. Pure.

The general answer (app/decision/fit.py) takes 90 % of each GPU, a 1 GB reserve and a BF16
KV cache, and a sliding-window layer holds its window. A server named with `system=` changes
those inputs the way its own code does; every change is a basis line with the file and the
commit or tag it was read at, so a person can check it.
"""

from dataclasses import dataclass

from app.decision.fit import GB

MIB = 1024 * 1024
GIB = 1024 * MIB


@dataclass(frozen=True)
class Accounting:
    """The inputs a server sets: its share of each GPU, the reserve it keeps for activations,
    the margin it leaves free, its default KV cache type, what a sliding-window layer holds
    beyond the window; `basis` says where each comes from."""

    system: str
    memory_utilization: float
    reserve_gb: float
    kv_cache_dtype: str
    window_extra_tokens: int = 0
    margin_gb: float = 0.0
    basis: tuple[str, ...] = ()
    assumed: tuple[str, ...] = ()


VLLM_CACHE = (
    "https://github.com/vllm-project/vllm/blob/002f10e0cfa1373a19a0d2756598a34b700d20e5/"
    "vllm/config/cache.py"
)
VLLM_SPECS = (
    "https://github.com/vllm-project/vllm/blob/001cabc1be16a59a70d720ed61a13b678c060a18/"
    "vllm/v1/kv_cache_interface.py"
)
VLLM_ARGS = (
    "https://github.com/vllm-project/vllm/blob/001cabc1be16a59a70d720ed61a13b678c060a18/"
    "vllm/engine/arg_utils.py"
)
SGLANG_ARGS = (
    "https://github.com/sgl-project/sglang/blob/226149ac457bd1a1b5d450f55c01f72f604320d6/"
    "python/sglang/srt/server_args.py"
)
SGLANG_POOL = (
    "https://github.com/sgl-project/sglang/blob/226149ac457bd1a1b5d450f55c01f72f604320d6/"
    "python/sglang/srt/model_executor/model_runner_kv_cache_mixin.py"
)
LLAMA_SERVER_README = (
    "https://github.com/ggml-org/llama.cpp/blob/25d5b0c53f9a146f3d7a99a18610d9d623b5041e/"
    "tools/server/README.md"
)
LLAMA_KV = (
    "https://github.com/ggml-org/llama.cpp/blob/3514e9f6e795d3b3cd88d6614f6c07e7ce6f916f/"
    "src/llama-kv-cache-iswa.cpp"
)
OLLAMA_SERVER = "https://github.com/ollama/ollama/blob/v0.33.0-rc2/llm/llama_server.go"
OLLAMA_ENV = "https://github.com/ollama/ollama/blob/v0.33.0-rc2/envconfig/config.go"

SYSTEMS = ("vllm", "sglang", "llama-cpp", "ollama")


def vllm(memory_gb: float | None) -> Accounting:
    """vLLM V1: a share of total memory, the profiled non-KV memory out of it, and a
    sliding-window layer kept at the window plus one step's tokens."""
    # The OpenAI server schedules 8192 tokens a step on GPUs of 70 GiB or more, else 2048.
    step = 8192 if memory_gb is not None and memory_gb * GB >= 70 * GIB else 2048
    return Accounting(
        system="vllm",
        memory_utilization=0.9,
        reserve_gb=1.0,
        kv_cache_dtype="auto",
        window_extra_tokens=step - 1 + 16,
        basis=(
            "vLLM: gpu_memory_utilization is a share of the GPU's total memory; 0.9 through "
            "most releases (PR #2162), 0.92 in the newest cache.py "
            f"({VLLM_CACHE}); weights, the profiled activation peak and non-torch memory "
            "come out of it and the rest is KV cache",
            "vLLM: a sliding-window layer keeps min(window − 1 + max_num_batched_tokens, "
            f"max_model_len) tokens plus one 16-token block (SlidingWindowSpec, {VLLM_SPECS}); "
            f"max_num_batched_tokens is {step:,} for the API server on this GPU ({VLLM_ARGS})",
            "vLLM: --kv-cache-dtype auto stores the KV cache in the model's dtype",
        ),
        assumed=(
            "vLLM at gpu_memory_utilization 0.9 (set --gpu-memory-utilization for 0.92 on "
            "the newest releases)",
            "1 GB per GPU for vLLM's profiled activations, CUDA graphs and NCCL buffers",
        ),
    )


def sglang_fraction(memory_gb: float, gpus: int) -> tuple[float, float]:
    """(mem_fraction_static, reserved GB) as SGLang derives them when unset: a reservation in
    MB from the chunked-prefill size and CUDA-graph batch that its GPU-memory tier picks."""
    memory_mib = memory_gb * GB / MIB
    tiers = ((20, 2048, 8), (35, 2048, 80), (60, 4096, 160), (160, 8192, 512))
    chunk, graph_bs = 16384, 512
    for below_gb, tier_chunk, tier_bs in tiers:
        if memory_mib < below_gb * 1024:
            chunk, graph_bs = tier_chunk, tier_bs
            break
    reserved_mib = 512 + max(chunk, 2048) * 1.5 + graph_bs * 2 + gpus / 8 * 1024
    if memory_mib > 60 * 1024:
        reserved_mib = max(reserved_mib, 10 * 1024)
    fraction = round((memory_mib - reserved_mib) / memory_mib, 3)
    return fraction, reserved_mib * MIB / GB


def sglang(memory_gb: float | None, gpus: int) -> Accounting:
    """SGLang: weights and the KV token pool share mem_fraction_static of the GPU; the rest is
    the reservation for activations and CUDA graphs, so no separate reserve."""
    if memory_gb is None:
        fraction, reserved = 0.88, 0.0
        how = "0.88, SGLang's fallback when the GPU's memory is unknown"
    else:
        fraction, reserved = sglang_fraction(memory_gb, gpus)
        how = f"{fraction:g} (a reservation of {reserved:.2f} GB on this GPU)"
    return Accounting(
        system="sglang",
        memory_utilization=fraction,
        reserve_gb=0.0,
        kv_cache_dtype="auto",
        basis=(
            f"SGLang: mem_fraction_static {how}: reserved MB = 512 + max(chunked_prefill_size, "
            "2048) × 1.5 + cuda_graph_max_bs × 2 + TP/8 × 1024, at least 10 GB on GPUs over "
            f"60 GB (_handle_gpu_memory_settings, {SGLANG_ARGS})",
            "SGLang: the KV pool is the fraction less the weights, in tokens of cell_size "
            "(KV heads per GPU × (head dim + V head dim) × layers × bytes; MLA its latent), "
            f"rounded down to the page size (profile_max_num_token, {SGLANG_POOL})",
        ),
        assumed=("SGLang with mem_fraction_static unset (it derives one from the GPU)",),
    )


def llama_cpp(system: str = "llama-cpp") -> Accounting:
    """llama.cpp's --fit: whole device memory less a free margin; F16 KV; a second,
    window-sized cache for sliding-window layers."""
    margin = 1024 * MIB / GB
    return Accounting(
        system=system,
        memory_utilization=1.0,
        reserve_gb=1.0,
        kv_cache_dtype="fp16",
        window_extra_tokens=512,
        margin_gb=margin,
        basis=(
            f"llama.cpp: --fit (on by default) keeps --fit-target 1024 MiB = {margin:.2f} GB "
            "free on each device and, when short, shrinks the context down to --fit-ctx "
            f"4096, then moves layers or MoE expert tensors to CPU memory ({LLAMA_SERVER_README})",
            "llama.cpp: the KV cache is F16 unless -ctk/-ctv say otherwise; sliding-window "
            "layers get their own cache of the window × sequences + n_ubatch (512) tokens "
            f"unless --swa-full ({LLAMA_KV})",
        ),
        assumed=("1 GB per GPU for llama.cpp's compute buffer (its size depends on the graph)",),
    )


def ollama() -> Accounting:
    """Ollama from v0.30 starts llama-server without -ngl, so llama.cpp's --fit places it;
    the context is num_ctx × OLLAMA_NUM_PARALLEL."""
    base = llama_cpp("ollama")
    return Accounting(
        **{
            **base.__dict__,
            "basis": (
                "Ollama (v0.30 and later): runs llama-server with -c num_ctx × parallel "
                "-np parallel and no -ngl, so llama.cpp's --fit decides the offload "
                f"({OLLAMA_SERVER})",
                *base.basis,
                "Ollama: OLLAMA_NUM_PARALLEL defaults to 1 and OLLAMA_CONTEXT_LENGTH to 4k, 32k "
                f"or 256k by VRAM ({OLLAMA_ENV}); concurrency here is the parallel slots",
            ),
        }
    )


def accounting(system: str, memory_gb: float | None, gpus: int) -> Accounting:
    """The accounting of `system` (one of SYSTEMS) on a GPU of `memory_gb`."""
    if system == "vllm":
        return vllm(memory_gb)
    if system == "sglang":
        return sglang(memory_gb, gpus)
    if system == "ollama":
        return ollama()
    return llama_cpp()
