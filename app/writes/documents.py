"""The documents team writes return and record: a team result, a team claim, a note.

Each is a plain dict, JSON as it is: the API replies with it, a revision stores it, a form
reads it back. These TypedDicts give their shapes; a key left out is an empty field.
"""

from typing import Literal, Required, TypedDict

from app.schemas import TeamNoteItem
from app.writes.inputs import TeamResultFields


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
    qualifier: str
    unit: str
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
    qualifier: str | None
    unit: str | None
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


# The documents are written out by hand; these keep them in step with the models they mirror.
assert ResultChanges.__optional_keys__ == set(TeamResultFields.model_fields)
assert set(TeamResultFields.model_fields) < ResultDoc.__optional_keys__
assert NoteReply.__required_keys__ | NoteReply.__optional_keys__ == set(TeamNoteItem.model_fields)
