import pytest

from app.registries import trtllm_arch_index

# Our own few-entry fixture in the shape of TensorRT-LLM's _torch/models/_arch_index.py.
FIXTURE = '''
"""Index of the model zoo."""

_ZOO = "pkg.models"

MODEL_ARCH_TO_MODULE = {
    "AlphaForCausalLM": "modeling_alpha",
    "AlphaMoeForCausalLM": "modeling_alpha",
    "BetaForConditionalGeneration": "modeling_beta_vl",
}

MODEL_CLASS_TO_MODULE = {
    "AlphaModel": "modeling_alpha",
}
'''


def test_arch_table_only():
    assert trtllm_arch_index.parse(FIXTURE) == {
        "AlphaForCausalLM": "modeling_alpha",
        "AlphaMoeForCausalLM": "modeling_alpha",
        "BetaForConditionalGeneration": "modeling_beta_vl",
    }


def test_missing_table_is_an_error():
    with pytest.raises(ValueError, match="MODEL_ARCH_TO_MODULE"):
        trtllm_arch_index.parse('MODEL_CLASS_TO_MODULE = {"A": "m"}\n')


def test_table_built_at_runtime_is_an_error():
    with pytest.raises(ValueError, match="not a dict literal"):
        trtllm_arch_index.parse("MODEL_ARCH_TO_MODULE = dict(build())\n")
