"""Read and validate every seed file; nothing here touches the database."""

import csv
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from app.decision.questions import QUESTIONS_BY_ID
from app.seeding.errors import SeedError, SeedProblem
from app.seeding.schema import (
    BENCHMARK_COLUMNS,
    SLUG_PATTERN,
    BenchmarkRow,
    CapabilityEntry,
    CategoryEntry,
    ClaimEntry,
    MetricEntry,
    RuleEntry,
    SourceEntry,
    SystemFile,
)
from app.seeding.yamlio import YamlSyntaxError, line_of, read_yaml

M = TypeVar("M", bound=BaseModel)


@dataclass
class SeedData:
    """Everything in seed/, validated, in file order."""

    sources: dict[str, SourceEntry] = field(default_factory=dict)
    categories: dict[str, CategoryEntry] = field(default_factory=dict)
    capabilities: dict[str, CapabilityEntry] = field(default_factory=dict)
    metrics: dict[str, MetricEntry] = field(default_factory=dict)
    systems: dict[str, SystemFile] = field(default_factory=dict)
    claims: dict[str, dict[str, dict[str, ClaimEntry]]] = field(default_factory=dict)
    benchmarks: dict[str, list[BenchmarkRow]] = field(default_factory=dict)
    rules: dict[str, RuleEntry] = field(default_factory=dict)


def load_seed(seed_dir: Path) -> SeedData:
    """Read and validate seed_dir; raise SeedError listing every problem found."""
    reader = _Reader(seed_dir)
    data = reader.read_all()
    if reader.problems:
        raise SeedError(reader.problems)
    return data


def _describe(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


class _Reader:
    def __init__(self, seed_dir: Path) -> None:
        self.root = seed_dir
        self.problems: list[SeedProblem] = []
        self.data = SeedData()

    # -- plumbing ---------------------------------------------------------
    def problem(self, file: Path, line: int | None, where: str, message: str) -> None:
        name = (
            file.relative_to(self.root).as_posix() if file.is_relative_to(self.root) else str(file)
        )
        self.problems.append(SeedProblem(name, line, where, message))

    def read(self, path: Path) -> Any:
        if not path.exists():
            self.problem(path, None, "", "file is missing")
            return None
        try:
            return read_yaml(path)
        except YamlSyntaxError as exc:
            self.problem(path, exc.line, "", f"not valid YAML: {exc}")
            return None

    def validate(
        self, model: type[M], raw: Any, path: Path, node: Any, where: tuple[Any, ...]
    ) -> M | None:
        try:
            return model.model_validate(raw)
        except ValidationError as exc:
            for err in exc.errors():
                loc = tuple(err["loc"])
                field_name = ".".join(str(p) for p in loc) or "(entry)"
                got = "" if err["type"] == "missing" else f" (got {_describe(err['input'])})"
                label = ".".join(str(p) for p in where)
                line = line_of(node, where + loc)
                self.problem(path, line, label, f"field '{field_name}': {err['msg']}{got}")
            return None

    def keyed_entries(
        self, model: type[M], raw: Any, path: Path, root: Any, prefix: tuple[str, ...] = ()
    ) -> dict[str, M]:
        """Validate a mapping of slug -> entry found at `prefix` inside `root`."""
        if raw is None:
            return {}
        if not isinstance(raw, dict):
            self.problem(path, 1, "", "expected a mapping of slug to entry")
            return {}
        out: dict[str, M] = {}
        for key, value in raw.items():
            where = (*prefix, key)
            if not isinstance(key, str) or not re.match(SLUG_PATTERN, key):
                msg = "is not a valid slug (lower-case letters, digits and dashes)"
                self.problem(path, line_of(root, where), str(key), msg)
                continue
            entry = self.validate(model, value, path, root, where)
            if entry is not None:
                out[key] = entry
        return out

    # -- files ------------------------------------------------------------
    def read_all(self) -> SeedData:
        self.read_sources()
        self.read_capabilities()
        self.read_metrics()
        if self.problems:
            # Everything else refers to these vocabularies; checking it now would bury
            # the real problem under hundreds of follow-on "unknown source" errors.
            return self.data
        self.read_systems()
        self.read_claims()
        self.read_benchmarks()
        self.read_rules()
        return self.data

    def read_sources(self) -> None:
        path = self.root / "sources.yaml"
        raw = self.read(path)
        self.data.sources = self.keyed_entries(SourceEntry, raw, path, raw)

    def read_capabilities(self) -> None:
        path = self.root / "capabilities.yaml"
        raw = self.read(path)
        if raw is None:
            return
        if not isinstance(raw, dict) or set(raw) != {"categories", "capabilities"}:
            self.problem(path, 1, "", "expected exactly two keys: categories and capabilities")
            return
        self.data.categories = self.keyed_entries(
            CategoryEntry, raw["categories"], path, raw, ("categories",)
        )
        caps = self.keyed_entries(
            CapabilityEntry, raw["capabilities"], path, raw, ("capabilities",)
        )
        for slug, cap in caps.items():
            if cap.category not in self.data.categories:
                line = line_of(raw, ("capabilities", slug, "category"))
                allowed = ", ".join(self.data.categories)
                msg = f"field 'category': unknown category {cap.category!r}; allowed: {allowed}"
                self.problem(path, line, f"capabilities.{slug}", msg)
            else:
                self.data.capabilities[slug] = cap

    def read_metrics(self) -> None:
        path = self.root / "metrics.yaml"
        raw = self.read(path)
        self.data.metrics = self.keyed_entries(MetricEntry, raw, path, raw)

    def read_systems(self) -> None:
        from app.seeding.checks import check_system

        for path in sorted((self.root / "systems").glob("*.yaml")):
            slug = path.stem
            if not re.match(SLUG_PATTERN, slug):
                self.problem(path, None, "", f"file name {slug!r} is not a valid system slug")
                continue
            raw = self.read(path)
            if raw is None:
                continue
            system = self.validate(SystemFile, raw, path, raw, ())
            if system is not None:
                check_system(self, path, raw, slug, system)
                self.data.systems[slug] = system

    def read_claims(self) -> None:
        from app.seeding.checks import check_claims

        for path in sorted((self.root / "claims").glob("*.yaml")):
            raw = self.read(path)
            if raw is None:
                continue
            claims = check_claims(self, path, raw)
            if claims is not None:
                self.data.claims[path.stem] = claims

    def read_benchmarks(self) -> None:
        from app.seeding.checks import check_benchmark

        seen: dict[str, str] = {}
        for path in sorted((self.root / "benchmarks").glob("*.csv")):
            if path.stem not in self.data.sources:
                self.problem(path, None, "", self._unknown_source_file(path.stem))
                continue
            rows: list[BenchmarkRow] = []
            with path.open(newline="", encoding="utf-8") as handle:
                reader = csv.DictReader(handle)
                if tuple(reader.fieldnames or ()) != BENCHMARK_COLUMNS:
                    expected = ",".join(BENCHMARK_COLUMNS)
                    self.problem(path, 1, "header", f"columns must be exactly: {expected}")
                    continue
                for record in reader:
                    line = reader.line_num
                    if None in record:
                        self.problem(path, line, f"row {line}", "more cells than columns")
                        continue
                    row = self._benchmark_row(path, line, record)
                    if row and check_benchmark(self, path, line, row, seen):
                        rows.append(row)
            self.data.benchmarks[path.stem] = rows

    def _benchmark_row(self, path: Path, line: int, record: dict[str, str]) -> BenchmarkRow | None:
        try:
            return BenchmarkRow.model_validate(record)
        except ValidationError as exc:
            for err in exc.errors():
                column = ".".join(str(p) for p in err["loc"])
                msg = f"column '{column}': {err['msg']} (got {_describe(err['input'])})"
                self.problem(path, line, f"row {line}", msg)
            return None

    def read_rules(self) -> None:
        path = self.root / "rules.yaml"
        if not path.exists():
            return
        raw = self.read(path)
        rules = self.keyed_entries(RuleEntry, raw, path, raw)
        for slug, rule in rules.items():
            self._check_rule(path, raw, slug, rule)
        self.data.rules = rules

    def _check_rule(self, path: Path, raw: Any, slug: str, rule: RuleEntry) -> None:
        self.check_source(path, line_of(raw, (slug, "source")), slug, rule.source)
        if bool(rule.systems) == bool(rule.requires):
            msg = "give either 'systems' or 'requires' (having, lacking or licence), not both"
            self.problem(path, line_of(raw, (slug,)), slug, msg)
        for key in ("having", "lacking"):
            test = getattr(rule.requires, key, None) if rule.requires else None
            if test is not None:
                line = line_of(raw, (slug, "requires", key, "capability"))
                self.check_ref(path, line, slug, "capability", test.capability)
        if rule.rests_on is not None:
            line = line_of(raw, (slug, "rests_on", "capability"))
            self.check_ref(path, line, slug, "capability", rule.rests_on.capability)
        for system in rule.systems:
            self.check_ref(path, line_of(raw, (slug, "systems")), slug, "system", system)
        for question_id, options in rule.when.items():
            question = QUESTIONS_BY_ID.get(question_id)
            line = line_of(raw, (slug, "when", question_id))
            if question is None:
                allowed = ", ".join(QUESTIONS_BY_ID)
                self.problem(
                    path, line, slug, f"unknown question {question_id!r}; allowed: {allowed}"
                )
                continue
            for option in options:
                if option not in question.option_ids():
                    allowed = ", ".join(question.option_ids())
                    msg = f"unknown option {option!r} for {question_id}; allowed: {allowed}"
                    self.problem(path, line, slug, msg)

    # -- cross-references -------------------------------------------------
    def _unknown_source_file(self, stem: str) -> str:
        return f"file name {stem!r} is not a source slug in sources.yaml"

    def check_source(self, path: Path, line: int | None, where: str, slug: str) -> bool:
        if slug in self.data.sources:
            return True
        self.problem(path, line, where, f"unknown source {slug!r} (not in sources.yaml)")
        return False

    def check_ref(self, path: Path, line: int | None, where: str, kind: str, slug: str) -> bool:
        """Check a reference to a system, capability or metric by slug."""
        table: dict[str, Any] = {
            "system": self.system_slugs(),
            "capability": self.data.capabilities,
            "metric": self.data.metrics,
        }[kind]
        if slug in table:
            return True
        self.problem(path, line, where, f"unknown {kind} {slug!r}{self._hint(slug, table)}")
        return False

    def system_slugs(self) -> set[str]:
        return {p.stem for p in (self.root / "systems").glob("*.yaml")}

    @staticmethod
    def _hint(slug: str, known: Any) -> str:
        import difflib

        close = difflib.get_close_matches(slug, list(known), n=3)
        return f"; did you mean {', '.join(close)}?" if close else ""
