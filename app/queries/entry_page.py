"""One hardware, model or workload entry's page: the entry and every figure that uses it.

Apart from queries/entries.py because the figures come from queries/benchmarks.py, which
itself resolves entry names through entries.py."""

import datetime as dt

from pydantic import BaseModel
from sqlmodel import Session

from app.queries.benchmarks import all_results
from app.queries.common import source_refs
from app.queries.entries import vocabulary_entries
from app.queries.support_answer import SupportAnswer, support_for_model
from app.schemas import (
    BenchmarkView,
    HardwareEntryView,
    ModelEntryView,
    SourceRef,
    WorkloadEntryView,
)


class Derivative(BaseModel):
    """A quantised or fine-tuned model whose base is the entry."""

    slug: str
    name: str
    precision: str | None


class EntryPage(BaseModel):
    """One hardware, model or workload entry and every figure that uses it."""

    kind: str
    entry: HardwareEntryView | ModelEntryView | WorkloadEntryView
    sources: list[SourceRef]  # the sources that name the entry
    figures: list[BenchmarkView]
    systems: int  # how many systems the figures cover
    # A model's: which systems serve its architecture class (the models matrix's cells), its
    # quantised or fine-tuned derivatives; empty for hardware and workloads.
    support: SupportAnswer | None = None
    derivatives: list[Derivative] = []
    # A hardware entry's memory as the device reports it and the unified-memory GPU share,
    # each with its own source (the figures the fit uses, not the marketing number).
    reported_memory_source: SourceRef | None = None
    gpu_share_source: SourceRef | None = None


def entry_page(session: Session, kind: str, slug: str, today: dt.date) -> EntryPage | None:
    """The entry named `slug` with its figures (seed order), or None when there is none."""
    entry = next((e for e in vocabulary_entries(session)[kind] if e.slug == slug), None)
    if entry is None:
        return None
    # The figures come from the per-version list every benchmark page shares: no query of
    # its own, and the same freshness marks as /benchmarks.
    figures = [r for r in all_results(session, today) if getattr(r, kind) == slug]
    refs = {ref.slug: ref for ref in source_refs(session).values()}
    cited = list(entry.sources)
    config = getattr(entry, "config", None)
    if config is not None and config.source not in cited:
        cited.append(config.source)  # the config facts' own source is cited with the others
    support, derivatives = None, []
    if isinstance(entry, ModelEntryView):
        found = support_for_model(session, entry.slug)
        support = found if isinstance(found, SupportAnswer) else None
        derivatives = [
            Derivative(slug=e.slug, name=e.name, precision=e.precision)
            for e in vocabulary_entries(session)["model"]
            if isinstance(e, ModelEntryView) and e.base == slug and not e.withdrawn
        ]
    hardware = entry if isinstance(entry, HardwareEntryView) else None
    return EntryPage(
        reported_memory_source=refs.get(hardware.reported_memory_source or "")
        if hardware
        else None,
        gpu_share_source=refs.get(hardware.gpu_share_source or "") if hardware else None,
        support=support,
        derivatives=derivatives,
        kind=kind,
        entry=entry,  # type: ignore[arg-type]
        sources=[refs[s] for s in cited if s in refs],
        figures=figures,
        systems=len({r.system for r in figures}),
    )
