"""Parse gguf-py's MODEL_ARCH_NAMES: MODEL_ARCH member -> GGUF `general.architecture` name."""

# Format read from gguf-py/gguf/constants.py at ggml-org/llama.cpp commit
# 3f545beccee69d9975f466ec7e45fd9aacd8ba90 (2026-08-22): `MODEL_ARCH.X: "name",` rows.

import re

_TABLE = re.compile(r"MODEL_ARCH_NAMES\s*(?::[^=]*)?=\s*\{(?P<body>.*?)\n\s*\}", re.DOTALL)
_ROW = re.compile(r"MODEL_ARCH\.(?P<member>[A-Z0-9_]+)\s*:\s*\"(?P<name>[^\"]+)\"")
_COMMENT = re.compile(r"#[^\n]*")


def parse(text: str) -> dict[str, str]:
    """Map each MODEL_ARCH member named in MODEL_ARCH_NAMES to its GGUF architecture name."""
    table = _TABLE.search(text)
    if table is None:
        return {}
    body = _COMMENT.sub("", table.group("body"))
    return {row.group("member"): row.group("name") for row in _ROW.finditer(body)}
