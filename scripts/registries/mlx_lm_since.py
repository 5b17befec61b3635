"""First-seen and removed release tag per model_type in mlx-lm (model modules + MODEL_REMAPPING).

Usage: python -m scripts.registries.mlx_lm_since BARE_GIT_DIR [TAG ...]
(no tags: every vX.Y.Z tag, oldest first). Reads mlx_lm/models/*.py and mlx_lm/utils.py at each
tag with `git ls-tree` and `git show`; no network.
"""

import re
import subprocess
import sys

from app.registries import mlx_lm_models


def git(git_dir: str, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", git_dir, *args], check=True, capture_output=True, text=True
    ).stdout


def release_tags(git_dir: str) -> list[str]:
    tags = [t for t in git(git_dir, "tag").split() if re.fullmatch(r"v\d+\.\d+\.\d+", t)]
    return sorted(tags, key=lambda t: [int(x) for x in re.findall(r"\d+", t)])


def registry(git_dir: str, tag: str) -> dict[str, str]:
    ref = f"refs/tags/{tag}"
    names = git(git_dir, "ls-tree", "--name-only", ref, "mlx_lm/models/").split()
    modules = {n: git(git_dir, "show", f"{ref}:{n}") for n in names if n.endswith(".py")}
    return mlx_lm_models.registry(modules, git(git_dir, "show", f"{ref}:mlx_lm/utils.py"))


def main(argv: list[str]) -> None:
    git_dir, tags = argv[0], argv[1:] or release_tags(argv[0])
    first: dict[str, str] = {}
    last: dict[str, str] = {}
    native: dict[str, str] = {}
    for tag in tags:
        for key, module in registry(git_dir, tag).items():
            first.setdefault(key, tag)
            last[key] = tag
            native[key] = module
    print("read:", " ".join(tags), file=sys.stderr)
    for key in sorted(first, key=str.lower):
        gone = "" if last[key] == tags[-1] else tags[tags.index(last[key]) + 1]
        print(f"{key}\t{native[key]}\tsince={first[key]}\tuntil={gone}")


if __name__ == "__main__":
    main(sys.argv[1:])
