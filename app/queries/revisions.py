"""The history of changes, newest first (for /changes, a system's history, the API)."""

from sqlmodel import Session, col, select

from app.models import Revision
from app.schemas import RevisionView

MAX_LIMIT = 500


def list_revisions(
    session: Session,
    user: str | None = None,
    system: str | None = None,
    entity: str | None = None,
    limit: int = 50,
    before_id: int | None = None,
) -> list[RevisionView]:
    """Revisions newest first, filtered by actor (`user`: a user's name, or "seed"), by the
    system they are filed under (a slug) and by entity ("claim", "system", ...).

    Pages go backwards by id: pass the last id of one page as `before_id` for the next,
    which stays right while new revisions are being written (an offset would shift).
    """
    if not 1 <= limit <= MAX_LIMIT:
        raise ValueError(f"limit must be between 1 and {MAX_LIMIT} (got {limit})")
    statement = select(Revision).order_by(col(Revision.id).desc()).limit(limit)
    if user is not None:
        statement = statement.where(Revision.actor == user)
    if system is not None:
        statement = statement.where(Revision.system_slug == system)
    if entity is not None:
        statement = statement.where(Revision.entity == entity)
    if before_id is not None:
        statement = statement.where(col(Revision.id) < before_id)
    return [
        RevisionView(
            id=r.id,  # type: ignore[arg-type]
            at=r.at,
            actor=r.actor,
            user_id=r.user_id,
            entity=r.entity,
            key=r.key,
            system=r.system_slug,
            action=r.action,
            before=r.before,
            after=r.after,
            message=r.message,
        )
        for r in session.exec(statement)
    ]
