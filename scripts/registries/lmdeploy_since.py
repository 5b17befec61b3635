"""First-seen and removed release tag per architecture in LMDeploy's two engine registries.

Usage: python -m scripts.registries.lmdeploy_since BARE_GIT_DIR [TAG ...]
(no tags: every vX.Y.Z[.postN] tag, oldest first). Reads each tag with `git show`; no network.
PyTorch engine: MODULE_MAP in lmdeploy/pytorch/models/module_map.py from v0.6.0; before that its
keys are patched module paths, so lmdeploy/pytorch/supported_models.py (v0.2.5 on) is read.
TurboMind: lmdeploy/turbomind/supported_models.py.
"""

import re
import subprocess
import sys
from collections.abc import Callable

from app.registries import lmdeploy_module_map, lmdeploy_supported_archs

MODULE_MAP = "lmdeploy/pytorch/models/module_map.py"
TORCH_ARCHS = "lmdeploy/pytorch/supported_models.py"
TURBOMIND_ARCHS = "lmdeploy/turbomind/supported_models.py"


def release_tags(git_dir: str) -> list[str]:
    out = subprocess.run(
        ["git", "-C", git_dir, "tag"], check=True, capture_output=True, text=True
    ).stdout
    tags = [t for t in out.split() if re.fullmatch(r"v\d+\.\d+\.\d+(\.post\d+)?", t)]
    return sorted(tags, key=lambda t: [int(x) for x in re.findall(r"\d+", t)])


def read(git_dir: str, tag: str, path: str) -> str | None:
    done = subprocess.run(
        ["git", "-C", git_dir, "show", f"refs/tags/{tag}:{path}"], capture_output=True, text=True
    )
    return done.stdout if done.returncode == 0 else None


def _looks_like_class(key: str) -> bool:
    return "." not in key


def torch_engine(git_dir: str, tag: str) -> dict[str, str] | None:
    text = read(git_dir, tag, MODULE_MAP)
    if text is not None:
        mapped = lmdeploy_module_map.parse(text)
        if all(_looks_like_class(key) for key in mapped):  # v0.6.0 on: keyed by HF class
            return mapped
    text = read(git_dir, tag, TORCH_ARCHS)  # v0.2.5 to v0.5.3: the engine's own check
    return None if text is None else lmdeploy_supported_archs.parse(text)


def turbomind(git_dir: str, tag: str) -> dict[str, str] | None:
    text = read(git_dir, tag, TURBOMIND_ARCHS)
    return None if text is None else lmdeploy_supported_archs.parse(text)


def report(name: str, tags: list[str], reader: Callable[[str], dict[str, str] | None]) -> None:
    first: dict[str, str] = {}
    last: dict[str, str] = {}
    native: dict[str, str] = {}
    read_tags: list[str] = []
    for tag in tags:
        parsed = reader(tag)
        if parsed is None:
            continue
        read_tags.append(tag)
        for key, value in parsed.items():
            first.setdefault(key, tag)
            last[key] = tag
            native[key] = value
    print(f"# {name}: read {' '.join(read_tags)}")
    newest = read_tags[-1]
    for key in sorted(first, key=str.lower):
        gone = "" if last[key] == newest else read_tags[read_tags.index(last[key]) + 1]
        print(f"{name}\t{key}\t{native[key]}\tsince={first[key]}\tuntil={gone}")


def main(argv: list[str]) -> None:
    git_dir, tags = argv[0], argv[1:] or release_tags(argv[0])
    report("pytorch", tags, lambda tag: torch_engine(git_dir, tag))
    report("turbomind", tags, lambda tag: turbomind(git_dir, tag))


if __name__ == "__main__":
    main(sys.argv[1:])
