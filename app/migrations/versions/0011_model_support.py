"""Models know their architecture: kind, Hugging Face class, base, precision, config facts;
architecture classes; which system serves which class (issue 35).

- `languagemodel.architecture` (dense or moe) is renamed `kind`, its values kept, and widened
  for the new kinds (hybrid, vision-language, moe-vision-language, state-space); a new
  `architecture` holds the Hugging Face class, `base_id` a derivative's base model and
  `precision` the native weight precision.
- `model_config`: a model's config.json facts, typed columns (the fit arithmetic of issue 36
  multiplies them), at most one row per model.
- `architecture`: seed/architectures.yaml, keyed by the class name.
- `model_support`: seed/support/<source>.yaml rows. A table of its own rather than claims on a
  new capability category: the cell weighing (queries/cells.py) works on claim read models,
  so a models x systems matrix can build those from these rows and share the cell panel,
  legend and CSV/JSON; while some 200 classes as capabilities would enter every feature and
  hardware view, /features, coverage, the guided flow and the team's claim forms, which all
  read the capability table, and `since_exact`, `until`, `scope` and `native` mean nothing
  for a feature claim.

Downgrade maps the kinds back onto dense/moe (a kind with experts is moe, a dense or
vision-language one dense, the rest unstated) and drops the new tables and columns.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-06 00:38:08
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "architecture",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("family", sa.String(), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("model_type", sa.String(length=40), nullable=True),
        sa.Column("gguf", sa.String(length=40), nullable=True),
        sa.Column("attention", sa.JSON(), nullable=False),
        sa.Column("note", sa.String(), nullable=True),
        sa.Column("source_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["source_id"], ["source.id"], name=op.f("fk_architecture_source_id_source")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_architecture")),
    )
    with op.batch_alter_table("architecture", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_architecture_name"), ["name"], unique=True)
        batch_op.create_index(batch_op.f("ix_architecture_source_id"), ["source_id"], unique=False)

    op.create_table(
        "model_config",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("languagemodel_id", sa.Integer(), nullable=False),
        sa.Column("source_id", sa.Integer(), nullable=False),
        sa.Column("page", sa.String(), nullable=False),
        sa.Column("revision", sa.String(length=40), nullable=True),
        sa.Column("layers", sa.Integer(), nullable=True),
        sa.Column("hidden_size", sa.Integer(), nullable=True),
        sa.Column("attention_heads", sa.Integer(), nullable=True),
        sa.Column("kv_heads", sa.Integer(), nullable=True),
        sa.Column("head_dim", sa.Integer(), nullable=True),
        sa.Column("v_head_dim", sa.Integer(), nullable=True),
        sa.Column("kv_lora_rank", sa.Integer(), nullable=True),
        sa.Column("qk_rope_head_dim", sa.Integer(), nullable=True),
        sa.Column("sliding_window", sa.Integer(), nullable=True),
        sa.Column("sliding_window_layers", sa.Integer(), nullable=True),
        sa.Column("layer_pattern", sa.String(), nullable=True),
        sa.Column("linear_attention_layers", sa.Integer(), nullable=True),
        sa.Column("full_attention_layers", sa.Integer(), nullable=True),
        sa.Column("experts", sa.Integer(), nullable=True),
        sa.Column("experts_per_token", sa.Integer(), nullable=True),
        sa.Column("shared_experts", sa.Integer(), nullable=True),
        sa.Column("context", sa.Integer(), nullable=True),
        sa.Column("vocab_size", sa.Integer(), nullable=True),
        sa.Column("torch_dtype", sa.String(length=40), nullable=True),
        sa.Column("quantization", sa.String(length=40), nullable=True),
        sa.Column("note", sa.String(), nullable=True),
        sa.ForeignKeyConstraint(
            ["languagemodel_id"],
            ["languagemodel.id"],
            name=op.f("fk_model_config_languagemodel_id_languagemodel"),
        ),
        sa.ForeignKeyConstraint(
            ["source_id"], ["source.id"], name=op.f("fk_model_config_source_id_source")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_model_config")),
    )
    with op.batch_alter_table("model_config", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_model_config_languagemodel_id"), ["languagemodel_id"], unique=True
        )
        batch_op.create_index(batch_op.f("ix_model_config_source_id"), ["source_id"], unique=False)

    op.create_table(
        "model_support",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("system_id", sa.Integer(), nullable=False),
        sa.Column("architecture", sa.String(length=100), nullable=False),
        sa.Column("source_id", sa.Integer(), nullable=False),
        sa.Column("level", sa.String(length=20), nullable=False),
        sa.Column("since", sa.String(length=40), nullable=True),
        sa.Column("since_exact", sa.Boolean(), server_default=sa.true(), nullable=False),
        sa.Column("until", sa.String(length=40), nullable=True),
        sa.Column("scope", sa.String(length=200), nullable=True),
        sa.Column("native", sa.String(length=200), nullable=True),
        sa.Column("page", sa.String(), nullable=False),
        sa.Column("note", sa.String(), nullable=True),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["source_id"], ["source.id"], name=op.f("fk_model_support_source_id_source")
        ),
        sa.ForeignKeyConstraint(
            ["system_id"], ["system.id"], name=op.f("fk_model_support_system_id_system")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_model_support")),
        sa.UniqueConstraint(
            "system_id",
            "architecture",
            "source_id",
            name=op.f("uq_model_support_system_id_architecture_source_id"),
        ),
    )
    with op.batch_alter_table("model_support", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_model_support_architecture"), ["architecture"], unique=False
        )
        batch_op.create_index(batch_op.f("ix_model_support_source_id"), ["source_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_model_support_system_id"), ["system_id"], unique=False)

    # Two batches on SQLite: the rename first, so the new `architecture` does not meet the old.
    with op.batch_alter_table("languagemodel", schema=None) as batch_op:
        batch_op.alter_column(
            "architecture",
            new_column_name="kind",
            existing_type=sa.String(length=10),
            type_=sa.String(length=20),
            existing_nullable=True,
        )
    with op.batch_alter_table("languagemodel", schema=None) as batch_op:
        batch_op.add_column(sa.Column("architecture", sa.String(length=100), nullable=True))
        batch_op.add_column(sa.Column("base_id", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("precision", sa.String(length=40), nullable=True))
        batch_op.create_index(
            batch_op.f("ix_languagemodel_architecture"), ["architecture"], unique=False
        )
        batch_op.create_index(batch_op.f("ix_languagemodel_base_id"), ["base_id"], unique=False)
        batch_op.create_foreign_key(
            batch_op.f("fk_languagemodel_base_id_languagemodel"),
            "languagemodel",
            ["base_id"],
            ["id"],
        )


def downgrade() -> None:
    with op.batch_alter_table("languagemodel", schema=None) as batch_op:
        batch_op.drop_constraint(
            batch_op.f("fk_languagemodel_base_id_languagemodel"), type_="foreignkey"
        )
        batch_op.drop_index(batch_op.f("ix_languagemodel_base_id"))
        batch_op.drop_index(batch_op.f("ix_languagemodel_architecture"))
        batch_op.drop_column("precision")
        batch_op.drop_column("base_id")
        batch_op.drop_column("architecture")
    # The old column knew dense and moe only (and allowed active parameters on moe alone).
    op.execute(
        "UPDATE languagemodel SET kind = CASE"
        " WHEN kind IN ('moe', 'moe-vision-language') THEN 'moe'"
        " WHEN kind = 'hybrid' AND active_parameters_b IS NOT NULL THEN 'moe'"
        " WHEN kind IN ('dense', 'vision-language') THEN 'dense'"
        " ELSE NULL END"
    )
    with op.batch_alter_table("languagemodel", schema=None) as batch_op:
        batch_op.alter_column(
            "kind",
            new_column_name="architecture",
            existing_type=sa.String(length=20),
            type_=sa.String(length=10),
            existing_nullable=True,
        )

    with op.batch_alter_table("model_support", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_model_support_system_id"))
        batch_op.drop_index(batch_op.f("ix_model_support_source_id"))
        batch_op.drop_index(batch_op.f("ix_model_support_architecture"))

    op.drop_table("model_support")
    with op.batch_alter_table("model_config", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_model_config_source_id"))
        batch_op.drop_index(batch_op.f("ix_model_config_languagemodel_id"))

    op.drop_table("model_config")
    with op.batch_alter_table("architecture", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_architecture_source_id"))
        batch_op.drop_index(batch_op.f("ix_architecture_name"))

    op.drop_table("architecture")
