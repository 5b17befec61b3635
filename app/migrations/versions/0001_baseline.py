"""Baseline: the tables as `create_all` made them before migrations existed.

A database made before then has these tables and no alembic_version; app/migrations/migrate.py drops
and rebuilds it once (it holds only seed data).

Revision ID: 0001
Revises:
Create Date: 2026-11-23 14:57:16.297840
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "capabilitycategory",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("slug", sa.String(length=100), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_capabilitycategory")),
    )
    op.create_index(op.f("ix_capabilitycategory_slug"), "capabilitycategory", ["slug"], unique=True)

    op.create_table(
        "meta",
        sa.Column("key", sa.String(length=50), nullable=False),
        sa.Column("value", sa.String(), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_meta")),
    )
    op.create_table(
        "metric",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("slug", sa.String(length=100), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("units", sa.JSON(), nullable=False),
        sa.Column("better", sa.String(length=10), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_metric")),
    )
    op.create_index(op.f("ix_metric_slug"), "metric", ["slug"], unique=True)

    op.create_table(
        "source",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("slug", sa.String(length=100), nullable=False),
        sa.Column("short", sa.String(length=60), nullable=False),
        sa.Column("title", sa.String(), nullable=False),
        sa.Column("subtitle", sa.String(), nullable=True),
        sa.Column("publisher", sa.String(), nullable=True),
        sa.Column("author", sa.String(), nullable=True),
        sa.Column("date", sa.String(length=10), nullable=False),
        sa.Column("kind", sa.String(length=30), nullable=False),
        sa.Column("url", sa.String(), nullable=True),
        sa.Column("note", sa.String(), nullable=True),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_source")),
    )
    op.create_index(op.f("ix_source_slug"), "source", ["slug"], unique=True)

    op.create_table(
        "system",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("slug", sa.String(length=100), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("kind", sa.String(length=30), nullable=False),
        sa.Column("licence", sa.String(length=60), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("status_since", sa.String(length=10), nullable=True),
        sa.Column("language", sa.String(), nullable=True),
        sa.Column("repository", sa.String(), nullable=True),
        sa.Column("summary", sa.String(), nullable=False),
        sa.Column("tags", sa.JSON(), nullable=False),
        sa.Column("summary_sources", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_system")),
    )
    op.create_index(op.f("ix_system_slug"), "system", ["slug"], unique=True)

    op.create_table(
        "benchmarkresult",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("slug", sa.String(length=120), nullable=False),
        sa.Column("system_id", sa.Integer(), nullable=False),
        sa.Column("metric_id", sa.Integer(), nullable=False),
        sa.Column("source_id", sa.Integer(), nullable=False),
        sa.Column("value", sa.Float(), nullable=True),
        sa.Column("low", sa.Float(), nullable=True),
        sa.Column("high", sa.Float(), nullable=True),
        sa.Column("qualifier", sa.String(length=20), nullable=False),
        sa.Column("unit", sa.String(length=20), nullable=False),
        sa.Column("hardware", sa.String(), nullable=True),
        sa.Column("model", sa.String(), nullable=True),
        sa.Column("precision", sa.String(), nullable=True),
        sa.Column("concurrency", sa.Integer(), nullable=True),
        sa.Column("workload", sa.String(), nullable=True),
        sa.Column("system_version", sa.String(), nullable=True),
        sa.Column("baseline", sa.String(), nullable=True),
        sa.Column("run_by", sa.String(), nullable=True),
        sa.Column("date", sa.String(length=10), nullable=True),
        sa.Column("note", sa.String(), nullable=True),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["metric_id"], ["metric.id"], name=op.f("fk_benchmarkresult_metric_id_metric")
        ),
        sa.ForeignKeyConstraint(
            ["source_id"], ["source.id"], name=op.f("fk_benchmarkresult_source_id_source")
        ),
        sa.ForeignKeyConstraint(
            ["system_id"], ["system.id"], name=op.f("fk_benchmarkresult_system_id_system")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_benchmarkresult")),
    )
    op.create_index(
        op.f("ix_benchmarkresult_metric_id"), "benchmarkresult", ["metric_id"], unique=False
    )
    op.create_index(op.f("ix_benchmarkresult_slug"), "benchmarkresult", ["slug"], unique=True)
    op.create_index(
        op.f("ix_benchmarkresult_source_id"), "benchmarkresult", ["source_id"], unique=False
    )
    op.create_index(
        op.f("ix_benchmarkresult_system_id"), "benchmarkresult", ["system_id"], unique=False
    )

    op.create_table(
        "capability",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("slug", sa.String(length=100), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("description", sa.String(), nullable=False),
        sa.Column("category_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["category_id"],
            ["capabilitycategory.id"],
            name=op.f("fk_capability_category_id_capabilitycategory"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_capability")),
    )
    op.create_index(op.f("ix_capability_category_id"), "capability", ["category_id"], unique=False)
    op.create_index(op.f("ix_capability_slug"), "capability", ["slug"], unique=True)

    op.create_table(
        "rule",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("slug", sa.String(length=100), nullable=False),
        sa.Column("when", sa.JSON(), nullable=False),
        sa.Column("systems", sa.JSON(), nullable=False),
        sa.Column("requires", sa.JSON(), nullable=True),
        sa.Column("effect", sa.String(length=20), nullable=False),
        sa.Column("weight", sa.Float(), nullable=False),
        sa.Column("reason", sa.String(), nullable=False),
        sa.Column("source_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("advice", sa.String(length=100), nullable=True),
        sa.Column("fallback", sa.Boolean(), nullable=False),
        sa.Column("rests_on", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(
            ["source_id"], ["source.id"], name=op.f("fk_rule_source_id_source")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rule")),
    )
    op.create_index(op.f("ix_rule_slug"), "rule", ["slug"], unique=True)
    op.create_index(op.f("ix_rule_source_id"), "rule", ["source_id"], unique=False)

    op.create_table(
        "sourcecaveat",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("source_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=30), nullable=False),
        sa.Column("text", sa.String(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["source_id"], ["source.id"], name=op.f("fk_sourcecaveat_source_id_source")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_sourcecaveat")),
    )
    op.create_index(op.f("ix_sourcecaveat_source_id"), "sourcecaveat", ["source_id"], unique=False)

    op.create_table(
        "systemfact",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("system_id", sa.Integer(), nullable=False),
        sa.Column("attribute", sa.String(length=40), nullable=False),
        sa.Column("value", sa.String(), nullable=False),
        sa.Column("date", sa.String(length=10), nullable=True),
        sa.Column("note", sa.String(), nullable=True),
        sa.Column("source_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["source_id"], ["source.id"], name=op.f("fk_systemfact_source_id_source")
        ),
        sa.ForeignKeyConstraint(
            ["system_id"], ["system.id"], name=op.f("fk_systemfact_system_id_system")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_systemfact")),
    )
    op.create_index(op.f("ix_systemfact_source_id"), "systemfact", ["source_id"], unique=False)
    op.create_index(op.f("ix_systemfact_system_id"), "systemfact", ["system_id"], unique=False)

    op.create_table(
        "systemnote",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("system_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("text", sa.String(), nullable=False),
        sa.Column("source_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["source_id"], ["source.id"], name=op.f("fk_systemnote_source_id_source")
        ),
        sa.ForeignKeyConstraint(
            ["system_id"], ["system.id"], name=op.f("fk_systemnote_system_id_system")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_systemnote")),
    )
    op.create_index(op.f("ix_systemnote_source_id"), "systemnote", ["source_id"], unique=False)
    op.create_index(op.f("ix_systemnote_system_id"), "systemnote", ["system_id"], unique=False)

    op.create_table(
        "claim",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("system_id", sa.Integer(), nullable=False),
        sa.Column("capability_id", sa.Integer(), nullable=False),
        sa.Column("source_id", sa.Integer(), nullable=False),
        sa.Column("level", sa.String(length=20), nullable=False),
        sa.Column("strength", sa.Integer(), nullable=True),
        sa.Column("note", sa.String(), nullable=True),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["capability_id"], ["capability.id"], name=op.f("fk_claim_capability_id_capability")
        ),
        sa.ForeignKeyConstraint(
            ["source_id"], ["source.id"], name=op.f("fk_claim_source_id_source")
        ),
        sa.ForeignKeyConstraint(
            ["system_id"], ["system.id"], name=op.f("fk_claim_system_id_system")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_claim")),
        sa.UniqueConstraint(
            "system_id",
            "capability_id",
            "source_id",
            "note",
            name=op.f("uq_claim_system_id_capability_id_source_id_note"),
        ),
    )
    op.create_index(op.f("ix_claim_capability_id"), "claim", ["capability_id"], unique=False)
    op.create_index(op.f("ix_claim_source_id"), "claim", ["source_id"], unique=False)
    op.create_index(op.f("ix_claim_system_id"), "claim", ["system_id"], unique=False)


def downgrade() -> None:
    # Indexes go with their tables; children before the tables they point at.
    op.drop_table("claim")
    op.drop_table("systemnote")
    op.drop_table("systemfact")
    op.drop_table("sourcecaveat")
    op.drop_table("rule")
    op.drop_table("capability")
    op.drop_table("benchmarkresult")
    op.drop_table("system")
    op.drop_table("source")
    op.drop_table("metric")
    op.drop_table("meta")
    op.drop_table("capabilitycategory")
