"""First-seen and removed tag per architecture in vLLM's model registry, read from a local clone.

    python -m scripts.registries.vllm_since GIT_DIR TAG[=COMMIT] ...

Tags are read in the order given (oldest first). TAG=COMMIT reads COMMIT and reports it as TAG,
for a mirror that lacks the tag itself. Prints one tab-separated line per architecture:
architecture, first tag, first commit, native "module.Class", the first tag without it after it
was seen (or "-"), and the line of the key in the registry file at the first tag.
"""

from __future__ import annotations

import subprocess
import sys

from app.registries import vllm_registry

# Where the registry dicts lived, newest first: registry.py (v0.6.3 on), models/__init__.py
# (_MODELS), model_loader.py (_MODEL_REGISTRY, v0.1.x).
PATHS = (
    "vllm/model_executor/models/registry.py",
    "vllm/model_executor/models/__init__.py",
    "vllm/model_executor/model_loader.py",
)


def _show(git_dir: str, rev: str, path: str) -> str | None:
    done = subprocess.run(
        ["git", "--git-dir", git_dir, "show", f"{rev}:{path}"],
        capture_output=True,
        text=True,
        check=False,
    )
    return done.stdout if done.returncode == 0 else None


def read_at(git_dir: str, rev: str) -> tuple[str, dict[str, str], str]:
    """Return (path, architectures, text) of the first registry file that lists any."""
    for path in PATHS:
        text = _show(git_dir, rev, path)
        if text is None:
            continue
        found = vllm_registry.parse(text)
        if found:
            return path, found, text
    return "", {}, ""


def line_of(text: str, arch: str) -> int:
    needle = f'"{arch}"'
    for number, line in enumerate(text.splitlines(), start=1):
        if line.lstrip().startswith(needle):
            return number
    return 0


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    git_dir, specs = argv[0], argv[1:]
    first: dict[str, tuple[str, str, str, str, int]] = {}
    gone: dict[str, str] = {}
    for spec in specs:
        tag, _, commit = spec.partition("=")
        rev = commit or tag
        path, found, text = read_at(git_dir, rev)
        for arch, native in found.items():
            if arch not in first:
                first[arch] = (tag, rev, native, path, line_of(text, arch))
            gone.pop(arch, None)
        for arch in first:
            if arch not in found and arch not in gone:
                gone[arch] = tag
    for arch, (tag, rev, native, path, line) in sorted(first.items()):
        print("\t".join([arch, tag, rev, native, gone.get(arch, "-"), f"{path}#L{line}"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
