"""The documents team writes return and record: a team result, a team claim, a note, and a
result-file import's preview.

Each is a plain dict, JSON as it is: the API replies with it, a revision or an import row
stores it, a form or a page reads it back. These TypedDicts give their shapes; a key left
out is an empty field.
"""

from typing import Any, Literal, Required, TypedDict

from app.schemas import TeamNoteItem
from app.seeding.schema import Unit
from app.writes.inputs import Qualifier, TeamResultFields


class Versioned(TypedDict, total=False):
    """What a reply adds to a row's document: the version a change must be based on, and
    who saved it last (None when that user has since been removed)."""

    version: int
    by: str | None


class ResultDoc(Versioned, total=False):
    """A team result as the API shows it and its revisions record it: vocabulary entries by
    slug, empty fields left out."""

    id: Required[str]
    system: Required[str]
    metric: Required[str]
    source: Required[str]
    value: float
    low: float
    high: float
    qualifier: Qualifier
    unit: Unit
    hardware: str
    gpus: int
    model: str
    precision: str
    concurrency: int
    workload: str
    setup: str
    system_version: str
    date: str
    note: str
    # The hardware and model named as free text before the vocabulary existed.
    hardware_text: str
    model_text: str


class ClaimDoc(Versioned, total=False):
    """The team's claim on one cell, as the API shows it and its revisions record it."""

    system: Required[str]
    capability: Required[str]
    source: Required[str]
    level: Required[str]
    note: str


class NoteDoc(TypedDict, total=False):
    """A note as its revisions record it: its id, its item's keys, its text and link."""

    id: Required[str]
    on: Required[Literal["claim", "result", "system"]]
    system: str
    capability: str
    source: str
    reading: int
    result: str
    text: Required[str]
    link: str


class NoteReply(Versioned):
    """A note as the API replies with it: TeamNoteItem as JSON (every key present)."""

    id: str
    text: str
    link: str | None
    created_at: str
    updated_at: str
    on: Literal["claim", "result", "system"]
    system: str
    capability: str | None
    source: str | None
    reading: int | None
    result: str | None
    item_withdrawn: bool


class ResultChanges(TypedDict, total=False):
    """A change to a team result: the fields it names (None clears an optional one)."""

    value: float | None
    low: float | None
    high: float | None
    qualifier: Qualifier | None
    unit: Unit | None
    hardware: str | None
    gpus: int | None
    model: str | None
    precision: str | None
    concurrency: int | None
    workload: str | None
    setup: str | None
    system_version: str | None
    date: str | None
    note: str | None


class NoteChanges(TypedDict, total=False):
    """A change to a note: its text, its link (None removes it)."""

    text: str
    link: str | None


class RunSetup(TypedDict, total=False):
    """An imported run's context: the uploader's value, else the file's (empty ones left out).
    Hardware, model and workload are vocabulary slugs; `*_in_file` is the name the file gave."""

    system: str
    gpus: int
    precision: str
    system_version: str
    concurrency: int
    request_rate: float
    request_rate_unlimited: bool
    setup: str
    date: str
    input_tokens: int
    output_tokens: int
    hardware: str
    model: str
    workload: str
    hardware_in_file: str
    model_in_file: str
    workload_in_file: str


class FigurePreview(TypedDict):
    """One figure a run would give: an Atlas metric, its value and unit."""

    metric: str
    value: float
    unit: Unit
    derived: bool  # computed from the file's figures (1000 / mean TPOT), not read from it


class RunPreview(TypedDict):
    """One run of an import's preview (also what its ImportRun row keeps)."""

    index: int
    where: str
    setup: RunSetup
    figures: list[FigurePreview]
    metrics: dict[str, float]  # normalised key -> value
    raw: dict[str, Any]  # the file's own numbers, as it wrote them
    notes: list[str]


class ParsedCopy(TypedDict):
    """The parsed file, kept with a pending preview so its context can change without it."""

    name: str
    notes: list[str]
    runs: list[dict[str, Any]]  # app/writes/imports.py run_record: a ParsedRun as JSON


class PreviewFields(TypedDict):
    """The runs, the results they would give, and what is missing or wrong (by field)."""

    format: str
    format_title: str
    notes: list[str]
    runs: list[RunPreview]
    results: list[dict[str, Any]]  # TeamResultIn as JSON, validated again when saved
    result_runs: list[int]  # per result, the index of its run
    problems: dict[str, str]
    ready: bool


class PreviewDoc(PreviewFields):
    """What an ImportBatch row keeps as its preview (the parsed copy only until it is saved)."""

    parsed: ParsedCopy


class ImportDoc(PreviewFields, total=False):
    """An import as the API and the pages show it; `saved` once it is confirmed."""

    id: Required[str]
    state: Required[str]
    file: Required[str]
    sha256: Required[str]
    by: Required[str]
    created_at: Required[str]
    context: Required[dict[str, str | int]]  # ImportContext as given (empty fields left out)
    saved: list[ResultDoc]


# The documents are written out by hand; these keep them in step with the models they mirror.
assert ResultChanges.__optional_keys__ == set(TeamResultFields.model_fields)
assert set(TeamResultFields.model_fields) < ResultDoc.__optional_keys__
assert NoteReply.__required_keys__ | NoteReply.__optional_keys__ == set(TeamNoteItem.model_fields)
