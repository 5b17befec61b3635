"""The index pages' data (/features with coverage) and the site search behind the header box."""

import re

from pydantic import BaseModel
from sqlmodel import Session

from app.queries.common import source_refs
from app.queries.entries import vocabulary_entries
from app.queries.matrix import ACCEPTED_LEVELS
from app.queries.matrix_data import MatrixBase, matrix_base

ENTRY_PATHS = {"hardware": "/hardware", "model": "/models", "workload": "/workloads"}


class FeatureCoverage(BaseModel):
    slug: str
    name: str
    description: str
    supported: int  # systems a current source says support it, at any level but "no"
    claimed: int  # systems some current source speaks to, "no" included
    disputed: int  # cells where sources disagree


class FeatureGroup(BaseModel):
    slug: str
    name: str
    kind: str  # feature or hardware
    features: list[FeatureCoverage]


class FeatureIndex(BaseModel):
    systems: int
    groups: list[FeatureGroup]


def feature_index(session: Session) -> FeatureIndex:
    """Every feature and hardware target, grouped as in the matrix, with its coverage."""
    base = matrix_base(session)
    groups = [
        FeatureGroup(
            slug=g.slug,
            name=g.name,
            kind="feature" if view == "features" else "hardware",
            features=[_coverage(base, c.slug, c.name, c.description) for c in g.columns],
        )
        for view, view_groups in base.groups.items()
        for g in view_groups
    ]
    return FeatureIndex(systems=len(base.systems), groups=groups)


def _coverage(base: MatrixBase, slug: str, name: str, description: str) -> FeatureCoverage:
    cells = [c for s in base.systems if (c := base.cell(s.slug, slug)) and c.claimed]
    return FeatureCoverage(
        slug=slug,
        name=name,
        description=description,
        supported=sum(1 for c in cells if c.level in ACCEPTED_LEVELS["any"]),
        claimed=len(cells),
        disputed=sum(1 for c in cells if c.disputed),
    )


class Hit(BaseModel):
    kind: str  # system, feature, hardware target, hardware, model, workload, source
    name: str
    url: str
    detail: str = ""
    exact: bool = False  # the query is this entry's name, slug or one of its aliases


class SearchResult(BaseModel):
    q: str
    hits: list[Hit]
    go_to: str | None  # the one exact match's page, where the box goes straight


def _key(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", text.lower())


def _hit(q: str, kind: str, names: list[str], url: str, detail: str = "") -> Hit | None:
    """A hit when every word of `q` is in one of the names (or the detail, weaker)."""
    words = q.lower().split()
    haystack = " ".join(names).lower()
    exact = _key(q) in {_key(n) for n in names if n}
    if exact or all(w in haystack for w in words):
        return Hit(kind=kind, name=names[0], url=url, detail=detail, exact=exact)
    return None


def search(session: Session, q: str) -> SearchResult:
    """Systems, features, hardware targets, hardware, models, workloads and sources named like
    `q`, exact names first; `go_to` is set when exactly one entry is named exactly."""
    q = q.strip()
    if not q:
        return SearchResult(q=q, hits=[], go_to=None)
    base = matrix_base(session)
    candidates = [
        _hit(q, "system", [s.name, s.slug], f"/systems/{s.slug}", s.kind) for s in base.systems
    ]
    for view, groups in base.groups.items():
        kind = "feature" if view == "features" else "hardware target"
        candidates += [
            _hit(q, kind, [c.name, c.slug, c.slug.replace("-", " ")], f"/features/{c.slug}", g.name)
            for g in groups
            for c in g.columns
        ]
    for kind, entries in vocabulary_entries(session).items():
        candidates += [
            _hit(
                q,
                kind,
                [e.name, e.slug, *e.aliases],
                f"{ENTRY_PATHS[kind]}/{e.slug}",
                f"{e.figures} figure{'s' if e.figures != 1 else ''}",
            )
            for e in entries
            if not e.withdrawn
        ]
    candidates += [
        _hit(q, "source", [r.title, r.slug, r.short], f"/sources#{r.slug}", r.date)
        for r in source_refs(session).values()
    ]
    hits = sorted((h for h in candidates if h), key=lambda h: not h.exact)
    exact = [h for h in hits if h.exact]
    only = exact if len(exact) == 1 else hits if len(hits) == 1 else []
    return SearchResult(q=q, hits=hits[:60], go_to=only[0].url if only else None)
