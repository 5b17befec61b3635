"""Read TGI's model dispatch: each HF `model_type` that get_model() gives its own branch."""

# Format read from server/text_generation_server/models/__init__.py of
# huggingface/text-generation-inference at v3.3.7 (dfb3fbe78e0d1d69251bd33065591c61bafdfaa8),
# and at the older tags, where the branches compare `model_type` with string literals instead of
# the names the `ModelType` enum puts into the module's globals.

import ast


def _enum_types(tree: ast.Module) -> dict[str, str]:
    """The `ModelType` enum: member name -> its "type" (the HF model_type)."""
    members: dict[str, str] = {}
    for node in tree.body:
        if not (isinstance(node, ast.ClassDef) and node.name == "ModelType"):
            continue
        for stmt in node.body:
            if not (isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Dict)):
                continue
            target = stmt.targets[0]
            if not isinstance(target, ast.Name):
                continue
            for key, value in zip(stmt.value.keys, stmt.value.values, strict=True):
                if (
                    isinstance(key, ast.Constant)
                    and key.value == "type"
                    and isinstance(value, ast.Constant)
                    and isinstance(value.value, str)
                ):
                    members[target.id] = value.value
    return members


def _is_model_type(node: ast.expr) -> bool:
    """`model_type` or `config.model_type` (v0.x)."""
    if isinstance(node, ast.Name):
        return node.id == "model_type"
    return isinstance(node, ast.Attribute) and node.attr == "model_type"


def _compared_types(test: ast.expr, enum: dict[str, str]) -> list[tuple[str, str]]:
    """(model_type, native name) pairs a branch condition compares `model_type` with."""
    found: list[tuple[str, str]] = []
    for node in ast.walk(test):
        if not (
            isinstance(node, ast.Compare)
            and _is_model_type(node.left)
            and len(node.ops) == 1
            and isinstance(node.ops[0], ast.Eq | ast.In)
        ):
            continue
        right = node.comparators[0]
        items = list(right.elts) if isinstance(right, ast.List | ast.Tuple | ast.Set) else [right]
        for item in items:
            if isinstance(item, ast.Constant) and isinstance(item.value, str):
                found.append((item.value, item.value))
            elif isinstance(item, ast.Name) and item.id in enum:
                found.append((enum[item.id], item.id))
    return found


def parse(text: str) -> dict[str, str]:
    """Map each model_type get_model() dispatches itself to its ModelType name (or the literal)."""
    tree = ast.parse(text)
    enum = _enum_types(tree)
    result: dict[str, str] = {}
    for node in tree.body:
        if not (isinstance(node, ast.FunctionDef) and node.name == "get_model"):
            continue
        for branch in ast.walk(node):
            if not isinstance(branch, ast.If):
                continue
            # A branch that only raises ("ssm" in v3) refuses the type rather than serving it.
            if all(isinstance(stmt, ast.Raise) for stmt in branch.body):
                continue
            for model_type, native in _compared_types(branch.test, enum):
                result.setdefault(model_type, native)
    if not result:
        raise ValueError("no get_model() branch keyed by model_type found")
    return result
