"""Fill the docs cache that scripts/check_docs_prose.py compares seed notes against.

Every claim's `page` that is a GitHub blob URL at a commit
(https://github.com/OWNER/REPO/blob/COMMIT/PATH) is read from a local mirror of the
repository (`git show COMMIT:PATH`) and saved as `<cache>/<source-slug>/<page>.md`, first
line the URL, the way seed/README.md describes. Pages that are not GitHub blobs (a docs site,
a package registry) are listed as left to the reader to save by hand.

    python scripts/cache_docs_pages.py [--seed seed/] [--cache DIR] [--mirrors DIR]
                                       [--source SLUG ...]

Mirrors are bare clones found under --mirrors (default /work/.mirror) as
`OWNER+REPO/**/` (the directory the fetch tool writes); a repository with no mirror is listed.
"""

import argparse
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

BLOB = re.compile(r"^https://github\.com/([^/]+)/([^/]+)/blob/([0-9a-f]{7,40})/(.+?)(?:#.*)?$")
DEFAULT_CACHE = Path("/work/docs-cache")
DEFAULT_MIRRORS = Path("/work/.mirror")


def claim_pages(claims: Any) -> Iterator[str]:
    """Every `page` value in a claims file, however deeply the readings nest."""
    if isinstance(claims, dict):
        for key, value in claims.items():
            if key == "page" and isinstance(value, str):
                yield value
            else:
                yield from claim_pages(value)
    elif isinstance(claims, list):
        for item in claims:
            yield from claim_pages(item)


def find_git_dir(mirrors: Path, owner: str, repo: str) -> Path | None:
    root = mirrors / f"{owner}+{repo}"
    if not root.is_dir():
        return None
    # The fetch tool keeps the bare repository somewhere under OWNER+REPO/.
    for head in sorted(root.rglob("HEAD")):
        if (head.parent / "objects").is_dir():
            return head.parent
    return None


def cache_name(path: str) -> str:
    name = re.sub(r"[^A-Za-z0-9._-]+", "__", path)
    return name if name.endswith(".md") else f"{name}.md"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=Path, default=Path("seed"))
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--mirrors", type=Path, default=DEFAULT_MIRRORS)
    parser.add_argument("--source", action="append", default=[], help="only these sources")
    args = parser.parse_args()

    saved = 0
    by_hand: set[str] = set()
    no_mirror: set[str] = set()
    unreadable: list[str] = []
    for claims_file in sorted((args.seed / "claims").glob("*.yaml")):
        source = claims_file.stem
        if args.source and source not in args.source:
            continue
        pages = set(claim_pages(YAML(typ="safe").load(claims_file.read_text(encoding="utf-8"))))
        for url in sorted(pages):
            match = BLOB.match(url)
            if match is None:
                by_hand.add(f"{source}: {url}")
                continue
            owner, repo, commit, path = match.groups()
            git_dir = find_git_dir(args.mirrors, owner, repo)
            if git_dir is None:
                no_mirror.add(f"{owner}/{repo}")
                continue
            shown = subprocess.run(
                ["git", "--git-dir", str(git_dir), "show", f"{commit}:{path}"],
                capture_output=True,
            )
            if shown.returncode != 0:
                unreadable.append(f"{source}: {url}: {shown.stderr.decode().strip()[:120]}")
                continue
            target = args.cache / source / cache_name(path)
            target.parent.mkdir(parents=True, exist_ok=True)
            text = shown.stdout.decode("utf-8", errors="replace")
            target.write_text(f"{url}\n{text}", encoding="utf-8")
            saved += 1

    print(f"saved {saved} pages under {args.cache}")
    for label, items in (
        ("repositories with no mirror (fetch github:OWNER/REPO first)", sorted(no_mirror)),
        ("pages not readable from their mirror", unreadable),
        ("pages to save by hand (not GitHub blobs)", sorted(by_hand)),
    ):
        if items:
            print(f"{label}: {len(items)}")
            for item in items:
                print(f"  {item}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
