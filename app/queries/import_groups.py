"""Imported results gathered per import: one group per result file, not a row per metric per
load. Published figures and hand-entered team results are left as rows.

An import's results share a source of their own, `import-<key>` (app/writes/imports.py), so
the results already say which file they came from; nothing here reads the database.
"""

from dataclasses import dataclass

from app.schemas import BenchmarkView, RevisionView
from app.text import number

IMPORT_PREFIX = "import-"
# The figure a group's one line gives, first found first: what a reader of a sweep looks for.
HEADLINE_METRICS = (
    "throughput",
    "total-token-throughput",
    "decode-throughput",
    "prompt-throughput",
    "request-throughput",
)


@dataclass(frozen=True)
class ImportGroup:
    key: str  # the import's key: /imports/<key>
    source: str  # its source slug, import-<key>: /benchmarks?source=<source>
    file_name: str
    title: str  # the source's title: tool, file, who imported it and when
    system: str
    system_name: str
    setups: list[str]  # "1× NVIDIA H100 · Llama 3.1 8B FP8 · chat 1k/1k · vLLM 0.11.2"
    loads: list[int]  # the concurrencies measured, ascending
    headline: str  # "Output throughput 120–3,400 tok/s"
    results: int  # how many rows the group stands for
    metrics: int
    withdrawn: bool

    @property
    def loads_text(self) -> str:
        """'c=1, 4, 16, 64' (or 'load not stated')."""
        if not self.loads:
            return "load not stated"
        return "c=" + ", ".join(str(c) for c in self.loads)


def is_imported(result: BenchmarkView) -> bool:
    return result.source.slug.startswith(IMPORT_PREFIX)


def split_imports(
    results: list[BenchmarkView], expanded: frozenset[str] = frozenset()
) -> tuple[list[BenchmarkView], list[ImportGroup]]:
    """The rows to list as they are, and one group per import (in first-seen order). Imports
    whose source slug is in `expanded` (a reader asked for that file) stay as rows."""
    rows: list[BenchmarkView] = []
    grouped: dict[str, list[BenchmarkView]] = {}
    for r in results:
        if is_imported(r) and r.source.slug not in expanded:
            grouped.setdefault(r.source.slug, []).append(r)
        else:
            rows.append(r)
    return rows, [_group(slug, members) for slug, members in grouped.items()]


def _group(slug: str, members: list[BenchmarkView]) -> ImportGroup:
    first = members[0]
    setups = list(dict.fromkeys(_setup(r) for r in members))
    return ImportGroup(
        key=slug.removeprefix(IMPORT_PREFIX),
        source=slug,
        file_name=first.source.short,
        title=first.source.title,
        system=first.system,
        system_name=first.system_name,
        setups=setups,
        loads=sorted({r.concurrency for r in members if r.concurrency is not None}),
        headline=_headline(members),
        results=len(members),
        metrics=len({r.metric for r in members}),
        withdrawn=all(r.withdrawn for r in members),
    )


@dataclass(frozen=True)
class RunGroup:
    """One run of an imported file whose every figure a reader asked for: its figures fold
    under one line, so a file of four runs is four entries rather than 64 rows."""

    source: str  # import-<key>
    file_name: str
    number: int  # 1-based place in the file
    location: str  # "line 3", "benchmarks[4]"; empty when not known
    setup: str
    load: str  # "c=16" or "load not stated"
    headline: str
    rows: list[BenchmarkView]

    @property
    def anchor(self) -> str:
        return f"{self.source}-run-{self.number}"


def split_runs(
    rows: list[BenchmarkView], places: dict[int, tuple[int, str]]
) -> tuple[list[BenchmarkView], list[RunGroup]]:
    """The rows left to list as they are, and one group per run of each imported file (file
    by file in first-seen order, runs in file order). `places`: run id -> (0-based place in
    its file, where in the file), from app/queries/imports.run_places."""
    kept: list[BenchmarkView] = []
    runs: dict[tuple[str, int], list[BenchmarkView]] = {}
    for r in rows:
        if is_imported(r) and r.import_run_id is not None:
            runs.setdefault((r.source.slug, r.import_run_id), []).append(r)
        else:
            kept.append(r)
    files = list(dict.fromkeys(source for source, _ in runs))
    ordered = sorted(runs, key=lambda k: (files.index(k[0]), places.get(k[1], (k[1], ""))[0]))
    return kept, [
        _run(source, run_id, runs[(source, run_id)], places) for source, run_id in ordered
    ]


def _run(
    source: str, run_id: int, members: list[BenchmarkView], places: dict[int, tuple[int, str]]
) -> RunGroup:
    position, location = places.get(run_id, (None, ""))
    loads = sorted({r.concurrency for r in members if r.concurrency is not None})
    return RunGroup(
        source=source,
        file_name=members[0].source.short,
        number=(position if position is not None else run_id) + 1,
        location=location,
        setup=_setup(members[0]),
        load="c=" + ", ".join(str(c) for c in loads) if loads else "load not stated",
        headline=_headline(members),
        rows=members,
    )


def _setup(r: BenchmarkView) -> str:
    hardware = r.hardware_name or r.hardware_text or "hardware not stated"
    if r.gpus:
        hardware = f"{r.gpus}× {hardware}"
    model = r.model_name or r.model_text or "model not stated"
    if r.precision:
        model = f"{model} {r.precision}"
    parts = [hardware, model, r.workload_name or "workload not stated"]
    if r.system_version:
        parts.append(f"{r.system_name} {r.system_version}")
    return " · ".join(parts)


def _headline(members: list[BenchmarkView]) -> str:
    """The range of one figure across the file's runs: output throughput where it has it."""
    present = {r.metric for r in members if r.value is not None}
    metric = next((m for m in HEADLINE_METRICS if m in present), None)
    if metric is None:
        metric = next((r.metric for r in members if r.value is not None), None)
    if metric is None:
        return "no single figure"
    chosen = [r for r in members if r.metric == metric and r.value is not None]
    unit = chosen[0].unit
    values = [r.value for r in chosen if r.unit == unit and r.value is not None]
    low, high = _rounded(min(values)), _rounded(max(values))
    amount = low if low == high else f"{low}–{high}"
    return f"{chosen[0].metric_name} {amount} {unit}"


def _rounded(value: float) -> str:
    """Whole numbers from 100 up, one decimal below: a headline, not the file's precision."""
    return number(float(round(value)) if abs(value) >= 100 else round(value, 1))


@dataclass(frozen=True)
class ImportChange:
    """The history's one line for an import's saved figures: who, when, which file, how many."""

    source: str  # import-<key>
    first: RevisionView  # the newest of its revisions: its id, time and author
    figures: int


def collapse_imports(
    revisions: list[RevisionView], limit: int
) -> tuple[list[RevisionView | ImportChange], bool]:
    """The newest `limit` changes, an import's run of created figures counted as one; and
    whether more changes were left out."""
    out, last_used = collapse_page(revisions, limit)
    return out, last_used is not None


def collapse_page(
    revisions: list[RevisionView], limit: int
) -> tuple[list[RevisionView | ImportChange], int | None]:
    """As collapse_imports, with the id of the last revision used when some were left out
    (the next page starts before it), None when every revision given was used."""
    out: list[RevisionView | ImportChange] = []
    last_id: int | None = None
    for r in revisions:
        source = _imported_source(r)
        last = out[-1] if out else None
        if source and isinstance(last, ImportChange) and last.source == source:
            out[-1] = ImportChange(source, last.first, last.figures + 1)
            last_id = r.id
            continue
        if len(out) == limit:
            return out, last_id
        out.append(ImportChange(source, r, 1) if source else r)
        last_id = r.id
    return out, None


def _imported_source(r: RevisionView) -> str | None:
    """The import a change created a figure from (None for any other change)."""
    if r.entity != "benchmark_result" or r.action != "create" or not r.after:
        return None
    source = r.after.get("source")
    return source if isinstance(source, str) and source.startswith(IMPORT_PREFIX) else None
