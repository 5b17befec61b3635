"""Read ExLlamaV2's architecture switch: each HF `architectures` string its loader branches on."""

# Format read from exllamav2/architecture.py of turboderp-org/exllamav2 at v0.3.2
# (6a2d8311408aa23af34e8ec32e28085ea68dada7): `if arch_string == "MistralForCausalLM":`,
# `if arch_string in ["Qwen2VLForConditionalGeneration", ...]:` and the Llama fallback
# `if arch_string != "LlamaForCausalLM" and not arch_recognized:`. Before v0.0.15 the same switch
# sat in exllamav2/config.py as `if "LlamaForCausalLM" in read_config["architectures"]:`.

import ast


def _strings(node: ast.expr) -> list[str]:
    items = list(node.elts) if isinstance(node, ast.List | ast.Tuple | ast.Set) else [node]
    return [i.value for i in items if isinstance(i, ast.Constant) and isinstance(i.value, str)]


def _is_arch_string(node: ast.expr) -> bool:
    """`arch_string` or `self.arch_string`."""
    if isinstance(node, ast.Name):
        return node.id == "arch_string"
    return isinstance(node, ast.Attribute) and node.attr == "arch_string"


def _is_architectures(node: ast.expr) -> bool:
    """`read_config["architectures"]` (the pre-v0.0.15 form)."""
    return (
        isinstance(node, ast.Subscript)
        and isinstance(node.slice, ast.Constant)
        and node.slice.value == "architectures"
    )


def parse(text: str) -> dict[str, str]:
    """Map each architecture string the loader compares against to itself (its native key)."""
    result: dict[str, str] = {}
    for node in ast.walk(ast.parse(text)):
        if not (isinstance(node, ast.Compare) and len(node.ops) == 1):
            continue
        left, op, right = node.left, node.ops[0], node.comparators[0]
        if _is_arch_string(left) and isinstance(op, ast.Eq | ast.In | ast.NotEq):
            names = _strings(right)
        elif _is_architectures(right) and isinstance(op, ast.In):
            names = _strings(left)
        else:
            continue
        for name in names:
            result.setdefault(name, name)
    if not result:
        raise ValueError("no comparison against the architecture string found")
    return result
