"""From uploaded bytes to JSON records, refusing what is not a result file before parsing.

Order matters: the size is checked first (before any decoding), then the bytes are checked
for archives and binary content, then decoded as UTF-8, then read as JSON. JSON Lines files
(vLLM --append-result, SGLang, llama-bench -o jsonl) are read one line at a time.
"""

from __future__ import annotations

import datetime as dt
import io
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError
from ruamel.yaml.events import AliasEvent

from app.importers.errors import ResultFileError

MB = 1_000_000
DEFAULT_MAX_BYTES = 50 * MB
DEFAULT_MAX_RUNS = 10_000

# (magic bytes, what it is, what to do)
_ARCHIVES = (
    (b"PK\x03\x04", "a zip archive", "unpack it and upload the result file(s) inside"),
    (b"PK\x05\x06", "an empty zip archive", "upload the result file itself"),
    (b"\x1f\x8b", "gzip-compressed", "decompress it (gunzip) and upload the file inside"),
    (b"BZh", "bzip2-compressed", "decompress it and upload the file inside"),
    (b"\xfd7zXZ\x00", "xz-compressed", "decompress it and upload the file inside"),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive", "unpack it and upload the result file(s)"),
    (b"\x28\xb5\x2f\xfd", "zstd-compressed", "decompress it and upload the file inside"),
    (b"%PDF", "a PDF document", "upload the tool's JSON result file instead"),
)


@dataclass(frozen=True)
class Record:
    """One JSON object that may hold a run, and where it is."""

    value: Any
    line: int | None  # 1-based first line, for line-based files
    path: str  # JSON path inside its document: "" or "[3]"

    @property
    def source(self) -> str:
        return f"line {self.line}" if self.line is not None and not self.path else self.path


def size_text(size: int) -> str:
    return f"{size / MB:.1f} MB" if size >= MB / 10 else f"{size:,} bytes"


def read_limited(stream: BinaryIO, name: str, max_bytes: int = DEFAULT_MAX_BYTES) -> bytes:
    """Read an upload, stopping as soon as it passes the limit (never buffer a huge file)."""
    data = stream.read(max_bytes + 1)
    if len(data) > max_bytes:
        message = f"the file is over the {size_text(max_bytes)} limit for result files"
        raise ResultFileError(name, message, kind="too-large")
    return data


def decode(name: str, data: bytes, max_bytes: int = DEFAULT_MAX_BYTES) -> str:
    """The file's text, or an error saying why these bytes are not a result file."""
    if len(data) > max_bytes:
        message = f"the file is {size_text(len(data))}, over the {size_text(max_bytes)} limit"
        raise ResultFileError(name, message, kind="too-large")
    if not data or data.isspace():
        raise ResultFileError(name, "the file is empty", kind="empty")
    _refuse_binary(name, data)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        byte = data[err.start]
        message = (
            f"the file is not UTF-8 text: byte 0x{byte:02X} at offset {err.start:,} cannot be "
            "decoded; save the file as UTF-8"
        )
        raise ResultFileError(name, message, kind="encoding", line=line) from None
    return text.removeprefix("\ufeff")


def _refuse_binary(name: str, data: bytes) -> None:
    for magic, what, todo in _ARCHIVES:
        if data.startswith(magic):
            raise ResultFileError(
                name, f"the file is {what}, not a result file: {todo}", kind="binary"
            )
    if data[257:262] == b"ustar":
        message = (
            "the file is a tar archive, not a result file: unpack it and upload the file inside"
        )
        raise ResultFileError(name, message, kind="binary")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        message = "the file is UTF-16 text; save it as UTF-8 and upload it again"
        raise ResultFileError(name, message, kind="encoding")
    head = data[:65536]
    if b"\x00" in head:
        offset = head.index(b"\x00")
        message = f"the file is binary (a NUL byte at offset {offset:,}), not a JSON result file"
        raise ResultFileError(name, message, kind="binary")


def load_records(name: str, text: str, max_runs: int = DEFAULT_MAX_RUNS) -> list[Record]:
    """Every top-level JSON object, with arrays of objects unrolled into their items."""
    start = len(text) - len(text.lstrip())
    if text[start] not in "{[":
        report = _llmd_yaml(name, text)
        if report is not None:
            return [Record(report, None, "")]
        raise ResultFileError(name, _not_json_message(text[start:]), kind="not-json", line=1)
    documents = _json_lines(name, text, max_runs) if _is_json_lines(text, start) else None
    if documents is None:
        documents = [_whole_document(name, text)]
    records: list[Record] = []
    for line, value in documents:
        items = value if isinstance(value, list) else [value]
        if len(records) + len(items) > max_runs:
            message = f"the file holds more than {max_runs:,} runs, the most one import takes"
            raise ResultFileError(name, message, kind="too-many-runs")
        for i, item in enumerate(items):
            records.append(Record(item, line, f"[{i}]" if isinstance(value, list) else ""))
    if not records:
        raise ResultFileError(name, "the file holds an empty JSON list: no runs", kind="empty")
    return records


_YAML_VERSION = re.compile(r"^version:\s*['\"]?0\.2", re.MULTILINE)


def _llmd_yaml(name: str, text: str) -> Any:
    """An llm-d Benchmark Report written as YAML (llm-d-benchmark's own form), or None when
    the text is not one. Anchors and aliases are refused: a report has no use for them, and
    they can make a few bytes expand into gigabytes."""
    if not (_YAML_VERSION.search(text[:20000]) and re.search(r"^results:", text, re.MULTILINE)):
        return None
    reader = YAML(typ="safe", pure=True)
    try:
        for event in reader.parse(text):
            if isinstance(event, AliasEvent):
                line = event.start_mark.line + 1 if event.start_mark else None
                message = "this YAML report uses an alias (*name), which the importer refuses"
                raise ResultFileError(name, message, kind="not-json", line=line)
        value = reader.load(text)
    except YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        message = f"not valid YAML: {getattr(exc, 'problem', None) or exc}"
        raise ResultFileError(name, message, kind="not-json", line=line) from None
    return _json_safe(value) if isinstance(value, dict) else None


def _json_safe(value: Any) -> Any:
    """YAML's dates and times as the ISO strings JSON would hold."""
    if isinstance(value, dict):
        return {str(k): _json_safe(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_json_safe(v) for v in value]
    if isinstance(value, dt.date | dt.datetime):
        return value.isoformat()
    return value


def _is_json_lines(text: str, start: int) -> bool:
    """True when the first line is a whole JSON object and more text follows it."""
    end = text.find("\n", start)
    if end == -1 or not text[end:].strip():
        return False
    try:
        first = json.loads(text[start:end])
    except (ValueError, RecursionError):
        return False
    return isinstance(first, dict)


def _json_lines(name: str, text: str, max_runs: int) -> list[tuple[int | None, Any]]:
    documents: list[tuple[int | None, Any]] = []
    for number, line, end in _numbered_lines(text):
        if len(documents) >= max_runs:
            message = f"the file holds more than {max_runs:,} runs, the most one import takes"
            raise ResultFileError(name, message, kind="too-many-runs")
        try:
            documents.append((number, json.loads(line)))
        except RecursionError:
            raise _too_deep(name, number) from None
        except json.JSONDecodeError as err:
            last = not text[end:].strip()
            if not last and err.msg.startswith("Unterminated string"):
                message = "this line stops inside a string: it looks cut off"
                raise ResultFileError(name, message, kind="not-json", line=number) from None
            # Cut off only if the error is at the end of the last line with any text on it.
            truncated = last and err.pos >= len(line.rstrip())
            raise _json_error(name, err, line_offset=number - 1, truncated=truncated) from None
    return documents


def _numbered_lines(text: str) -> Iterator[tuple[int, str, int]]:
    """(line number, line, offset just past it) for each line with text on it."""
    offset = 0
    for number, line in enumerate(io.StringIO(text), start=1):
        offset += len(line)
        if line.strip():
            yield number, line.rstrip("\r\n"), offset


def _whole_document(name: str, text: str) -> tuple[int | None, Any]:
    try:
        return None, json.loads(text)
    except RecursionError:
        raise _too_deep(name, None) from None
    except json.JSONDecodeError as err:
        truncated = err.pos >= len(text.rstrip())
        raise _json_error(name, err, line_offset=0, truncated=truncated) from None


def _json_error(
    name: str, err: json.JSONDecodeError, *, line_offset: int, truncated: bool
) -> ResultFileError:
    # A string that never closes runs to the end of the text: JSON strings cannot hold a
    # newline, so an unclosed one on an earlier line is reported as a control character.
    if truncated or err.msg.startswith("Unterminated string"):
        line = err.doc.rstrip().count("\n") + 1 + line_offset
        message = (
            "the JSON stops before it is complete: the file looks truncated "
            "(cut off while it was written or uploaded)"
        )
        return ResultFileError(name, message, kind="truncated", line=line)
    line = err.lineno + line_offset
    if err.msg == "Extra data":
        message = f"a second JSON value starts at column {err.colno}, after the first one ended"
    else:
        message = f"not valid JSON (column {err.colno}): {err.msg}"
    return ResultFileError(name, message, kind="not-json", line=line)


def _too_deep(name: str, line: int | None) -> ResultFileError:
    message = "the JSON is nested too deeply to be a benchmark result"
    return ResultFileError(name, message, kind="too-deep", line=line)


def _not_json_message(text: str) -> str:
    first = text.split("\n", 1)[0].strip()
    shown = first if len(first) <= 40 else first[:37] + "..."
    hints = (
        (
            first.startswith("|") and "t/s" in text[:2000],
            "it looks like llama-bench's Markdown table: run llama-bench with -o json or -o jsonl",
        ),
        (
            first.startswith("build_commit,") or first.startswith('"build_commit"'),
            "it looks like llama-bench's CSV output: run llama-bench with -o json or -o jsonl",
        ),
        (
            first.upper().startswith("CREATE TABLE"),
            "it looks like llama-bench's SQL output: run llama-bench with -o json or -o jsonl",
        ),
        (first.startswith("<"), "it looks like HTML (a report page?): upload the tool's JSON file"),
        (
            first.startswith("Metric,"),
            "it looks like the CSV export of AIPerf or GenAI-Perf: "
            "upload the .json file from the same folder",
        ),
        (
            first.startswith(("benchmarks:", "metadata:", "args:", "config:")),
            "it looks like a GuideLLM YAML report: export the run as JSON (benchmarks.json)",
        ),
    )
    for matches, hint in hints:
        if matches:
            return f"not JSON (it starts with {shown!r}); {hint}"
    return f"not JSON: a result file starts with {{ or [, this one with {shown!r}"
