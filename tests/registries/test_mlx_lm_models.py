import pytest

from app.registries import mlx_lm_models

# Our own few-entry fixtures in the shape of mlx-lm's mlx_lm/utils.py and mlx_lm/models/*.py.
UTILS = """
MODEL_REMAPPING = {
    "alpha_chat": "alpha",  # same layout
    "beta_v2": "beta",
    "ghost": "not_a_module",
}

MAX_FILE_SIZE_GB = 5
"""

MODEL_MODULE = """
from dataclasses import dataclass

from .base import BaseModelArgs


@dataclass
class ModelArgs(BaseModelArgs):
    model_type: str


class Model(nn.Module):
    pass
"""

HELPER_MODULE = """
class BaseModelArgs:
    pass


def create_attention_mask(h):
    return None
"""


def test_remapping_table():
    assert mlx_lm_models.parse(UTILS) == {
        "alpha_chat": "alpha",
        "beta_v2": "beta",
        "ghost": "not_a_module",
    }


def test_registry_from_modules_and_table():
    modules = {
        "mlx_lm/models/alpha.py": MODEL_MODULE,
        "mlx_lm/models/gamma-nas.py": MODEL_MODULE,
        "mlx_lm/models/base.py": HELPER_MODULE,
        "mlx_lm/models/__init__.py": "",
    }
    # beta has no module here and ghost points nowhere, so neither is loadable.
    assert mlx_lm_models.registry(modules, UTILS) == {
        "alpha": "alpha",
        "gamma-nas": "gamma-nas",
        "alpha_chat": "alpha",
    }


def test_model_module_check():
    assert mlx_lm_models.is_model_module(MODEL_MODULE)
    assert not mlx_lm_models.is_model_module(HELPER_MODULE)


def test_no_remapping():
    with pytest.raises(ValueError):
        mlx_lm_models.parse("MAX_FILE_SIZE_GB = 5\n")
    with pytest.raises(ValueError):
        mlx_lm_models.parse("MODEL_REMAPPING = dict(a='b')\n")
