"""Read LMDeploy's PyTorch-engine MODULE_MAP: HF architecture class -> module path."""

# Format read from lmdeploy/pytorch/models/module_map.py of InternLM/lmdeploy at v0.16.0
# (1263d5cd889b7ad500e85b8eb20401327a4516ab): `MODULE_MAP = dict()` (a dict literal before v0.6.0)
# grown by `MODULE_MAP.update({...})` calls whose values are f-strings over module constants.

import ast

_MAP = "MODULE_MAP"


def _string(node: ast.expr, constants: dict[str, str]) -> str | None:
    """A str constant, or an f-string made only of str constants and known module names."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        parts: list[str] = []
        for value in node.values:
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                parts.append(value.value)
            elif (
                isinstance(value, ast.FormattedValue)
                and isinstance(value.value, ast.Name)
                and value.value.id in constants
            ):
                parts.append(constants[value.value.id])
            else:
                return None
        return "".join(parts)
    return None


def _entries(node: ast.expr, constants: dict[str, str]) -> dict[str, str]:
    """The str -> str pairs of a `{...}` literal or a `dict(...)` call."""
    found: dict[str, str] = {}
    if isinstance(node, ast.Dict):
        for key, value in zip(node.keys, node.values, strict=True):
            if key is None:
                continue
            name, target = _string(key, constants), _string(value, constants)
            if name is not None and target is not None:
                found[name] = target
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict":
        for arg in node.args:
            found.update(_entries(arg, constants))
        for keyword in node.keywords:
            target = _string(keyword.value, constants)
            if keyword.arg is not None and target is not None:
                found[keyword.arg] = target
    return found


def parse(text: str) -> dict[str, str]:
    """Map each key MODULE_MAP registers (module level only) to the module path it names."""
    tree = ast.parse(text)
    constants: dict[str, str] = {}
    result: dict[str, str] = {}
    seen = False
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target = stmt.targets[0]
            if isinstance(target, ast.Name):
                value = _string(stmt.value, constants)
                if value is not None:
                    constants[target.id] = value
                elif target.id == _MAP:
                    seen = True
                    result = _entries(stmt.value, constants)
            elif (
                isinstance(target, ast.Subscript)
                and isinstance(target.value, ast.Name)
                and target.value.id == _MAP
            ):
                key, value = _string(target.slice, constants), _string(stmt.value, constants)
                if key is not None and value is not None:
                    result[key] = value
        elif (
            isinstance(stmt, ast.Expr)
            and isinstance(stmt.value, ast.Call)
            and isinstance(stmt.value.func, ast.Attribute)
            and stmt.value.func.attr == "update"
            and isinstance(stmt.value.func.value, ast.Name)
            and stmt.value.func.value.id == _MAP
        ):
            for arg in stmt.value.args:
                result.update(_entries(arg, constants))
    if not seen:
        raise ValueError("no module-level MODULE_MAP assignment found")
    return result
