import pytest

from app.registries import vllm_registry

# A few entries written by us in the shape of vLLM's registry.py: category dicts of
# "Arch" -> ("module", "Class"), a spread, a removal table and a non-loader dict.
FIXTURE = """
_TEXT_GENERATION_MODELS = {
    "ToyForCausalLM": ("toy", "ToyForCausalLM"),
    "ToyAliasForCausalLM": ("toy", "ToyForCausalLM"),  # second arch, same loader
    "MoeToyForCausalLM": (
        "moe_toy",
        "MoeToyForCausalLM",
    ),
}

_MULTIMODAL_MODELS: dict[str, tuple[str, str]] = {
    "ToyVLForConditionalGeneration": ("toy_vl", "ToyVLForConditionalGeneration"),
}

_EMBEDDING_MODELS = {
    "ToyModel": ("toy", "ToyForCausalLM"),
    **{k: v for k, v in _TEXT_GENERATION_MODELS.items()},
}

_FALLBACK_MODEL = {"ToyBackendModel": ("backend", "ToyBackendModel")}

_ROCM_PARTIALLY_SUPPORTED_MODELS = {"ToyForCausalLM": "sliding window off"}

_VLLM_MODELS = {**_TEXT_GENERATION_MODELS, **_MULTIMODAL_MODELS, **_EMBEDDING_MODELS}

_PREVIOUSLY_SUPPORTED_MODELS = {"OldToyForCausalLM": "0.3.0"}

NOT_A_REGISTRY = {"IgnoredForCausalLM": ("x", "Y")}
"""

OLD_FIXTURE = """
from toy import ToyLMHeadModel

_MODEL_REGISTRY = {
    "ToyLMHeadModel": ToyLMHeadModel,
}
"""


def test_parse_reads_every_category_dict():
    assert vllm_registry.parse(FIXTURE) == {
        "ToyForCausalLM": "toy.ToyForCausalLM",
        "ToyAliasForCausalLM": "toy.ToyForCausalLM",
        "MoeToyForCausalLM": "moe_toy.MoeToyForCausalLM",
        "ToyVLForConditionalGeneration": "toy_vl.ToyVLForConditionalGeneration",
        "ToyModel": "toy.ToyForCausalLM",
        "ToyBackendModel": "backend.ToyBackendModel",
    }


def test_parse_reads_the_oldest_class_valued_registry():
    assert vllm_registry.parse(OLD_FIXTURE) == {"ToyLMHeadModel": "ToyLMHeadModel"}


def test_parse_removed_reads_the_last_supported_version():
    assert vllm_registry.parse_removed(FIXTURE) == {"OldToyForCausalLM": "0.3.0"}
    assert vllm_registry.parse_removed(OLD_FIXTURE) == {}


def test_malformed_text_is_an_error():
    with pytest.raises(SyntaxError):
        vllm_registry.parse('_TEXT_GENERATION_MODELS = {"ToyForCausalLM": ("toy", ')
