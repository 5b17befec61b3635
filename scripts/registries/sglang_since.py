"""First-seen and removed tag per architecture in SGLang's EntryClass registry, from a local clone.

    python -m scripts.registries.sglang_since GIT_DIR TAG[=COMMIT] ...

Tags are read in the order given (oldest first). At each one every top-level module of
python/sglang/srt/models/ is parsed (the registry's pkgutil scan skips sub-packages). Prints one
tab-separated line per architecture: architecture, first tag, first commit, module, the first tag
without it after it was seen (or "-"), and the EntryClass line in the module at the first tag.
"""

from __future__ import annotations

import subprocess
import sys

from app.registries import sglang_entryclass

MODELS = "python/sglang/srt/models/"


def _git(git_dir: str, *args: str) -> str:
    return subprocess.run(
        ["git", "--git-dir", git_dir, *args], capture_output=True, text=True, check=True
    ).stdout


def _blobs(git_dir: str, ids: list[str]) -> list[str]:
    """The text of each blob, through one `git cat-file --batch` (thousands per run)."""
    done = subprocess.run(
        ["git", "--git-dir", git_dir, "cat-file", "--batch"],
        input="".join(f"{i}\n" for i in ids).encode(),
        capture_output=True,
        check=True,
    )
    out: list[str] = []
    data, pos = done.stdout, 0
    for _ in ids:
        header_end = data.index(b"\n", pos)
        size = int(data[pos:header_end].split()[2])
        out.append(data[header_end + 1 : header_end + 1 + size].decode("utf-8", "replace"))
        pos = header_end + 1 + size + 1
    return out


def read_at(git_dir: str, rev: str) -> dict[str, tuple[str, int]]:
    """Architecture -> (module path, line of its EntryClass) at one revision."""
    entries = []
    for row in _git(git_dir, "ls-tree", rev, MODELS).splitlines():
        meta, path = row.split("\t", 1)
        _mode, kind, oid = meta.split()
        name = path.rsplit("/", 1)[-1]
        if kind == "blob" and name.endswith(".py") and not name.startswith("__"):
            entries.append((path, oid))
    out: dict[str, tuple[str, int]] = {}
    for (path, _oid), text in zip(entries, _blobs(git_dir, [o for _, o in entries]), strict=True):
        try:
            found = sglang_entryclass.parse(text)
        except (SyntaxError, ValueError) as exc:
            print(f"# {rev}:{path}: {exc}", file=sys.stderr)
            continue
        line = next(
            (n for n, s in enumerate(text.splitlines(), 1) if s.startswith("EntryClass")), 0
        )
        for arch in found:
            out.setdefault(arch, (path, line))
    return out


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    git_dir, specs = argv[0], argv[1:]
    first: dict[str, tuple[str, str, str, int]] = {}
    gone: dict[str, str] = {}
    for spec in specs:
        tag, _, commit = spec.partition("=")
        rev = commit or tag
        found = read_at(git_dir, rev)
        for arch, (path, line) in found.items():
            if arch not in first:
                first[arch] = (tag, rev, path, line)
            gone.pop(arch, None)
        for arch in first:
            if arch not in found and arch not in gone:
                gone[arch] = tag
    for arch, (tag, rev, path, line) in sorted(first.items()):
        print("\t".join([arch, tag, rev, path, gone.get(arch, "-"), f"#L{line}"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
