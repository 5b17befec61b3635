import pytest

from app.registries import sglang_entryclass

# Model modules written by us in the shape SGLang's loader scans.
SINGLE = """
class ToyForCausalLM:
    pass


EntryClass = ToyForCausalLM
"""

LIST_WITH_ALIAS = """
from other_toy import BaseToy as ImportedToy


class ToyVLForConditionalGeneration:
    pass


class ToyVLMoeForConditionalGeneration(ToyVLForConditionalGeneration):
    pass


Renamed = ToyVLForConditionalGeneration

EntryClass = [ToyVLMoeForConditionalGeneration, Renamed, ImportedToy]
"""

NONE = """
class Helper:
    pass
"""


def test_single_entry_class():
    assert sglang_entryclass.parse(SINGLE) == {"ToyForCausalLM": "ToyForCausalLM"}


def test_list_resolves_aliases_to_the_class_name():
    assert sglang_entryclass.parse(LIST_WITH_ALIAS) == {
        "ToyVLMoeForConditionalGeneration": "ToyVLMoeForConditionalGeneration",
        "ToyVLForConditionalGeneration": "ToyVLForConditionalGeneration",
        "BaseToy": "BaseToy",
    }


def test_module_without_entry_class_registers_nothing():
    assert sglang_entryclass.parse(NONE) == {}


def test_malformed_entry_class_is_an_error():
    with pytest.raises(ValueError):
        sglang_entryclass.parse("EntryClass = make_classes()\n")
    with pytest.raises(SyntaxError):
        sglang_entryclass.parse("EntryClass = [ToyForCausalLM\n")
