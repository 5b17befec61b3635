"""Read and validate every seed file; nothing here touches the database."""

from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from app.decision.questions import QUESTIONS_BY_ID
from app.seeding.errors import SeedError, SeedProblem, describe_error
from app.seeding.layout import Layout, empty_form_hint, survey
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


def load_seed(seed_dir: Path) -> SeedData:
    """Read and validate seed_dir; raise SeedError listing every problem found."""
    reader = _Reader(seed_dir)
    data = reader.read_all()
    if reader.problems:
        raise SeedError(reader.problems)
    return data


class _Reader:
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

    # -- files ------------------------------------------------------------
    def read_all(self) -> SeedData:
        if not self.root.is_dir():
            self.problems.append(SeedProblem(str(self.root), None, "", "seed folder not found"))
            return self.data
        self.layout = survey(self.root)
        for path, message in self.layout.problems:
            self.problem(path, None, "", message)
        self.read_sources()
        self.read_capabilities()
        self.read_metrics()
        if self.problems:
            # Everything else refers to these vocabularies; checking it now would bury
            # the real problem under hundreds of follow-on "unknown source" errors.
            return self.data
        self.read_architectures()  # before the models, which name its classes
        self.read_vocabularies()
        self.read_systems()
        self.read_claims()
        self.read_support()
        self.read_benchmarks()
        self.read_rules()
        return self.data

    def read_sources(self) -> None:
        path = self.root / "sources.yaml"
        raw = self.read(path)
        from app.seeding.checks import check_source_entry

        sources = self.keyed_entries(SourceEntry, raw, path, raw)
        for slug, source in sources.items():
            check_source_entry(self, path, raw, slug, source)
        self.data.sources = sources

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

    def read_architectures(self) -> None:
        from app.seeding.support import read_architectures

        read_architectures(self)

    def read_support(self) -> None:
        from app.seeding.support import read_support_file

        for path in self.layout.files["support"]:
            rows = read_support_file(self, path)
            if rows is not None:
                self.data.support[path.stem] = rows

    def read_vocabularies(self) -> None:
        from app.seeding.entries import read_vocabularies

        read_vocabularies(self)

    def read_systems(self) -> None:
        from app.seeding.checks import check_system

        for path in self.layout.files["systems"]:
            slug = path.stem
            if not is_slug(slug):
                msg = f"file name is not a valid system slug; allowed: {SLUG_RULE}"
                self.problem(path, None, "", msg)
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

        for path in self.layout.files["claims"]:
            raw = self.read(path)
            if raw is None:
                continue
            claims = check_claims(self, path, raw)
            if claims is not None:
                self.data.claims[path.stem] = claims

    def read_benchmarks(self) -> None:
        from app.seeding.benchmarks import read_benchmark_file

        seen: dict[str, str] = {}
        for path in self.layout.files["benchmarks"]:
            if path.stem not in self.data.sources:
                self.problem(path, None, "", self._unknown_source_file(path.stem))
                continue
            rows = read_benchmark_file(self, path, seen)
            if rows is not None:
                self.data.benchmarks[path.stem] = rows

    def read_rules(self) -> None:
        path = self.root / "rules.yaml"
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
