"""Which system serves which model architecture (seed/support/, issue 35): the support rows
weighed into cells exactly as the feature matrix weighs claims (app/queries/cells.py), loaded
once per data version and shared by the models matrix, the model pages, /systems/{slug} and
GET /api/v1/support.

A cell no row speaks to is left out of `cells`: pages and the API read it as unknown, never
as "no" (a registry that does not list a class says nothing about it unless it is complete).
"""

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import select as sa_select
from sqlmodel import Session, col, select

from app.data_version.version import per_version
from app.models import Architecture, ModelSupport, System
from app.queries.cells import (
    cell_level,
    cell_reason,
    headline_claim,
    is_disputed,
    is_weak,
    strongest_first,
)
from app.queries.common import source_refs
from app.schemas import ClaimView, SourceRef, View

SUPPORT_SYSTEMS = (
    "vllm",
    "sglang",
    "tensorrt-llm",
    "tgi",
    "lmdeploy",
    "llama-cpp",
    "mlc-llm",
    "ollama",
    "exllamav2",
    "mlx-lm",
    "ktransformers",
    "lm-studio",
)
"""The systems the issue asks every listed architecture to be answered for, in column order;
any other system with support rows follows them."""

OTHER_FAMILY = "Other classes"
"""The group of classes a registry lists that seed/architectures.yaml does not describe."""


class SupportClaimView(ClaimView):
    """One source's word on a system serving an architecture: a claim, plus what only support
    rows carry."""

    since_exact: bool = True  # False: the tag before `since` was not read ("by v0.6.5")
    until: str | None = None  # the first release where it is gone
    scope: str | None = None  # "GGUF through bundled llama.cpp b6121", "Transformers fallback"
    native: str | None = None  # the project's own key: GGUF arch, model_type, module

    @property
    def since_label(self) -> str | None:
        """`since` as people read it: "v0.6.5", or "by v0.6.5" when the tag before was unread."""
        if not self.since:
            return None
        return self.since if self.since_exact else f"by {self.since}"


class SupportCell(View):
    """The matrix cell's read model for one system and architecture (the API shares it)."""

    system: str
    architecture: str
    level: str
    disputed: bool
    weak: bool = False
    reason: str = ""
    scope: str | None = None  # the headline claim's
    since: str | None = None  # the headline claim's, "by vX" when not exact
    until: str | None = None
    claims: list[SupportClaimView]


class ArchitectureView(View):
    """A Hugging Face architecture class; `listed` when seed/architectures.yaml describes it."""

    name: str
    family: str
    kind: str | None = None
    model_type: str | None = None
    gguf: str | None = None
    attention: tuple[str, ...] = ()
    note: str | None = None
    source: str | None = None  # the source slug the class name was read in
    listed: bool = True


class SupportSystem(View):
    slug: str
    name: str


@dataclass(frozen=True)
class SupportBase:
    """Every architecture (listed ones first, in the seed's order), the systems that are
    columns, and every (system, architecture) cell a row speaks to."""

    architectures: list[ArchitectureView]
    systems: list[SupportSystem]
    cells: dict[tuple[str, str], SupportCell]

    def architecture(self, name: str) -> ArchitectureView | None:
        """The class named `name` exactly, else ignoring case."""
        found = {a.name: a for a in self.architectures}
        if name in found:
            return found[name]
        folded = {a.name.casefold(): a for a in self.architectures}
        return folded.get(name.casefold())

    def row(self, architecture: str) -> list[SupportCell | None]:
        """One architecture's cells, a column per system (None: no row says)."""
        return [self.cells.get((s.slug, architecture)) for s in self.systems]

    def families(self) -> list[str]:
        """Families in the order of their first listed class."""
        return list(dict.fromkeys(a.family for a in self.architectures))


@per_version(max_entries=1)
def support_base(session: Session) -> SupportBase:
    """The support data for the data version this session sees."""
    refs = source_refs(session)
    systems = {s.id: (s.slug, s.name) for s in session.exec(select(System))}
    claims: dict[tuple[str, str], list[SupportClaimView]] = defaultdict(list)
    statement = sa_select(ModelSupport).order_by(col(ModelSupport.position))
    for (row,) in session.execute(statement):
        claims[(systems[row.system_id][0], row.architecture)].append(
            SupportClaimView(
                level=row.level,
                strength=None,
                note=row.note,
                source=refs[row.source_id],
                since=row.since,
                page=row.page,
                since_exact=row.since_exact,
                until=row.until,
                scope=row.scope,
                native=row.native,
            )
        )
    cells = {key: _cell(*key, views) for key, views in claims.items()}
    return SupportBase(
        _architectures(session, refs, {a for _, a in claims}),
        _columns(systems.values(), {s for s, _ in claims}),
        cells,
    )


def _cell(system: str, architecture: str, views: list[SupportClaimView]) -> SupportCell:
    ordered = strongest_first(list(views))
    headline = headline_claim(list(views))
    top = headline if isinstance(headline, SupportClaimView) else None
    return SupportCell(
        system=system,
        architecture=architecture,
        level=cell_level(list(views)),
        disputed=is_disputed(list(views)),
        weak=is_weak(list(views)),
        reason=cell_reason(list(views)),
        scope=top.scope if top else None,
        since=top.since_label if top else None,
        until=top.until if top else None,
        claims=[v for v in ordered if isinstance(v, SupportClaimView)],
    )


def _architectures(
    session: Session, refs: dict[int, SourceRef], in_rows: set[str]
) -> list[ArchitectureView]:
    listed = [
        ArchitectureView(
            name=a.name,
            family=a.family,
            kind=a.kind,
            model_type=a.model_type,
            gguf=a.gguf,
            attention=tuple(a.attention),
            note=a.note,
            source=refs[a.source_id].slug,
        )
        for a in session.exec(select(Architecture).order_by(col(Architecture.position)))
    ]
    names = {a.name for a in listed}
    others = [
        ArchitectureView(name=n, family=OTHER_FAMILY, listed=False)
        for n in sorted(in_rows - names, key=str.casefold)
    ]
    return listed + others


def _columns(systems: Iterable[tuple[str, str]], with_rows: set[str]) -> list[SupportSystem]:
    by_slug = dict(systems)
    order = [s for s in SUPPORT_SYSTEMS if s in by_slug]
    order += sorted(s for s in with_rows if s not in SUPPORT_SYSTEMS)
    return [SupportSystem(slug=s, name=by_slug[s]) for s in order]


def level_counts(base: SupportBase, system: str) -> dict[str, int]:
    """How many architectures each level answers for one system (a row's headline level)."""
    counts: dict[str, int] = defaultdict(int)
    for (slug, _), cell in base.cells.items():
        if slug == system:
            counts[cell.level] += 1
    return dict(counts)
