"""Read one SGLang model module: the architecture names its `EntryClass` registers."""

# Format read from python/sglang/srt/models/*.py and their scanner
# python/sglang/srt/models/registry.py at tag v0.5.18
# (71de97b264b04dcd514cf904003028aefe9775c8), and from
# python/sglang/srt/managers/router/model_runner.py at tag v0.1.12: each module sets
# `EntryClass = Cls` or `EntryClass = [ClsA, ClsB]`, and the scanner keys each class by its
# `__name__`, which is the Hugging Face `architectures` string.

from __future__ import annotations

import ast


def _class_names(tree: ast.Module) -> set[str]:
    return {node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef)}


def _aliases(tree: ast.Module) -> dict[str, str]:
    """Names bound at module level to another class: `from x import A as B`, `B = A`."""
    out: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                out[alias.asname or alias.name] = alias.name
        elif (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Name)
            and node.targets[0].id != "EntryClass"
        ):
            out[node.targets[0].id] = node.value.id
    return out


def _resolve(name: str, classes: set[str], aliases: dict[str, str]) -> str:
    seen: set[str] = set()
    while name not in classes and name in aliases and name not in seen:
        seen.add(name)
        name = aliases[name]
    return name


def _entry_names(value: ast.expr) -> list[str]:
    if isinstance(value, ast.Name):
        return [value.id]
    if isinstance(value, ast.List | ast.Tuple):
        return [elt.id for elt in value.elts if isinstance(elt, ast.Name)]
    raise ValueError(f"EntryClass is neither a class nor a list of classes: {ast.dump(value)}")


def parse(text: str) -> dict[str, str]:
    """Map each architecture the module's `EntryClass` registers to the class name it loads."""
    tree = ast.parse(text.removeprefix("\ufeff"))  # a BOM, as Python allows
    classes = _class_names(tree)
    aliases = _aliases(tree)
    out: dict[str, str] = {}
    for node in tree.body:
        if not (
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "EntryClass" for t in node.targets)
        ):
            continue
        out = {}  # a later assignment replaces an earlier one, as at import time
        for name in _entry_names(node.value):
            real = _resolve(name, classes, aliases)
            out[real] = real
    return out
