"""Read MLC-LLM's model registry: each HF `model_type` key of `MODELS` and the class it builds."""

# Format read from python/mlc_llm/model/model.py of mlc-ai/mlc-llm at v0.26.dev0 + 4
# (79d603f085f50500e9509fa01785ffa7ecfaaa93): `MODELS: Dict[str, Model] = {"llama": Model(
# name="llama", model=llama_model.LlamaForCausalLM, ...), ...}`; older tags (v0.17.1) write the
# same dict without the annotation.

import ast


def _dotted(node: ast.expr) -> str | None:
    """`llama_model.LlamaForCausalLM` as written, or None for anything but names and attributes."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return None if base is None else f"{base}.{node.attr}"
    return None


def _models_dict(tree: ast.Module) -> ast.Dict | None:
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            name, value = node.target.id, node.value
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            name, value = (target.id if isinstance(target, ast.Name) else ""), node.value
        else:
            continue
        if name == "MODELS" and isinstance(value, ast.Dict):
            return value
    return None


def parse(text: str) -> dict[str, str]:
    """Map each model_type key of MODELS to the `model=` class its Model entry names."""
    found = _models_dict(ast.parse(text))
    if found is None:
        raise ValueError("no MODELS = {...} dict found")
    result: dict[str, str] = {}
    for key, value in zip(found.keys, found.values, strict=True):
        if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
            continue
        native = key.value
        if isinstance(value, ast.Call):
            for keyword in value.keywords:
                if keyword.arg == "model":
                    native = _dotted(keyword.value) or native
        result[key.value] = native
    if not result:
        raise ValueError("MODELS has no string keys")
    return result
