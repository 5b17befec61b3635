"""Read and validate every seed file; nothing here touches the database."""

from pathlib import Path
from typing import Any

from app.decision.questions import QUESTIONS_BY_ID
from app.seeding.benchmarks import read_benchmark_file
from app.seeding.checks import check_claims, check_source_entry, check_system
from app.seeding.entries import read_vocabularies as read_vocabulary_files
from app.seeding.errors import SeedError, SeedProblem
from app.seeding.layout import survey
from app.seeding.reader import SeedData, SeedReader
from app.seeding.schema import (
    SLUG_RULE,
    CapabilityEntry,
    CategoryEntry,
    MetricEntry,
    RuleEntry,
    SourceEntry,
    SystemFile,
    is_slug,
)
from app.seeding.support import read_architectures, read_support_file
from app.seeding.yamlio import line_of


def load_seed(seed_dir: Path) -> SeedData:
    """Read and validate seed_dir; raise SeedError listing every problem found."""
    reader = _Reader(seed_dir)
    data = reader.read_all()
    if reader.problems:
        raise SeedError(reader.problems)
    return data


class _Reader(SeedReader):
    """Reads every seed file in order, each through its own check."""

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
        read_architectures(self)

    def read_support(self) -> None:
        for path in self.layout.files["support"]:
            rows = read_support_file(self, path)
            if rows is not None:
                self.data.support[path.stem] = rows

    def read_vocabularies(self) -> None:
        read_vocabulary_files(self)

    def read_systems(self) -> None:
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
        for path in self.layout.files["claims"]:
            raw = self.read(path)
            if raw is None:
                continue
            claims = check_claims(self, path, raw)
            if claims is not None:
                self.data.claims[path.stem] = claims

    def read_benchmarks(self) -> None:
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
                line = line_of(raw, (slug, "requires", key, "alternatives"))
                for other in test.alternatives:
                    self.check_ref(path, line, slug, "capability", other)
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

    def _unknown_source_file(self, stem: str) -> str:
        return f"file name {stem!r} is not a source slug in sources.yaml"
