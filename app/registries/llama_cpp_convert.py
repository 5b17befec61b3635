"""Parse llama.cpp's HF converter: Hugging Face architecture class -> gguf MODEL_ARCH member."""

# Format read from convert_hf_to_gguf.py and conversion/*.py at ggml-org/llama.cpp commit
# 3f545beccee69d9975f466ec7e45fd9aacd8ba90 (2026-08-22): classes decorated with
# `@ModelBase.register("HFClass", ...)` (`@Model.register` in 2024 builds) that set
# `model_arch = gguf.MODEL_ARCH.X` themselves or through a base class. Pass the files joined.

import ast
import re

_FUTURE = re.compile(r"^from __future__ import [^\n]*$", re.MULTILINE)
_MMPROJ = "MMPROJ"


def _member(value: ast.expr | None) -> str | None:
    """`gguf.MODEL_ARCH.X` -> X; for `A if cond else B` the default branch B."""
    if isinstance(value, ast.IfExp):
        value = value.orelse
    if (
        isinstance(value, ast.Attribute)
        and isinstance(value.value, ast.Attribute)
        and value.value.attr == "MODEL_ARCH"
    ):
        return value.attr
    return None


def _init_arch(body: list[ast.stmt]) -> str | None:
    """An arch `__init__` always sets (`self.model_arch = ...` outside any branch)."""
    for stmt in body:
        if isinstance(stmt, ast.FunctionDef) and stmt.name == "__init__":
            for inner in stmt.body:
                if isinstance(inner, ast.Assign) and any(
                    isinstance(t, ast.Attribute)
                    and t.attr == "model_arch"
                    and isinstance(t.value, ast.Name)
                    and t.value.id == "self"
                    for t in inner.targets
                ):
                    return _member(inner.value)
    return None


def _arch_of_body(body: list[ast.stmt]) -> str | None:
    set_in_init = _init_arch(body)
    if set_in_init is not None:
        return set_in_init
    for stmt in body:
        if isinstance(stmt, ast.Assign | ast.AnnAssign):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            names = [t.id for t in targets if isinstance(t, ast.Name)]
            if "model_arch" in names and _member(stmt.value) is not None:
                return _member(stmt.value)
    return None


def _registered(node: ast.ClassDef) -> list[str]:
    names: list[str] = []
    for deco in node.decorator_list:
        if not isinstance(deco, ast.Call) or not isinstance(deco.func, ast.Attribute):
            continue
        if deco.func.attr != "register":
            continue
        owner = deco.func.value
        if not isinstance(owner, ast.Name) or owner.id not in ("Model", "ModelBase"):
            continue
        names += [
            a.value for a in deco.args if isinstance(a, ast.Constant) and isinstance(a.value, str)
        ]
    return names


def _base_names(node: ast.ClassDef) -> list[str]:
    out: list[str] = []
    for base in node.bases:
        if isinstance(base, ast.Name):
            out.append(base.id)
        elif isinstance(base, ast.Attribute):
            out.append(base.attr)
    return out


def _compared_strings(test: ast.expr) -> list[str]:
    if not isinstance(test, ast.Compare) or not isinstance(test.left, ast.Name):
        return []
    if test.left.id not in ("arch", "model_architecture"):
        return []
    if len(test.ops) != 1 or not isinstance(test.ops[0], ast.Eq | ast.In):
        return []
    right = test.comparators[0]
    items = right.elts if isinstance(right, ast.Tuple | ast.List) else [right]
    return [i.value for i in items if isinstance(i, ast.Constant) and isinstance(i.value, str)]


def parse(text: str) -> dict[str, str]:
    """Map each registered HF class to the MODEL_ARCH member its converter class writes."""
    tree = ast.parse(_FUTURE.sub("", text))
    classes: dict[str, ast.ClassDef] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            classes[node.name] = node

    def arch_of(name: str, seen: frozenset[str] = frozenset()) -> str | None:
        node = classes.get(name)
        if node is None or name in seen:
            return None
        own = _arch_of_body(node.body)
        if own is not None:
            return own
        for base in _base_names(node):
            found = arch_of(base, seen | {name})
            if found is not None:
                return found
        for inner in node.body:  # dispatchers keep their real converters as nested classes
            if isinstance(inner, ast.ClassDef):
                nested = _arch_of_body(inner.body)
                if nested is not None:
                    return nested
        return None

    result: dict[str, str] = {}
    # 2023 builds chose the class and arch with `if arch == "HFClass": return ...` chains
    for branch in ast.walk(tree):
        if not isinstance(branch, ast.If) or not branch.body:
            continue
        first = branch.body[0]
        if not isinstance(first, ast.Return) or first.value is None:
            continue
        for hf_class in _compared_strings(branch.test):
            value = first.value
            if isinstance(value, ast.Attribute) and isinstance(value.value, ast.Attribute):
                if value.value.attr == "MODEL_ARCH":
                    result.setdefault(hf_class, value.attr)
            elif isinstance(value, ast.Name):
                found = arch_of(value.id)
                if found is not None:
                    result.setdefault(hf_class, found)
    for name, node in classes.items():
        arch = arch_of(name)
        if arch is None:
            continue
        for hf_class in _registered(node):
            # a class registered twice (text model and vision projector) keeps its text arch
            if arch != _MMPROJ or hf_class not in result:
                result[hf_class] = arch
    return result
