"""The database tables. Slugs are the stable keys; numeric ids never leave the database."""

import datetime as dt
from typing import Any

from sqlalchemy import (
    JSON,
    CheckConstraint,
    Column,
    DateTime,
    Dialect,
    Index,
    TypeDecorator,
    UniqueConstraint,
    false,
    true,
)
from sqlmodel import Field, SQLModel

# Constraint names follow one pattern, so a migration can drop or change a constraint by
# name on every database (SQLite keeps unnamed constraints, and batch mode needs names).
# Set before any table is defined: names are given when a constraint joins its table.
SQLModel.metadata.naming_convention = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

# The account tables are part of the same schema (a revision names its user; migrations and
# create_all must see every table). Imported after the naming convention, which they use.
from app.accounts import models as _account_models  # noqa: E402, F401


def withdrawn_field() -> Any:
    """Set when the seed no longer has a published row that other rows still point at.

    Reseeding deletes a published row that left seed/ only when nothing refers to it (team
    claims, results and notes will); otherwise the row stays, marked withdrawn.
    """
    return Field(default=False, sa_column_kwargs={"server_default": false()})


def version_field() -> Any:
    """A team row's edit count: a save based on an older version is refused (app/team)."""
    return Field(default=1, sa_column_kwargs={"server_default": "1"})


def team_flag() -> Any:
    """Set on a row a team added on this instance (app/writes/entries.py): the seed files
    never hold it, reseeding never touches it, backups carry it in team.json."""
    return Field(default=False, sa_column_kwargs={"server_default": false()})


def author_field() -> Any:
    """The user who last saved a team row (published rows have none)."""
    return Field(default=None, foreign_key="user_account.id", index=True)


class UTCDateTime(TypeDecorator[dt.datetime]):
    """A timestamp stored in UTC and read back as an aware datetime on every database.

    SQLite keeps no time zone, so its values come back naive; they were written in UTC.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(
        self, value: dt.datetime | None, _dialect: Dialect
    ) -> dt.datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError(f"a naive datetime ({value}) has no time zone; pass one in UTC")
        return value.astimezone(dt.UTC)

    def process_result_value(
        self, value: dt.datetime | None, _dialect: Dialect
    ) -> dt.datetime | None:
        if value is None or value.tzinfo is not None:
            return value
        return value.replace(tzinfo=dt.UTC)


class Source(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    slug: str = Field(unique=True, index=True, max_length=100)
    short: str = Field(max_length=60)
    title: str
    subtitle: str | None = None
    publisher: str | None = None
    author: str | None = None
    date: str = Field(max_length=10)
    kind: str = Field(max_length=30)
    url: str | None = None
    # A first-party source (project docs, release notes, official blog) names what was read:
    # the docs version and/or the repository commit, and the day we read it (migration 0008).
    version: str | None = Field(default=None, max_length=40)
    commit: str | None = Field(default=None, max_length=40)
    read: str | None = Field(default=None, max_length=10)
    note: str | None = None
    position: int = 0
    # The seed owns the published sources and every row that cites one; a team's rows cite
    # its own sources (published false), which reseeding never touches.
    published: bool = Field(default=False, sa_column_kwargs={"server_default": false()})
    withdrawn: bool = withdrawn_field()


class SourceCaveat(SQLModel, table=True):
    """Something to bear in mind when weighing a source (likely machine-written, a vendor's
    own interest, estimated figures). A table of its own rather than a column on Source, so a
    database made before caveats existed gains it from create_all without a migration."""

    id: int | None = Field(default=None, primary_key=True)
    source_id: int = Field(foreign_key="source.id", index=True)
    kind: str = Field(max_length=30)
    text: str
    position: int = 0


class CapabilityCategory(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    slug: str = Field(unique=True, index=True, max_length=100)
    name: str
    kind: str = Field(max_length=20)
    position: int = 0


class Capability(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    slug: str = Field(unique=True, index=True, max_length=100)
    name: str
    description: str
    category_id: int = Field(foreign_key="capabilitycategory.id", index=True)
    position: int = 0
    withdrawn: bool = withdrawn_field()


class System(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    slug: str = Field(unique=True, index=True, max_length=100)
    name: str
    kind: str = Field(max_length=30)
    licence: str = Field(max_length=60)
    status: str = Field(max_length=20)
    status_since: str | None = Field(default=None, max_length=10)
    language: str | None = None
    repository: str | None = None
    summary: str
    tags: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    summary_sources: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    withdrawn: bool = withdrawn_field()
    team: bool = team_flag()
    user_id: int | None = author_field()
    version: int = version_field()
    updated_at: dt.datetime | None = Field(default=None, sa_column=Column(UTCDateTime()))


class SystemNote(SQLModel, table=True):
    """A best-for or weakness line, each with its own source."""

    id: int | None = Field(default=None, primary_key=True)
    system_id: int = Field(foreign_key="system.id", index=True)
    kind: str = Field(max_length=20)
    text: str
    source_id: int = Field(foreign_key="source.id", index=True)
    position: int = 0


class SystemFact(SQLModel, table=True):
    """A sourced attribute (licence, version, status, ...); disagreeing sources sit side by side."""

    id: int | None = Field(default=None, primary_key=True)
    system_id: int = Field(foreign_key="system.id", index=True)
    attribute: str = Field(max_length=40)
    value: str
    date: str | None = Field(default=None, max_length=10)
    note: str | None = None
    source_id: int = Field(foreign_key="source.id", index=True)
    position: int = 0


class Claim(SQLModel, table=True):
    # One claim per source on a cell, except where the source contradicts itself: then each
    # reading is its own row, told apart by its note (the seed loader enforces both).
    __table_args__ = (UniqueConstraint("system_id", "capability_id", "source_id", "note"),)

    id: int | None = Field(default=None, primary_key=True)
    system_id: int = Field(foreign_key="system.id", index=True)
    capability_id: int = Field(foreign_key="capability.id", index=True)
    source_id: int = Field(foreign_key="source.id", index=True)
    level: str = Field(max_length=20)
    strength: int | None = None
    # What first-party docs add (migration 0008): the version the feature arrived in, how it
    # is turned on (a flag, an option, a build switch) and the page that says so.
    since: str | None = Field(default=None, max_length=40)
    how: str | None = Field(default=None, max_length=200)
    page: str | None = None
    note: str | None = None
    position: int = 0
    withdrawn: bool = withdrawn_field()
    user_id: int | None = author_field()
    version: int = version_field()
    updated_at: dt.datetime | None = Field(default=None, sa_column=Column(UTCDateTime()))


class Metric(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    slug: str = Field(unique=True, index=True, max_length=100)
    name: str
    units: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    better: str = Field(max_length=10)
    kind: str = Field(max_length=20)
    position: int = 0
    withdrawn: bool = withdrawn_field()


def vague_field() -> Any:
    """Set on a vocabulary entry that names a class or an unstated part, never one product."""
    return Field(default=False, sa_column_kwargs={"server_default": false()})


def sources_field() -> Any:
    """The slugs of the sources that name a vocabulary entry (and give its facts)."""
    return Field(default_factory=list, sa_column=Column(JSON, nullable=False))


class Hardware(SQLModel, table=True):
    """An accelerator, chip or class of them that benchmark results ran on (seed/hardware.yaml)."""

    id: int | None = Field(default=None, primary_key=True)
    slug: str = Field(unique=True, index=True, max_length=100)
    name: str
    vendor: str | None = None
    form_factor: str | None = Field(default=None, max_length=20)
    memory_gb: float | None = None
    # As the device reports it (decimal GB) and the source slug saying so (migration 0012).
    reported_memory_gb: float | None = None
    reported_memory_source: str | None = Field(default=None, max_length=100)
    # Unified memory: the share of it the GPU may use by default, and its source.
    unified_memory: bool = Field(default=False, sa_column_kwargs={"server_default": false()})
    gpu_share: float | None = None
    gpu_share_source: str | None = Field(default=None, max_length=100)
    vague: bool = vague_field()
    sources: list[str] = sources_field()
    note: str | None = None
    position: int = 0
    withdrawn: bool = withdrawn_field()
    team: bool = team_flag()
    user_id: int | None = author_field()
    version: int = version_field()
    updated_at: dt.datetime | None = Field(default=None, sa_column=Column(UTCDateTime()))


class LanguageModel(SQLModel, table=True):
    """A model (or a vague group of them) that benchmark results ran (seed/models.yaml)."""

    id: int | None = Field(default=None, primary_key=True)
    slug: str = Field(unique=True, index=True, max_length=100)
    name: str
    family: str | None = None
    parameters_b: float | None = None
    # dense, moe, hybrid, ... (migration 0011 renamed the dense/moe `architecture` to this).
    kind: str | None = Field(default=None, max_length=20)
    active_parameters_b: float | None = None  # a mixture of experts' parameters per token
    # The Hugging Face class (LlamaForCausalLM): text, not a key of `architecture`, because a
    # seed may name classes without listing them in architectures.yaml.
    architecture: str | None = Field(default=None, max_length=100, index=True)
    # A quantised or fine-tuned derivative's base model (seed `base`, a model slug).
    base_id: int | None = Field(default=None, foreign_key="languagemodel.id", index=True)
    precision: str | None = Field(default=None, max_length=40)  # native weights: BF16, FP8
    vague: bool = vague_field()
    sources: list[str] = sources_field()
    note: str | None = None
    position: int = 0
    withdrawn: bool = withdrawn_field()
    team: bool = team_flag()
    user_id: int | None = author_field()
    version: int = version_field()
    updated_at: dt.datetime | None = Field(default=None, sa_column=Column(UTCDateTime()))


class ModelConfig(SQLModel, table=True):
    """A model's config.json facts (seed models.yaml `config`), at most one row per model.

    Typed columns rather than a JSON blob: the memory-fit arithmetic (issue 36) multiplies
    layers, KV heads and head sizes in SQL and Python alike, and a database check can see them.
    """

    __tablename__ = "model_config"

    id: int | None = Field(default=None, primary_key=True)
    languagemodel_id: int = Field(foreign_key="languagemodel.id", unique=True, index=True)
    source_id: int = Field(foreign_key="source.id", index=True)
    page: str
    revision: str | None = Field(default=None, max_length=40)
    layers: int | None = None
    hidden_size: int | None = None
    attention_heads: int | None = None
    kv_heads: int | None = None
    head_dim: int | None = None
    v_head_dim: int | None = None
    kv_lora_rank: int | None = None
    qk_rope_head_dim: int | None = None
    sliding_window: int | None = None
    sliding_window_layers: int | None = None
    layer_pattern: str | None = None
    linear_attention_layers: int | None = None
    full_attention_layers: int | None = None
    experts: int | None = None
    experts_per_token: int | None = None
    shared_experts: int | None = None
    context: int | None = None
    vocab_size: int | None = None
    torch_dtype: str | None = Field(default=None, max_length=40)
    quantization: str | None = Field(default=None, max_length=40)
    note: str | None = None


class Architecture(SQLModel, table=True):
    """A Hugging Face architecture class (seed/architectures.yaml), keyed by its name."""

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(unique=True, index=True, max_length=100)  # LlamaForCausalLM
    family: str
    kind: str = Field(max_length=20)
    model_type: str | None = Field(default=None, max_length=40)
    gguf: str | None = Field(default=None, max_length=40)
    attention: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    note: str | None = None
    source_id: int = Field(foreign_key="source.id", index=True)
    position: int = 0


class ModelSupport(SQLModel, table=True):
    """One source's word that a system serves an architecture class (seed/support/).

    A table of its own, not claims on capabilities: see migration 0011 for why. The cell
    weighing (queries/cells.py) works on read models, so a models x systems matrix can turn
    these rows into claim views and share the cell panel, legend and exports.
    """

    __tablename__ = "model_support"
    __table_args__ = (UniqueConstraint("system_id", "architecture", "source_id"),)

    id: int | None = Field(default=None, primary_key=True)
    system_id: int = Field(foreign_key="system.id", index=True)
    architecture: str = Field(max_length=100, index=True)  # the Hugging Face class
    source_id: int = Field(foreign_key="source.id", index=True)
    level: str = Field(max_length=20)
    since: str | None = Field(default=None, max_length=40)
    # False: the tag before `since` was not read, so the row reads "by <since>".
    since_exact: bool = Field(default=True, sa_column_kwargs={"server_default": true()})
    until: str | None = Field(default=None, max_length=40)  # first tag where it is gone
    scope: str | None = Field(default=None, max_length=200)
    native: str | None = Field(default=None, max_length=200)  # the project's own key
    page: str
    note: str | None = None
    position: int = 0


class Workload(SQLModel, table=True):
    """The kind of traffic a benchmark result measured (seed/workloads.yaml)."""

    id: int | None = Field(default=None, primary_key=True)
    slug: str = Field(unique=True, index=True, max_length=100)
    name: str
    description: str
    input_tokens: int | None = None
    output_tokens: int | None = None
    shape: str | None = Field(default=None, max_length=20)  # chat, rag, agentic, batch
    vague: bool = vague_field()
    sources: list[str] = sources_field()
    position: int = 0
    withdrawn: bool = withdrawn_field()
    team: bool = team_flag()
    user_id: int | None = author_field()
    version: int = version_field()
    updated_at: dt.datetime | None = Field(default=None, sa_column=Column(UTCDateTime()))


# One alias table per vocabulary, so each alias has a real foreign key to its entry. `key` is
# the alias as names are compared (app.vocabulary.names.alias_key). Not unique in the database:
# during a reseed an alias may move from one entry to another; the seed loader keeps names
# unique. A team's alias (`team`) may sit on a published entry: reseeding leaves it alone.
class HardwareAlias(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    hardware_id: int = Field(foreign_key="hardware.id", index=True)
    alias: str
    key: str = Field(index=True)
    position: int = 0
    team: bool = team_flag()
    user_id: int | None = author_field()


class LanguageModelAlias(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    languagemodel_id: int = Field(foreign_key="languagemodel.id", index=True)
    alias: str
    key: str = Field(index=True)
    position: int = 0
    team: bool = team_flag()
    user_id: int | None = author_field()


class WorkloadAlias(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    workload_id: int = Field(foreign_key="workload.id", index=True)
    alias: str
    key: str = Field(index=True)
    position: int = 0
    team: bool = team_flag()
    user_id: int | None = author_field()


class BenchmarkResult(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    slug: str = Field(unique=True, index=True, max_length=120)
    system_id: int = Field(foreign_key="system.id", index=True)
    metric_id: int = Field(foreign_key="metric.id", index=True)
    source_id: int = Field(foreign_key="source.id", index=True)
    value: float | None = None
    low: float | None = None
    high: float | None = None
    qualifier: str = Field(default="exact", max_length=20)
    unit: str = Field(max_length=20)
    # The context, on the shared vocabulary (empty: the source does not say).
    hardware_id: int | None = Field(default=None, foreign_key="hardware.id", index=True)
    gpus: int | None = None  # how many of the hardware
    model_id: int | None = Field(default=None, foreign_key="languagemodel.id", index=True)
    precision: str | None = None
    concurrency: int | None = None
    workload_id: int | None = Field(default=None, foreign_key="workload.id", index=True)
    setup: str | None = None  # our one line on the setup the source describes
    # The hardware and model a team result named as free text before the vocabulary existed
    # (migration 0007), kept as given; one that matched no entry points at unlisted-*.
    hardware_text: str | None = None
    model_text: str | None = None
    system_version: str | None = None
    baseline: str | None = None
    run_by: str | None = None
    date: str | None = Field(default=None, max_length=10)
    note: str | None = None
    position: int = 0
    withdrawn: bool = withdrawn_field()
    user_id: int | None = author_field()
    version: int = version_field()
    updated_at: dt.datetime | None = Field(default=None, sa_column=Column(UTCDateTime()))
    # A result imported from a tool's result file: the run it came from (raw metrics kept).
    import_run_id: int | None = Field(default=None, foreign_key="importrun.id", index=True)


class ImportBatch(SQLModel, table=True):
    """A benchmark result file a team member uploaded (app/writes/imports.py).

    `pending` while the uploader looks at the preview; confirming saves its results, under a
    source of its own (the tool, the file, the date), and makes it `saved`. Pending previews
    are kept for a day, so confirming works on whichever app process the request reaches.
    """

    id: int | None = Field(default=None, primary_key=True)
    key: str = Field(unique=True, index=True, max_length=40)
    user_id: int = Field(foreign_key="user_account.id", index=True)
    created_at: dt.datetime = Field(sa_column=Column(UTCDateTime(), nullable=False))
    state: str = Field(default="pending", max_length=10)
    file_name: str = Field(max_length=300)
    file_sha256: str = Field(max_length=64)
    format: str = Field(max_length=30)
    # What the uploader gave (system, hardware, precision...) and the preview built from it.
    context: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    preview: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    source_id: int | None = Field(default=None, foreign_key="source.id", index=True)


class ImportRun(SQLModel, table=True):
    """One run of a confirmed import: its setup and every metric the file gave, normalised
    (ms, tok/s, req/s, tok/s/user), and the file's own numbers as written."""

    id: int | None = Field(default=None, primary_key=True)
    batch_id: int = Field(foreign_key="importbatch.id", index=True)
    position: int = 0  # the run's place in the file
    location: str = Field(max_length=100)  # "line 3", "benchmarks[4]"
    setup: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    metrics: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    raw: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))


class TeamNote(SQLModel, table=True):
    """A team's note on a published item: a claim (one source's reading of a cell), a
    benchmark figure, or a system as a whole. Published rows are annotated, never rewritten.

    The note points at its item by foreign key, so reseeding keeps an item that a note points
    at (withdrawn) when it leaves seed/. `system_id` is always set, also for a claim's or a
    figure's note: it files the note (and its revisions) under the system.
    """

    __tablename__ = "team_note"
    __table_args__ = (CheckConstraint("claim_id IS NULL OR result_id IS NULL", name="one_item"),)

    id: int | None = Field(default=None, primary_key=True)
    slug: str = Field(unique=True, index=True, max_length=40)  # the API's id: note-<hex>
    system_id: int = Field(foreign_key="system.id", index=True)
    claim_id: int | None = Field(default=None, foreign_key="claim.id", index=True)
    result_id: int | None = Field(default=None, foreign_key="benchmarkresult.id", index=True)
    text: str
    link: str | None = None  # http or https only (checked by app/writes/inputs.py)
    user_id: int | None = author_field()
    version: int = version_field()
    created_at: dt.datetime = Field(sa_column=Column(UTCDateTime(), nullable=False))
    updated_at: dt.datetime = Field(sa_column=Column(UTCDateTime(), nullable=False))


class Rule(SQLModel, table=True):
    """A guided-flow rule: when the answers match, apply an effect to the matching systems."""

    id: int | None = Field(default=None, primary_key=True)
    slug: str = Field(unique=True, index=True, max_length=100)
    when: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    systems: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    requires: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    effect: str = Field(max_length=20)
    weight: float = 0
    reason: str
    source_id: int = Field(foreign_key="source.id", index=True)
    position: int = 0
    advice: str | None = Field(default=None, max_length=100)
    fallback: bool = False
    rests_on: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON, nullable=True))


class Meta(SQLModel, table=True):
    """Key/value facts about the loaded data set (when it was seeded, its version)."""

    key: str = Field(primary_key=True, max_length=50)
    value: str


class Revision(SQLModel, table=True):
    """One change to one row, written in the transaction that makes it (app/writes/revisions.py).

    `key` is the row's stable key as text (a slug, or `system/capability/source` for a
    claim), so the history outlives the row's id. `user_id` names the user who made a team
    change (users are disabled, never deleted, so it stays valid).
    """

    __table_args__ = (
        Index("ix_revision_entity_key", "entity", "key"),
        Index("ix_revision_system_slug", "system_slug"),
        Index("ix_revision_actor", "actor"),
    )

    id: int | None = Field(default=None, primary_key=True)
    at: dt.datetime = Field(sa_column=Column(UTCDateTime(), nullable=False))
    actor: str = Field(max_length=100)  # "seed", or the user's name
    user_id: int | None = Field(default=None, index=True, foreign_key="user_account.id")
    entity: str = Field(max_length=40)  # "system", "claim", "benchmark_result", "source", ...
    key: str = Field(max_length=400)
    system_slug: str | None = Field(default=None, max_length=100)
    action: str = Field(max_length=20)  # create, update, delete, withdraw
    before: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    after: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    message: str | None = None


class HardwarePrice(SQLModel, table=True):
    """What one GPU of a hardware entry costs an hour, as the instance's editors set it
    (PUT /api/v1/hardware/{slug}/price). Keyed by the entry's slug, so a reseed that rebuilds
    the vocabulary keeps it; every change is also in the history (entity `hardware_price`)."""

    __tablename__ = "hardware_price"

    hardware: str = Field(primary_key=True, max_length=100)  # the entry's slug
    usd_per_gpu_hour: float
    basis: str = Field(max_length=300)  # "on-demand list price, cloud X, 2026-11"
    user_id: int | None = Field(default=None, foreign_key="user_account.id")
    updated_at: dt.datetime = Field(sa_column=Column(UTCDateTime(), nullable=False))


# Typed loosely on purpose: callers read each table's own columns (slug, position, ...).
VOCABULARY_TABLES: dict[str, tuple[Any, Any, str]] = {
    "hardware": (Hardware, HardwareAlias, "hardware_id"),
    "model": (LanguageModel, LanguageModelAlias, "languagemodel_id"),
    "workload": (Workload, WorkloadAlias, "workload_id"),
}
"""kind -> (entry table, alias table, the alias table's column pointing at its entry); a
benchmark result points at each kind through `<kind>_id`."""
