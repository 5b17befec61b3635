"""The history of changes, newest first (for /changes, a system's history, the API)."""

from typing import Any

from sqlmodel import Session, col, select
from sqlmodel.sql.expression import SelectOfScalar

from app.models import Revision, Source
from app.queries.import_groups import ImportChange, collapse_page
from app.schemas import RevisionPage, RevisionView
from app.writes.revisions import ACCOUNT_ENTITY, ENTITIES, SEED_ACTOR, TEAM_ENTITIES

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
    statement = _filtered(select(Revision), user, system, entity, before_id)
    statement = statement.order_by(col(Revision.id).desc()).limit(limit)
    return [_view(r) for r in session.exec(statement)]


def revision_page(
    session: Session,
    user: str | None = None,
    system: str | None = None,
    entity: str | None = None,
    limit: int = 50,
    before_id: int | None = None,
) -> RevisionPage:
    """One page of `list_revisions`, and the `before_id` of the next (older) page if any."""
    if not 1 <= limit <= MAX_LIMIT:
        raise ValueError(f"limit must be between 1 and {MAX_LIMIT} (got {limit})")
    # One row more than asked tells whether an older page exists, without counting.
    statement = _filtered(select(Revision), user, system, entity, before_id)
    rows = list(session.exec(statement.order_by(col(Revision.id).desc()).limit(limit + 1)))
    views = [_view(r) for r in rows[:limit]]
    older = views[-1].id if len(rows) > limit else None
    return RevisionPage(revisions=views, older=older)


READ_BATCH = 500
READ_CAP = 5000
"""Revisions read at most for one page of collapsed changes (an import bigger than this is
shown as more than one entry, never read whole)."""


def collapsed_page(
    session: Session,
    user: str | None = None,
    system: str | None = None,
    entity: str | None = None,
    limit: int = 50,
    before_id: int | None = None,
) -> tuple[list[RevisionView | ImportChange], int | None]:
    """One page of the history as people read it: an import's run of created figures is one
    entry (`ImportChange`), every other revision its own. Returns the entries and the
    `before_id` of the next (older) page if any."""
    if not 1 <= limit <= MAX_LIMIT:
        raise ValueError(f"limit must be between 1 and {MAX_LIMIT} (got {limit})")
    views: list[RevisionView] = []
    cursor, exhausted = before_id, False
    while len(views) < READ_CAP:
        batch = list_revisions(session, user, system, entity, READ_BATCH, cursor)
        views += batch
        if len(batch) < READ_BATCH:
            exhausted = True
            break
        cursor = batch[-1].id
        if collapse_page(views, limit)[1] is not None:  # the page is full with some to spare
            break
    entries, last_used = collapse_page(views, limit)
    if last_used is None and not exhausted and views:
        last_used = views[-1].id
    return entries, last_used


def import_files(session: Session, sources: list[str]) -> dict[str, str]:
    """import-<key> -> the file name its figures came from (the source's short name)."""
    if not sources:
        return {}
    rows = session.exec(select(Source.slug, Source.short).where(col(Source.slug).in_(sources)))
    return dict(rows.all())


def _filtered(
    statement: SelectOfScalar[Any],
    user: str | None,
    system: str | None,
    entity: str | None,
    before_id: int | None,
) -> SelectOfScalar[Any]:
    statement = statement.where(Revision.entity != ACCOUNT_ENTITY)
    if user is not None:
        statement = statement.where(Revision.actor == user)
    if system is not None:
        statement = statement.where(Revision.system_slug == system)
    if entity is not None:
        statement = statement.where(Revision.entity == entity)
    if before_id is not None:
        statement = statement.where(col(Revision.id) < before_id)
    return statement


def _view(r: Revision) -> RevisionView:
    return RevisionView(
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


def revision_facets(session: Session) -> dict[str, list[str]]:
    """Who has made changes, which systems have changes filed under them, and the kinds of
    item changed (the known kinds always, so a filter for one not yet changed is no error).

    Only the names of people who have changed something are listed: the account list
    itself is not for anonymous readers (it would hand out names to guess passwords for).
    """
    public = select(Revision).where(Revision.entity != ACCOUNT_ENTITY).subquery()
    actors = session.exec(select(public.c.actor).distinct()).all()
    systems = session.exec(select(public.c.system_slug).distinct()).all()
    entities = session.exec(select(public.c.entity).distinct()).all()
    return {
        "user": sorted({SEED_ACTOR, *actors}),
        "system": sorted(s for s in systems if s is not None),
        "kind": sorted({*ENTITIES, *TEAM_ENTITIES, *entities}),
    }
