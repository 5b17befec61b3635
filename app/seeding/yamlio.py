"""Seed file reading (UTF-8 text, YAML with line numbers) and deterministic writing for export."""

import datetime as dt
import io
import re
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import MarkedYAMLError, YAMLError

BOM = "\ufeff"


class UnreadableFileError(Exception):
    """A seed file that cannot be turned into data at all; `line` when it is known."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


class YamlSyntaxError(UnreadableFileError):
    pass


def read_text(path: Path) -> str:
    """The file as text; it must be UTF-8. A leading byte-order mark is dropped."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise UnreadableFileError(f"cannot be read: {exc.strerror or exc}") from exc
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        # Point at the first bad byte so the file can be fixed in an editor.
        line = raw[: exc.start].count(b"\n") + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        bad = raw[exc.start : exc.start + 1].hex()
        msg = f"not valid UTF-8 (byte 0x{bad} at line {line}, column {column}); save it as UTF-8"
        raise UnreadableFileError(msg, line) from exc
    # Windows editors write a BOM before UTF-8 text; it is not part of the content.
    return text.removeprefix(BOM)


def read_yaml(path: Path) -> Any:
    """Parse one YAML file, keeping positions; duplicate keys are an error."""
    yaml = YAML(typ="rt")
    yaml.allow_duplicate_keys = False
    text = read_text(path)
    try:
        return yaml.load(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        problem = exc.problem or "invalid YAML"
        context = f" ({exc.context})" if exc.context else ""
        raise YamlSyntaxError(f"{problem}{context}", line) from exc
    except YAMLError as exc:
        raise YamlSyntaxError(str(exc).splitlines()[0], None) from exc
    except ValueError as exc:
        # An unquoted 2026-02-30 looks like a timestamp, and building it fails unmarked.
        raise YamlSyntaxError(f"cannot read a value: {exc}", _bad_date_line(text)) from exc
    except RecursionError as exc:
        # The parser recurses once per nesting level; seed files are a few levels deep.
        raise YamlSyntaxError("nested too deeply (hundreds of levels)", None) from exc


def _bad_date_line(text: str) -> int | None:
    for number, line in enumerate(text.splitlines(), start=1):
        for year, month, day in re.findall(r"\b(\d{4})-(\d\d?)-(\d\d?)\b", line):
            try:
                dt.date(int(year), int(month), int(day))
            except ValueError:
                return number
    return None


def _containers(root: Any) -> Iterator[tuple[tuple[Any, ...], Any, bool]]:
    """(path, mapping or list, reached before?) for every container, each opened once.

    Iterative and visiting each container once, so an alias pointing back at its parent
    (a cycle) or fanning out exponentially (a "billion laughs") cannot hang the walk.
    """
    seen: set[int] = set()
    queue: deque[tuple[tuple[Any, ...], Any]] = deque([((), root)])
    while queue:
        # Breadth first, in file order: an anchor is met before the aliases that repeat it.
        path, node = queue.popleft()
        if not isinstance(node, CommentedMap | CommentedSeq):
            continue
        again = id(node) in seen
        yield path, node, again
        if not again:
            seen.add(id(node))
            items = node.items() if isinstance(node, CommentedMap) else enumerate(node)
            queue.extend(((*path, key), value) for key, value in items)


def shape_problems(root: Any) -> list[tuple[tuple[Any, ...], int | None, str]]:
    """(path, line, message) for keys that are not text, else for the first YAML alias."""
    found = [
        (path, node.lc.key(key)[0] + 1, _odd_key(key))
        for path, node, again in _containers(root)
        if isinstance(node, CommentedMap) and not again
        for key in node
        if not isinstance(key, str)
    ]
    shared = next((path for path, _, again in _containers(root) if again), None)
    if not found and shared is not None:
        # Export writes every value out; an alias would not survive the round trip.
        msg = "repeats a value through a YAML alias (*name); write the value out instead"
        # ruamel gives an aliased list item the anchor's position; its list's line is right.
        at = shared[:-1] if isinstance(shared[-1], int) else shared
        found.append((shared, line_of(root, at), msg))
    return found


def _odd_key(key: Any) -> str:
    # YAML 1.2 reads `1:`, `true:` and `null:` as a number, a boolean and null, never text.
    if key is None:
        kind, shown = "null", "null"
    elif isinstance(key, bool):
        kind, shown = "a boolean", str(key).lower()
    elif isinstance(key, int | float):
        kind, shown = "a number", str(key)
    else:
        return "a key here is a list or mapping, not text; allowed: text keys"
    return f"key {shown} is read as {kind}, not text; allowed: text keys (quote it: '{shown}')"


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


def _null(representer: Any, _value: None) -> Any:
    return representer.represent_scalar("tag:yaml.org,2002:null", "null")


def dump_yaml(data: Any) -> str:
    """Serialise plain data the same way every time (block style, 2-space indent)."""
    yaml = YAML(typ="rt")
    yaml.width = 4096  # one line per value: easier to edit and to diff
    yaml.indent(mapping=2, sequence=4, offset=2)
    yaml.default_flow_style = False
    # ruamel writes None as an empty value; `null` says "looked for, not there" plainly
    # (a model's config facts and an architecture's keys keep their nulls).
    yaml.representer.add_representer(type(None), _null)
    buffer = io.StringIO()
    yaml.dump(data, buffer)
    return buffer.getvalue()
