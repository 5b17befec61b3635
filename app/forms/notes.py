"""The editor forms' side of team notes: posted text -> the notes API's own input models, and
what the templates draw (app/forms/team.py does the same for results and claims).

A note form carries its item as hidden fields, by the same keys the API takes (`system`,
`capability`, `source`, `reading`, `result`), so a form meets exactly the API's rules.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast
from urllib.parse import urlencode

from app.forms.base import Clash, EditorForm, as_text, side_by_side, validated
from app.writes.common import TeamError
from app.writes.documents import NoteChanges, NoteReply
from app.writes.inputs import TeamNoteIn, TeamNotePatch

ITEM_FIELDS = ("system", "capability", "source", "reading", "result")
NOTE_FIELDS = ("text", "link")
LABELS = {"text": "Note", "link": "Link"}


def item_of(values: Mapping[str, object]) -> dict[str, str]:
    """The item's keys among `values`, as text, leaving out the empty ones. A figure is named
    by its id alone (a saved note also names the figure's system, which is left out here)."""
    if values.get("result"):
        return {"result": str(values["result"])}
    return {name: str(values[name]) for name in ITEM_FIELDS if values.get(name)}


def item_key(item: dict[str, str]) -> str:
    """A short key for the item, unique on a page: part of element ids."""
    if item.get("result"):
        return f"r-{item['result']}"
    if item.get("capability"):
        reading = f"-{item['reading']}" if item.get("reading") else ""
        return f"c-{item.get('system')}-{item['capability']}-{item.get('source')}{reading}"
    return f"s-{item.get('system', '')}"


def new_url(next_path: str, **item: object) -> str:
    """The add form's own page for an item (where its link leads without JavaScript)."""
    query = item_of(item) | ({"next": next_path} if next_path else {})
    return f"/notes/new?{urlencode(query)}"


def new_target(**item: object) -> str:
    """The id of the element an item's add form fills (the link that asks for it)."""
    return f"note-new-{item_key(item_of(item))}"


def item_page(item: Mapping[str, object]) -> str:
    """Where the item is shown, for a form that came without `next` (a saved note's document
    names a figure's system too; the form's own fields name a figure by its id alone)."""
    system = item.get("system", "")
    if item.get("result"):
        return f"/systems/{system}#bench-{item['result']}" if system else "/benchmarks"
    if item.get("capability"):
        return f"/systems/{system}#cap-{item['capability']}"
    return f"/systems/{system}#team-notes"


def note_in(values: dict[str, str]) -> TeamNoteIn:
    """A new note from the add form; TeamError names each field that is wrong."""
    # An empty field is left out, so an empty note reads "Required." rather than a type error.
    data: dict[str, Any] = item_of(values) | {n: values[n] for n in NOTE_FIELDS if values.get(n)}
    return validated(TeamNoteIn, data)


def note_changes(values: dict[str, str]) -> NoteChanges:
    """The text and link from the edit form (an emptied link removes it)."""
    patch = validated(TeamNotePatch, {n: values.get(n) or None for n in NOTE_FIELDS})
    if patch.text is None:
        raise TeamError({"text": "Required."})
    return cast(NoteChanges, patch.model_dump(include={"text", "link"}))


def note_values(doc: NoteReply) -> dict[str, str]:
    """A saved note (as the API shows it) as the edit form's values."""
    return {name: as_text(doc.get(name)) for name in NOTE_FIELDS}


def note_clash(yours: dict[str, str], current: NoteReply) -> Clash:
    """What the editor sent beside the note as someone else saved it."""
    return side_by_side(LABELS, yours, note_values(current), current)


@dataclass
class NoteForm(EditorForm):
    """The add or edit form of one note."""

    item: dict[str, str]  # the item's keys, posted again as hidden fields
    label: str  # the item in words
    note_id: str | None = None  # set when editing

    @property
    def editing(self) -> bool:
        return self.note_id is not None

    @property
    def action(self) -> str:
        return f"/notes/{self.note_id}/edit" if self.editing else "/notes"

    @property
    def target(self) -> str:
        """The id of the form: what its own link asked to fill, and what a problem refills."""
        return f"note-edit-{self.note_id}" if self.editing else new_target(**self.item)

    def own_fields(self) -> tuple[str, ...]:
        """The note's own fields; any other problem is with the item it names."""
        return NOTE_FIELDS
