"""Names as tools print them (issue 35): each rule of app/vocabulary/spellings.py on a small
vocabulary, ambiguity answered with candidates, and a did-you-mean that keeps sizes and parts.
The same rules over the real seed, with 131+ spellings from public tool output, are in
tests/test_names_real.py (data tier). Also the seed rules for reported memory and GPU share."""

from pathlib import Path

from app.vocabulary.names import Names
from tests.test_seed_errors import problems_for, replace_in

HARDWARE = Names.of(
    "hardware",
    [
        ("nvidia-h100-sxm5-80gb", ["NVIDIA H100 SXM5 80GB", "NVIDIA H100 80GB HBM3"]),
        ("nvidia-h100-pcie", ["NVIDIA H100 PCIe"]),
        ("nvidia-h100-nvl-94gb", ["NVIDIA H100 NVL 94GB", "NVIDIA H100 NVL"]),
        ("nvidia-h100-unspecified", ["NVIDIA H100, variant not stated", "NVIDIA H100", "H100"]),
        ("nvidia-a100-80gb", ["NVIDIA A100 80GB", "NVIDIA A100-SXM4-80GB"]),
        ("nvidia-rtx-4090", ["NVIDIA GeForce RTX 4090", "RTX 4090"]),
        ("nvidia-rtx-pro-6000-blackwell-server", ["NVIDIA RTX PRO 6000 Blackwell Server Edition"]),
        (
            "nvidia-rtx-pro-6000-blackwell-workstation",
            ["NVIDIA RTX PRO 6000 Blackwell Workstation Edition"],
        ),
        ("amd-instinct-mi300x", ["AMD Instinct MI300X", "MI300X"]),
        ("google-tpu-v5e", ["Google Cloud TPU v5e", "TPU v5e", "v5e"]),
        ("google-tpu-v6e", ["Google Cloud TPU v6e (Trillium)", "TPU v6e", "v6e"]),
        ("google-tpu-v5p", ["Google Cloud TPU v5p", "TPU v5p", "v5p"]),
    ],
    vague=["nvidia-h100-unspecified"],
)

MODELS = Names.of(
    "model",
    [
        ("llama-3.1-8b", ["Llama 3.1 8B", "meta-llama/Llama-3.1-8B", "llama3.1:8b-text-q4_K_M"]),
        (
            "llama-3.1-8b-instruct",
            ["Llama 3.1 8B Instruct", "meta-llama/Llama-3.1-8B-Instruct", "llama3.1:8b"],
        ),
        (
            "llama-3.1-70b-instruct",
            ["Llama 3.1 70B Instruct", "meta-llama/Llama-3.1-70B-Instruct", "llama3.1:70b"],
        ),
        ("qwen3-30b-a3b", ["Qwen3 30B-A3B", "Qwen/Qwen3-30B-A3B", "qwen3:30b-a3b"]),
        ("qwen3-32b", ["Qwen3 32B", "Qwen/Qwen3-32B"]),
        ("qwen3-32b-fp8", ["Qwen3 32B FP8", "Qwen/Qwen3-32B-FP8"]),
        ("gpt-oss-20b", ["gpt-oss-20b", "openai/gpt-oss-20b", "gpt-oss:20b"]),
        ("gpt-oss-120b", ["gpt-oss-120b", "openai/gpt-oss-120b", "gpt-oss:120b"]),
        ("glm-4-9b-chat-hf", ["GLM-4 9B Chat (HF)", "THUDM/glm-4-9b-chat-hf"]),
    ],
)


def test_device_names_as_nvidia_smi_and_rocm_smi_print_them() -> None:
    for text, slug in (
        ("NVIDIA H100 80GB HBM3", "nvidia-h100-sxm5-80gb"),
        ("NVIDIA GeForce RTX 4090", "nvidia-rtx-4090"),
        ("GeForce RTX 4090", "nvidia-rtx-4090"),  # the vendor dropped
        ("AMD Instinct MI300X", "amd-instinct-mi300x"),
        ("AMD Instinct MI300X VF", "amd-instinct-mi300x"),  # SR-IOV virtual function
        ("Instinct MI300X", "amd-instinct-mi300x"),
    ):
        assert HARDWARE.resolve(text) == slug, text


def test_cloud_tpu_slice_names_are_their_generation() -> None:
    for text, slug in (
        ("v5litepod-8", "google-tpu-v5e"),
        ("v5litepod-256", "google-tpu-v5e"),
        ("TPU v5 lite", "google-tpu-v5e"),  # JAX's device kind
        ("v6e-8", "google-tpu-v6e"),
        ("v5p-8", "google-tpu-v5p"),
    ):
        assert HARDWARE.resolve(text) == slug, text
    assert HARDWARE.resolve("v4-8") is None  # no v4 entry: nothing, never a guess


def test_hugging_face_cache_folders_and_paths() -> None:
    for text in (
        "models--meta-llama--Llama-3.1-8B-Instruct",
        "/root/.cache/huggingface/hub/models--meta-llama--Llama-3.1-8B-Instruct/snapshots/0e9e39f",
        "hf.co/meta-llama/Llama-3.1-8B-Instruct",
    ):
        assert MODELS.resolve(text) == "llama-3.1-8b-instruct", text
    assert MODELS.resolve("models--meta-llama--Llama-3.1-70B-Instruct") == "llama-3.1-70b-instruct"


def test_gguf_files_drop_quantisation_and_shard_counter() -> None:
    for text, slug in (
        ("Llama-3.1-8B-Instruct-Q4_K_M.gguf", "llama-3.1-8b-instruct"),
        ("Llama-3.1-8B-Instruct.Q8_0.gguf", "llama-3.1-8b-instruct"),
        ("Qwen3-30B-A3B-UD-Q4_K_XL-00001-of-00002.gguf", "qwen3-30b-a3b"),
        ("gpt-oss-120b-mxfp4-00001-of-00003.gguf", "gpt-oss-120b"),
        ("unsloth/gpt-oss-20b-GGUF/gpt-oss-20b-F16.gguf", "gpt-oss-20b"),
    ):
        assert MODELS.resolve(text) == slug, text


def test_ollama_tags_with_quantisation_and_latest() -> None:
    for text, slug in (
        ("llama3.1:8b", "llama-3.1-8b-instruct"),  # Ollama's plain size tag is the instruct model
        ("llama3.1:8b-instruct-q4_K_M", "llama-3.1-8b-instruct"),
        ("llama3.1:70b-instruct-q8_0", "llama-3.1-70b-instruct"),
        ("llama3.1:8b-text-q8_0", "llama-3.1-8b"),  # text is the base model, kept apart
        ("qwen3:30b-a3b", "qwen3-30b-a3b"),
        ("qwen3:30b-a3b-q4_K_M", "qwen3-30b-a3b"),
        ("gpt-oss:120b", "gpt-oss-120b"),
        ("hf.co/Qwen/Qwen3-32B-FP8:latest", "qwen3-32b-fp8"),
    ):
        assert MODELS.resolve(text) == slug, text
    assert MODELS.resolve("gpt-oss:latest") is None  # which size Ollama means is not in the names


def test_a_repository_under_another_owner_finds_its_own_entry_first() -> None:
    # A quantised derivative's own entry wins over its base; a renamed owner finds the model.
    assert MODELS.resolve("someone/Qwen3-32B-FP8") == "qwen3-32b-fp8"
    assert MODELS.resolve("someone/Qwen3-32B-AWQ") == "qwen3-32b"  # no AWQ entry: the base
    assert MODELS.resolve("zai-org/glm-4-9b-chat-hf") == "glm-4-9b-chat-hf"
    assert MODELS.resolve("mlx-community/gpt-oss-20b-MXFP4-Q8") == "gpt-oss-20b"


def test_a_name_that_fits_several_parts_asks() -> None:
    assert HARDWARE.resolve("H100") == "nvidia-h100-unspecified"  # vague: never a part
    assert HARDWARE.candidates("H100") == [
        "nvidia-h100-sxm5-80gb",
        "nvidia-h100-pcie",
        "nvidia-h100-nvl-94gb",
    ]
    assert HARDWARE.resolve("RTX PRO 6000") is None
    assert HARDWARE.candidates("NVIDIA RTX PRO 6000") == [
        "nvidia-rtx-pro-6000-blackwell-server",
        "nvidia-rtx-pro-6000-blackwell-workstation",
    ]
    assert HARDWARE.unknown("RTX PRO 6000", "x") == (
        "unknown hardware 'RTX PRO 6000'; which one: nvidia-rtx-pro-6000-blackwell-server, "
        "nvidia-rtx-pro-6000-blackwell-workstation?"
    )
    assert HARDWARE.candidates("NVIDIA H100 80GB HBM3") == ["nvidia-h100-sxm5-80gb"]
    assert MODELS.candidates("llama3.1") == [
        "llama-3.1-8b",
        "llama-3.1-8b-instruct",
        "llama-3.1-70b-instruct",
    ]
    assert MODELS.candidates("NVIDIA") == []  # nothing to go on: no number


def test_a_did_you_mean_never_offers_another_size_or_gpu() -> None:
    assert MODELS.suggest("Lama 3.1 8B Instruct")[0] == "llama-3.1-8b-instruct"
    assert "llama-3.1-70b-instruct" not in MODELS.suggest("Lama 3.1 8B Instruct")
    assert "gpt-oss-20b" not in MODELS.suggest("gpt-oss-120bb")
    assert MODELS.suggest("gtp-oss-120b") == ["gpt-oss-120b"]
    assert HARDWARE.suggest("NVIDIA GeForce RTX 4080") == []  # never the 4090
    assert HARDWARE.suggest("NVIDIA A100-SXM4-40GB") == []  # never the 80GB part
    assert "nvidia-h100-unspecified" not in HARDWARE.suggest("A100")  # A100 is not H100


def test_reported_memory_needs_its_source(seed_copy: Path) -> None:
    path = seed_copy / "hardware.yaml"
    replace_in(path, "  memory_gb: 80\n", "  memory_gb: 80\n  reported_memory_gb: 85.52\n")
    replace_in(path, "  form_factor: cpu\n", "  form_factor: cpu\n  gpu_share: 0.5\n")
    problems = problems_for(seed_copy)
    assert any(
        "nvidia-h100-sxm5-80gb" in p and "reported_memory_source" in p and "required" in p
        for p in problems
    ), problems
    assert any("gpu_share" in p and "unified_memory" in p for p in problems), problems


def test_a_reported_figure_cites_a_known_source(seed_copy: Path) -> None:
    path = seed_copy / "hardware.yaml"
    replace_in(
        path,
        "  memory_gb: 80\n",
        "  memory_gb: 80\n  reported_memory_gb: 85.52\n  reported_memory_source: nvidia-smi-log\n",
    )
    problems = problems_for(seed_copy)
    assert any("unknown source 'nvidia-smi-log'" in p for p in problems), problems


def test_a_model_name_as_typed_leaves_out_instruct_but_never_changes_the_size() -> None:
    """The team-result form reads names with `resolve_typed` (issue 37): "Llama 3.1 70B" is the
    one 70B entry; where a base and an instruct model both hold the words, the exact name wins."""
    assert MODELS.resolve("Llama 3.1 70B") is None  # no entry is named so...
    assert MODELS.resolve_typed("Llama 3.1 70B") == "llama-3.1-70b-instruct"  # ...but one fits
    assert MODELS.resolve_typed("llama 3.1 70b") == "llama-3.1-70b-instruct"
    assert MODELS.resolve_typed("Llama 3.1 8B") == "llama-3.1-8b"  # its exact name, not instruct
    assert MODELS.resolve_typed("Llama 3.1 405B") is None  # no 405B: never another size
    assert MODELS.resolve_typed("Llama 3.1") is None  # two sizes hold it: no pick
    # Qwen3 32B and its FP8 upload both hold "Qwen3 32B": the exact name is the plain one.
    assert MODELS.resolve_typed("Qwen3 32B") == "qwen3-32b"
    assert MODELS.resolve_typed("Qwen 3 32") is None
    assert HARDWARE.resolve_typed("RTX PRO 6000") is None  # hardware: a question, not a pick
