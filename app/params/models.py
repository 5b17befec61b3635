"""The model views' parameters (issue 35): the models x systems matrix (/matrix?view=models and
its JSON and CSV twins), the /models finder and GET /api/v1/support."""

from typing import Annotated, Literal

from pydantic import Field

from app.params.reader import MAX_VALUES, SPLIT, QueryModel, Vocabulary, encode

ARCHITECTURE_KINDS = (
    "dense",
    "moe",
    "hybrid",
    "vision-language",
    "moe-vision-language",
    "state-space",
)
ArchitectureKind = Literal[
    "dense", "moe", "hybrid", "vision-language", "moe-vision-language", "state-space"
]

MODEL_MATRIX_PAGE_SIZE = 50
"""Architectures per page: the registries list hundreds of classes."""


class ModelMatrixParams(QueryModel):
    """What the models x systems matrix accepts."""

    view: Annotated[
        Literal["features", "hardware", "models"], Field(description="which matrix")
    ] = "models"
    q: Annotated[
        str,
        Field(
            description="text search in class names, families and the projects' own keys",
            max_length=200,
        ),
    ] = ""
    family: Annotated[
        tuple[str, ...],
        Field(description="model families (rows)", max_length=MAX_VALUES),
        Vocabulary("arch-family"),
        SPLIT,
    ] = ()
    arch_kind: Annotated[
        tuple[ArchitectureKind, ...], Field(description="kinds of architecture"), SPLIT
    ] = ()
    system: Annotated[
        tuple[str, ...],
        Field(description="systems to show as columns (none: all)", max_length=MAX_VALUES),
        Vocabulary("support-system"),
        SPLIT,
    ] = ()
    listed: Annotated[
        bool,
        Field(description="only the architectures the Atlas describes (no other registry classes)"),
    ] = False
    cell: Annotated[
        str,
        Field(
            description="the cell whose claims are open beside the matrix, `system:HFClass`",
            max_length=160,
            pattern=r"^[a-z0-9.-]+:[A-Za-z0-9_.-]+$",
        ),
    ] = ""
    page: Annotated[
        int,
        Field(
            description=f"which page of rows ({MODEL_MATRIX_PAGE_SIZE} architectures each); a page"
            " past the last one shows the last",
            ge=1,
            le=100_000,
        ),
    ] = 1

    def query_string(self, *, with_cell: bool = False, **changes: object) -> str:
        """The canonical query string (view first, stable order, no other defaults)."""
        p = self.replace(**changes) if changes else self
        pairs: list[tuple[str, str]] = [("view", "models")]
        if p.q:
            pairs.append(("q", p.q))
        for name in ("family", "arch_kind", "system"):
            pairs += [(name, v) for v in getattr(p, name)]
        if p.listed:
            pairs.append(("listed", "1"))
        if p.page > 1:
            pairs.append(("page", str(p.page)))
        if with_cell and p.cell:
            pairs.append(("cell", p.cell))
        return encode(pairs)

    def active_filters(self) -> list[tuple[str, str]]:
        """(field, value) of every filter that narrows the rows or columns."""
        out = [("q", self.q)] if self.q else []
        for name in ("family", "arch_kind", "system"):
            out += [(name, v) for v in getattr(self, name)]
        if self.listed:
            out.append(("listed", "1"))
        return out

    def without(self, name: str, value: str) -> "ModelMatrixParams":
        """These parameters with one filter value removed, from the first page."""
        if name == "q":
            return self.replace(q="", page=1)
        if name == "listed":
            return self.replace(listed=False, page=1)
        kept = tuple(v for v in getattr(self, name) if v != value)
        return self.replace(**{name: kept, "page": 1})


SIZES = {  # size filter -> (from, below) billions of parameters
    "small": (0.0, 10.0),
    "medium": (10.0, 40.0),
    "large": (40.0, 150.0),
    "huge": (150.0, float("inf")),
}
SIZE_LABELS = {
    "small": "under 10B",
    "medium": "10B to 40B",
    "large": "40B to 150B",
    "huge": "150B and over",
}
CONTEXT_CHOICES = {8192: "8K", 32768: "32K", 131072: "128K", 262144: "256K", 1048576: "1M"}
"""The native context floors the /models form offers (any number is accepted)."""
ModelSize = Literal["small", "medium", "large", "huge"]


class ModelListParams(QueryModel):
    """What /models and GET /api/v1/models accept."""

    q: Annotated[
        str, Field(description="text search in names, aliases and classes", max_length=200)
    ] = ""
    family: Annotated[
        tuple[str, ...],
        Field(description="model families", max_length=MAX_VALUES),
        Vocabulary("model-family"),
        SPLIT,
    ] = ()
    architecture: Annotated[
        tuple[str, ...],
        Field(description="Hugging Face architecture classes", max_length=MAX_VALUES),
        Vocabulary("model-architecture"),
        SPLIT,
    ] = ()
    kind: Annotated[tuple[ArchitectureKind, ...], Field(description="kinds of model"), SPLIT] = ()
    size: Annotated[
        tuple[ModelSize, ...],
        Field(description="total parameters: small <10B, medium 10-40B, large 40-150B, huge 150B+"),
        SPLIT,
    ] = ()
    context: Annotated[
        int,
        Field(description="at least this native context, in tokens", ge=0, le=100_000_000),
    ] = 0

    def query_string(self, **changes: object) -> str:
        """The canonical query string (stable order, no defaults)."""
        p = self.replace(**changes) if changes else self
        pairs: list[tuple[str, str]] = [("q", p.q)] if p.q else []
        for name in ("family", "architecture", "kind", "size"):
            pairs += [(name, v) for v in getattr(p, name)]
        if p.context:
            pairs.append(("context", str(p.context)))
        return encode(pairs)

    def active_filters(self) -> list[tuple[str, str]]:
        """(field, value) of every filter that narrows the list."""
        out = [("q", self.q)] if self.q else []
        for name in ("family", "architecture", "kind", "size"):
            out += [(name, v) for v in getattr(self, name)]
        if self.context:
            out.append(("context", str(self.context)))
        return out

    def without(self, name: str, value: str) -> "ModelListParams":
        """These parameters with one filter value removed."""
        if name in ("q", "context"):
            return self.replace(**{name: type(self).model_fields[name].default})
        return self.replace(**{name: tuple(v for v in getattr(self, name) if v != value)})


class SupportParams(QueryModel):
    """What GET /api/v1/support accepts: one of a model name as typed or a class name."""

    model: Annotated[
        str,
        Field(
            description="a model as typed: a slug, Hugging Face id, Ollama tag, GGUF file name"
            " or cache folder",
            max_length=300,
        ),
    ] = ""
    architecture: Annotated[
        str,
        Field(description="a Hugging Face architecture class: LlamaForCausalLM", max_length=100),
    ] = ""
