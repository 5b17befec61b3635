"""First-seen and removed release tag per model_type in TGI's get_model() dispatch.

Usage: python -m scripts.registries.tgi_since BARE_GIT_DIR [TAG ...]
(no tags: every vX.Y.Z tag, oldest first). Reads each tag with `git show`; no network.
"""

import re
import subprocess
import sys

from app.registries import tgi_models

PATH = "server/text_generation_server/models/__init__.py"


def release_tags(git_dir: str) -> list[str]:
    out = subprocess.run(
        ["git", "-C", git_dir, "tag"], check=True, capture_output=True, text=True
    ).stdout
    tags = [t for t in out.split() if re.fullmatch(r"v\d+\.\d+\.\d+(\.post\d+)?", t)]
    return sorted(tags, key=lambda t: [int(x) for x in re.findall(r"\d+", t)])


def read(git_dir: str, tag: str) -> str | None:
    done = subprocess.run(
        ["git", "-C", git_dir, "show", f"refs/tags/{tag}:{PATH}"], capture_output=True, text=True
    )
    return done.stdout if done.returncode == 0 else None


def main(argv: list[str]) -> None:
    git_dir, tags = argv[0], argv[1:] or release_tags(argv[0])
    first: dict[str, str] = {}
    last: dict[str, str] = {}
    native: dict[str, str] = {}
    read_tags: list[str] = []
    for tag in tags:
        text = read(git_dir, tag)
        if text is None:
            continue
        try:
            parsed = tgi_models.parse(text)
        except ValueError:  # no model_type dispatch at this tag (v0.3: chosen by model name)
            continue
        read_tags.append(tag)
        for key, value in parsed.items():
            first.setdefault(key, tag)
            last[key] = tag
            native[key] = value
    print("read:", " ".join(read_tags), file=sys.stderr)
    newest = read_tags[-1]
    for key in sorted(first, key=str.lower):
        gone = "" if last[key] == newest else read_tags[read_tags.index(last[key]) + 1]
        print(f"{key}\t{native[key]}\tsince={first[key]}\tuntil={gone}")


if __name__ == "__main__":
    main(sys.argv[1:])
