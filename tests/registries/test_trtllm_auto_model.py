import pytest

from app.registries import trtllm_auto_model

# Our own fixture in the shape of a TensorRT-LLM _torch/models/modeling_*.py module.
FIXTURE = """
from ..utils import register_auto_model
from . import utils


class AlphaModel:
    pass


@register_auto_model("AlphaForCausalLM")
@register_auto_model("AlphaNextForCausalLM")
class AlphaForCausalLM:
    pass


@utils.register_auto_model("BetaForConditionalGeneration")
class BetaVLM:
    pass


@some_other_decorator("NotAnArchitecture")
class Gamma:
    pass


register_auto_model("DeltaForCausalLM")(AlphaForCausalLM)
"""


def test_decorators_and_calls():
    assert trtllm_auto_model.parse(FIXTURE) == {
        "AlphaForCausalLM": "AlphaForCausalLM",
        "AlphaNextForCausalLM": "AlphaForCausalLM",
        "BetaForConditionalGeneration": "BetaVLM",
        "DeltaForCausalLM": "AlphaForCausalLM",
    }


def test_module_without_registrations():
    assert trtllm_auto_model.parse("class Helper:\n    pass\n") == {}


def test_malformed_python_is_an_error():
    with pytest.raises(SyntaxError):
        trtllm_auto_model.parse('@register_auto_model("A"\nclass A: pass\n')
