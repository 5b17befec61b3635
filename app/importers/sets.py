"""Several result files read as one: a sweep directory (`vllm bench sweep` output, an AIPerf
parameter sweep or multi-run folder, a folder of GuideLLM reports), several uploaded files,
or a zip / tar archive of them. Their runs become one ParsedFile, so they are previewed,
saved and charted together as one sweep. Pure: bytes in, no file system, no database.

What a sweep folder holds besides its results is passed over with a note, judged by content
like a single file: vLLM's PyTorch-format side files, AIPerf's per-request logs and
aggregates, inputs, plots and CSV copies. A file that is a result but wrong still refuses the
whole set: nothing of a set is saved unless all of it can be.
"""

from __future__ import annotations

import io
import posixpath
import tarfile
import zipfile
from collections.abc import Iterable
from dataclasses import replace
from pathlib import PurePosixPath

from app.importers.detect import parse_result_file
from app.importers.errors import ResultFileError
from app.importers.reading import DEFAULT_MAX_BYTES, DEFAULT_MAX_RUNS, size_text
from app.importers.runs import TOOLS, ParsedFile, ParsedRun

MAX_SET_FILES = 500
"""Files one set may hold (a sweep of 40 loads x 3 repeats with their side files is ~250)."""
MAX_SET_BYTES = DEFAULT_MAX_BYTES
"""Their total size, uncompressed: the same bound as one result file."""
RESULT_SUFFIXES = (".json", ".jsonl")
# Kinds of error that mean "not a result summary", so a set skips the file rather than fail.
_NOT_A_RESULT = ("side-file", "unknown-format", "empty")


def is_archive(data: bytes) -> bool:
    """A zip, a tar, or something gzip-compressed (a .tar.gz, told apart when unpacked)."""
    return data.startswith((b"PK\x03\x04", b"\x1f\x8b")) or data[257:262] == b"ustar"


def unpack_archive(name: str, data: bytes) -> list[tuple[str, bytes]]:
    """The files of a zip or tar(.gz) archive, each bounded, or a ResultFileError."""
    if data.startswith(b"PK\x03\x04"):
        return _unzip(name, data)
    members = _tar_members(name, data)
    if members is None:
        message = (
            "the file is gzip-compressed and holds no tar archive: decompress it (gunzip) "
            "and upload the file inside"
            if data.startswith(b"\x1f\x8b")
            else "the file is not a zip or tar archive that can be read"
        )
        raise ResultFileError(name, message, kind="binary")
    return members


def parse_result_set(
    name: str,
    files: Iterable[tuple[str, bytes]],
    format: str | None = None,
    *,
    max_runs: int = DEFAULT_MAX_RUNS,
) -> ParsedFile:
    """The runs of every result file in `files` (relative name, bytes), in name order, as one
    ParsedFile called `name`. Raises ResultFileError when a result file is wrong, when the
    files are of more than one tool, or when none is a result."""
    entries = sorted(files)
    _check_bounds(name, entries)
    names = {entry for entry, _ in entries}
    runs: list[ParsedRun] = []
    notes: list[str] = []
    skipped: list[str] = []
    formats: dict[str, str] = {}
    for entry, data in entries:
        if not entry.lower().endswith(RESULT_SUFFIXES) or _repeats_its_runs(entry, names):
            skipped.append(entry)
            continue
        try:
            parsed = parse_result_file(entry, data, format, max_runs=max_runs - len(runs))
        except ResultFileError as exc:
            if exc.kind in _NOT_A_RESULT:
                skipped.append(entry)
                continue
            raise
        formats[entry] = parsed.format
        for run in parsed.runs:
            where = f"{entry} {run.source}".strip() if run.source else entry
            runs.append(replace(run, index=len(runs), source=where))
        notes += [f"{entry}: {note}" for note in parsed.notes]
    if not runs:
        shown = ", ".join(skipped[:5]) + (" …" if len(skipped) > 5 else "")
        message = f"no result file among its {len(entries)} files ({shown})"
        raise ResultFileError(name, message, kind="empty")
    kinds = sorted(set(formats.values()))
    if len(kinds) > 1:
        first = {kind: next(e for e, k in formats.items() if k == kind) for kind in kinds}
        listed = "; ".join(f"{TOOLS[k]} ({first[k]})" for k in kinds)
        message = f"one import is one tool's results, and these files are of {listed}"
        raise ResultFileError(name, message, kind="unknown-format")
    if skipped:
        notes.append(
            f"{len(skipped)} files passed over (side files, per-request logs, "
            "aggregates, summaries that repeat run=N.json, non-JSON): "
            + ", ".join(skipped[:10])
            + (" …" if len(skipped) > 10 else "")
        )
    return ParsedFile(name=name, format=kinds[0], runs=tuple(runs), notes=tuple(notes))


def _repeats_its_runs(entry: str, names: set[str]) -> bool:
    """`vllm bench sweep` writes summary.json beside run=N.json: the list of those runs."""
    folder, file = posixpath.split(entry)
    if file != "summary.json":
        return False
    return any(
        posixpath.dirname(other) == folder and posixpath.basename(other).startswith("run=")
        for other in names
    )


def _check_bounds(name: str, entries: list[tuple[str, bytes]]) -> None:
    if len(entries) > MAX_SET_FILES:
        message = f"it holds {len(entries):,} files; one import takes at most {MAX_SET_FILES}"
        raise ResultFileError(name, message, kind="too-many-runs")
    total = sum(len(data) for _, data in entries)
    if total > MAX_SET_BYTES:
        message = (
            f"its files come to {size_text(total)}, over the {size_text(MAX_SET_BYTES)} "
            "limit of one import"
        )
        raise ResultFileError(name, message, kind="too-large")


def _member_name(name: str) -> str | None:
    """A member's path inside the archive, or None for one that climbs out or is hidden."""
    path = PurePosixPath(name.replace("\\", "/"))
    if path.is_absolute() or ".." in path.parts:
        return None
    if any(part.startswith(".") or part == "__MACOSX" for part in path.parts):
        return None
    return str(path)


def _unzip(name: str, data: bytes) -> list[tuple[str, bytes]]:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = [i for i in archive.infolist() if not i.is_dir()]
    except (zipfile.BadZipFile, OSError) as exc:
        message = f"the zip archive cannot be read ({exc})"
        raise ResultFileError(name, message, kind="binary") from None
    _check_declared(name, len(infos), sum(i.file_size for i in infos))
    files = []
    for info in infos:
        member = _member_name(info.filename)
        if member is None:
            continue
        with archive.open(info) as stream:
            content = stream.read(MAX_SET_BYTES + 1)  # never trust the declared size alone
        files.append((member, content))
        _check_bounds(name, files)
    return files


def _tar_members(name: str, data: bytes) -> list[tuple[str, bytes]] | None:
    """The files of a tar or tar.gz archive; None when `data` is not one."""
    try:
        archive = tarfile.open(fileobj=io.BytesIO(data), mode="r:*")  # noqa: SIM115 (closed below)
    except (tarfile.TarError, OSError, EOFError):
        return None
    with archive:
        try:
            infos = [i for i in archive.getmembers() if i.isfile()]
        except (tarfile.TarError, OSError, EOFError):
            return None
        _check_declared(name, len(infos), sum(i.size for i in infos))
        files = []
        for info in infos:
            member = _member_name(info.name)
            stream = archive.extractfile(info)
            if member is None or stream is None:
                continue
            files.append((member, stream.read(MAX_SET_BYTES + 1)))
    return files


def _check_declared(name: str, count: int, size: int) -> None:
    """Refuse an archive by its table of contents before unpacking anything."""
    if count > MAX_SET_FILES:
        message = f"the archive holds {count:,} files; one import takes at most {MAX_SET_FILES}"
        raise ResultFileError(name, message, kind="too-many-runs")
    if size > MAX_SET_BYTES:
        message = (
            f"the archive unpacks to {size_text(size)}, over the "
            f"{size_text(MAX_SET_BYTES)} limit of one import"
        )
        raise ResultFileError(name, message, kind="too-large")
