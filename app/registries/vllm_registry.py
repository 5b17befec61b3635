"""Read vLLM's model registry: HF architecture string -> "module.Class" vLLM loads for it."""

# Format read from vllm/model_executor/models/registry.py at commit
# ee0da84ab9e04ac7610e28580af62c365e898389 (module-level dicts such as _TEXT_GENERATION_MODELS
# mapping "Arch" -> ("module", "Class")), and from the older homes of the same dicts:
# vllm/model_executor/models/__init__.py `_MODELS` (tag v0.6.2,
# 7193774b1ff8603ad5bf4598e5efba0d9a39b436)
# and vllm/model_executor/model_loader.py `_MODEL_REGISTRY` (tag v0.1.0,
# 67d96c29fba9b72cb4c4edbc26211c208a00ebdd), whose values are class names, not tuples.

from __future__ import annotations

import ast

# Dicts whose values are not loaders: a removal table ("Arch" -> last version) and out-of-tree
# pointers ("Arch" -> plugin URL). Their string values already keep them out; named for clarity.
_NOT_LOADERS = frozenset({"_PREVIOUSLY_SUPPORTED_MODELS", "_OOT_SUPPORTED_MODELS"})


def _is_registry_name(name: str) -> bool:
    # _FALLBACK_MODEL held the Transformers backend's key in v0.7.2 to v0.8.2.
    return name.endswith(("MODELS", "_MODEL", "MODEL_REGISTRY"))


def _module_dicts(tree: ast.Module) -> list[tuple[str, ast.Dict]]:
    found: list[tuple[str, ast.Dict]] = []
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            target, value = node.target, node.value
        else:
            continue
        if isinstance(target, ast.Name) and isinstance(value, ast.Dict):
            found.append((target.id, value))
    return found


def _native(value: ast.expr) -> str | None:
    if isinstance(value, ast.Tuple) and len(value.elts) >= 2:
        module, cls = value.elts[0], value.elts[1]
        if (
            isinstance(module, ast.Constant)
            and isinstance(module.value, str)
            and isinstance(cls, ast.Constant)
            and isinstance(cls.value, str)
        ):
            return f"{module.value}.{cls.value}"
        return None
    if isinstance(value, ast.Name):  # v0.1.x: the class object itself
        return value.id
    return None


def parse(text: str) -> dict[str, str]:
    """Map every architecture the registry file lists to "module.Class" (or the bare class)."""
    tree = ast.parse(text.removeprefix("\ufeff"))  # a BOM, as Python allows
    out: dict[str, str] = {}
    for name, node in _module_dicts(tree):
        if not _is_registry_name(name) or name in _NOT_LOADERS:
            continue
        for key, value in zip(node.keys, node.values, strict=True):
            if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
                continue  # `**other_dict` spreads and computed keys repeat entries listed elsewhere
            native = _native(value)
            if native is not None:
                out.setdefault(key.value, native)
    return out


def parse_removed(text: str) -> dict[str, str]:
    """Map each architecture in `_PREVIOUSLY_SUPPORTED_MODELS` to the last version that had it."""
    tree = ast.parse(text)
    out: dict[str, str] = {}
    for name, node in _module_dicts(tree):
        if name != "_PREVIOUSLY_SUPPORTED_MODELS":
            continue
        for key, value in zip(node.keys, node.values, strict=True):
            if (
                isinstance(key, ast.Constant)
                and isinstance(key.value, str)
                and isinstance(value, ast.Constant)
                and isinstance(value.value, str)
            ):
                out[key.value] = value.value
    return out
