"""The /models finder and GET /api/v1/models: the model entries narrowed by family, architecture
class, kind, size and native context, with the choices each filter offers."""

from pydantic import BaseModel
from sqlmodel import Session

from app.params.models import SIZE_LABELS, SIZES, ModelListParams
from app.queries.entries import vocabulary_entries
from app.schemas import ModelEntryView


class ListFilter(BaseModel):
    label: str
    remove_query: str


class ModelList(BaseModel):
    models: list[ModelEntryView]
    total: int  # current entries before the filters
    families: list[str]
    architectures: list[str]
    filters: list[ListFilter]
    query: str


def current_models(session: Session) -> list[ModelEntryView]:
    """Every model entry that is not withdrawn, in seed order."""
    return [
        e
        for e in vocabulary_entries(session)["model"]
        if isinstance(e, ModelEntryView) and not e.withdrawn
    ]


def model_list_vocabularies(session: Session) -> dict[str, list[str]]:
    """The values `family` and `architecture` may take: those some model has."""
    models = current_models(session)
    return {
        "model-family": sorted({m.family for m in models if m.family}, key=str.casefold),
        "model-architecture": sorted({m.architecture for m in models if m.architecture}),
    }


def _context(model: ModelEntryView) -> int | None:
    return model.config.context if model.config else None


def _matches(m: ModelEntryView, p: ModelListParams) -> bool:
    if p.family and m.family not in p.family:
        return False
    if p.architecture and m.architecture not in p.architecture:
        return False
    if p.kind and m.kind not in p.kind:
        return False
    if p.size:
        if m.parameters_b is None:
            return False
        if not any(SIZES[s][0] <= m.parameters_b < SIZES[s][1] for s in p.size):
            return False
    if p.context and (_context(m) or 0) < p.context:
        return False
    if p.q:
        text = " ".join([m.name, m.slug, m.family or "", m.architecture or "", *m.aliases])
        return all(w in text.casefold() for w in p.q.casefold().split())
    return True


def _label(name: str, value: str) -> str:
    if name == "q":
        return f"“{value}”"
    if name == "size":
        return f"Size: {SIZE_LABELS[value]}"
    if name == "context":
        return f"Context ≥ {int(value):,} tokens"
    return f"{name.capitalize()}: {value}"


def model_list(session: Session, params: ModelListParams) -> ModelList:
    """The models these filters keep, and what each filter could choose from."""
    models = current_models(session)
    vocab = model_list_vocabularies(session)
    return ModelList(
        models=[m for m in models if _matches(m, params)],
        total=len(models),
        families=vocab["model-family"],
        architectures=vocab["model-architecture"],
        filters=[
            ListFilter(label=_label(n, v), remove_query=params.without(n, v).query_string())
            for n, v in params.active_filters()
        ],
        query=params.query_string(),
    )
