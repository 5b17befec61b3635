"""Read an LMDeploy supported-architectures table: HF class -> engine model name."""

# Format read from lmdeploy/turbomind/supported_models.py of InternLM/lmdeploy at v0.16.0
# (1263d5cd889b7ad500e85b8eb20401327a4516ab): `SUPPORTED_ARCHS = dict(Qwen2ForCausalLM='qwen2')`.
# Older files (v0.2.5, and lmdeploy/pytorch/supported_models.py up to v0.9.x) name it
# `_SUPPORTED_ARCHS` with True/False values; False means listed but not supported.

import ast

_NAMES = ("SUPPORTED_ARCHS", "_SUPPORTED_ARCHS")


def _pairs(node: ast.expr) -> list[tuple[str, ast.expr]]:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict":
        return [(kw.arg, kw.value) for kw in node.keywords if kw.arg is not None]
    if isinstance(node, ast.Dict):
        return [
            (key.value, value)
            for key, value in zip(node.keys, node.values, strict=True)
            if isinstance(key, ast.Constant) and isinstance(key.value, str)
        ]
    return []


def parse(text: str) -> dict[str, str]:
    """Map each supported class to its engine's model name ("" where the table only says True)."""
    tree = ast.parse(text)
    for stmt in tree.body:
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1):
            continue
        target = stmt.targets[0]
        if not (isinstance(target, ast.Name) and target.id in _NAMES):
            continue
        result: dict[str, str] = {}
        for name, value in _pairs(stmt.value):
            if not isinstance(value, ast.Constant):
                continue
            if value.value is True:
                result[name] = ""
            elif isinstance(value.value, str):
                result[name] = value.value
        return result
    raise ValueError("no SUPPORTED_ARCHS table found")
