"""Which files make up a seed folder, and which do not belong in it."""

from dataclasses import dataclass, field
from pathlib import Path

TOP_FILES = (
    "sources.yaml",
    "capabilities.yaml",
    "metrics.yaml",
    "hardware.yaml",
    "models.yaml",
    "workloads.yaml",
    "rules.yaml",
    "architectures.yaml",
)
# Top files a seed folder may leave out: a seed without model architectures is still whole
# (the fixture seeds of older tests, a team's first export).
OPTIONAL_FILES = ("architectures.yaml",)
# Written by `inference-atlas export` beside the seed files: the team's own data, which
# `inference-atlas import` restores (app/backup). Not published data, so seeding skips it.
BACKUP_FILES = ("team.json",)
FOLDERS = {"systems": ".yaml", "claims": ".yaml", "benchmarks": ".csv", "support": ".yaml"}
# A seed folder has no systems without this one; claims/, benchmarks/ and support/ may be absent
# because git cannot keep an empty folder, and "no claims yet" is a real state.
REQUIRED_FOLDERS = ("systems",)
# How to write an intentionally empty file, where one makes sense.
EMPTY_FORMS = {
    "rules.yaml": "write {} for no rules",
    "claims": "write {} for no claims",
    "support": "write {} for no support rows",
}


@dataclass
class Layout:
    """The data files in each sub-folder (sorted), and (path, message) for what is wrong."""

    files: dict[str, list[Path]] = field(default_factory=dict)
    problems: list[tuple[Path, str]] = field(default_factory=list)


def survey(root: Path) -> Layout:
    """List the seed folder; anything the loader would silently skip is a problem."""
    layout = Layout({name: [] for name in FOLDERS})
    allowed = ", ".join(
        [*TOP_FILES, *(f"{name}/" for name in FOLDERS), *BACKUP_FILES, "*.md notes"]
    )
    for path in _visible(root):
        if path.is_dir() and path.name in FOLDERS:
            continue
        known = path.name in TOP_FILES or path.name in BACKUP_FILES or path.suffix == ".md"
        if not (path.is_file() and known):
            kind = "folder" if path.is_dir() else "file"
            layout.problems.append((path, f"unexpected {kind} {path.name!r}; allowed: {allowed}"))
    for name, suffix in FOLDERS.items():
        layout.files[name] = _folder(root / name, suffix, layout.problems)
    return layout


def empty_form_hint(root: Path, path: Path) -> str:
    """'; write {} for no rules' where a file may hold nothing on purpose, else ''."""
    # A missing or empty file is far more often a slip (a failed save, a bad merge) than
    # a wish to delete everything it held, so "nothing" must be written out explicitly.
    hint = EMPTY_FORMS.get(path.name if path.parent == root else path.parent.name)
    return f"; {hint}" if hint else ""


def _folder(folder: Path, suffix: str, problems: list[tuple[Path, str]]) -> list[Path]:
    if not folder.is_dir():
        if folder.name in REQUIRED_FOLDERS:
            message = f"folder is missing; it must hold the {folder.name} as <slug>{suffix} files"
            problems.append((folder, message))
        return []
    files = []
    for path in _visible(folder):
        if path.is_file() and path.suffix == suffix:
            files.append(path)
        else:
            kind = "folder" if path.is_dir() else "file"
            allowed = f"{folder.name}/ holds only <slug>{suffix} files"
            problems.append((path, f"unexpected {kind} {path.name!r}; allowed: {allowed}"))
    return files


def _visible(folder: Path) -> list[Path]:
    # Dotfiles are what the OS and editors leave behind (.DS_Store, .vllm.yaml.swp): never
    # seed data, invisible in most file browsers, so reporting them would only puzzle people.
    return sorted(p for p in folder.iterdir() if not p.name.startswith("."))
