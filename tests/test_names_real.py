"""Names as tools and people print them, against the real vocabulary (data tier, issue 35).

SPELLINGS holds real spellings, each from a public page: nvidia-smi, rocm-smi and PyTorch
device names pasted into issues, Ollama tags, Hugging Face ids, cache folders and GGUF file
names as tools and users wrote them. Each must resolve to its entry, ask between candidates
(ASK), or resolve to nothing (None: no entry for that part or model, and never a guess).
The rule tests on a small vocabulary are in tests/test_names_spellings.py.

The property test misspells every entry's names and checks that neither resolve nor a
did-you-mean ever lands on an entry of another size or another GPU.
"""

import random
import re

import pytest

from app.seeding.load import load_seed
from app.seeding.reader import SeedData
from app.vocabulary.names import Names
from tests.conftest import REAL_SEED_DIR

pytestmark = pytest.mark.data

H100 = ("nvidia-h100-sxm5-80gb", "nvidia-h100-pcie", "nvidia-h100-nvl-94gb")
PRO_6000 = (
    "nvidia-rtx-pro-6000-blackwell-server",
    "nvidia-rtx-pro-6000-blackwell-workstation",
    "nvidia-rtx-pro-6000-blackwell-max-q",
)


class Ask(tuple[str, ...]):
    """The name fits several entries: these candidates, and no silent choice."""


GH = "https://github.com"
OLLAMA_TAGS = f"{GH}/ollama/ollama/issues/6795"  # the llama3.1 tag list, pasted in an issue

# (spelling, expected, where it was seen)
HARDWARE: list[tuple[str, str | Ask | None, str]] = [
    ("NVIDIA H100 80GB HBM3", "nvidia-h100-sxm5-80gb", f"{GH}/NVIDIA/nccl/issues/1264"),
    ("NVIDIA H100 80GB HBM3", "nvidia-h100-sxm5-80gb", f"{GH}/wilicc/gpu-burn/issues/114"),
    (
        "NVIDIA H100 80GB HBM3",
        "nvidia-h100-sxm5-80gb",
        f"{GH}/zzc0721/torch-performance-test-data/issues/21",
    ),
    ("HGX H100 SXM", "nvidia-h100-sxm5-80gb", f"{GH}/NVIDIA/nccl/issues/1264"),
    ("H100 SXM", "nvidia-h100-sxm5-80gb", f"{GH}/akash-network/provider-configs/pull/15"),
    ("H100 SXM5 80GB", "nvidia-h100-sxm5-80gb", f"{GH}/akash-network/provider-configs/pull/15"),
    ("H100 PCIe", "nvidia-h100-pcie", f"{GH}/NVIDIA/nccl/issues/1161"),
    ("NVIDIA H100 NVL", "nvidia-h100-nvl-94gb", f"{GH}/fastfetch-cli/fastfetch/issues/1658"),
    ("H100", Ask(H100), f"{GH}/NVIDIA/TensorRT-LLM/issues/281"),
    ("A100", Ask(("nvidia-a100-80gb",)), f"{GH}/NVIDIA/TensorRT-LLM/issues/281"),
    ("NVIDIA A100-SXM-80GB", "nvidia-a100-80gb", f"{GH}/NVIDIA/nccl-tests/issues/100"),
    ("A100 80GB", "nvidia-a100-80gb", f"{GH}/modal-labs/modal-client/pull/2797"),
    ("A100 40GB", None, f"{GH}/modal-labs/modal-client/pull/2797"),
    ("NVIDIA H200", "nvidia-h200-sxm-141gb", f"{GH}/NVIDIA/cuda-samples/issues/311"),
    ("NVIDIA H200", "nvidia-h200-sxm-141gb", f"{GH}/NVIDIA/mig-parted/issues/120"),
    ("H200 141GB", "nvidia-h200-sxm-141gb", f"{GH}/NVIDIA/mig-parted/pull/89"),
    ("H200", "nvidia-h200-sxm-141gb", f"{GH}/allenai/open-instruct/pull/1441"),
    ("H200 NVL", "nvidia-h200-nvl-141gb", f"{GH}/NVIDIA/mig-parted/pull/146"),
    ("Nvidia H200 NVL", "nvidia-h200-nvl-141gb", f"{GH}/bigstack-oss/cubecos/issues/312"),
    ("NVIDIA H20", None, f"{GH}/zzc0721/torch-performance-test-data/issues/77"),
    ("NVIDIA H20-3e", None, f"{GH}/tile-ai/TileOPs/pull/1658"),
    ("GH200 144G HBM3e", None, f"{GH}/NVIDIA/mig-parted/pull/139"),
    ("NVIDIA B200", "nvidia-b200", f"{GH}/NVIDIA/TensorRT-LLM/issues/10278"),
    ("NVIDIA B200", "nvidia-b200", f"{GH}/huggingface/huggingface.js/pull/1539"),
    ("B200", "nvidia-b200", f"{GH}/NVIDIA/mig-parted/pull/166"),
    ("NVIDIA GeForce RTX 4090", "nvidia-rtx-4090", f"{GH}/RLinf/RLinf/issues/255"),
    ("NVIDIA Geforce RTX 4090", "nvidia-rtx-4090", f"{GH}/MrBlankness/LightM-UNet/issues/29"),
    ("RTX 4090", "nvidia-rtx-4090", f"{GH}/mlco2/impact/pull/56"),
    ("NVIDIA GeForce RTX 5090", "nvidia-rtx-5090", f"{GH}/noonghunna/club-3090/issues/1261"),
    ("NVIDIA GeForce RTX 3090", None, f"{GH}/noonghunna/club-3090/issues/1128"),
    ("GeForce RTX 3090", None, f"{GH}/noonghunna/club-3090/pull/594"),
    ("NVIDIA GeForce RTX 3080", None, "https://pastebin.com/tXDcw4qE"),
    ("NVIDIA GeForce RTX 2070", None, f"{GH}/NVIDIA/nvidia-docker/issues/1643"),
    ("GeForce GTX 980", None, "https://pastebin.com/r6Ur5dDR"),
    ("Tesla V100-SXM2-32GB", None, "https://pastebin.com/AaFUPNi5"),
    (
        "NVIDIA RTX PRO 6000 Blackwell Server Edition",
        PRO_6000[0],
        f"{GH}/zzc0721/torch-performance-test-data/issues/44",
    ),
    (
        "Nvidia RTX PRO 6000 Blackwell Server Edition",
        PRO_6000[0],
        f"{GH}/bigstack-oss/cubecos/issues/312",
    ),
    (
        "NVIDIA RTX PRO 6000 Blackwell Workstation Edition",
        PRO_6000[1],
        f"{GH}/zzc0721/torch-performance-test-data/issues/160",
    ),
    (
        "RTX PRO 6000 Blackwell Max-Q",
        PRO_6000[2],
        f"{GH}/en4ble1337/proxmox-gpu-dashboard/issues/5",
    ),
    ("NVIDIA RTX PRO 6000 Blackwell", Ask(PRO_6000), f"{GH}/antirez/ds4/pull/256"),
    ("RTX PRO 6000 Blackwell", Ask(PRO_6000), f"{GH}/Neroued/ninfer/issues/230"),
    ("RTX PRO 6000", Ask(PRO_6000), f"{GH}/NVIDIA/cudnn-frontend/pull/1164"),
    ("NVIDIA RTX Pro 6000 Blackwell DC-4Q", None, f"{GH}/bigstack-oss/cubecos/issues/312"),
    (
        "NVIDIA RTX PRO 6000D Blackwell Workstation Edition",
        None,
        f"{GH}/Datura-ai/lium-io/pull/1198",
    ),
    ("NVIDIA GB10", "nvidia-dgx-spark-gb10", f"{GH}/snowflakedb/ArcticTraining/pull/345"),
    ("NVIDIA-GB10", "nvidia-dgx-spark-gb10", f"{GH}/leptonai/gpud/pull/1170"),
    ("NVIDIA GB10", "nvidia-dgx-spark-gb10", f"{GH}/lablup/all-smi/issues/80"),
    ("DGX Spark", "nvidia-dgx-spark-gb10", f"{GH}/Syllo/nvtop/pull/411"),
    ("GB10", "nvidia-dgx-spark-gb10", f"{GH}/wookayin/gpustat/pull/179"),
    ("L40S", "nvidia-l40s", f"{GH}/modal-labs/modal-client/pull/2797"),
    ("L4", "nvidia-l4", f"{GH}/modal-labs/modal-client/pull/2797"),
    ("A10", None, f"{GH}/modal-labs/modal-client/pull/2797"),
    ("T4", None, f"{GH}/modal-labs/modal-client/pull/2797"),
    ("AMD Instinct MI300X", "amd-instinct-mi300x", f"{GH}/ROCm/legacy-rocm-build/issues/4750"),
    ("Mi300x", "amd-instinct-mi300x", f"{GH}/ROCm/legacy-rocm-build/issues/5265"),
    ("MI300x", "amd-instinct-mi300x", f"{GH}/ROCm/vllm/issues/397"),
    ("AMD Instinct MI250X/MI250", None, f"{GH}/ROCm/rocm_smi_lib/issues/165"),
    (
        "AMD Ryzen AI Max+ 395",
        "amd-ryzen-ai-max-plus-395",
        "https://www.amd.com/en/blogs/2025/faqs-amd-variable-graphics-memory-vram-ai-model-sizes-quantization-mcp-more.html",
    ),
    (
        "Ryzen AI Max+ 395",
        "amd-ryzen-ai-max-plus-395",
        "https://mortenoh.github.io/msai-setup/getting-started/hardware-architecture",
    ),
    (
        "Strix Halo",
        "amd-ryzen-ai-max-plus-395",
        "https://computerbase.de/2024-09/amd-strix-halo-ryzen-ai-max-plus-395-genehmigt-sich-96-gb-videospeicher",
    ),
    ("M1 Max", "apple-m1-max", f"{GH}/ggml-org/llama.cpp/pull/2011"),
    ("M2 Max", "apple-m2-max", f"{GH}/ollama/ollama/issues/434"),
    ("M2 Ultra 192GB", None, f"{GH}/ggml-org/llama.cpp/issues/5541"),
    ("M3 Ultra 256GB", None, f"{GH}/raullenchai/Rapid-MLX/pull/183"),
    ("M3 Ultra", "apple-m3-ultra", f"{GH}/antirez/ds4/issues/449"),
    ("v5litepod-8", "google-tpu-v5e", "https://docs.cloud.google.com/tpu/docs/v5e"),
    ("v5litepod-16", "google-tpu-v5e", "https://docs.cloud.google.com/tpu/docs/v5e"),
    ("v6e-8", "google-tpu-v6e", "https://docs.cloud.google.com/tpu/docs/v6e"),
    ("v6e-1", "google-tpu-v6e", "https://docs.cloud.google.com/tpu/docs/v6e"),
    ("v5p-8", "google-tpu-v5p", "https://cloud.google.com/tpu/docs/v5p"),
    ("Cloud TPU v5p", "google-tpu-v5p", "https://cloud.google.com/tpu/docs/v5p"),
    ("Trillium", "google-tpu-v6e", "https://docs.cloud.google.com/tpu/docs/v6e"),
]

MODELS: list[tuple[str, str | Ask | None, str]] = [
    *(
        (f"llama3.1:8b-instruct-{quant}", "llama-3.1-8b-instruct", OLLAMA_TAGS)
        for quant in (
            "fp16",
            "q2_K",
            "q3_K_S",
            "q3_K_M",
            "q3_K_L",
            "q4_0",
            "q4_1",
            "q4_K_S",
            "q4_K_M",
            "q5_0",
            "q5_1",
        )
    ),
    ("gemma3:12b-it-qat", "gemma-3-12b-it", f"{GH}/Visionatrix/Visionatrix/pull/414"),
    ("gemma3:27b-it-qat", "gemma-3-27b-it", f"{GH}/Visionatrix/Visionatrix/pull/414"),
    (
        "hf.co/google/gemma-3-12b-it-qat-q4_0-gguf",
        "gemma-3-12b-it",
        f"{GH}/ollama/ollama/issues/10360",
    ),
    ("qwen2.5:14b", None, f"{GH}/Visionatrix/Visionatrix/pull/414"),
    ("qwen3:14b", None, f"{GH}/davealtena/homelab/pull/1984"),
    ("qwen:72b", None, f"{GH}/ollama/ollama/issues/1719"),
    ("phind-codellama:34b-q5_K_M", None, f"{GH}/ollama/ollama/issues/434"),
    (
        "mistral-small3.1:24b-instruct-2503",
        "mistral-small-3.1-24b-instruct-2503",
        f"{GH}/ollama/ollama/issues/10553",
    ),
    ("Qwen/Qwen2.5-7B-Instruct", "qwen2.5-7b-instruct", f"{GH}/ollama/ollama/issues/6862"),
    (
        "meta-llama/Meta-Llama-3.1-70B-Instruct-q4",
        "llama-3.1-70b-instruct",
        f"{GH}/llmariner/llmariner/pull/318",
    ),
    ("Qwen3 32B", "qwen3-32b", f"{GH}/ollama/ollama/issues/14774"),
    (
        "unsloth/Llama-4-Scout-17B-16E-Instruct-GGUF:Q4_K_S",
        "llama-4-scout-17b-16e-instruct",
        f"{GH}/osaurus-ai/osaurus/issues/615",
    ),
    (
        "unsloth/Nemotron-3-Nano-30B-A3B-GGUF:Nemotron-3-Nano-30B-A3B-UD-Q4_K_XL.gguf",
        "nemotron-3-nano-30b-a3b",
        f"{GH}/osaurus-ai/osaurus/issues/615",
    ),
    (
        "mistralai/Ministral-3-3B-Instruct-2512-GGUF:Ministral-3-3B-Instruct-2512-Q4_K_M.gguf",
        None,
        f"{GH}/osaurus-ai/osaurus/issues/615",
    ),
    ("gte_qwen2:7b", None, f"{GH}/QwenLM/Qwen3/issues/811"),
    ("deepseek-ai/DeepSeek-V3", "deepseek-v3", f"{GH}/deepseek-ai/DeepSeek-V3/issues/28"),
    ("Qwen/Qwen3.5-0.8B", None, f"{GH}/LlamaEdge/LlamaEdge/issues/322"),
]

# Hugging Face repositories and the files in them, as their pages list them: the repository
# id, the cache folder the hub client makes for it, a GGUF file in it (with its quantisation
# and, for big models, its shard counter) and an Ollama pull of it.
HF = "https://huggingface.co"
REPOS: list[tuple[str, str, str]] = [
    # (repository, a GGUF file name in it or its GGUF repository's file, expected entry)
    (
        "meta-llama/Llama-3.1-8B-Instruct",
        "Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf",
        "llama-3.1-8b-instruct",
    ),
    (
        "meta-llama/Llama-3.1-70B-Instruct",
        "Meta-Llama-3.1-70B-Instruct-Q4_K_M.gguf",
        "llama-3.1-70b-instruct",
    ),
    (
        "meta-llama/Llama-3.3-70B-Instruct",
        "Llama-3.3-70B-Instruct-Q4_K_M.gguf",
        "llama-3.3-70b-instruct",
    ),
    ("Qwen/Qwen3-8B", "Qwen3-8B-Q4_K_M.gguf", "qwen3-8b"),
    ("Qwen/Qwen3-32B", "Qwen3-32B-Q4_K_M.gguf", "qwen3-32b"),
    ("Qwen/Qwen3-30B-A3B", "Qwen3-30B-A3B-UD-Q4_K_XL.gguf", "qwen3-30b-a3b"),
    ("Qwen/Qwen3-30B-A3B", "Qwen_Qwen3-30B-A3B-Q4_K_M.gguf", "qwen3-30b-a3b"),
    ("Qwen/Qwen3-235B-A22B", "Qwen3-235B-A22B-UD-Q2_K_XL-00001-of-00002.gguf", "qwen3-235b-a22b"),
    ("Qwen/Qwen2.5-7B-Instruct", "Qwen2.5-7B-Instruct-Q4_K_M.gguf", "qwen2.5-7b-instruct"),
    ("openai/gpt-oss-20b", "gpt-oss-20b-F16.gguf", "gpt-oss-20b"),
    ("openai/gpt-oss-120b", "gpt-oss-120b-mxfp4-00001-of-00003.gguf", "gpt-oss-120b"),
    ("openai/gpt-oss-120b", "openai_gpt-oss-120b-MXFP4-00001-of-00002.gguf", "gpt-oss-120b"),
    ("google/gemma-3-27b-it", "gemma-3-27b-it-Q4_K_M.gguf", "gemma-3-27b-it"),
    ("google/gemma-3-27b-it", "google_gemma-3-27b-it-Q4_K_M.gguf", "gemma-3-27b-it"),
    ("google/gemma-3-12b-it", "gemma-3-12b-it-Q4_K_M.gguf", "gemma-3-12b-it"),
    ("google/gemma-3-4b-it", "gemma-3-4b-it-Q4_K_M.gguf", "gemma-3-4b-it"),
    (
        "mistralai/Mistral-7B-Instruct-v0.3",
        "Mistral-7B-Instruct-v0.3-Q4_K_M.gguf",
        "mistral-7b-instruct-v0.3",
    ),
    (
        "mistralai/Mistral-Nemo-Instruct-2407",
        "Mistral-Nemo-Instruct-2407-Q4_K_M.gguf",
        "mistral-nemo-instruct-2407",
    ),
    ("microsoft/phi-4", "phi-4-Q4_K_M.gguf", "phi-4"),
    ("deepseek-ai/DeepSeek-R1", "DeepSeek-R1-UD-IQ1_S-00001-of-00004.gguf", "deepseek-r1"),
    (
        "meta-llama/Llama-4-Scout-17B-16E-Instruct",
        "Llama-4-Scout-17B-16E-Instruct-UD-Q4_K_XL-00001-of-00002.gguf",
        "llama-4-scout-17b-16e-instruct",
    ),
    (
        "meta-llama/Llama-4-Maverick-17B-128E-Instruct",
        "Llama-4-Maverick-17B-128E-Instruct-UD-Q2_K_XL-00001-of-00004.gguf",
        "llama-4-maverick-17b-128e-instruct",
    ),
    ("zai-org/GLM-4.5-Air", "GLM-4.5-Air-UD-Q4_K_XL-00001-of-00002.gguf", "glm-4.5-air"),
    (
        "moonshotai/Kimi-K2-Instruct",
        "Kimi-K2-Instruct-UD-Q2_K_XL-00001-of-00008.gguf",
        "kimi-k2-instruct",
    ),
]


def spellings() -> list[tuple[str, str | Ask | None, str]]:
    """Every spelling with its expected answer and where it was seen."""
    out = [*HARDWARE, *MODELS]
    for repo, gguf, slug in REPOS:
        page = f"{HF}/{repo}"
        owner, name = repo.split("/")
        out += [
            (repo, slug, page),
            (f"models--{owner}--{name}", slug, page),  # huggingface_hub's cache folder
            (f"/root/.cache/huggingface/hub/models--{owner}--{name}/snapshots/main", slug, page),
            (gguf, slug, page),
            (f"hf.co/unsloth/{name}-GGUF:Q4_K_M", slug, page),  # an Ollama pull of a GGUF
        ]
    return out


@pytest.fixture(scope="module")
def data() -> SeedData:
    return load_seed(REAL_SEED_DIR)


def names(data: SeedData, kind: str) -> Names:
    entries = {"hardware": data.hardware, "model": data.models}[kind]
    return Names.of(
        kind,
        ((slug, [e.name, *e.aliases]) for slug, e in entries.items()),
        vague=(slug for slug, e in entries.items() if e.vague),
    )


def test_at_least_131_real_spellings_each_answered(data: SeedData) -> None:
    table = spellings()
    assert len({text for text, *_ in table}) >= 131
    hardware, models = names(data, "hardware"), names(data, "model")
    hardware_texts = {text for text, *_ in HARDWARE}
    wrong = []
    for text, expected, seen in table:
        kind = hardware if text in hardware_texts else models
        found = kind.resolve(text)
        if isinstance(expected, Ask):
            # Asked, not guessed: no specific entry, and the candidates are the parts.
            got: object = Ask(kind.candidates(text))
            ok = (found is None or found in kind.vague) and tuple(got) == tuple(expected)  # type: ignore[arg-type]
        else:
            got, ok = found, found == expected
        if not ok:
            wrong.append(f"{text!r}: {got!r}, expected {expected!r} ({seen})")
    assert not wrong, "\n".join(wrong)


def test_an_unknown_part_is_never_offered_another_gpu(data: SeedData) -> None:
    hardware = names(data, "hardware")
    for text, expected, _ in HARDWARE:
        if expected is None:
            offered = hardware.suggest(text)
            # A 3090 is not a 4090, an H20 not an H200, a 40GB A100 not the 80GB one.
            assert not any(
                s.startswith(
                    ("nvidia-rtx-4090", "nvidia-rtx-5090", "nvidia-h200", "nvidia-a100-80gb")
                )
                for s in offered
            ), (text, offered)


# -- misspellings never cross a size or a GPU ------------------------------------------------
# A model's size: 8b, 0.5b, 800m, a3b (active), e4b, 8x7b, 16e and 128e (experts).
_SIZE = re.compile(r"(?:\d+x)?\d+(?:\.\d+)?[bm]|[ae]\d+(?:\.\d+)?[bm]|\d+e")


def _marks(text: str, kind: str) -> set[str]:
    """What tells entries apart: a model's sizes; a part's numbered words ("h100", "4090",
    "80gb", "mi300x", "v5p"), bare versions aside."""
    words = {w for w in re.split(r"[^\w.+]+|_", text.casefold()) if w}
    if kind == "model":
        return {w for w in words if _SIZE.fullmatch(w)}
    return {w for w in words if re.search(r"\d", w) and not re.fullmatch(r"\d+(\.\d+)+", w)}


def _misspellings(name: str, rng: random.Random) -> list[str]:
    """Typos a person makes: a letter dropped, doubled or swapped with its neighbour, in a
    word without digits (a typo in "h100" or "8b" is another part or size, not a slip)."""
    plain = [m.span() for m in re.finditer(r"[A-Za-z]+", name) if not _touches_digit(name, m)]
    letters = [i for start, end in plain for i in range(start, end)]
    out = []
    for i in rng.sample(letters, min(1, len(letters))):
        out.append(name[:i] + name[i + 1 :])
        out.append(name[:i] + name[i] + name[i:])
        if i + 1 < len(name) and name[i + 1].isalpha():
            out.append(name[:i] + name[i + 1] + name[i] + name[i + 2 :])
    return out


def _touches_digit(name: str, match: re.Match[str]) -> bool:
    start, end = match.span()
    return (start > 0 and name[start - 1].isdigit()) or (end < len(name) and name[end].isdigit())


@pytest.mark.parametrize("kind", ["hardware", "model"])
def test_a_misspelling_never_lands_on_another_size_or_gpu(data: SeedData, kind: str) -> None:
    vocabulary = names(data, kind)
    entries = {"hardware": data.hardware, "model": data.models}[kind]
    held: dict[str, set[str]] = {slug: set() for slug in entries}
    for slug, entry in entries.items():
        for name in (slug, entry.name, *entry.aliases):
            held[slug] |= _marks(name, kind)
    rng = random.Random(35)
    crossed = []
    for slug, entry in entries.items():
        for name in (entry.name, *entry.aliases[:3]):
            wanted = _marks(name, kind)
            for typo in _misspellings(name, rng):
                found = vocabulary.resolve(typo)
                offered = [found] if found else vocabulary.suggest(typo)
                for other in offered:
                    # Another entry is fine only if it carries every size and part number
                    # the name gives (an FP8 derivative of the same 8B model, say).
                    if other != slug and not wanted <= held[other]:
                        crossed.append(f"{typo!r} (from {slug}) -> {other}")
    assert not crossed, "\n".join(crossed[:30])


# -- the hardware read model and API ---------------------------------------------------------
def test_the_api_gives_memory_as_devices_report_it(real_client) -> None:  # type: ignore[no-untyped-def]
    hardware = {e["slug"]: e for e in real_client.get("/api/v1/hardware").json()}
    sxm5 = hardware["nvidia-h100-sxm5-80gb"]
    # An "80GB" H100 reports 81559 MiB: 85.52 decimal GB, from a published nvidia-smi table.
    assert (sxm5["memory_gb"], sxm5["reported_memory_gb"], sxm5["unified_memory"]) == (
        80,
        85.52,
        False,
    )
    assert sxm5["reported_memory_source"] == "nvidia-smi-h100-sxm-nccl-1264"
    strix = hardware["amd-ryzen-ai-max-plus-395"]
    assert (strix["unified_memory"], strix["gpu_share"], strix["gpu_share_source"]) == (
        True,
        0.75,
        "amd-variable-graphics-memory-faq",
    )
    spark = hardware["nvidia-dgx-spark-gb10"]
    # A user's measured ceiling on CUDA's free memory, not a documented share.
    assert (spark["gpu_share"], spark["gpu_share_source"]) == (
        0.83,
        "dgx-spark-cuda-free-glm-flash-47",
    )
    assert "nvidia-h200" not in hardware  # merged into the SXM entry
    moved = real_client.get("/hardware/nvidia-h200", follow_redirects=False)
    assert (
        moved.status_code == 308 and moved.headers["location"] == "/hardware/nvidia-h200-sxm-141gb"
    )


def test_model_names_as_people_type_them_in_the_team_form(data: SeedData) -> None:
    """Issue 37: the names a person types in the team-result form, words left out, against
    the real vocabulary (an FP8 upload of the same model is never the pick)."""
    models = names(data, "model")
    assert models.resolve_typed("Llama 3.3 70B") == "llama-3.3-70b-instruct"
    assert models.resolve_typed("llama 3.3 70b") == "llama-3.3-70b-instruct"
    assert models.resolve_typed("Llama 3.3 8B") is None  # no such size: never another one
