"""Restoring a backup, the part that changes data: replace every row (but the kept
tables') with the seed files' and then team.json's, in the caller's write transaction.

app/backup/restore.py checks the files first and opens the transaction. The seed goes in
through writes/seed.py, which bumps the data version (a restore is a change every process
and cache must see); the backup's own revisions then replace the history.
"""

from typing import Any

from sqlalchemy import delete, func, inspect, or_, text
from sqlmodel import Session, SQLModel, col, select

from app.accounts.models import ApiToken, UserAccount
from app.backup.document import NoteItem, TeamData, describe_counts
from app.backup.dump import FOREIGN
from app.db import lock_writes
from app.models import (
    VOCABULARY_TABLES,
    BenchmarkResult,
    Capability,
    CapabilityCategory,
    Claim,
    HardwarePrice,
    ImportBatch,
    ImportRun,
    Metric,
    ModelConfig,
    Revision,
    Source,
    SourceCaveat,
    System,
    TeamNote,
)
from app.seeding.reader import SeedData
from app.vocabulary.names import alias_key
from app.writes.revisions import SEED_ACTOR
from app.writes.seed import apply_seed_in

KEPT_TABLES = ("meta",)
"""Not replaced by a restore: the data version counts on from the database's own, so every
process and cache sees the restore as a change."""
_COLUMN = {kind: column for column, kind in FOREIGN.items()}


class NotEmptyError(Exception):
    """The database holds team data or users, and a restore would replace them."""

    def __init__(self, held: dict[str, int]) -> None:
        self.held = held
        listing = describe_counts(held)
        super().__init__(
            f"The database already holds team data or users ({listing}). A restore replaces "
            "everything in it with the backup's. If you may want it back, export it first "
            "(inference-atlas export DIR); then run the import again with --replace."
        )


def restore_rows(session: Session, team: TeamData, data: SeedData, replace: bool) -> dict[str, int]:
    """Replace everything with the seed `data` and the backup's `team` rows; return what
    team data was replaced (NotEmptyError when there is some and `replace` is false)."""
    lock_writes(session)
    held = team_data_held(session)
    if held and not replace:
        raise NotEmptyError(held)
    _wipe(session)
    apply_seed_in(session, data)
    # The backup's history replaces the summary revision of this first seed.
    session.execute(delete(Revision))
    _Restorer(session).run(team)
    return held


def team_data_held(session: Session) -> dict[str, int]:
    """What the database holds that only people make (a seeded database holds none)."""
    team = ~col(Source.published)
    counts = {
        "users": select(func.count()).select_from(UserAccount),
        "tokens": select(func.count()).select_from(ApiToken),
        "team sources": select(func.count()).where(team),
        "team claims": select(func.count()).select_from(Claim).join(Source).where(team),
        "team results": select(func.count()).select_from(BenchmarkResult).join(Source).where(team),
        "team notes": select(func.count()).select_from(TeamNote),
        "hardware prices": select(func.count()).select_from(HardwarePrice),
        "revisions by users": select(func.count()).where(
            or_(col(Revision.actor) != SEED_ACTOR, col(Revision.user_id).is_not(None))
        ),
    }
    held = {what: session.exec(query).one() for what, query in counts.items()}
    added = [System, *(model for model, *_ in VOCABULARY_TABLES.values())]
    held["team entries"] = sum(
        session.exec(select(func.count()).select_from(m).where(col(m.team))).one() for m in added
    )
    return {what: n for what, n in held.items() if n}


def _wipe(session: Session) -> None:
    """Delete every row (children first) but the kept tables'. DELETE, not TRUNCATE: readers
    go on seeing the old rows until the restore commits."""
    present = set(inspect(session.connection()).get_table_names())
    for table in reversed(SQLModel.metadata.sorted_tables):
        if table.name in present and table.name not in KEPT_TABLES:
            session.execute(delete(table))


class _Restorer:
    """Inserts team.json's rows, turning keys back into the new database's ids."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.ids: dict[str, dict[str, int]] = {
            "source": self._ids(Source),
            "system": self._ids(System),
            "capability": self._ids(Capability),
            "metric": self._ids(Metric),
            "category": self._ids(CapabilityCategory),
            **{kind: self._ids(model) for kind, (model, *_) in VOCABULARY_TABLES.items()},
        }

    def _ids(self, model: Any) -> dict[str, int]:
        return dict(self.session.exec(select(model.slug, model.id)).all())

    def run(self, team: TeamData) -> None:
        self.ids["user"] = self.insert(UserAccount, team.users, "name")
        self.insert(ApiToken, team.tokens)
        self.ids["source"] |= self.insert(Source, team.sources, "slug", skip={"caveats"})
        for source in team.sources:
            for position, caveat in enumerate(source.caveats):
                source_id = self.ids["source"][source.slug]
                fields = caveat.model_dump() | {"source_id": source_id, "position": position}
                self.session.add(SourceCaveat(**fields))
        self.ids["system"] |= self.insert(System, team.withdrawn_systems, "slug")
        self.ids["capability"] |= self.insert(Capability, team.withdrawn_capabilities, "slug")
        self.ids["metric"] |= self.insert(Metric, team.withdrawn_metrics, "slug")
        for kind, items in (
            ("hardware", team.withdrawn_hardware),
            ("model", team.withdrawn_models),
            ("workload", team.withdrawn_workloads),
        ):
            self.ids[kind] |= self.insert(VOCABULARY_TABLES[kind][0], items, "slug")
        for item in team.team_aliases:
            _, alias_model, parent = VOCABULARY_TABLES[item.kind]
            user = self.ids["user"][item.user] if item.user else None
            entry = {parent: self.ids[item.kind][item.entry]}
            named = {"alias": item.alias, "key": alias_key(item.alias)}
            row = alias_model(**entry, **named, position=item.position, team=True, user_id=user)
            self.session.add(row)
        self.insert(Claim, team.claims)
        self.ids["import_run"] = self.insert_imports(team)
        self.insert(BenchmarkResult, team.results, rename={"id": "slug"})
        self.insert_notes(team.notes)
        for price in team.prices:  # keyed by the entry's slug, not its id
            user = self.ids["user"][price.user] if price.user else None
            fields = price.model_dump(exclude={"user"})
            self.session.add(HardwarePrice(**fields, user_id=user))
        for config in team.model_configs:  # after the models and sources they point at
            fields = config.model_dump(exclude={"model", "source"})
            model_id, source_id = self.ids["model"][config.model], self.ids["source"][config.source]
            self.session.add(ModelConfig(**fields, languagemodel_id=model_id, source_id=source_id))
        self.insert(Revision, team.revisions)
        self.session.flush()
        if team.revisions and self.session.get_bind().dialect.name == "postgresql":
            # Revisions keep their ids; the next one made must come after them.
            self.session.execute(
                text("SELECT setval(pg_get_serial_sequence('revision', 'id'), :last)"),
                {"last": team.revisions[-1].id},
            )

    def insert_imports(self, team: TeamData) -> dict[str, int]:
        """The imported files and their runs; returns `key#position` -> the run's new id."""
        batches = self.insert(ImportBatch, team.imports, "key", skip={"runs"})
        runs: dict[str, int] = {}
        for item in team.imports:
            for run in item.runs:
                row = ImportRun(**run.model_dump(), batch_id=batches[item.key])
                self.session.add(row)
                self.session.flush()
                runs[f"{item.key}#{run.position}"] = row.id  # type: ignore[assignment]
        return runs

    def insert_notes(self, notes: list[NoteItem]) -> None:
        """Notes after the claims and results they are on (seeded, or just inserted)."""
        self.session.flush()
        claims = {
            (c.system_id, c.capability_id, c.source_id, c.note): c.id
            for c in self.session.exec(select(Claim))
        }
        results = dict(self.session.exec(select(BenchmarkResult.slug, BenchmarkResult.id)).all())
        for note in notes:
            system = self.ids["system"][note.system]
            on = note.claim
            claim = (
                None
                if on is None
                else claims[
                    (
                        system,
                        self.ids["capability"][on.capability],
                        self.ids["source"][on.source],
                        on.note,
                    )
                ]
            )
            fields = note.model_dump(exclude={"id", "system", "claim", "result", "user"})
            self.session.add(
                TeamNote(
                    **fields,
                    slug=note.id,
                    system_id=system,
                    claim_id=claim,
                    result_id=results[note.result] if note.result else None,
                    user_id=self.ids["user"][note.user] if note.user else None,
                )
            )

    def insert(
        self,
        model: Any,
        items: list[Any],
        key: str | None = None,
        skip: set[str] | None = None,
        rename: dict[str, str] | None = None,
    ) -> dict[str, int]:
        """Add a row per item; return key -> new id when `key` is given."""
        rows = [self.row(model, item, skip or set(), rename or {}) for item in items]
        self.session.add_all(rows)
        if key is None:
            return {}
        self.session.flush()
        return {getattr(row, key): row.id for row in rows}

    def row(self, model: Any, item: Any, skip: set[str], rename: dict[str, str]) -> Any:
        fields: dict[str, Any] = {}
        for name, value in item.model_dump(exclude=skip).items():
            if name in _COLUMN:
                fields[_COLUMN[name]] = None if value is None else self.ids[name][value]
            else:
                fields[rename.get(name, name)] = value
        return model(**fields)
