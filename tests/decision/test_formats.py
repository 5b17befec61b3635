"""implied_format: the packing a typed model name implies, at its bits per weight."""

import pytest

from app.vocabulary.formats import (
    BLOCK_BPW,
    ImpliedFormat,
    gguf_bits,
    implied_format,
    precision_bits,
)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        # llama.cpp's quantize README: Llama 3.1 8B at Q4_K_M is 4.8944 bits per weight.
        ("Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf", ImpliedFormat("GGUF", "Q4_K_M", 4.8944)),
        ("gemma-3-27b-it.IQ2_XXS.gguf", ImpliedFormat("GGUF", "IQ2_XXS", 2.3824)),
        # Not measured: the base type's block size (Q2_K: 84 bytes per 256 values).
        ("Qwen3-30B-A3B-UD-Q2_K_XL.gguf", ImpliedFormat("GGUF", "Q2_K_XL", 3.1593)),
        ("llama3.1:8b", ImpliedFormat("Ollama", "Q4_K_M", 4.8944)),
        ("llama3.1:70b-instruct-q8_0", ImpliedFormat("Ollama", "Q8_0", 8.5008)),
        ("gemma3:27b-it-fp16", ImpliedFormat("Ollama", "F16", 16.0005)),
        ("gpt-oss:120b", ImpliedFormat("Ollama", "MXFP4", 4.25)),
        (
            "hugging-quants/Meta-Llama-3.1-8B-Instruct-AWQ-INT4",
            ImpliedFormat("AWQ", "AWQ", 4.15625),
        ),
        ("Qwen/Qwen2.5-7B-Instruct-GPTQ-Int4", ImpliedFormat("GPTQ", "GPTQ", 4.15625)),
        ("RedHatAI/Llama-3.1-8B-Instruct-FP8", ImpliedFormat("safetensors", "FP8", 8.0)),
        ("nvidia/DeepSeek-V3-0324-NVFP4", ImpliedFormat("safetensors", "NVFP4", 4.5)),
        ("someone/gpt-oss-20b-MXFP4", ImpliedFormat("safetensors", "MXFP4", 4.25)),
        ("bartowski/Meta-Llama-3.1-8B-Instruct-GGUF", ImpliedFormat("GGUF", "GGUF", None)),
        ("models--Qwen--Qwen2.5-7B-Instruct-AWQ", ImpliedFormat("AWQ", "AWQ", 4.15625)),
    ],
)
def test_a_name_implies_its_packing(name: str, expected: ImpliedFormat) -> None:
    assert implied_format(name) == expected


@pytest.mark.parametrize(
    "name", ["meta-llama/Llama-3.1-8B", "models--meta-llama--Llama-3.1-8B", "Llama 3.1 8B", ""]
)
def test_a_plain_name_implies_nothing(name: str) -> None:
    assert implied_format(name) is None


def test_block_sizes_come_from_the_gguf_package() -> None:
    # Q4_K: 144 bytes per 256 values; Q8_0: 34 per 32; MXFP4: 17 per 32.
    assert BLOCK_BPW["Q4_K"] == 4.5
    assert BLOCK_BPW["Q8_0"] == 8.5
    assert gguf_bits("mxfp4") == 4.25
    assert gguf_bits("Q4_K_M") == 4.8944  # measured beats the block size


@pytest.mark.parametrize(
    ("spelling", "bits"),
    [("BF16", 16), ("fp8", 8), ("INT4-AWQ", 4.15625), ("q4_k_m", 4.8944), ("Q5_K", 5.5)],
)
def test_precisions_as_people_spell_them(spelling: str, bits: float) -> None:
    assert precision_bits(spelling) == bits


def test_an_unknown_precision_is_none() -> None:
    assert precision_bits("Q9_Z") is None
