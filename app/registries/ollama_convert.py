"""Parse Ollama's convert/convert.go: Hugging Face architecture class -> Ollama converter type."""

# Format read from convert/convert.go at ollama/ollama tag v0.33.0-rc2
# (fb30760996871fa9460115c753afd2c60d4ab0f7): `switch p.Architectures[0] {` with
# `case "HFClass", ...:` followed by `conv = &someModel{...}`.

import re

_SWITCH = re.compile(r"switch\s+p\.Architectures\[0\]\s*\{")
_CASE = re.compile(r"^\s*case\s+(?P<names>\"[^\n]*\")\s*:\s*$", re.MULTILINE)
_NAME = re.compile(r"\"([^\"]+)\"")
_CONV = re.compile(r"&(?P<type>\w+)\s*\{")


def parse(text: str) -> dict[str, str]:
    """Map each HF class named in the import switch to the converter type it constructs."""
    start = _SWITCH.search(text)
    if start is None:
        return {}
    block = text[start.end() :]
    end = re.search(r"^\s*default\s*:", block, re.MULTILINE)
    if end is not None:
        block = block[: end.start()]
    cases = list(_CASE.finditer(block))
    result: dict[str, str] = {}
    for i, case in enumerate(cases):
        stop = cases[i + 1].start() if i + 1 < len(cases) else len(block)
        conv = _CONV.search(block, case.end(), stop)
        if conv is None:
            continue
        for name in _NAME.findall(case.group("names")):
            result[name] = conv.group("type")
    return result
