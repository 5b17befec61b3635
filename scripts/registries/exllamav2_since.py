"""First-seen and removed release tag per architecture string in ExLlamaV2's loader switch.

Usage: python -m scripts.registries.exllamav2_since BARE_GIT_DIR [TAG ...]
(no tags: every vX.Y.Z tag, oldest first). Reads exllamav2/architecture.py, or exllamav2/config.py
where a tag predates architecture.py (before v0.0.15), with `git show`; no network.
"""

import re
import subprocess
import sys

from app.registries import exllamav2_arch

PATHS = ("exllamav2/architecture.py", "exllamav2/config.py")


def release_tags(git_dir: str) -> list[str]:
    out = subprocess.run(
        ["git", "-C", git_dir, "tag"], check=True, capture_output=True, text=True
    ).stdout
    tags = [t for t in out.split() if re.fullmatch(r"v\d+\.\d+\.\d+", t)]
    return sorted(tags, key=lambda t: [int(x) for x in re.findall(r"\d+", t)])


def read(git_dir: str, tag: str) -> str | None:
    for path in PATHS:
        done = subprocess.run(
            ["git", "-C", git_dir, "show", f"refs/tags/{tag}:{path}"],
            capture_output=True,
            text=True,
        )
        if done.returncode == 0:
            return done.stdout
    return None


def main(argv: list[str]) -> None:
    git_dir, tags = argv[0], argv[1:] or release_tags(argv[0])
    first: dict[str, str] = {}
    last: dict[str, str] = {}
    read_tags: list[str] = []
    for tag in tags:
        text = read(git_dir, tag)
        if text is None:
            continue
        read_tags.append(tag)
        try:
            parsed = exllamav2_arch.parse(text)
        except ValueError:  # the earliest tags load everything as Llama without naming it
            continue
        for key in parsed:
            first.setdefault(key, tag)
            last[key] = tag
    print("read:", " ".join(read_tags), file=sys.stderr)
    newest = read_tags[-1]
    for key in sorted(first, key=str.lower):
        gone = "" if last[key] == newest else read_tags[read_tags.index(last[key]) + 1]
        print(f"{key}\tsince={first[key]}\tuntil={gone}")


if __name__ == "__main__":
    main(sys.argv[1:])
