import pytest

from app.registries import lmdeploy_module_map

# Our own few-entry fixture in the shape of LMDeploy's pytorch/models/module_map.py.
FIXTURE = """
ROOT = 'pkg.models'

MODULE_MAP = dict()
OTHER_DEVICE_MAP = dict()
RETIRED = {'OldForCausalLM': 'Old'}

# alpha
MODULE_MAP.update({
    'AlphaForCausalLM': f'{ROOT}.alpha.AlphaForCausalLM',
})

MODULE_MAP.update(dict(BetaForCausalLM=f'{ROOT}.beta.BetaForCausalLM'))
OTHER_DEVICE_MAP.update({'GammaForCausalLM': f'{ROOT}.gamma.Gamma'})
MODULE_MAP['DeltaModel'] = 'pkg.models.delta.DeltaModel'
"""

# Before v0.6.0 the map was a dict literal.
LITERAL_FIXTURE = """
ROOT = 'pkg'
MODULE_MAP = {'lib.modeling_alpha.AlphaAttention': f'{ROOT}.alpha.Attention'}
"""


def test_updates_and_fstrings():
    assert lmdeploy_module_map.parse(FIXTURE) == {
        "AlphaForCausalLM": "pkg.models.alpha.AlphaForCausalLM",
        "BetaForCausalLM": "pkg.models.beta.BetaForCausalLM",
        "DeltaModel": "pkg.models.delta.DeltaModel",
    }


def test_dict_literal():
    assert lmdeploy_module_map.parse(LITERAL_FIXTURE) == {
        "lib.modeling_alpha.AlphaAttention": "pkg.alpha.Attention"
    }


def test_missing_map_is_an_error():
    with pytest.raises(ValueError, match="MODULE_MAP"):
        lmdeploy_module_map.parse("OTHER = dict()\nOTHER.update({'A': 'b'})\n")
