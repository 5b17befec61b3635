"""Writing files so that a reader never sees half of one (exports and backups)."""

import os
import secrets
from pathlib import Path


def write_atomically(path: Path, text: str, mode: int = 0o644) -> None:
    """Write `text` to `path` through a temporary file in the same folder, then rename it.

    A crash or a full disk leaves the old file (or none), never a truncated one. The
    temporary name starts with a dot, so a seed folder's loader skips a leftover one.
    `mode` is set when the file is created: a secret file is never readable by others,
    not even for a moment.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, mode)  # the umask may have taken bits away; set exactly these
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    _sync_folder(path.parent)


def _sync_folder(folder: Path) -> None:
    # The rename is only durable once the folder's entry is on disk too.
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
