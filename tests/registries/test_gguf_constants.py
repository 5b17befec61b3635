from app.registries.gguf_constants import parse

FIXTURE = """
class MODEL_ARCH(IntEnum):
    TOYLM = auto()
    TOY_MOE = auto()


MODEL_ARCH_NAMES: dict[MODEL_ARCH, str] = {
    MODEL_ARCH.TOYLM: "toylm",
    MODEL_ARCH.TOY_MOE: "toy-moe",  # trailing comment
    # MODEL_ARCH.GONE: "gone",
}

MODEL_TENSORS: dict[MODEL_ARCH, list[MODEL_TENSOR]] = {
    MODEL_ARCH.TOYLM: [],
}
"""


def test_parse_maps_members_to_gguf_names() -> None:
    assert parse(FIXTURE) == {"TOYLM": "toylm", "TOY_MOE": "toy-moe"}


def test_parse_without_the_table_is_empty() -> None:
    assert parse("MODEL_TENSORS = {MODEL_ARCH.TOYLM: []}") == {}
