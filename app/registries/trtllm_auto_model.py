"""Read TensorRT-LLM PyTorch-backend model registrations: HF architecture -> model class."""

# Format read from tensorrt_llm/_torch/models/modeling_*.py of NVIDIA/TensorRT-LLM as stored in
# the search index (the repository is over the snapshot limit, so no tag was checked out):
# classes carry `@register_auto_model("Qwen3ForCausalLM")`, stacked where one class serves
# several architectures; a few modules call `register_auto_model("X")(SomeClass)` instead.

import ast

_DECORATOR = "register_auto_model"


def _registered_name(node: ast.expr) -> str | None:
    """The architecture string of a `register_auto_model("X")` call, else None."""
    if not (isinstance(node, ast.Call) and node.args):
        return None
    func = node.func
    name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
    first = node.args[0]
    if name == _DECORATOR and isinstance(first, ast.Constant) and isinstance(first.value, str):
        return first.value
    return None


def parse(text: str) -> dict[str, str]:
    """Map each architecture a modeling module registers to the class that serves it."""
    tree = ast.parse(text)
    result: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for decorator in node.decorator_list:
                arch = _registered_name(decorator)
                if arch is not None:
                    result[arch] = node.name
        elif (
            isinstance(node, ast.Call)
            and node.args
            and isinstance(node.args[0], ast.Name)
            and _registered_name(node.func) is not None
        ):
            arch = _registered_name(node.func)
            if arch is not None:
                result[arch] = node.args[0].id
    return result
