"""The weights of a checkpoint whose parts have different precisions, counted per part. Pure.

A quantised checkpoint does not quantise everything: the embeddings and the output head stay
in BF16 under AWQ, GPTQ and FP8 (only the linear layers inside the decoder blocks are
quantised), a mixture of experts keeps its router in BF16, and gpt-oss quantises only its
expert weights to MXFP4, leaving attention in BF16 too. Counting every parameter at the
quantised width undercounts by the difference (3.1 GB on gpt-oss-120b). The parts are
worked out from the model's own config facts (vocabulary, hidden size, heads, experts); the
rest of the parameters are the quantised part.

GGUF types are left whole: llama.cpp's measured bits per weight already average over the
file's own mix of types.
"""

from dataclasses import dataclass

BF16_BITS = 16.0

# One FP32 scale per 128 × 128 block: DeepSeek-V3's weight_block_size (README_WEIGHTS.md).
# Per-tensor and per-channel FP8 scales (other FP8 checkpoints) are smaller still.
FP8_BLOCK_SCALE_BITS = 32 / (128 * 128)

DEEPSEEK_WEIGHTS = (
    "https://github.com/deepseek-ai/DeepSeek-V3/blob/0b39205aed0d4b1f9a2798e8551e4059c8f94b0c/"
    "README_WEIGHTS.md"
)
AUTOAWQ_QUANTIZER = (
    "https://github.com/casper-hansen/AutoAWQ/blob/93d7e8e0f28d14aaf3126af580556f01939dc7ca/"
    "awq/quantize/quantizer.py"
)

# Precisions counted per part, by the spelling precision_bits normalises to (upper case,
# no separators); everything else (BF16, FP16, FP32, GGUF types) is one part.
EIGHT_BIT = {"FP8", "INT8", "8BIT", "W8A8", "INT8W8A8", "FP8DYNAMIC"}
FOUR_BIT = {"AWQ", "GPTQ", "INT4", "4BIT", "INT4AWQ", "AWQINT4", "GPTQINT4", "INT4GPTQ", "W4A16"}
FP4 = {"NVFP4", "FP4"}
EXPERTS_ONLY = {"MXFP4"}  # gpt-oss: attention stays BF16 as well


@dataclass(frozen=True)
class WeightPart:
    """A part of the checkpoint: its parameter count, its bits per weight, why."""

    name: str
    parameters: float
    bits: float

    @property
    def bytes(self) -> float:
        return self.parameters * self.bits / 8


@dataclass(frozen=True)
class Layout:
    """The config facts the parts are worked out from (ModelShape's)."""

    parameters: float  # the whole count
    layers: int
    hidden_size: int | None
    vocab_size: int | None
    attention_heads: int
    kv_heads: int
    head_dim: int
    experts: int | None
    source: str | None  # the config page, for the basis


def _key(precision: str) -> str:
    return "".join(c for c in precision.upper() if c.isalnum())


def is_mixed(precision: str) -> bool:
    """Whether a checkpoint at this precision keeps some parts at higher precision."""
    key = _key(precision)
    return key in EIGHT_BIT | FOUR_BIT | FP4 | EXPERTS_ONLY


def weight_parts(
    layout: Layout, precision: str, bits: float
) -> tuple[tuple[WeightPart, ...], list[str]]:
    """The parts and their bits, with the basis lines that say why; one part when the
    precision is not a mixed one or the config lacks the vocabulary or hidden size."""
    whole = (WeightPart("every parameter", layout.parameters, bits),)
    key = _key(precision)
    if not is_mixed(precision):
        return whole, []
    if not layout.hidden_size or not layout.vocab_size:
        return whole, [
            f"weights: every parameter at {precision}; the BF16 parts (embeddings, output "
            "head) cannot be split out without the config's vocabulary and hidden size"
        ]
    hidden, vocab = layout.hidden_size, layout.vocab_size
    where = f" ({layout.source})" if layout.source else ""
    kept: list[WeightPart] = [
        WeightPart("embeddings and output head", 2 * vocab * hidden, BF16_BITS)
    ]
    lines = [
        f"weights kept in BF16: embeddings and output head, 2 × {vocab:,} vocabulary × "
        f"{hidden:,} hidden = {2 * vocab * hidden / 1e9:.3f} B parameters (counted untied, as "
        "in Llama 3.1, gpt-oss and DeepSeek-V3; a model that ties them has one copy)" + where
    ]
    if layout.experts:
        router = hidden * layout.experts * layout.layers
        kept.append(WeightPart("router", router, BF16_BITS))
        lines.append(
            f"weights kept in BF16: the router, {hidden:,} × {layout.experts} experts × "
            f"{layout.layers} layers = {router / 1e9:.3f} B parameters"
        )
    if key in EXPERTS_ONLY:
        q_o = 2 * hidden * layout.attention_heads * layout.head_dim
        k_v = 2 * hidden * layout.kv_heads * layout.head_dim
        attention = (q_o + k_v) * layout.layers
        kept.append(WeightPart("attention", attention, BF16_BITS))
        lines.append(
            f"weights kept in BF16: attention, (2 × {hidden:,} × {layout.attention_heads} × "
            f"{layout.head_dim} + 2 × {hidden:,} × {layout.kv_heads} × {layout.head_dim}) × "
            f"{layout.layers} layers = {attention / 1e9:.3f} B parameters: MXFP4 covers the "
            "expert weights only (gpt-oss's quantization_config leaves attention, router, "
            f"embeddings and lm_head unconverted){where}"
        )
    elif key in EIGHT_BIT | FP4:
        lines.append(
            "FP8 and FP4 checkpoints quantise the linear layers, each FP8 weight with a "
            "per-block weight_scale_inv; the embeddings, output head (0.9 B each in "
            "DeepSeek-V3) and router are counted in BF16 (DeepSeek-V3's README_WEIGHTS.md, "
            f"{DEEPSEEK_WEIGHTS})"
        )
    else:
        lines.append(
            "AWQ and GPTQ quantise the linear layers inside the decoder blocks only, with a "
            "scale and a zero point per group of 128 (4 + 20/128 bits); embeddings and "
            f"output head stay BF16 (AutoAWQ's quantizer, {AUTOAWQ_QUANTIZER})"
        )
    bf16 = sum(p.parameters for p in kept)
    rest_bits = bits + FP8_BLOCK_SCALE_BITS if key in EIGHT_BIT and bits == 8 else bits
    rest = WeightPart(f"the rest at {precision}", max(0.0, layout.parameters - bf16), rest_bits)
    scale = (
        f" + {FP8_BLOCK_SCALE_BITS:.5f} for one FP32 scale per 128 × 128 block"
        if rest_bits != bits
        else ""
    )
    lines.append(
        f"weights at {precision}: {layout.parameters / 1e9:g} B − {bf16 / 1e9:.3f} B = "
        f"{rest.parameters / 1e9:.3f} B parameters × ({bits:g}{scale}) bits ÷ 8 = "
        f"{rest.bytes / 1e9:.2f} GB; the BF16 parts {bf16 * 2 / 1e9:.2f} GB"
    )
    return (*kept, rest), lines
