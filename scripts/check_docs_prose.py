"""List runs of 8+ words that a seed text shares with a documentation page we read.

Facts may come from a project's docs; sentences may not (issue 21). The pages read are kept,
never committed, as `<cache>/<source-slug>/<page>.md` (first line the URL; seed/README.md).
Every text field of every seed file (YAML values, CSV cells) is split
into word runs the way /work/shared/tools/copied_prose.py splits the articles, and each run
of N words (default 8) that also occurs in a cached page is reported with the field and page.

    python scripts/check_docs_prose.py [--seed seed/] [--cache DIR] [--words 8]

The cache defaults to $ATLAS_DOCS_CACHE, else /work/docs-cache. Exit status: 0 when nothing
is shared, 1 when a run is, 2 when there is no cache to compare against (said plainly).
"""

import argparse
import csv
import os
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DEFAULT_CACHE = Path("/work/docs-cache")
WORDS = 8
TOKEN = re.compile(r"[a-z0-9]+(?:[.'-][a-z0-9]+)*")
# Fields that hold addresses, identifiers or dates, not prose.
NOT_PROSE = {"url", "page", "commit", "version", "since", "read", "date", "kind", "repository"}


def words(text: str) -> list[str]:
    return TOKEN.findall(text.lower())


@dataclass(frozen=True)
class Field:
    file: str  # relative to the seed folder
    where: str  # key path ("vllm.prefix-caching.note") or "row 12, note"
    line: int | None
    text: str


@dataclass(frozen=True)
class Shared:
    field: Field
    page: str  # <source-slug>/<page>.md
    run: str  # the shared words

    def __str__(self) -> str:
        place = f"{self.field.file}:{self.field.line}" if self.field.line else self.field.file
        n = len(self.run.split())
        return f'{place}: {self.field.where}: {n} words shared with {self.page}: "{self.run[:160]}"'


def page_shingles(cache: Path, size: int) -> dict[tuple[str, ...], str]:
    """Every run of `size` words of every cached page -> the first page it occurs in."""
    shingles: dict[tuple[str, ...], str] = {}
    for page in sorted(cache.glob("*/*.md")):
        lines = page.read_text(encoding="utf-8", errors="replace").splitlines()
        w = words("\n".join(lines[1:]))  # the first line is the page's URL
        name = page.relative_to(cache).as_posix()
        for i in range(len(w) - size + 1):
            shingles.setdefault(tuple(w[i : i + size]), name)
    return shingles


def seed_fields(seed: Path) -> Iterator[Field]:
    """Every prose field of the seed folder: YAML string values and CSV cells."""
    from app.seeding.yamlio import line_of, read_yaml

    for path in sorted(seed.rglob("*.yaml")):
        relative = path.relative_to(seed).as_posix()
        root = read_yaml(path)
        for keys, text in _strings(root, ()):
            if keys and str(keys[-1]) in NOT_PROSE:
                continue
            where = ".".join(str(k) for k in keys)
            yield Field(relative, where, line_of(root, keys), text)
    for path in sorted(seed.rglob("*.csv")):
        relative = path.relative_to(seed).as_posix()
        with path.open(encoding="utf-8", newline="") as handle:
            records = csv.DictReader(handle)
            for record in records:
                for column, text in record.items():
                    if column and text and column not in NOT_PROSE:
                        line = records.line_num
                        yield Field(relative, f"row {line}, {column}", line, text)


def _strings(node: Any, keys: tuple[Any, ...]) -> Iterator[tuple[tuple[Any, ...], str]]:
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _strings(value, (*keys, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _strings(value, (*keys, i))
    elif isinstance(node, str):
        yield keys, node


def shared_runs(
    fields: Iterator[Field], shingles: dict[tuple[str, ...], str], size: int
) -> list[Shared]:
    """The longest runs each field shares with a page (a run of 12 words is one finding)."""
    found = []
    for field in fields:
        w = words(field.text)
        i = 0
        while i <= len(w) - size:
            page = shingles.get(tuple(w[i : i + size]))
            if page is None:
                i += 1
                continue
            j = i + size
            while j < len(w) and tuple(w[j - size + 1 : j + 1]) in shingles:
                j += 1
            found.append(Shared(field, page, " ".join(w[i:j])))
            i = j
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--seed", type=Path, default=Path("seed"), help="the seed folder")
    parser.add_argument(
        "--cache",
        type=Path,
        default=Path(os.environ.get("ATLAS_DOCS_CACHE") or DEFAULT_CACHE),
        help="the docs text cache (default: $ATLAS_DOCS_CACHE, else /work/docs-cache)",
    )
    parser.add_argument("--words", type=int, default=WORDS, help="run length (default 8)")
    args = parser.parse_args(argv)
    pages = sorted(args.cache.glob("*/*.md")) if args.cache.is_dir() else []
    if not pages:
        print(
            f"No docs cache at {args.cache} (no <source-slug>/<page>.md files): nothing was "
            "compared. Save the pages you read there, or pass --cache DIR / set ATLAS_DOCS_CACHE."
        )
        return 2
    if not args.seed.is_dir():
        print(f"No seed folder at {args.seed}.")
        return 2
    shingles = page_shingles(args.cache, args.words)
    found = shared_runs(seed_fields(args.seed), shingles, args.words)
    for item in found:
        print(item)
    sources = len({p.parent.name for p in pages})
    print(
        f"{len(found)} run(s) of {args.words}+ words shared with {len(pages)} cached page(s) "
        f"of {sources} source(s)"
    )
    return 1 if found else 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    sys.exit(main())
