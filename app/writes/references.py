"""Which rows other rows point at, read from the foreign keys in SQLModel.metadata.

Generic on purpose: a table added later (team claims, notes, users' items) that points at a
published row protects it from deletion without anyone updating a list.
"""

from collections.abc import Collection, Iterator
from itertools import islice

from sqlalchemy import Column, Table, select
from sqlmodel import Session

CHUNK = 500  # ids per IN (...): well under every database's limit on bound parameters


def references_to(table: Table) -> list[Column[int]]:
    """Every column, in any table of the same metadata, with a foreign key to `table`."""
    return [
        fk.parent
        for other in table.metadata.sorted_tables
        for fk in other.foreign_keys
        if fk.column.table is table
    ]


def referenced_ids(session: Session, table: Table, ids: Collection[int]) -> set[int]:
    """The ids among `ids` that at least one row (of any table) points at."""
    found: set[int] = set()
    for column in references_to(table):
        for chunk in chunks(ids):
            statement = select(column).where(column.in_(chunk)).distinct()
            found.update(session.execute(statement).scalars())
    return found


def chunks(ids: Collection[int]) -> Iterator[list[int]]:
    it = iter(sorted(ids))
    while chunk := list(islice(it, CHUNK)):
        yield chunk
