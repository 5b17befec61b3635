"""First-seen and removed release tag per PyTorch-backend architecture in TensorRT-LLM.

Usage: python -m scripts.registries.tensorrt_llm_since BARE_GIT_DIR [TAG ...]
(no tags: every final vX.Y.Z tag, oldest first; pass rc tags by name where no final exists).
At each tag it reads tensorrt_llm/_torch/models/_arch_index.py where the tag has it, otherwise
the @register_auto_model decorators of every tensorrt_llm/_torch/models/modeling_*.py (and
sub-package) file. Reads with `git show`; no network. Written for a local clone: the seed rows
were read without one (see seed/sources.yaml tensorrt-llm-model-registry).
"""

import re
import subprocess
import sys

from app.registries import trtllm_arch_index, trtllm_auto_model

MODELS = "tensorrt_llm/_torch/models"
INDEX = f"{MODELS}/_arch_index.py"


def git(git_dir: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", "-C", git_dir, *args], capture_output=True, text=True)


def release_tags(git_dir: str) -> list[str]:
    tags = [t for t in git(git_dir, "tag").stdout.split() if re.fullmatch(r"v\d+\.\d+\.\d+", t)]
    return sorted(tags, key=lambda t: [int(x) for x in re.findall(r"\d+", t)])


def registry(git_dir: str, tag: str) -> dict[str, str] | None:
    index = git(git_dir, "show", f"refs/tags/{tag}:{INDEX}")
    if index.returncode == 0:
        return trtllm_arch_index.parse(index.stdout)
    listing = git(git_dir, "ls-tree", "-r", "--name-only", f"refs/tags/{tag}", MODELS)
    files = [p for p in listing.stdout.split() if p.endswith(".py")]
    if not files:
        return None  # no PyTorch backend at this tag (before 0.17)
    found: dict[str, str] = {}
    for path in files:
        text = git(git_dir, "show", f"refs/tags/{tag}:{path}").stdout
        if "register_auto_model" in text:
            module = path.rsplit("/", 1)[-1].removesuffix(".py")
            found.update({arch: module for arch in trtllm_auto_model.parse(text)})
    return found


def main(argv: list[str]) -> None:
    git_dir, tags = argv[0], argv[1:] or release_tags(argv[0])
    first: dict[str, str] = {}
    last: dict[str, str] = {}
    read_tags: list[str] = []
    for tag in tags:
        found = registry(git_dir, tag)
        if found is None:
            continue
        read_tags.append(tag)
        for arch in found:
            first.setdefault(arch, tag)
            last[arch] = tag
    print("read:", " ".join(read_tags), file=sys.stderr)
    for arch in sorted(first, key=str.lower):
        gone = "" if last[arch] == read_tags[-1] else read_tags[read_tags.index(last[arch]) + 1]
        print(f"{arch}\tsince={first[arch]}\tuntil={gone}")


if __name__ == "__main__":
    main(sys.argv[1:])
