"""YAML reading with line numbers, and deterministic writing for export."""

import io
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import MarkedYAMLError, YAMLError


class YamlSyntaxError(Exception):
    def __init__(self, message: str, line: int | None) -> None:
        super().__init__(message)
        self.line = line


def read_yaml(path: Path) -> Any:
    """Parse one YAML file, keeping positions; duplicate keys are an error."""
    yaml = YAML(typ="rt")
    yaml.allow_duplicate_keys = False
    try:
        return yaml.load(path.read_text(encoding="utf-8"))
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        problem = exc.problem or "invalid YAML"
        context = f" ({exc.context})" if exc.context else ""
        raise YamlSyntaxError(f"{problem}{context}", line) from exc
    except YAMLError as exc:
        raise YamlSyntaxError(str(exc).splitlines()[0], None) from exc


def line_of(node: Any, path: tuple[Any, ...]) -> int | None:
    """The 1-based line of the deepest element of `path` that exists in `node`."""
    line: int | None = None
    for key in path:
        if isinstance(node, CommentedMap) and key in node:
            line = node.lc.key(key)[0] + 1
            node = node[key]
        elif isinstance(node, CommentedSeq) and isinstance(key, int) and key < len(node):
            line = node.lc.item(key)[0] + 1
            node = node[key]
        else:
            break
    if line is None and isinstance(node, CommentedMap | CommentedSeq):
        line = node.lc.line + 1
    return line


def dump_yaml(data: Any) -> str:
    """Serialise plain data the same way every time (block style, 2-space indent)."""
    yaml = YAML(typ="rt")
    yaml.width = 4096  # one line per value: easier to edit and to diff
    yaml.indent(mapping=2, sequence=4, offset=2)
    yaml.default_flow_style = False
    buffer = io.StringIO()
    yaml.dump(data, buffer)
    return buffer.getvalue()
