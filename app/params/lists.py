"""The JSON lists: catalogue pages (/api/v1/systems, …) and /api/v1/notes."""

from typing import Annotated

from pydantic import Field

from app.params.reader import QueryModel, Vocabulary

LIST_PAGE_SIZE = 500
"""Items per reply of the catalogue lists (/api/v1/systems, …) unless `per_page` says."""
LIST_MAX_PAGE_SIZE = 1000


class ListParams(QueryModel):
    """The catalogue lists: a page of `per_page` items; a `Link: <…>; rel="next"` header
    names the next page while there is one."""

    page: Annotated[
        int, Field(description="which page (follow the Link header's next)", ge=1, le=100_000)
    ] = 1
    per_page: Annotated[
        int,
        Field(
            description=f"items per page (at most {LIST_MAX_PAGE_SIZE})",
            ge=1,
            le=LIST_MAX_PAGE_SIZE,
        ),
    ] = LIST_PAGE_SIZE


NOTES_PAGE_SIZE = 100
"""Notes per reply unless `limit` says otherwise."""
NOTES_MAX_LIMIT = 500


class NotesParams(QueryModel):
    """What GET /api/v1/notes accepts: the item whose notes to list, named as a note names it
    when it is posted (a figure by `result`; a claim by system, capability and source)."""

    system: Annotated[
        str,
        Field(
            description="a system: alone, every note on it (on the system, its claims and "
            "its figures)",
            max_length=100,
        ),
        Vocabulary("system"),
    ] = ""
    capability: Annotated[
        str,
        Field(description="with system and source: the notes on that claim", max_length=100),
        Vocabulary("capability"),
    ] = ""
    source: Annotated[
        str,
        Field(description="with system and capability: the notes on that claim", max_length=100),
        Vocabulary("source"),
    ] = ""
    reading: Annotated[
        int | None,
        Field(
            description="which of the source's readings, when it gives several of one cell",
            ge=1,
            le=100,
        ),
    ] = None
    result: Annotated[
        str, Field(description="a benchmark figure's id: the notes on it", max_length=120)
    ] = ""
    limit: Annotated[
        int,
        Field(description=f"notes per reply (at most {NOTES_MAX_LIMIT})", ge=1, le=NOTES_MAX_LIMIT),
    ] = NOTES_PAGE_SIZE
    offset: Annotated[
        int, Field(description="notes to skip (newest first)", ge=0, le=2**31 - 1)
    ] = 0
