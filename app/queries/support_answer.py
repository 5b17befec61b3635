"""GET /api/v1/support: which systems serve a model as typed (or an architecture class), for the
format its name implies; one cell read model per column of the models matrix."""

import difflib
from dataclasses import dataclass

from pydantic import BaseModel
from sqlmodel import Session

from app.queries.cells import NO_CLAIM
from app.queries.entries import vocabulary_entries, vocabulary_names
from app.queries.matrix_data import matrix_base
from app.queries.support import SupportBase, SupportCell, support_base
from app.schemas import ModelEntryView
from app.vocabulary.formats import ImpliedFormat, implied_format

NO_ROW_REASON = "No source says: unknown, not no."


class FormatView(BaseModel):
    """The weight format a typed name implies (app/vocabulary/formats.py)."""

    format: str
    precision: str
    bits_per_weight: float | None
    capability: str | None  # the matrix's feature for loading that format: quant-gguf


class SystemSupport(SupportCell):
    """A column's cell, and, when the name implies a weight format, whether the system loads
    it (its headline level on the format's feature; no-claim where no source says)."""

    name: str = ""  # the system's display name
    format_level: str | None = None


class SupportAnswer(BaseModel):
    architecture: str | None
    model: ModelEntryView | None
    format: FormatView | None
    systems: list[SystemSupport]
    note: str | None = None


@dataclass(frozen=True)
class Unknown:
    """A name or class that names nothing, with the closest ones."""

    field: str
    value: str
    allowed: list[str]
    suggested: list[str]


def support_for_architecture(session: Session, architecture: str) -> SupportAnswer | Unknown:
    """Every system's cell for one Hugging Face class."""
    base = support_base(session)
    found = base.architecture(architecture)
    if found is None:
        names = [a.name for a in base.architectures]
        close = _close(architecture, names)
        return Unknown("architecture", architecture, names, close)
    return SupportAnswer(
        architecture=found.name, model=None, format=None, systems=_cells(base, found.name, None)
    )


def support_for_model(session: Session, text: str) -> SupportAnswer | Unknown:
    """Every system's cell for the architecture of the model `text` names, for the format
    the name implies (a GGUF file, an Ollama tag, a quantiser's repository)."""
    names = vocabulary_names(session)["model"]
    slug = names.resolve(text)
    entries = {e.slug: e for e in vocabulary_entries(session)["model"]}
    if slug is None:
        return Unknown("model", text, list(entries), names.suggest(text, by_words=True))
    entry = entries[slug]
    assert isinstance(entry, ModelEntryView)
    architecture = entry.architecture
    if architecture is None and entry.base:  # a derivative shares its base model's class
        base_entry = entries.get(entry.base)
        architecture = getattr(base_entry, "architecture", None)
    implied = implied_format(text)
    fmt = _format_view(session, implied) if implied else None
    if architecture is None:
        note = f"{entry.name} names no architecture class yet, so no registry can be read for it."
        return SupportAnswer(architecture=None, model=entry, format=fmt, systems=[], note=note)
    base = support_base(session)
    return SupportAnswer(
        architecture=architecture,
        model=entry,
        format=fmt,
        systems=_cells(base, architecture, fmt.capability if fmt else None, session),
    )


# Ollama's own tags pull GGUF files: loading one is loading GGUF.
FORMAT_CAPABILITY = {"ollama": "quant-gguf"}


def _format_view(session: Session, implied: ImpliedFormat) -> FormatView:
    name = implied.format.casefold()
    slug = FORMAT_CAPABILITY.get(name, f"quant-{name}")
    known = any(c.slug == slug for g in matrix_base(session).groups["features"] for c in g.columns)
    return FormatView(
        format=implied.format,
        precision=implied.precision,
        bits_per_weight=implied.bits_per_weight,
        capability=slug if known else None,
    )


def _cells(
    base: SupportBase,
    architecture: str,
    capability: str | None,
    session: Session | None = None,
) -> list[SystemSupport]:
    matrix = matrix_base(session) if session is not None and capability else None
    out = []
    for system in base.systems:
        cell = base.cells.get((system.slug, architecture))
        values = (
            {name: getattr(cell, name) for name in SupportCell.model_fields}
            if cell
            else {
                "system": system.slug,
                "architecture": architecture,
                "level": NO_CLAIM,
                "disputed": False,
                "reason": NO_ROW_REASON,
                "claims": [],
            }
        )
        if matrix is not None and capability:
            format_cell = matrix.cell(system.slug, capability)
            values["format_level"] = format_cell.level if format_cell else NO_CLAIM
        out.append(SystemSupport(**values, name=system.name))
    return out


def _close(text: str, names: list[str]) -> list[str]:
    folded = {n.casefold(): n for n in names}
    return [folded[k] for k in difflib.get_close_matches(text.casefold(), list(folded), n=3)]
