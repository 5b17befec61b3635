import pytest

from app.registries.llama_cpp_convert import parse

FIXTURE = """
from __future__ import annotations

import gguf


class ModelBase:
    pass


class TextModel(ModelBase):
    pass


class MmprojModel(ModelBase):
    model_arch = gguf.MODEL_ARCH.MMPROJ


@ModelBase.register("ToyForCausalLM", "ToyLMHeadModel")
class ToyModel(TextModel):
    model_arch = gguf.MODEL_ARCH.TOYLM


@ModelBase.register("ToyChatForCausalLM")
class ToyChatModel(ToyModel):
    pass


@ModelBase.register("ToyVLForConditionalGeneration")
class ToyVLText(TextModel):
    model_arch: gguf.MODEL_ARCH = gguf.MODEL_ARCH.TOY_VL


@ModelBase.register("ToyVLForConditionalGeneration")
class ToyVLVision(MmprojModel):
    pass


@ModelBase.register("ToyDispatchForCausalLM")
class ToyDispatch(TextModel):
    class Inner(ToyModel):
        model_arch = gguf.MODEL_ARCH.TOY_MOE


@ModelBase.register("ToyEmbedModel")
class ToyEmbed(ToyModel):
    model_arch = gguf.MODEL_ARCH.TOYLM

    def __init__(self, hparams):
        self.model_arch = gguf.MODEL_ARCH.TOY_MOE if hparams else gguf.MODEL_ARCH.TOY_EMBED


@ModelBase.register("ToyBranchForCausalLM")
class ToyBranch(ToyModel):
    def __init__(self, hparams):
        if hparams:
            self.model_arch = gguf.MODEL_ARCH.TOY_MOE


@Model.register("OldToyForCausalLM")
class OldToy(TextModel):
    model_arch = gguf.MODEL_ARCH.OLD_TOY


def _get_model_architecture(arch):
    if arch == "ChainToyForCausalLM":
        return gguf.MODEL_ARCH.CHAIN_TOY
"""


def test_parse_resolves_registered_classes_to_their_arch() -> None:
    assert parse(FIXTURE) == {
        "ToyForCausalLM": "TOYLM",
        "ToyLMHeadModel": "TOYLM",
        "ToyChatForCausalLM": "TOYLM",  # inherited from the base class
        "ToyVLForConditionalGeneration": "TOY_VL",  # the projector registration does not win
        "ToyDispatchForCausalLM": "TOY_MOE",  # from the nested converter
        "ToyEmbedModel": "TOY_EMBED",  # __init__ always sets it: the default branch
        "ToyBranchForCausalLM": "TOYLM",  # set only in a branch: the class's own arch stays
        "OldToyForCausalLM": "OLD_TOY",
        "ChainToyForCausalLM": "CHAIN_TOY",
    }


def test_parse_rejects_text_that_is_not_python() -> None:
    with pytest.raises(SyntaxError):
        parse('@ModelBase.register("Broken"\nclass Broken(:\n')
