"""What a project's model registry at a tag says that seed/support/ does not.

    python -m scripts.registry_diff SYSTEM GIT_DIR TAG [--seed SEED_DIR]

For a maintainer keeping the models x systems data current: read SYSTEM's registry from a local
clone (GIT_DIR, bare is fine; nothing reaches the network) at TAG with the same readers and
parsers the seed rows were read with, and compare it with the rows of seed/support/ for SYSTEM:

  +  the registry lists an architecture the seed has no row for
  ~  the registry lists it, but the seed row says something else at TAG (no, via, unknown,
     a later `since`, or an `until` at or before TAG)
  -  the seed says it is served at TAG, but the registry does not list it (removed: set until)
  ?  a registry key with no Hugging Face class known (model_type registries: add it to
     seed/architectures.yaml or leave it)

Exit status 0 when nothing differs, 1 when something does, 2 on bad arguments. Rows the
registry cannot speak for (the Transformers fallback, docs-only systems) are left alone.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

from app.seeding.yamlio import read_yaml
from scripts.registries import readers
from scripts.registries.history import Registry
from scripts.registries.repo import Repo, version_key

SERVED = {"yes", "partial", "experimental"}
SEED_DIR = Path(__file__).resolve().parents[1] / "seed"


@dataclass(frozen=True)
class SeedRow:
    architecture: str
    level: str
    since: str | None
    until: str | None
    native: str | None
    scope: str | None
    note: str | None

    def served_at(self, tag: str) -> bool:
        started = self.since is None or version_key(self.since) <= version_key(tag)
        ended = self.until is not None and version_key(self.until) <= version_key(tag)
        return self.level in SERVED and started and not ended

    def registry_backed(self, system: str) -> bool:
        """Whether the registry speaks for this row at all."""
        if system == "ollama":  # the import registry speaks only for safetensors import
            words = f"{self.scope or ''} {self.note or ''}".lower()
            return "safetensors import" in words
        return "fallback" not in (self.scope or "").lower()


def seed_rows(seed_dir: Path, project: readers.Project) -> dict[str, SeedRow]:
    path = seed_dir / "support" / f"{project.support_file}.yaml"
    data = read_yaml(path) or {}
    return {
        arch: SeedRow(
            arch,
            str(row["level"]),
            None if row.get("since") is None else str(row["since"]),
            None if row.get("until") is None else str(row["until"]),
            row.get("native"),
            row.get("scope"),
            row.get("note"),
        )
        for arch, row in (data.get(project.system) or {}).items()
    }


def classes_of(
    key: str, project: readers.Project, rows: dict[str, SeedRow], seed_dir: Path
) -> list[str]:
    """The HF classes a registry key stands for: itself, or every class of a model_type (one
    mlx-lm module can serve several classes, as `hunyuan` serves the dense and MoE ones)."""
    if project.key_kind == "class":
        return [key]
    named = [
        row.architecture
        for row in rows.values()
        if row.native and key in {part.strip() for part in row.native.split(";")}
    ]
    if named:
        return named
    architectures = read_yaml(seed_dir / "architectures.yaml") or {}
    return [c for c, a in architectures.items() if a.get("model_type") == key]


def differences(
    project: readers.Project, registry: Registry, rows: dict[str, SeedRow], tag: str, seed_dir: Path
) -> tuple[list[str], int]:
    """The lines to print, and how many rows agree."""
    lines: list[str] = []
    listed: set[str] = set()
    agree = 0
    for key in sorted(registry, key=str.lower):
        archs = classes_of(key, project, rows, seed_dir)
        if not archs:
            lines.append(f"?  {key} ({registry[key]}): no Hugging Face class known")
        for arch in archs:
            listed.add(arch)
            row = rows.get(arch)
            if row is None:
                lines.append(f"+  {arch} ({registry[key]}): listed at {tag}, no seed row")
            elif row.registry_backed(project.system) and row.served_at(tag):
                agree += 1
            else:
                said = f"{row.level}" + (f" since {row.since}" if row.since else "")
                said += f" until {row.until}" if row.until else ""
                said += f" ({row.scope})" if row.scope else ""
                lines.append(f"~  {arch}: listed at {tag}, seed says {said}")
    for arch, row in sorted(rows.items()):
        if arch not in listed and row.registry_backed(project.system) and row.served_at(tag):
            lines.append(
                f"-  {arch}: seed says {row.level} since {row.since}, not listed at {tag}"
                " (removed? set until)"
            )
    return lines, agree


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="registry_diff", description=__doc__.split("\n")[0])
    parser.add_argument("system", choices=sorted(readers.PROJECTS))
    parser.add_argument("git_dir", help="a local clone of the project (bare is fine)")
    parser.add_argument("tag", help="the release tag (or commit) to read")
    parser.add_argument("--seed", type=Path, default=SEED_DIR, help="the seed folder to compare")
    args = parser.parse_args(argv)
    project = readers.PROJECTS[args.system]
    repo = Repo(args.git_dir)
    try:
        registry = project.registry_at(repo, args.tag)
    finally:
        repo.close()
    if registry is None:
        print(
            f"{args.system}: no registry readable at {args.tag} in {args.git_dir}", file=sys.stderr
        )
        return 2
    rows = seed_rows(args.seed, project)
    lines, agree = differences(project, registry, rows, args.tag, args.seed)
    print(
        f"# {args.system} at {args.tag}: {len(registry)} registry keys;"
        f" seed/support/{project.support_file}.yaml: {len(rows)} rows; {agree} agree"
    )
    print("\n".join(lines) if lines else "no differences")
    return 1 if lines else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
