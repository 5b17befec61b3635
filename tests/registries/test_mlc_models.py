import pytest

from app.registries import mlc_models

# Our own few-entry fixture in the shape of MLC-LLM's python/mlc_llm/model/model.py.
FIXTURE = """
from .alpha import alpha_model
from .beta import beta_model

MODELS: Dict[str, Model] = {  # noqa: UP006
    "alpha": Model(
        name="alpha",
        model=alpha_model.AlphaForCausalLM,
        config=alpha_model.AlphaConfig,
        source={"huggingface-torch": None},
    ),
    "alpha_text": Model(
        name="alpha_text",
        model=alpha_model.AlphaForCausalLM,
        config=alpha_model.AlphaConfig,
    ),
    "beta-embed": Model(name="beta-embed", model=beta_model.BetaModel, config=None),
}

OTHER = {"not": "models"}
"""

# Older tags write the dict without the annotation; an entry not built with Model() keeps its key.
OLD_FIXTURE = """
MODELS = {
    "gamma": Model(name="gamma", model=GammaLM, config=GammaConfig),
    "delta": make_delta(),
}
"""


def test_annotated_dict():
    assert mlc_models.parse(FIXTURE) == {
        "alpha": "alpha_model.AlphaForCausalLM",
        "alpha_text": "alpha_model.AlphaForCausalLM",
        "beta-embed": "beta_model.BetaModel",
    }


def test_plain_assignment():
    assert mlc_models.parse(OLD_FIXTURE) == {"gamma": "GammaLM", "delta": "delta"}


def test_no_models_dict():
    with pytest.raises(ValueError):
        mlc_models.parse("MODELS = [1, 2]\nOTHER = {'a': 1}\n")
