import pytest

from app.registries import tgi_models

# Our own few-entry fixture in the shape of TGI's models/__init__.py (v3: enum names in globals).
FIXTURE = """
import enum


class ModelType(enum.Enum):
    ALPHA = {"type": "alpha", "name": "Alpha", "url": "https://example.org/alpha"}
    BETA_MOE = {"type": "beta_moe", "name": "Beta MoE"}
    UNUSED = {"type": "unused"}


def get_model(model_id, model_type):
    if model_type == "ssm":
        raise RuntimeError("not any more")
    if model_type == ALPHA:
        return FlashCausalLM(model_id)
    elif model_type == BETA_MOE or model_type == "beta-legacy":
        return FlashCausalLM(model_id)
    if model_type in ["Gamma", "gamma"]:
        return CausalLM(model_id)
    raise ValueError(model_type)
"""

# The v0.x shape: the branch compares the config's attribute with a literal.
OLD_FIXTURE = """
def get_model(model_id):
    config = load(model_id)
    if config.model_type == "delta":
        return Delta(model_id)
"""


def test_enum_names_and_literals():
    assert tgi_models.parse(FIXTURE) == {
        "alpha": "ALPHA",
        "beta_moe": "BETA_MOE",
        "beta-legacy": "beta-legacy",
        "Gamma": "Gamma",
        "gamma": "gamma",
    }


def test_config_attribute_form():
    assert tgi_models.parse(OLD_FIXTURE) == {"delta": "delta"}


def test_no_dispatch_is_an_error():
    with pytest.raises(ValueError, match="get_model"):
        tgi_models.parse("def get_model(model_id):\n    return None\n")


def test_malformed_python_is_an_error():
    with pytest.raises(SyntaxError):
        tgi_models.parse("class ModelType(enum.Enum:\n")
