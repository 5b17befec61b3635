"""Parse llama.cpp's LLM_ARCH_NAMES table: enum suffix -> GGUF `general.architecture` name."""

# Format read from src/llama-arch.cpp at ggml-org/llama.cpp commit
# 3f545beccee69d9975f466ec7e45fd9aacd8ba90 (2026-08-22); the same `{ LLM_ARCH_X, "name" },`
# rows sat in src/llama.cpp and, before that, llama.cpp at the repository root.

import re

_TABLE = re.compile(r"LLM_ARCH_NAMES\s*=\s*\{(?P<body>.*?)\n\s*\}\s*;", re.DOTALL)
_ROW = re.compile(r"\{\s*LLM_ARCH_(?P<enum>[A-Z0-9_]+)\s*,\s*\"(?P<name>[^\"]+)\"\s*\}")
_COMMENT = re.compile(r"//[^\n]*")


def parse(text: str) -> dict[str, str]:
    """Map each LLM_ARCH_<X> suffix in LLM_ARCH_NAMES to its GGUF architecture name."""
    table = _TABLE.search(text)
    if table is None:
        return {}
    body = _COMMENT.sub("", table.group("body"))
    return {
        row.group("enum"): row.group("name")
        for row in _ROW.finditer(body)
        if row.group("enum") != "UNKNOWN"
    }
