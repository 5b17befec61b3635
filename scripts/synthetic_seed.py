"""Write a synthetic seed folder N times the real one (systems, claims, benchmarks), for benchmarks.

python scripts/synthetic_seed.py --factor 10 OUT_DIR
"""

import argparse
import copy as copy_module
import csv
import io
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.seeding.yamlio import dump_yaml, read_yaml

ROOT = Path(__file__).resolve().parent.parent


def clone_slug(slug: str, copy: int) -> str:
    return f"{slug}-x{copy}"


def write_synthetic(out: Path, factor: int, source: Path = ROOT / "seed") -> None:
    """Copy `source` to `out`, then add factor-1 clones of every system with all its data."""
    shutil.copytree(source, out, dirs_exist_ok=True)
    systems = sorted(p.stem for p in (source / "systems").glob("*.yaml"))
    for copy in range(1, factor):
        for slug in systems:
            data = read_yaml(source / "systems" / f"{slug}.yaml")
            data["name"] = f"{data['name']} (copy {copy})"
            (out / "systems" / f"{clone_slug(slug, copy)}.yaml").write_text(dump_yaml(data))
    for path in (out / "claims").glob("*.yaml"):
        claims = read_yaml(path)
        for slug in list(claims):
            for copy in range(1, factor):
                # A copy, not the same object: shared objects are written as YAML aliases.
                claims[clone_slug(slug, copy)] = copy_module.deepcopy(claims[slug])
        path.write_text(dump_yaml(claims))
    for path in (out / "benchmarks").glob("*.csv"):
        rows = list(csv.DictReader(path.open()))
        header = list(rows[0]) if rows else []
        clones = [
            {**row, "id": clone_slug(row["id"], copy), "system": clone_slug(row["system"], copy)}
            for copy in range(1, factor)
            for row in rows
        ]
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, header, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows + clones)
        path.write_text(buffer.getvalue())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out", type=Path)
    parser.add_argument("--factor", type=int, default=10)
    args = parser.parse_args()
    write_synthetic(args.out, args.factor)
    print(f"Wrote a {args.factor}x seed folder to {args.out}")


if __name__ == "__main__":
    main()
