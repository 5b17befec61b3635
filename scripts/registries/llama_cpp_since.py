"""The first llama.cpp build per HF class (converter + runtime arch) and per GGUF arch.

    python -m scripts.registries.llama_cpp_since GIT_DIR [REF]

llama.cpp tags every master commit as a build (bNNNN = the commit's position on master), so this
walks the commits that touched the registry files rather than release tags. Prints tab-separated
rows: kind (class|arch), key, GGUF arch now, first build, first commit, build where it went.
"""

from __future__ import annotations

import sys

from scripts.registries import readers
from scripts.registries.repo import Repo

WATCHED = (
    *readers.LLAMA_CPP_ARCH_FILES,
    *readers.LLAMA_CPP_CONST_FILES,
    *readers.LLAMA_CPP_CONVERTERS,
    "conversion",
)


def present(repo: Repo, commit: str) -> dict[tuple[str, str], str]:
    classes = readers.llama_cpp(repo, commit) or {}
    found = {("class", k): v for k, v in classes.items()}
    return found | {("arch", a): a for a in readers.llama_cpp_runtime(repo, commit)}


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    repo = Repo(argv[0])
    ref = argv[1] if len(argv) > 1 else "HEAD"
    order = repo.git("rev-list", "--reverse", ref).split()
    build = {c: i + 1 for i, c in enumerate(order)}
    touched = repo.git("log", "--reverse", "--format=%H", ref, "--", *WATCHED).split()
    first: dict[tuple[str, str], tuple[int, str, str]] = {}
    gone: dict[tuple[str, str], int] = {}
    for commit in touched:
        now = present(repo, commit)
        for key, gguf in now.items():
            first.setdefault(key, (build[commit], commit, gguf))
            gone.pop(key, None)
        for key in first:
            if key not in now and key not in gone:
                gone[key] = build[commit]
    last = readers.llama_cpp(repo, order[-1]) or {}
    for (kind, name), (number, commit, gguf) in sorted(first.items()):
        current = last.get(name, gguf) if kind == "class" else gguf
        went = f"b{gone[(kind, name)]}" if (kind, name) in gone else ""
        print(f"{kind}\t{name}\t{current}\tb{number}\t{commit}\t{went}")
    repo.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
