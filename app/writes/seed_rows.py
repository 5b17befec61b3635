"""How the seed writes rows (writes/seed.py applies it table by table): upsert slug-keyed
rows, pair up keyless lists as a diff would, and at the end delete the rows left over, or
keep them marked withdrawn while something still points at them. What changed is counted in
a SeedReport."""

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Any, TypeVar

from sqlalchemy import delete, func, update
from sqlmodel import Session, SQLModel, col, select

from app.models import Source
from app.seeding.errors import SeedError, SeedProblem
from app.seeding.reader import SeedData
from app.writes.references import chunks, referenced_ids

Row = TypeVar("Row", bound=SQLModel)


@dataclass
class SeedReport:
    """What a seed run changed, in rows and in revisions."""

    first: bool = False  # the database had no published data before
    created: int = 0
    updated: int = 0
    deleted: int = 0
    withdrawn: int = 0
    revisions: int = 0
    leftovers: dict[type[SQLModel], list[int]] = field(default_factory=dict, repr=False)

    @property
    def changed(self) -> bool:
        return bool(self.created or self.updated or self.deleted or self.withdrawn)

    def summary(self) -> str:
        if not self.changed:
            return "Nothing changed."
        rows = (
            f"{self.created} rows added, {self.updated} updated, {self.deleted} deleted, "
            f"{self.withdrawn} withdrawn (still referred to)"
        )
        if self.first:
            return f"{rows}; first load of the published data (one summary revision)."
        return f"{rows}; {self.revisions} revisions recorded."


class SeedIds:
    """The ids of the seed's rows by slug, filled in table by table."""

    vocabulary: dict[str, dict[str, int]]  # kind -> slug -> id
    sources: dict[str, int]
    categories: dict[str, int]
    capabilities: dict[str, int]
    metrics: dict[str, int]
    systems: dict[str, int]


class SeedRows:
    """The row-level work of one seed run, in the caller's transaction; writes/seed.py's
    seeder adds each table's sync and the revisions."""

    def __init__(self, session: Session, data: SeedData) -> None:
        self.session = session
        self.data = data
        self.report = SeedReport()
        self.ids = SeedIds()
        # Rows citing these are the seed's; read once, before any source is added or removed.
        self.published = set(session.exec(select(Source.id).where(col(Source.published))))

    # -- writing rows ---------------------------------------------------------------------
    def put(self, model: type[Row], row: Row | None, fields: dict[str, Any]) -> Row:
        """Insert a new row, or update the fields of `row` that differ; return the row."""
        if row is None:
            row = model(**fields)
            self.session.add(row)
            self.report.created += 1
            return row
        changed = False
        for name, value in fields.items():
            if getattr(row, name) != value:
                setattr(row, name, value)
                changed = True
        self.report.updated += changed
        return row

    def leave(self, model: type[SQLModel], rows: Iterable[Any]) -> None:
        """Mark rows that are no longer in the seed for removal (done children first)."""
        self.report.leftovers.setdefault(model, []).extend(row.id for row in rows)

    def by_slug(self, model: type[Row], wanted: dict[str, dict[str, Any]]) -> dict[str, int]:
        """Upsert slug-keyed rows of a table the seed owns wholly; return slug -> id."""
        existing = {row.slug: row for row in self.session.exec(select(model))}  # type: ignore[attr-defined]
        # A team's own entries and systems (app/writes/entries.py) are never the seed's.
        team = {slug for slug, row in existing.items() if getattr(row, "team", False)}
        if taken := sorted(team & set(wanted)):
            where = str(model.__tablename__)
            problem = "a team's own entry already has this slug; rename one"
            raise SeedError([SeedProblem(where, None, slug, problem) for slug in taken])
        existing = {slug: row for slug, row in existing.items() if slug not in team}
        rows = {
            slug: self.put(model, existing.get(slug), {"slug": slug, **fields})
            for slug, fields in wanted.items()
        }
        self.leave(model, (row for slug, row in existing.items() if slug not in wanted))
        self.session.flush()
        return {slug: row.id for slug, row in rows.items()}  # type: ignore[attr-defined]

    def sync_list(
        self,
        model: type[Row],
        existing: Sequence[Row],
        wanted: list[dict[str, Any]],
        content: tuple[str, ...],
    ) -> None:
        """Upsert a keyless list (one system's facts, one source's caveats, one cell's readings)."""
        pairs, unused = pair_up(existing, wanted, content)
        for row, fields in zip(pairs, wanted, strict=True):
            self.put(model, row, fields)
        self.leave(model, unused)

    # -- removing -------------------------------------------------------------------------
    def remove(self, model: type[SQLModel], ids: list[int]) -> None:
        """Delete rows nothing points at; keep the others, marked withdrawn where they can be."""
        if not ids:
            return
        table = model.__table__  # type: ignore[attr-defined]
        kept = referenced_ids(self.session, table, ids)
        gone = [i for i in ids if i not in kept]
        for chunk in chunks(gone):
            self.session.execute(delete(table).where(table.c.id.in_(chunk)))
        self.report.deleted += len(gone)
        if kept and "withdrawn" in table.c:
            for chunk in chunks(kept):
                statement = (
                    update(table)
                    .where(table.c.id.in_(chunk), table.c.withdrawn.is_(False))
                    .values(withdrawn=True)
                )
                self.report.withdrawn += self.session.execute(statement).rowcount  # type: ignore[attr-defined]
        # A kept row without the flag (a category, a caveat) simply stays while it is needed.

    # -- helpers --------------------------------------------------------------------------
    def _ours(self, row: Any) -> bool:
        """Whether a row citing a source is published data (a team's rows cite its own)."""
        return row.source_id in self.published

    def _grouped(
        self,
        model: type[Row],
        key: Callable[[Any], Any],
        scoped: bool = False,
        seeded_only: bool = False,
    ) -> dict[Any, list[Row]]:
        groups: dict[Any, list[Row]] = defaultdict(list)
        statement = select(model).order_by(col(model.position))  # type: ignore[attr-defined]
        for row in self.session.exec(statement):
            if seeded_only and getattr(row, "team", False):
                continue  # a team's alias, kept across reseeds
            if not scoped or self._ours(row):
                groups[key(row)].append(row)
        return groups

    def _count(self, model: type[SQLModel]) -> int:
        return self.session.exec(select(func.count()).select_from(model)).one()


def pair_up(
    rows: Sequence[Row], wanted: list[dict[str, Any]], content: tuple[str, ...]
) -> tuple[list[Row | None], list[Row]]:
    """Match existing rows to wanted entries of a keyless list, as a reader of a diff would.

    Lines that stayed in place match first, then lines that moved (same content), then an
    edited line takes the row of the line it replaced (a `replace` run of the diff, in
    order). Returns, per wanted entry, the row to update (None: insert one), and the rows
    left over.
    """
    old = [tuple(getattr(row, name) for name in content) for row in rows]
    new = [tuple(fields.get(name) for name in content) for fields in wanted]
    matched: list[int | None] = [None] * len(new)  # index into rows, per wanted entry
    diff = SequenceMatcher(None, old, new, autojunk=False).get_opcodes()
    for tag, i1, _i2, j1, j2 in diff:
        if tag == "equal":
            matched[j1:j2] = range(i1, i1 + (j2 - j1))
    free: dict[tuple[Any, ...], list[int]] = defaultdict(list)
    used = {i for i in matched if i is not None}
    for i, key in enumerate(old):
        if i not in used:
            free[key].append(i)
    for j, key in enumerate(new):
        if matched[j] is None and free.get(key):
            i = free[key].pop(0)
            matched[j] = i
            used.add(i)
    for tag, i1, i2, j1, j2 in diff:
        if tag == "replace":
            spare = iter([i for i in range(i1, i2) if i not in used])
            for j in range(j1, j2):
                if matched[j] is None and (spare_row := next(spare, None)) is not None:
                    matched[j] = spare_row
                    used.add(spare_row)
    pairs = [None if i is None else rows[i] for i in matched]
    return pairs, [row for i, row in enumerate(rows) if i not in used]
