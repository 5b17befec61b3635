"""List the cells (system x capability) whose every `no` comes from a secondary source.

Issue 37 asks for each such cell to be re-read at the project's own page; this is the
list to work from. It reads seed/ directly so it runs without a database.
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from pathlib import Path

from ruamel.yaml import YAML

FIRST_PARTY = {"project-docs", "release-notes", "official-blog"}
_yaml = YAML(typ="safe")


def level_of(value: object) -> str:
    if isinstance(value, dict):
        value = value.get("level")
    return str(value)


def article_only_nos(seed: Path) -> list[tuple[str, str, list[str], list[str]]]:
    """Cells with a `no` where no first-party source says `no`.

    Returns (system, capability, sources saying no, first-party readings as source=level).
    """
    sources = _yaml.load(seed / "sources.yaml")
    cells: dict[tuple[str, str], list[tuple[str, str]]] = defaultdict(list)
    for path in sorted((seed / "claims").glob("*.yaml")):
        for system, caps in (_yaml.load(path) or {}).items():
            for cap, value in (caps or {}).items():
                cells[(system, cap)].append((path.stem, level_of(value)))
    found = []
    for (system, cap), claims in sorted(cells.items()):
        nos = [src for src, level in claims if level == "no"]
        if not nos or any(sources[src]["kind"] in FIRST_PARTY for src in nos):
            continue
        first = [
            f"{src}={level}"
            for src, level in claims
            if sources[src]["kind"] in FIRST_PARTY and level != "unknown"
        ]
        found.append((system, cap, nos, first))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=Path, default=Path(__file__).parent.parent / "seed")
    args = parser.parse_args()
    rows = article_only_nos(args.seed)
    for system, cap, nos, first in rows:
        print(f"{system:24} {cap:28} no: {','.join(nos):40} first-party: {' '.join(first) or '-'}")
    print(f"{len(rows)} cells")


if __name__ == "__main__":
    main()
