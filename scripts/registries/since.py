"""The first release that lists each architecture in a project's registry, and where it went.

    python -m scripts.registries.since SYSTEM GIT_DIR [TAG[=COMMIT] ...]

SYSTEM is one of the projects in scripts/registries/readers.py (vllm, sglang, tgi, lmdeploy,
mlc-llm, mlx-lm, exllamav2, tensorrt-llm, ollama; llama.cpp has its own walk in
llama_cpp_since.py, by build). GIT_DIR is a local clone (bare is fine); nothing reaches the
network. Without tags every release tag is read, oldest first; TAG=COMMIT reads COMMIT and
reports it as TAG, for a mirror that lacks the tag. Prints one tab-separated line per key:
key, native name, since=, until= (the first tag read without it after it was seen). LMDeploy's
two engines are walked apart (a class can leave one engine and stay in the other).
"""

from __future__ import annotations

import sys
from functools import partial

from scripts.registries import readers
from scripts.registries.history import print_history, walk
from scripts.registries.repo import Repo

# Projects whose registry has parts worth walking apart.
PARTS = {
    "lmdeploy": {"pytorch": readers.lmdeploy_torch, "turbomind": readers.lmdeploy_turbomind},
}


def main(argv: list[str]) -> int:
    if len(argv) < 2 or argv[0] not in readers.PROJECTS:
        print(__doc__, file=sys.stderr)
        print(f"systems: {', '.join(readers.PROJECTS)}", file=sys.stderr)
        return 2
    project = readers.PROJECTS[argv[0]]
    repo = Repo(argv[1])
    specs = argv[2:] or repo.release_tags(project.tag_pattern)
    parts = PARTS.get(project.system, {"": project.registry_at})
    for label, registry_at in parts.items():
        print_history(walk(specs, partial(registry_at, repo)), label)
    repo.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
