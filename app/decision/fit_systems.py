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
VLLM_MEM_UTILS = (
    "https://github.com/vllm-project/vllm/blob/a6d5c39009eb73797b276cc557ca9659c396ca14/"
    "vllm/utils/mem_utils.py"
)
VLLM_ARGS = (
    "https://github.com/vllm-project/vllm/blob/99d7eb5d6a512cfcc5a2b104f24ebf2d6cda772b/"
    "vllm/engine/arg_utils.py"
)
SGLANG_ARGS = (
    "https://github.com/sgl-project/sglang/blob/469c63e54e7d94591617ef9590c6aa26d54dc1bb/"
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
    "https://github.com/ggml-org/llama.cpp/blob/2aef9767d982beb7ab61b3ae359366f627eb74dd/"
    "src/llama-kv-cache-iswa.cpp"
)
OLLAMA_SERVER = "https://github.com/ollama/ollama/blob/v0.33.0-rc2/llm/llama_server.go"
OLLAMA_ENV = "https://github.com/ollama/ollama/blob/v0.33.0-rc2/envconfig/config.go"

SYSTEMS = ("vllm", "sglang", "llama-cpp", "ollama")
VLLM_UTILIZATION = 0.92

# What vLLM's profile takes beyond the weights, per GPU, from its own memory-profiling log
# (non-torch memory: NCCL, cuBLAS and attention-backend buffers; torch's activation peak for
# a dummy step of max_num_batched_tokens). Published logs, both on an H100 80GB:
# - Llama 3 8B (dense), 8,192 batched tokens: non_torch_memory 1.79 GiB at TP 1 and 3.58 GiB
#   at TP 2, activation peak 1.26 GiB in both (vllm PR #10511, the author's sanity check);
# - gpt-oss-120b (MoE) at TP 1, 0.95, 131,072 context: 79.22 GiB × 0.95 − 65.97 GiB of weights
#   − 1.71 GiB of KV cache = 7.58 GiB for the rest (vllm issue #27508).
VLLM_PROFILE_LOGS = (
    "https://github.com/vllm-project/vllm/pull/10511",
    "https://github.com/vllm-project/vllm/issues/27508",
)
VLLM_NON_TORCH_GIB = {1: 1.79, 2: 3.58}  # TP 1; TP 2 and beyond (NCCL)
VLLM_DENSE_ACTIVATION_GIB = 1.26
VLLM_MOE_REST_GIB = 7.58  # non-torch + activation at TP 1


def vllm_reserve(moe: bool, gpus: int) -> tuple[float, str]:
    """(GB per GPU, the arithmetic) for vLLM's profiled activations and non-torch memory:
    the measured figure of the nearest published case, dense or mixture of experts."""
    extra_nccl = VLLM_NON_TORCH_GIB[2] - VLLM_NON_TORCH_GIB[1] if gpus > 1 else 0.0
    if moe:
        gib = VLLM_MOE_REST_GIB + extra_nccl
        how = f"{VLLM_MOE_REST_GIB} GiB measured for gpt-oss-120b at TP 1"
    else:
        gib = VLLM_NON_TORCH_GIB[1] + VLLM_DENSE_ACTIVATION_GIB + extra_nccl
        how = (
            f"{VLLM_NON_TORCH_GIB[1]} GiB non-torch + {VLLM_DENSE_ACTIVATION_GIB} GiB "
            "activation peak measured for Llama 3 8B at TP 1"
        )
    if extra_nccl:
        how += f", + {extra_nccl:.2f} GiB more non-torch memory (NCCL) once TP > 1"
    return gib * GIB / GB, how


def vllm(memory_gb: float | None, moe: bool = False, gpus: int = 1) -> Accounting:
    """vLLM V1: a share of total memory, the profiled non-KV memory out of it, and a
    sliding-window layer kept at the window plus one step's tokens."""
    # The OpenAI server schedules 8192 tokens a step on GPUs of 70 GiB or more, else 2048.
    step = 8192 if memory_gb is not None and memory_gb * GB >= 70 * GIB else 2048
    reserve, how = vllm_reserve(moe, gpus)
    return Accounting(
        system="vllm",
        memory_utilization=VLLM_UTILIZATION,
        reserve_gb=reserve,
        kv_cache_dtype="auto",
        window_extra_tokens=step - 1 + 16,
        basis=(
            "vLLM: gpu_memory_utilization is a share of the GPU's total memory, 0.92 in "
            f"vllm/config/cache.py as read ({VLLM_CACHE}) and 0.9 in earlier releases "
            "(https://github.com/vllm-project/vllm/pull/2162); weights, the profiled activation "
            "peak and non-torch memory come out of it and the rest is KV cache",
            "vLLM: a sliding-window layer keeps min(window − 1 + max_num_batched_tokens, "
            f"max_model_len) tokens plus one 16-token block (SlidingWindowSpec, {VLLM_SPECS}); "
            f"max_num_batched_tokens is {step:,} for the API server on this GPU ({VLLM_ARGS})",
            "vLLM: --kv-cache-dtype auto stores the KV cache in the model's dtype",
            f"vLLM: reserve {reserve:.2f} GB per GPU for what its profile measures beyond the "
            f"weights (non-torch memory and the activation peak of one {step:,}-token step): "
            f"{how} ({', '.join(VLLM_PROFILE_LOGS)}; the three parts are named in the "
            f"memory_profiling docstring, {VLLM_MEM_UTILS})",
        ),
        assumed=(
            f"a recent vLLM, at its default gpu_memory_utilization {VLLM_UTILIZATION} (an older "
            "release: pass memory_utilization=0.9)",
            f"{reserve:.2f} GB per GPU for vLLM's profiled activations and non-torch buffers, "
            "the measured figure of the nearest published case "
            f"({'a mixture of experts' if moe else 'a dense model'}); measured cases run from "
            "3.3 GB (a dense 8B) to 8.1 GB (a 117B MoE at long context) at TP 1, and grow with "
            "--max-num-batched-tokens and the model's hidden and intermediate sizes",
            "CUDA graphs: from v0.21 vLLM estimates their memory inside the profile (they "
            "came out of the 1 − utilization headroom before); up to about 2.4 GiB more on "
            "large batch sizes (https://github.com/vllm-project/vllm/issues/7553), not added here",
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
            "layers get their own cache of min(context, window × sequences + n_ubatch) tokens, "
            f"n_ubatch 512 by default, unless --swa-full ({LLAMA_KV})",
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


def accounting(system: str, memory_gb: float | None, gpus: int, moe: bool = False) -> Accounting:
    """The accounting of `system` (one of SYSTEMS) on `gpus` GPUs of `memory_gb`, for a
    mixture of experts (`moe`) or not."""
    if system == "vllm":
        return vllm(memory_gb, moe, gpus)
    if system == "sglang":
        return sglang(memory_gb, gpus)
    if system == "ollama":
        return ollama()
    return llama_cpp()
