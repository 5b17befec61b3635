"""Read TensorRT-LLM's static architecture index: HF architecture -> modeling module."""

# Format read from tensorrt_llm/_torch/models/_arch_index.py of NVIDIA/TensorRT-LLM at commit
# 065ff9e93780bc0bdbfdbc7156a306ca14f5850c: a dict literal `MODEL_ARCH_TO_MODULE = {"Arch":
# "modeling_x", ...}` that the project's own test keeps equal to the @register_auto_model
# decorators (read those with trtllm_auto_model where a tag predates the index).

import ast

_TABLE = "MODEL_ARCH_TO_MODULE"


def parse(text: str) -> dict[str, str]:
    """Map each architecture in MODEL_ARCH_TO_MODULE to the module that registers it."""
    tree = ast.parse(text)
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign):
            targets = stmt.targets
        elif isinstance(stmt, ast.AnnAssign):
            targets = [stmt.target]
        else:
            continue
        if not any(isinstance(t, ast.Name) and t.id == _TABLE for t in targets):
            continue
        if not isinstance(stmt.value, ast.Dict):
            raise ValueError(f"{_TABLE} is not a dict literal")
        result: dict[str, str] = {}
        for key, value in zip(stmt.value.keys, stmt.value.values, strict=True):
            if (
                isinstance(key, ast.Constant)
                and isinstance(key.value, str)
                and isinstance(value, ast.Constant)
                and isinstance(value.value, str)
            ):
                result[key.value] = value.value
        return result
    raise ValueError(f"no {_TABLE} table found")
