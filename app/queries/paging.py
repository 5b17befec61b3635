"""Pages of rows: long tables are served a page at a time, so a request's work stays bounded
however much data an instance holds."""

from collections.abc import Sequence
from typing import TypeVar

from pydantic import BaseModel

T = TypeVar("T")


class Paging(BaseModel):
    page: int = 1  # the page shown (a page past the last one shows the last)
    pages: int = 1
    total: int = 0  # rows on every page together
    first_row: int = 0  # 1-based position of the page's first row; 0 when there is none
    last_row: int = 0


def paginate(items: Sequence[T], page: int, size: int) -> tuple[list[T], Paging]:
    """The items of page `page` (1-based) and where they sit among the rest."""
    pages = max(1, -(-len(items) // size))
    page = min(max(page, 1), pages)
    shown = list(items[(page - 1) * size : page * size])
    first = (page - 1) * size + 1 if shown else 0
    return shown, Paging(
        page=page,
        pages=pages,
        total=len(items),
        first_row=first,
        last_row=first + len(shown) - 1 if shown else 0,
    )
