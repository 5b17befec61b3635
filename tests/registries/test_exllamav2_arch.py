import pytest

from app.registries import exllamav2_arch

# Our own few-entry fixture in the shape of ExLlamaV2's exllamav2/architecture.py.
FIXTURE = """
class ExLlamaV2ArchParams:
    def __init__(self, arch_string, read_config):
        self.arch_string = arch_string
        arch_recognized = False

        if arch_string == "AlphaForCausalLM":
            arch_recognized = True

        if (
            arch_string == "BetaForConditionalGeneration" and
            read_config["vision_config"].get("model_type") == "pixtral"
        ):
            arch_recognized = True

        if arch_string in ["GammaVLForConditionalGeneration", "Gamma2VLForConditionalGeneration"]:
            arch_recognized = True
            if self.arch_string == "GammaVLForConditionalGeneration":
                pass

        if arch_string != "LlamaForCausalLM" and not arch_recognized:
            self.arch_string = "LlamaForCausalLM"
"""

# The pre-v0.0.15 shape in config.py.
OLD_FIXTURE = """
class ExLlamaV2Config:
    def prepare(self):
        if "LlamaForCausalLM" in read_config["architectures"]:
            self.architecture = "Llama"
        elif "DeltaForCausalLM" in read_config["architectures"]:
            self.architecture = "Delta"
        else:
            self.architecture = "Llama"
"""


def test_architecture_switch():
    assert exllamav2_arch.parse(FIXTURE) == {
        "AlphaForCausalLM": "AlphaForCausalLM",
        "BetaForConditionalGeneration": "BetaForConditionalGeneration",
        "GammaVLForConditionalGeneration": "GammaVLForConditionalGeneration",
        "Gamma2VLForConditionalGeneration": "Gamma2VLForConditionalGeneration",
        "LlamaForCausalLM": "LlamaForCausalLM",
    }


def test_config_form():
    assert exllamav2_arch.parse(OLD_FIXTURE) == {
        "LlamaForCausalLM": "LlamaForCausalLM",
        "DeltaForCausalLM": "DeltaForCausalLM",
    }


def test_no_switch():
    with pytest.raises(ValueError):
        exllamav2_arch.parse("def load(path):\n    return open(path)\n")
