"""The "Will it fit?" tables: one model on 1, 2, 4 and 8 of each GPU (model pages), or each
common model on 1, 2, 4 and 8 of one GPU (hardware pages), at a chosen context.

Each cell is the general arithmetic of app/queries/fit.py, per GPU: what is needed and what
the GPU gives, in decimal GB, so a reader can check a cell by hand from the basis lines above
the table.
"""

from dataclasses import dataclass, field

from sqlmodel import Session

from app.decision.fit import tp_problem
from app.params.fit import FitParams
from app.queries.fit import FitAnswer, FitInputError, fit_asked, fit_hardware, fit_models

COUNTS = (1, 2, 4, 8)
CONTEXTS = (4096, 8192, 32768, 131072)
MAX_MODELS = 14


@dataclass(frozen=True)
class PanelCell:
    gpus: int
    fits: bool | None
    needed_gb: float | None  # per GPU
    usable_gb: float | None  # per GPU
    problem: str | None = None  # why this count cannot split the model


@dataclass
class PanelRow:
    slug: str
    name: str
    memory_gb: float | None
    cells: list[PanelCell]
    min_gpus: int | None
    note: str | None = None  # a context beyond the model's native one, and the like


@dataclass
class FitPanel:
    kind: str  # "model": rows are GPUs; "hardware": rows are models
    slug: str
    name: str
    context: int
    rows: list[PanelRow] = field(default_factory=list)
    basis: list[str] = field(default_factory=list)  # one worked cell's arithmetic
    assumed: list[str] = field(default_factory=list)
    problem: str | None = None
    counts: tuple[int, ...] = COUNTS
    contexts: tuple[int, ...] = CONTEXTS


def _cell(session: Session, model: str, hardware: str, gpus: int, context: int) -> PanelCell:
    try:
        answer = _answer(session, model, hardware, gpus, context)
    except FitInputError as problem:
        return PanelCell(gpus, None, None, None, str(problem))
    if answer.fit.split_problem:  # no tensor-parallel split at this count: say why, briefly
        return PanelCell(gpus, None, None, None, tp_problem(answer.shape, gpus))
    per_gpu = answer.fit.per_gpu
    return PanelCell(gpus, answer.fit.fits, per_gpu.total_gb, per_gpu.usable_gb)


def _answer(session: Session, model: str, hardware: str, gpus: int, context: int) -> FitAnswer:
    return fit_asked(session, FitParams(model=model, hardware=hardware, gpus=gpus, context=context))


def _row(
    session: Session, model: str, hardware: str, name: str, slug: str, context: int
) -> PanelRow:
    cells = [_cell(session, model, hardware, n, context) for n in COUNTS]
    try:
        one = _answer(session, model, hardware, 1, context)
        return PanelRow(
            slug, name, one.device.memory_gb if one.device else None, cells, one.fit.min_gpus
        )
    except FitInputError as problem:
        return PanelRow(slug, name, None, cells, None, str(problem))


def model_panel(session: Session, model: str, context: int) -> FitPanel:
    """`model` on 1, 2, 4 and 8 of every GPU with a memory figure (not chips sharing system
    memory, which are a machine rather than a card)."""
    try:
        first = fit_asked(session, FitParams(model=model, context=context))
    except FitInputError as problem:
        return FitPanel("model", model, model, context, problem=str(problem))
    panel = FitPanel("model", first.model, first.model_name, context, basis=first.basis)
    panel.assumed = [line for line in first.assumed if "no hardware named" not in line]
    for gpu in fit_hardware(session):
        if gpu.form_factor in ("soc", "cpu"):
            continue
        panel.rows.append(_row(session, first.model, gpu.slug, gpu.name, gpu.slug, context))
    return panel


def hardware_panel(session: Session, hardware: str, context: int) -> FitPanel:
    """The common models (published, not derivatives) on 1, 2, 4 and 8 of `hardware`."""
    gpus = {h.slug: h for h in fit_hardware(session)}
    if hardware not in gpus:
        return FitPanel(
            "hardware", hardware, hardware, context, problem="no memory figure for this hardware"
        )
    gpu = gpus[hardware]
    panel = FitPanel("hardware", gpu.slug, gpu.name, context)
    models = [m for m in fit_models(session) if not m.vague and not m.base and not m.team]
    models.sort(key=lambda m: (m.parameters_b or 0, m.name))
    for entry in models[:MAX_MODELS]:
        panel.rows.append(_row(session, entry.slug, gpu.slug, entry.name, entry.slug, context))
    return panel
