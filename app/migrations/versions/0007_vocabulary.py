"""A shared vocabulary: hardware, models and workloads as entries every benchmark result uses.

- `hardware`, `languagemodel`, `workload` and an alias table for each (seed/hardware.yaml,
  models.yaml, workloads.yaml); a result points at them through `hardware_id`, `model_id`
  and `workload_id`, with `gpus` (how many of the hardware) beside them.
- A result's free-text `hardware`, `model` and `workload` columns go. The workload text (our
  one line on the setup) moves to `setup`.
- Existing rows are converted, published and team alike, and none is dropped:
  - a published figure gets the entries seed/ gave it when this migration was written
    (0007_vocabulary.json beside this file: a frozen copy of the vocabulary and of each
    published figure's mapping, so this migration means the same thing whatever seed/ holds
    later);
  - any other result (a team's) is matched by name, ignoring case and spacing; a hardware or
    model name that matches no entry points at `unlisted-hardware` / `unlisted-model`, a
    workload at `unspecified`. Its hardware and model text is kept, as given, in
    `hardware_text` and `model_text`, so nothing the team wrote is lost.

Older code reads the dropped columns: stop every app server for this upgrade (docs/deploy.md).

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-23 19:13:43
"""

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

SNAPSHOT = Path(__file__).with_name("0007_vocabulary.json")
# kind -> (entry table, alias table, the alias table's column naming its entry, the
# result's column pointing at the entry, what an unmatched team name points at)
KINDS = {
    "hardware": ("hardware", "hardwarealias", "hardware_id", "hardware_id", "unlisted-hardware"),
    "model": (
        "languagemodel",
        "languagemodelalias",
        "languagemodel_id",
        "model_id",
        "unlisted-model",
    ),
    "workload": ("workload", "workloadalias", "workload_id", "workload_id", "unspecified"),
}


def _entry_columns(kind: str) -> list[sa.Column[Any]]:
    """The columns one kind of entry has besides those all share (new objects each call: a
    column belongs to one table)."""
    columns: dict[str, list[sa.Column[Any]]] = {
        "hardware": [
            sa.Column("vendor", sa.String(), nullable=True),
            sa.Column("form_factor", sa.String(length=20), nullable=True),
            sa.Column("memory_gb", sa.Float(), nullable=True),
            sa.Column("note", sa.String(), nullable=True),
        ],
        "model": [
            sa.Column("family", sa.String(), nullable=True),
            sa.Column("parameters_b", sa.Float(), nullable=True),
            sa.Column("architecture", sa.String(length=10), nullable=True),
            sa.Column("note", sa.String(), nullable=True),
        ],
        "workload": [
            sa.Column("description", sa.String(), nullable=False),
            sa.Column("input_tokens", sa.Integer(), nullable=True),
            sa.Column("output_tokens", sa.Integer(), nullable=True),
        ],
    }
    return columns[kind]


def _new_result_columns() -> list[sa.Column[Any]]:
    return [
        sa.Column("hardware_id", sa.Integer(), nullable=True),
        sa.Column("gpus", sa.Integer(), nullable=True),
        sa.Column("model_id", sa.Integer(), nullable=True),
        sa.Column("workload_id", sa.Integer(), nullable=True),
        sa.Column("setup", sa.String(), nullable=True),
        sa.Column("hardware_text", sa.String(), nullable=True),
        sa.Column("model_text", sa.String(), nullable=True),
    ]


NEW_RESULT_COLUMNS = [column.name for column in _new_result_columns()]
OLD_RESULT_COLUMNS = ("hardware", "model", "workload")
PRECISIONS = (
    "FP32",
    "FP16",
    "BF16",
    "FP8",
    "FP4",
    "NVFP4",
    "MXFP4",
    "INT8",
    "INT4",
    "AWQ",
    "GPTQ",
    "4-bit",
    "8-bit",
    "Q2_K",
    "Q3_K_M",
    "Q4",
    "Q4_0",
    "Q4_K_S",
    "Q4_K_M",
    "Q5_K_M",
    "Q6_K",
    "Q8_0",
    "IQ4_XS",
)


def alias_key(text: str) -> str:
    """As app.vocabulary.names.alias_key then (a migration never imports app code)."""
    return re.sub(r"[\s_\-]+", " ", text.casefold()).strip()


def canonical_precision(text: str) -> str:
    known = {alias_key(p).replace(" ", ""): p for p in PRECISIONS}
    return known.get(alias_key(text).replace(" ", ""), text.strip())


def upgrade() -> None:
    for kind in KINDS:
        _create_vocabulary_tables(kind)
    with op.batch_alter_table("benchmarkresult") as batch_op:
        for column in _new_result_columns():
            batch_op.add_column(column)
        for table, _alias, _parent, key, _fallback in KINDS.values():
            batch_op.create_index(batch_op.f(f"ix_benchmarkresult_{key}"), [key])
            batch_op.create_foreign_key(
                batch_op.f(f"fk_benchmarkresult_{key}_{table}"), table, [key], ["id"]
            )
    snapshot = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    ids = {kind: _insert_entries(kind, snapshot[kind]) for kind in KINDS}
    _convert_results(snapshot["published"], ids)
    with op.batch_alter_table("benchmarkresult") as batch_op:
        for name in OLD_RESULT_COLUMNS:
            batch_op.drop_column(name)


def _create_vocabulary_tables(kind: str) -> None:
    table, alias_table, parent, _column, _fallback = KINDS[kind]
    op.create_table(
        table,
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("slug", sa.String(length=100), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        *_entry_columns(kind),
        sa.Column("vague", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("sources", sa.JSON(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("withdrawn", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f(f"pk_{table}")),
    )
    op.create_index(op.f(f"ix_{table}_slug"), table, ["slug"], unique=True)
    op.create_table(
        alias_table,
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column(parent, sa.Integer(), nullable=False),
        sa.Column("alias", sa.String(), nullable=False),
        sa.Column("key", sa.String(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            [parent], [f"{table}.id"], name=op.f(f"fk_{alias_table}_{parent}_{table}")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f(f"pk_{alias_table}")),
    )
    op.create_index(op.f(f"ix_{alias_table}_{parent}"), alias_table, [parent])
    op.create_index(op.f(f"ix_{alias_table}_key"), alias_table, ["key"])


def _table(name: str, *columns: str) -> sa.TableClause:
    return sa.table(name, *(sa.column(c) for c in columns))


def _insert_entries(kind: str, entries: list[dict[str, Any]]) -> dict[str, Any]:
    """Insert the snapshot's entries and aliases; return slug -> id and alias key -> id."""
    table, alias_table, parent, _column, _fallback = KINDS[kind]
    names = ["slug", "name", *(c.name for c in _entry_columns(kind)), "vague", "sources"]
    entry_table = sa.table(
        table,
        *(sa.column(n) for n in names if n != "sources"),
        sa.column("sources", sa.JSON()),
        sa.column("position"),
        sa.column("withdrawn"),
    )
    bind = op.get_bind()
    # No explicit ids: PostgreSQL's sequences would not count them, and the next seed's
    # inserts would collide with them.
    for position, entry in enumerate(entries):
        values = {n: entry.get(n) for n in names}
        bind.execute(entry_table.insert().values(**values, position=position, withdrawn=False))
    slug_ids = {slug: i for slug, i in bind.execute(sa.text(f"SELECT slug, id FROM {table}"))}
    aliases = _table(alias_table, parent, "alias", "key", "position")
    by_key: dict[str, int] = {}
    for entry in entries:
        entry_id = slug_ids[entry["slug"]]
        for name in (entry["slug"], entry["name"]):
            by_key.setdefault(alias_key(name), entry_id)
        for position, alias in enumerate(entry["aliases"]):
            bind.execute(
                aliases.insert().values(
                    {
                        parent: entry_id,
                        "alias": alias,
                        "key": alias_key(alias),
                        "position": position,
                    }
                )
            )
            by_key.setdefault(alias_key(alias), entry_id)
    return {"slug": slug_ids, "key": by_key}


def _convert_results(published: dict[str, Any], ids: dict[str, dict[str, Any]]) -> None:
    """Point every result at its entries; keep a team's own names for hardware and model."""
    bind = op.get_bind()
    rows = (
        bind.execute(
            sa.text(
                "SELECT r.id, r.slug, r.hardware, r.model, r.workload, r.precision, s.published "
                "FROM benchmarkresult r JOIN source s ON s.id = r.source_id"
            )
        )
        .mappings()
        .all()
    )
    results = _table("benchmarkresult", "id", *NEW_RESULT_COLUMNS, "precision")
    for row in rows:
        mapped = published.get(row["slug"]) if row["published"] else None
        values = _published(mapped, ids) if mapped else _by_name(row, ids)
        values["precision"] = canonical_precision(row["precision"]) if row["precision"] else None
        bind.execute(results.update().where(results.c.id == row["id"]).values(**values))


def _published(mapped: dict[str, Any], ids: dict[str, dict[str, Any]]) -> dict[str, Any]:
    values = {f"{kind}_id": ids[kind]["slug"][s] if (s := mapped[kind]) else None for kind in KINDS}
    return values | {"gpus": mapped["gpus"], "setup": mapped["setup"]}


def _by_name(row: Any, ids: dict[str, dict[str, Any]]) -> dict[str, Any]:
    values: dict[str, Any] = {"setup": row["workload"]}
    for kind, (*_, column, fallback) in KINDS.items():
        text = row[kind]
        found = ids[kind]["key"].get(alias_key(text)) if text else None
        values[column] = found or (ids[kind]["slug"][fallback] if text else None)
    values["hardware_text"], values["model_text"] = row["hardware"], row["model"]
    return values


def downgrade() -> None:
    """Back to free text: a team's own names where kept, else the entry's name (a published
    figure gets its article's wording back from the snapshot)."""
    with op.batch_alter_table("benchmarkresult") as batch_op:
        for name in OLD_RESULT_COLUMNS:
            batch_op.add_column(sa.Column(name, sa.String(), nullable=True))
    _restore_text(json.loads(SNAPSHOT.read_text(encoding="utf-8"))["published"])
    with op.batch_alter_table("benchmarkresult") as batch_op:
        for table, _alias, _parent, column, _fallback in KINDS.values():
            batch_op.drop_constraint(
                batch_op.f(f"fk_benchmarkresult_{column}_{table}"), type_="foreignkey"
            )
            batch_op.drop_index(batch_op.f(f"ix_benchmarkresult_{column}"))
        for name in NEW_RESULT_COLUMNS:
            batch_op.drop_column(name)
    for table, alias_table, parent, _column, _fallback in KINDS.values():
        op.drop_index(op.f(f"ix_{alias_table}_key"), alias_table)
        op.drop_index(op.f(f"ix_{alias_table}_{parent}"), alias_table)
        op.drop_table(alias_table)
        op.drop_index(op.f(f"ix_{table}_slug"), table)
        op.drop_table(table)


def _restore_text(published: dict[str, Any]) -> None:
    bind = op.get_bind()
    names: dict[str, dict[Any, Any]] = {
        kind: dict(bind.execute(sa.text(f"SELECT id, name FROM {table}")).all())
        for kind, (table, *_) in KINDS.items()
    }
    rows = (
        bind.execute(
            sa.text(
                "SELECT id, slug, hardware_id, model_id, workload_id, setup, hardware_text, "
                "model_text FROM benchmarkresult"
            )
        )
        .mappings()
        .all()
    )
    results = _table("benchmarkresult", "id", *OLD_RESULT_COLUMNS)
    for row in rows:
        was = (published.get(row["slug"]) or {}).get("was") or {}
        values = {
            "hardware": was.get("hardware")
            or row["hardware_text"]
            or names["hardware"].get(row["hardware_id"]),
            "model": was.get("model") or row["model_text"] or names["model"].get(row["model_id"]),
            "workload": was.get("workload") or row["setup"],
        }
        bind.execute(results.update().where(results.c.id == row["id"]).values(**values))
