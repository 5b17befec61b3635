import pytest

from app.registries import lmdeploy_supported_archs

# Our own few-entry fixtures in the shapes of LMDeploy's supported_models.py files.
NEW = """
SUPPORTED_ARCHS = dict(
    # alpha family
    AlphaForCausalLM='alpha',
    AlphaMoeForCausalLM='alpha-moe',
)
"""

OLD = """
_SUPPORTED_ARCHS = dict(
    BetaForCausalLM=True,
    # listed, but this engine cannot run it
    GammaForCausalLM=False,
)
"""


def test_named_entries():
    assert lmdeploy_supported_archs.parse(NEW) == {
        "AlphaForCausalLM": "alpha",
        "AlphaMoeForCausalLM": "alpha-moe",
    }


def test_true_false_entries():
    assert lmdeploy_supported_archs.parse(OLD) == {"BetaForCausalLM": ""}


def test_missing_table_is_an_error():
    with pytest.raises(ValueError, match="SUPPORTED_ARCHS"):
        lmdeploy_supported_archs.parse("ARCHS = dict(A=True)\n")
