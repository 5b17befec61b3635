"""Read the kt command's built-in model list: each ModelInfo name and the HF repo it fetches."""

# Format read from kt-kernel/python/cli/utils/model_registry.py of kvcache-ai/ktransformers at
# v0.7.0 (e80614fc2d2c3990bd1abe895d5014fc14733fde): `BUILTIN_MODELS: list[ModelInfo] = [
# ModelInfo(name="DeepSeek-V3-0324", hf_repo="deepseek-ai/DeepSeek-V3-0324", aliases=[...], ...),
# ...]`.
# The original framework has no such list (its optimize-rule file names stand in for one).

import ast


def _list_value(tree: ast.Module) -> ast.List | None:
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            name, value = node.target.id, node.value
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            name, value = (target.id if isinstance(target, ast.Name) else ""), node.value
        else:
            continue
        if name == "BUILTIN_MODELS" and isinstance(value, ast.List):
            return value
    return None


def parse(text: str) -> dict[str, str]:
    """Map each built-in model name to its hf_repo ("" where the entry names none)."""
    found = _list_value(ast.parse(text))
    if found is None:
        raise ValueError("no BUILTIN_MODELS = [...] list found")
    result: dict[str, str] = {}
    for item in found.elts:
        if not isinstance(item, ast.Call):
            continue
        fields = {
            kw.arg: kw.value.value
            for kw in item.keywords
            if kw.arg and isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str)
        }
        if "name" in fields:
            result[fields["name"]] = fields.get("hf_repo", "")
    return result
