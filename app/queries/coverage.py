"""Coverage: for each system, the share of feature cells and of hardware cells some source
answers (issue 21). Shown on /sources and each system page, printed by `inference-atlas check`.

A cell is *answered* when a current claim on it says more than `unknown` (yes, partial,
experimental, via or no); a cell only "unknown" claims speak to, or none, is not. The same
count is made from the seed files (check, before any database) and from the database (pages).
"""

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from pydantic import BaseModel
from sqlmodel import Session

from app.data_version.version import per_version
from app.queries.cells import NO_CLAIM

if TYPE_CHECKING:
    from app.seeding.reader import SeedData

# The share of a view's cells the Atlas aims to answer: for the systems most readers compare,
# and for every system overall (issue 21, "Coverage").
TARGET_SYSTEMS = (
    "vllm",
    "sglang",
    "llama-cpp",
    "ollama",
    "tensorrt-llm",
    "tgi",
    "lmdeploy",
    "mlc-llm",
    "lm-studio",
    "exllamav2",
    "localai",
)
TARGET_SYSTEM_SHARE = 0.95
TARGET_OVERALL_SHARE = 0.80
VIEWS = ("feature", "hardware")


class ViewCoverage(BaseModel):
    answered: int
    total: int

    @property
    def share(self) -> float:
        return self.answered / self.total if self.total else 0.0

    @property
    def percent(self) -> int:
        """Rounded down, so 94.9 % never reads as meeting a 95 % target."""
        return self.answered * 100 // self.total if self.total else 0


class SystemCoverage(BaseModel):
    system: str
    name: str
    feature: ViewCoverage
    hardware: ViewCoverage

    @property
    def target(self) -> float:
        return TARGET_SYSTEM_SHARE if self.system in TARGET_SYSTEMS else TARGET_OVERALL_SHARE

    @property
    def short_of_target(self) -> bool:
        return any(getattr(self, v).share < self.target for v in VIEWS)


class Coverage(BaseModel):
    systems: list[SystemCoverage]  # by name
    feature: ViewCoverage  # every system's cells together
    hardware: ViewCoverage

    def of(self, system: str) -> SystemCoverage | None:
        return next((s for s in self.systems if s.system == system), None)


def count_coverage(
    systems: Iterable[tuple[str, str]],
    capabilities: Mapping[str, str],
    answered: set[tuple[str, str]],
) -> Coverage:
    """systems: (slug, name); capabilities: slug -> "feature" or "hardware"; answered: the
    (system, capability) cells some current claim answers."""
    totals = {v: sum(1 for kind in capabilities.values() if kind == v) for v in VIEWS}
    rows = []
    for slug, name in sorted(systems, key=lambda s: s[1].lower()):
        counts = {
            v: ViewCoverage(
                answered=sum(
                    1 for c, kind in capabilities.items() if kind == v and (slug, c) in answered
                ),
                total=totals[v],
            )
            for v in VIEWS
        }
        rows.append(SystemCoverage(system=slug, name=name, **counts))
    overall = {
        v: ViewCoverage(
            answered=sum(getattr(r, v).answered for r in rows),
            total=sum(getattr(r, v).total for r in rows),
        )
        for v in VIEWS
    }
    return Coverage(systems=rows, **overall)


@per_version(max_entries=1)
def database_coverage(session: Session) -> Coverage:
    """Coverage of the published and team data the session sees (the matrix's cells)."""
    from app.queries.matrix_data import matrix_base

    base = matrix_base(session)
    kinds = {
        c.slug: "feature" if view == "features" else "hardware"
        for view, groups in base.groups.items()
        for g in groups
        for c in g.columns
    }
    answered = {key for key, cell in base.cells.items() if cell.level not in (NO_CLAIM, "unknown")}
    return count_coverage(((s.slug, s.name) for s in base.systems), kinds, answered)


def seed_coverage(data: "SeedData") -> Coverage:
    """Coverage of the seed files alone (no database): what `check` prints."""
    kinds = {slug: data.categories[c.category].kind for slug, c in data.capabilities.items()}
    answered = {
        (system, capability)
        for by_system in data.claims.values()
        for system, by_capability in by_system.items()
        for capability, entries in by_capability.items()
        if any(e.level != "unknown" for e in (entries if isinstance(entries, list) else [entries]))
    }
    return count_coverage(((slug, s.name) for slug, s in data.systems.items()), kinds, answered)


def report_lines(coverage: Coverage) -> list[str]:
    """The coverage as `inference-atlas check` prints it: one line per system, then totals."""
    width = max((len(s.name) for s in coverage.systems), default=6)
    lines = [
        f"Coverage: cells a source answers (target {TARGET_OVERALL_SHARE:.0%} overall, "
        f"{TARGET_SYSTEM_SHARE:.0%} for {', '.join(TARGET_SYSTEMS)})",
        f"  {'system':<{width}}  features        hardware",
    ]
    for s in coverage.systems:
        mark = "  below target" if s.short_of_target else ""
        lines.append(f"  {s.name:<{width}}  {_cells(s.feature)}  {_cells(s.hardware)}{mark}")
    lines.append(
        f"  {'all systems':<{width}}  {_cells(coverage.feature)}  {_cells(coverage.hardware)}"
    )
    return lines


def _cells(view: ViewCoverage) -> str:
    return f"{view.answered:>4}/{view.total:<4} {view.percent:>3}%"
