"""What reading the seed files shares: the validated data so far (`SeedData`) and the reader
that collects problems and checks references (`SeedReader`).

Apart from load.py so that the per-file checks (checks.py, entries.py, benchmarks.py) can be
handed a reader without importing the module that calls them."""

from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from app.seeding.errors import SeedProblem, describe_error
from app.seeding.layout import Layout, empty_form_hint
from app.seeding.schema import (
    SLUG_RULE,
    ArchitectureEntry,
    BenchmarkRow,
    CapabilityEntry,
    CategoryEntry,
    ClaimEntry,
    HardwareEntry,
    MetricEntry,
    ModelEntry,
    RuleEntry,
    SourceEntry,
    SupportEntry,
    SystemFile,
    WorkloadEntry,
    is_slug,
)
from app.seeding.yamlio import (
    UnreadableFileError,
    YamlSyntaxError,
    line_of,
    read_yaml,
    shape_problems,
)
from app.vocabulary.names import Names

M = TypeVar("M", bound=BaseModel)


@dataclass
class SeedData:
    """Everything in seed/, validated, in file order."""

    sources: dict[str, SourceEntry] = field(default_factory=dict)
    categories: dict[str, CategoryEntry] = field(default_factory=dict)
    capabilities: dict[str, CapabilityEntry] = field(default_factory=dict)
    metrics: dict[str, MetricEntry] = field(default_factory=dict)
    hardware: dict[str, HardwareEntry] = field(default_factory=dict)
    models: dict[str, ModelEntry] = field(default_factory=dict)
    workloads: dict[str, WorkloadEntry] = field(default_factory=dict)
    names: dict[str, Names] = field(default_factory=dict)  # kind -> every name of its entries
    systems: dict[str, SystemFile] = field(default_factory=dict)
    claims: dict[str, dict[str, dict[str, ClaimEntry | list[ClaimEntry]]]] = field(
        default_factory=dict
    )  # a list when the source gives several readings of one cell
    benchmarks: dict[str, list[BenchmarkRow]] = field(default_factory=dict)
    rules: dict[str, RuleEntry] = field(default_factory=dict)
    # Hugging Face class -> entry (architectures.yaml; empty when the file is absent).
    architectures: dict[str, ArchitectureEntry] = field(default_factory=dict)
    # source -> system -> Hugging Face class -> row (support/<source>.yaml)
    support: dict[str, dict[str, dict[str, SupportEntry]]] = field(default_factory=dict)


class SeedReader:
    """Collects every problem found while reading seed files, and checks references between
    them; load.py's reader reads each file through it, and the checks in checks.py,
    entries.py and benchmarks.py are handed it."""

    def __init__(self, seed_dir: Path) -> None:
        self.root = seed_dir
        self.problems: list[SeedProblem] = []
        self.data = SeedData()
        self.layout = Layout()
        # Every class architectures.yaml names, valid entry or not: a broken entry is
        # reported once, not again by each model naming its class.
        self.architecture_keys: set[str] = set()

    # -- plumbing ---------------------------------------------------------
    def problem(self, file: Path, line: int | None, where: str, message: str) -> None:
        name = (
            file.relative_to(self.root).as_posix() if file.is_relative_to(self.root) else str(file)
        )
        self.problems.append(SeedProblem(name, line, where, message))

    def read(self, path: Path) -> Any:
        """The file's YAML document, or None once every problem with it is reported."""
        if not path.is_file():
            self.problem(path, None, "", "file is missing" + empty_form_hint(self.root, path))
            return None
        try:
            raw = read_yaml(path)
        except UnreadableFileError as exc:
            prefix = "not valid YAML: " if isinstance(exc, YamlSyntaxError) else ""
            self.problem(path, exc.line, "", f"{prefix}{exc}")
            return None
        if raw is None:
            msg = "file is empty (no data, only blank lines or comments)"
            self.problem(path, 1, "", msg + empty_form_hint(self.root, path))
            return None
        return raw if self._well_shaped(path, raw) else None

    def _well_shaped(self, path: Path, raw: Any) -> bool:
        """Keys are text and nothing is shared through YAML aliases; report what is not."""
        found = shape_problems(raw)
        for where, line, message in found:
            self.problem(path, line, ".".join(str(p) for p in where), message)
        return not found

    def validate(
        self, model: type[M], raw: Any, path: Path, node: Any, where: tuple[Any, ...]
    ) -> M | None:
        try:
            return model.model_validate(raw)
        except ValidationError as exc:
            for err in exc.errors():
                loc = tuple(err["loc"])
                field_name = ".".join(str(p) for p in loc) or "(entry)"
                label = ".".join(str(p) for p in where)
                line = line_of(node, where + loc)
                self.problem(path, line, label, f"field '{field_name}': {describe_error(err)}")
            return None

    def keyed_entries(
        self,
        model: type[M],
        raw: Any,
        path: Path,
        root: Any,
        prefix: tuple[str, ...] = (),
        key_rule: tuple[Callable[[str], bool], str] = (is_slug, SLUG_RULE),
    ) -> dict[str, M]:
        """Validate a mapping of slug (or what `key_rule` allows) -> entry at `prefix`."""
        if raw is None:
            return {}
        if not isinstance(raw, dict):
            self.problem(path, 1, "", "expected a mapping of slug to entry")
            return {}
        out: dict[str, M] = {}
        for key, value in raw.items():
            where = (*prefix, key)
            check, rule = key_rule
            if not check(key):
                msg = f"is not a valid {'slug' if check is is_slug else 'key'}; allowed: {rule}"
                self.problem(path, line_of(root, where), str(key), msg)
                continue
            entry = self.validate(model, value, path, root, where)
            if entry is not None:
                out[key] = entry
        return out

    # -- cross-references -------------------------------------------------
    def check_source(self, path: Path, line: int | None, where: str, slug: str) -> bool:
        if slug in self.data.sources:
            return True
        self.problem(path, line, where, f"unknown source {slug!r} (not in sources.yaml)")
        return False

    def check_ref(self, path: Path, line: int | None, where: str, kind: str, slug: str) -> bool:
        """Check a reference to a system, capability, metric, model (by slug) or
        architecture (by Hugging Face class)."""
        table: Collection[str] = {
            "system": self.system_slugs(),
            "capability": self.data.capabilities,
            "metric": self.data.metrics,
            "model": self.data.models,
            "architecture": self.architecture_keys,
        }[kind]
        if slug in table:
            return True
        self.problem(path, line, where, f"unknown {kind} {slug!r}{self._hint(kind, slug, table)}")
        return False

    def system_slugs(self) -> set[str]:
        # Every system file counts, valid or not, so one broken file is reported once
        # rather than again by every claim and figure that names the system.
        return {p.stem for p in self.layout.files["systems"]}

    @staticmethod
    def _hint(kind: str, slug: str, known: Collection[str]) -> str:
        close = Names.of(kind, ((other, ()) for other in known)).suggest(slug)
        return f"; did you mean {', '.join(close)}?" if close else ""
