import pytest

from app.registries import ktransformers_cli_models

# Our own few-entry fixture in the shape of kt-kernel/python/cli/utils/model_registry.py.
FIXTURE = """
@dataclass
class ModelInfo:
    name: str
    hf_repo: str


BUILTIN_MODELS: list[ModelInfo] = [
    ModelInfo(
        name="Alpha-MoE",
        hf_repo="example-org/Alpha-MoE",
        aliases=["alpha", "a-moe"],
        type="moe",
        default_params={"kt-method": "FP8"},
    ),
    ModelInfo(name="Beta-2", hf_repo="example-org/Beta-2"),
    ModelInfo(name="Gamma-local"),
]


def load_user_models():
    return [ModelInfo(name="User-Model", hf_repo="someone/else")]
"""


def test_builtin_models():
    assert ktransformers_cli_models.parse(FIXTURE) == {
        "Alpha-MoE": "example-org/Alpha-MoE",
        "Beta-2": "example-org/Beta-2",
        "Gamma-local": "",
    }


def test_no_builtin_list():
    with pytest.raises(ValueError):
        ktransformers_cli_models.parse("MODELS = []\n")
