"""Read mlx-lm's model registry: one module per HF `model_type` plus the MODEL_REMAPPING table."""

# Format read from ml-explore/mlx-lm at v0.31.3 (ed1fca4cef15a824c5f1702c80f70b4cffc8e4dd):
# mlx_lm/utils.py holds `MODEL_REMAPPING = {"mistral": "llama", ...}` and `_get_classes()` imports
# `mlx_lm.models.<model_type>` after remapping; a model module defines `class ModelArgs` and
# `class Model` (helpers such as base.py, cache.py, switch_layers.py define neither).

import ast
import re


def parse(text: str) -> dict[str, str]:
    """Map each model_type of MODEL_REMAPPING (in utils.py) to the module it is loaded with."""
    for node in ast.parse(text).body:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
            continue
        target = node.targets[0]
        if not (isinstance(target, ast.Name) and target.id == "MODEL_REMAPPING"):
            continue
        if not isinstance(node.value, ast.Dict):
            raise ValueError("MODEL_REMAPPING is not a dict literal")
        result: dict[str, str] = {}
        for key, value in zip(node.value.keys, node.value.values, strict=True):
            if (
                isinstance(key, ast.Constant)
                and isinstance(key.value, str)
                and isinstance(value, ast.Constant)
                and isinstance(value.value, str)
            ):
                result[key.value] = value.value
        return result
    raise ValueError("no MODEL_REMAPPING = {...} found")


def is_model_module(text: str) -> bool:
    """A module mlx-lm can load a model_type from: it defines both `ModelArgs` and `Model`."""
    names = {n.name for n in ast.parse(text).body if isinstance(n, ast.ClassDef)}
    return {"Model", "ModelArgs"} <= names


def registry(modules: dict[str, str], utils_text: str) -> dict[str, str]:
    """model_type -> module, from {file under mlx_lm/models/: its text} and utils.py's table."""
    result: dict[str, str] = {}
    for file_name, text in modules.items():
        match = re.fullmatch(r"(?:.*/)?([^/]+)\.py", file_name)
        if match and is_model_module(text):
            result[match.group(1)] = match.group(1)
    for model_type, module in parse(utils_text).items():
        if module in result:
            result.setdefault(model_type, module)
    return result
