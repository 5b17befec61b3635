"""The weight format and precision a typed model name implies, and bits per weight. Pure.

People name a model the way their tool shows it: a GGUF file ("Meta-Llama-3.1-8B-Instruct-
Q4_K_M.gguf"), an Ollama tag ("llama3.1:8b", "llama3.1:70b-instruct-q8_0"), a quantiser's
repository ("...-AWQ", "...-GPTQ-Int4", "...-FP8") or a Hugging Face cache folder
("models--org--name"). The name says how the weights were packed, which sets their size, so
the fit arithmetic (app/decision/fit.py) reads the precision from it when none is asked.

Bits per weight, in this order of preference:
- GGUF file types measured over a whole model: llama.cpp's quantize README lists the size of
  Llama 3.1 8B in each type (embeddings and output keep other types, so a file's mix is above
  its main type's block size). Read at llama.cpp commit 311c2c9 (2025),
  https://github.com/ggml-org/llama.cpp/blob/311c2c9f0ebd6e08f5b20e8827c654cebb7a41d6/tools/quantize/README.md
- otherwise a GGML type's block size: bytes per block × 8 ÷ values per block, from the
  `gguf` package's GGML_QUANT_SIZES (gguf-py, the llama.cpp project's own reader);
- safetensors quantisations: 4-bit AWQ/GPTQ at group size 128 with a 16-bit scale and a 4-bit
  zero point per group (4 + 20/128); MXFP4 and NVFP4 as GGML stores them (one 8-bit scale per
  32 and per 16 values: 4.25 and 4.5); FP8 and INT8 at 8 (their per-tensor or per-channel
  scales are a rounding error).
"""

import re
from dataclasses import dataclass

from gguf.constants import GGML_QUANT_SIZES

MEASURED_SOURCE = (
    "llama.cpp tools/quantize/README.md @311c2c9 (Llama 3.1 8B measured per type): "
    "https://github.com/ggml-org/llama.cpp/blob/311c2c9f0ebd6e08f5b20e8827c654cebb7a41d6/"
    "tools/quantize/README.md"
)

# GGUF file types (llama_ftype names) measured on Llama 3.1 8B, whole-file bits per weight.
MEASURED_BPW: dict[str, float] = {
    "IQ1_S": 2.0042,
    "IQ2_XXS": 2.3824,
    "IQ2_XS": 2.5882,
    "IQ2_M": 2.9294,
    "Q2_K": 3.1593,
    "IQ3_XXS": 3.2548,
    "IQ3_M": 3.7628,
    "Q3_K_S": 3.6429,
    "Q3_K_L": 4.2979,
    "IQ4_XS": 4.4597,
    "IQ4_NL": 4.6818,
    "Q4_K_S": 4.6672,
    "Q4_K_M": 4.8944,
    "Q5_K_S": 5.5704,
    "Q5_K_M": 5.7036,
    "Q6_K": 6.5633,
    "Q8_0": 8.5008,
    "F16": 16.0005,
}

# Every GGML tensor type at its block size (Q4_K: 144 bytes per 256 values = 4.5 bits).
BLOCK_BPW: dict[str, float] = {
    kind.name: size * 8 / block for kind, (block, size) in GGML_QUANT_SIZES.items()
}

# A file type with a size letter (_S, _M, _L) mixes its base type with others: without a
# measured figure it is read at the base type's block size.
GGUF_TYPES: tuple[str, ...] = tuple(dict.fromkeys([*MEASURED_BPW, *BLOCK_BPW]))

# Weight precisions of safetensors checkpoints, bits per weight with their scales.
PRECISION_BPW: dict[str, float] = {
    "FP32": 32.0,
    "FP16": 16.0,
    "BF16": 16.0,
    "FP8": 8.0,
    "INT8": 8.0,
    "8-bit": 8.0,
    "AWQ": 4 + 20 / 128,
    "GPTQ": 4 + 20 / 128,
    "INT4": 4 + 20 / 128,
    "4-bit": 4 + 20 / 128,
    "MXFP4": BLOCK_BPW["MXFP4"],
    "NVFP4": BLOCK_BPW["NVFP4"],
    "FP4": BLOCK_BPW["NVFP4"],
}

# The quantisation Ollama's library gives a tag without one ("llama3.1:8b" is
# "llama3.1:8b-instruct-q4_K_M" on ollama.com/library/llama3.1/tags); gpt-oss is published
# in its native MXFP4 (ollama.com/library/gpt-oss).
OLLAMA_DEFAULT = "Q4_K_M"
OLLAMA_NATIVE = {"gpt-oss": "MXFP4"}
OLLAMA_SOURCE = "https://ollama.com/library (each model's tags page names its default tag)"


@dataclass(frozen=True)
class ImpliedFormat:
    """How a named file or tag packs the weights: `format` (GGUF, Ollama, AWQ, GPTQ,
    safetensors), `precision` (Q4_K_M, FP8, ...) and its bits per weight (None: unknown,
    as for a "-GGUF" repository that holds many types)."""

    format: str
    precision: str
    bits_per_weight: float | None


def gguf_bits(kind: str) -> float | None:
    """Bits per weight of a GGUF file type or GGML tensor type ("Q4_K_M", "q8_0")."""
    name = kind.upper()
    if name in MEASURED_BPW:
        return MEASURED_BPW[name]
    if name in BLOCK_BPW:
        return BLOCK_BPW[name]
    base = re.sub(r"_(?:[SML]|XL)$", "", name)
    return BLOCK_BPW.get(base)


def precision_bits(precision: str) -> float | None:
    """Bits per weight of a precision as people spell it ("BF16", "fp8", "Q4_K_M", "AWQ",
    "INT4-AWQ", "GPTQ-Int4"); None when it is not one the Atlas knows."""
    key = re.sub(r"[\s_\-]+", "", precision.upper())
    for name, bits in PRECISION_BPW.items():
        if key == name.replace("-", "").upper():
            return bits
    if key in ("INT4AWQ", "AWQINT4", "GPTQINT4", "INT4GPTQ", "W4A16"):
        return PRECISION_BPW["AWQ"]
    if key in ("W8A8", "INT8W8A8", "FP8DYNAMIC"):
        return 8.0
    if key == "F16":
        return 16.0
    return gguf_bits(precision.strip().replace("-", "_"))


def known_precisions() -> list[str]:
    """Every precision spelling `precision_bits` knows, for an error's allowed values."""
    return [*PRECISION_BPW, *GGUF_TYPES]


_GGUF_TYPE = re.compile(
    r"(?:^|[-_.\s])((?:I?Q\d(?:_K)?(?:_(?:XXS|XS|XL|NL|S|M|L|0|1))?)|TQ[12]_0|F16|BF16|F32|MXFP4)"
    r"(?=$|[-_.\s])",
    re.IGNORECASE,
)
_OLLAMA_TAG = re.compile(r"^([a-z0-9][\w.\-]*(?:/[\w.\-]+)?):([\w.\-]+)$", re.IGNORECASE)
_REPO_SUFFIX: tuple[tuple[re.Pattern[str], str, str], ...] = (
    (re.compile(r"[-_]awq(?:[-_]int4)?$", re.I), "AWQ", "AWQ"),
    (re.compile(r"[-_]gptq(?:[-_]int4|[-_]4bit)?$", re.I), "GPTQ", "GPTQ"),
    (re.compile(r"[-_]gptq[-_]int8$", re.I), "GPTQ", "INT8"),
    (re.compile(r"[-_]nvfp4$", re.I), "safetensors", "NVFP4"),
    (re.compile(r"[-_]mxfp4$", re.I), "safetensors", "MXFP4"),
    (re.compile(r"[-_]fp8(?:[-_]dynamic)?$", re.I), "safetensors", "FP8"),
    (re.compile(r"[-_](?:w8a8|int8)$", re.I), "safetensors", "INT8"),
    (re.compile(r"[-_](?:w4a16|int4)$", re.I), "safetensors", "INT4"),
)


def _gguf_type(text: str) -> str | None:
    found = _GGUF_TYPE.findall(text)
    return found[-1].upper() if found else None


def implied_format(text: str) -> ImpliedFormat | None:
    """The format and precision `text` (a model name as typed) implies, or None when it
    names no packing (a plain Hugging Face id is the checkpoint's own precision)."""
    name = text.strip()
    if not name:
        return None
    cache = re.fullmatch(r"models--([^/]+?)--(.+)", name.rstrip("/").rsplit("/", 1)[-1])
    if cache:  # a Hugging Face cache folder names the repository it holds
        name = f"{cache.group(1)}/{cache.group(2)}"
    if name.lower().endswith(".gguf"):
        kind = _gguf_type(name[: -len(".gguf")])
        if kind is None:
            return ImpliedFormat("GGUF", "GGUF", None)
        return ImpliedFormat("GGUF", kind, gguf_bits(kind))
    tag = _OLLAMA_TAG.match(name)
    if tag and "/" not in tag.group(1).split("/")[-1] and not name.lower().startswith("http"):
        return _ollama(tag.group(1), tag.group(2))
    stem = name.rsplit("/", 1)[-1]
    if re.search(r"[-_.]gguf$", stem, re.I):
        kind = _gguf_type(stem[:-5])
        if kind:
            return ImpliedFormat("GGUF", kind, gguf_bits(kind))
        return ImpliedFormat("GGUF", "GGUF", None)
    for pattern, fmt, precision in _REPO_SUFFIX:
        if pattern.search(stem):
            return ImpliedFormat(fmt, precision, PRECISION_BPW[precision])
    return None


def _ollama(model: str, tag: str) -> ImpliedFormat:
    """An Ollama tag: its quantisation where the tag names one, else the library default."""
    kind = _gguf_type(tag)
    if kind is not None:
        precision = "F16" if kind in ("F16", "FP16") else kind
        return ImpliedFormat("Ollama", precision, gguf_bits(precision))
    if re.search(r"(?:^|-)fp16$", tag, re.I):
        return ImpliedFormat("Ollama", "F16", gguf_bits("F16"))
    family = model.rsplit("/", 1)[-1].lower()
    native = next((p for f, p in OLLAMA_NATIVE.items() if family.startswith(f)), None)
    precision = native or OLLAMA_DEFAULT
    return ImpliedFormat("Ollama", precision, gguf_bits(precision))
