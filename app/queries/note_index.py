"""Every team note by the row it is on, for the pages to draw beside published items.

Kept apart from notes.py (which names items through benchmark_views) so the read models of
claims and figures can take their notes from here without an import cycle.
"""

from dataclasses import dataclass, field
from typing import Any

from sqlmodel import Session, col, select

from app.accounts.models import UserAccount
from app.data_version.version import per_version
from app.models import TeamNote
from app.schemas import TeamNoteView


@dataclass(frozen=True)
class NoteIndex:
    """Every note by the row it is on, oldest first (shared: treat as read-only)."""

    claims: dict[int, list[TeamNoteView]] = field(default_factory=dict)
    results: dict[int, list[TeamNoteView]] = field(default_factory=dict)
    systems: dict[int, list[TeamNoteView]] = field(default_factory=dict)  # on a system itself


@per_version(max_entries=2)
def note_index(session: Session) -> NoteIndex:
    """The notes the pages draw beside their items, loaded once per data version."""
    index = NoteIndex()
    for note, by in session.exec(with_authors().order_by(col(TeamNote.id))):
        view = note_view(note, by)
        if note.claim_id is not None:
            index.claims.setdefault(note.claim_id, []).append(view)
        elif note.result_id is not None:
            index.results.setdefault(note.result_id, []).append(view)
        else:
            index.systems.setdefault(note.system_id, []).append(view)
    return index


def with_authors() -> Any:
    """Notes with the name of the user who saved each last (None for no user)."""
    return select(TeamNote, UserAccount.name).outerjoin(
        UserAccount, col(UserAccount.id) == col(TeamNote.user_id)
    )


def note_view(note: TeamNote, by: str | None) -> TeamNoteView:
    """A note row as readers see it."""
    return TeamNoteView(
        id=note.slug,
        text=note.text,
        link=note.link,
        by=by,
        created_at=note.created_at,
        updated_at=note.updated_at,
        version=note.version,
    )
