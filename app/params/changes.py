"""/changes, /changes.atom and /api/v1/changes: whose changes, to what, and which page."""

from typing import Annotated

from pydantic import Field

from app.params.reader import QueryModel, Vocabulary, encode

CHANGES_PAGE_SIZE = 50
"""Revisions per page of the history unless `limit` says otherwise."""
CHANGES_MAX_LIMIT = 500
"""The most revisions one request reads (list_revisions refuses more)."""


class ChangesParams(QueryModel):
    """Everything /changes, its Atom feed and /api/v1/changes accept."""

    user: Annotated[
        str,
        Field(
            description="who made the changes: a user's name, or `seed` for reseeds", max_length=100
        ),
        Vocabulary("user"),
    ] = ""
    system: Annotated[
        str,
        Field(description="the system the changes are filed under (a slug)", max_length=100),
        Vocabulary("system"),
    ] = ""
    kind: Annotated[
        str,
        Field(
            description="the kind of item changed (`claim`, `system`, `benchmark_result`, …)",
            max_length=40,
        ),
        Vocabulary("kind"),
    ] = ""
    before: Annotated[
        int | None,
        Field(
            description="only changes older than this revision id: the `next` link of a page "
            "carries it, so pages stay put while new changes arrive",
            ge=1,
            le=2**31 - 1,
        ),  # revision ids are SQL integers (PostgreSQL: 4 bytes)
    ] = None
    limit: Annotated[
        int,
        Field(
            description=f"changes per page (at most {CHANGES_MAX_LIMIT})",
            ge=1,
            le=CHANGES_MAX_LIMIT,
        ),
    ] = CHANGES_PAGE_SIZE

    def query_string(self, **changes: object) -> str:
        """The canonical query string (stable order, no defaults), with optional changes."""
        p = self.replace(**changes) if changes else self
        pairs = [(name, getattr(p, name)) for name in ("user", "system", "kind")]
        pairs = [(name, value) for name, value in pairs if value]
        if p.before is not None:
            pairs.append(("before", str(p.before)))
        if p.limit != CHANGES_PAGE_SIZE:
            pairs.append(("limit", str(p.limit)))
        return encode(pairs)

    @property
    def filtered(self) -> bool:
        return bool(self.user or self.system or self.kind)
