"""team.json: a team's own data as one versioned JSON document (read.py reads it back).

Rows are keyed by stable keys (slugs, result ids, user names), never database ids. The
one exception is a revision's id: it is the history's own key (pages of history go back by
it, and links and feeds name it), so a restore keeps it.

What the document holds, and why each part is there, is in docs/database.md ("Backups").
"""

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    AwareDatetime,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StringConstraints,
    model_validator,
)

from app.accounts.models import Role
from app.seeding.schema import INT_MAX, TEXT_MAX, Level, Number, Slug, Unit
from app.vocabulary.fixed import OLD_SOURCE_KINDS
from app.writes.inputs import NoteLink
from app.writes.revisions import Action

FORMAT = "inference-atlas-team-data"
FORMAT_VERSION = 2
"""Raised when the document's shape changes; a reader refuses versions newer than its own.

2: a result names its hardware, model and workload by vocabulary slug, with `gpus`, `setup`
(what format 1 called `workload`) and the free text it had before the vocabulary
(`hardware_text`, `model_text`). A format-1 file is still read: its results' free text is
matched to the vocabulary as migration 0007 matches a team's rows (app/backup/checks.py)."""
TEAM_FILE = "team.json"


NOUNS = {
    "users": ("user", "users"),
    "tokens": ("API token", "API tokens"),
    "sources": ("source", "sources"),
    "withdrawn_systems": ("withdrawn or team-added system", "withdrawn or team-added systems"),
    "withdrawn_capabilities": ("withdrawn capability", "withdrawn capabilities"),
    "withdrawn_metrics": ("withdrawn metric", "withdrawn metrics"),
    "withdrawn_hardware": (
        "withdrawn or team-added hardware entry",
        "withdrawn or team-added hardware entries",
    ),
    "withdrawn_models": ("withdrawn or team-added model", "withdrawn or team-added models"),
    "withdrawn_workloads": (
        "withdrawn or team-added workload",
        "withdrawn or team-added workloads",
    ),
    "team_aliases": ("team alias", "team aliases"),
    "team entries": ("team-added entry", "team-added entries"),
    "claims": ("claim", "claims"),
    "results": ("benchmark result", "benchmark results"),
    "notes": ("team note", "team notes"),
    "prices": ("hardware price", "hardware prices"),
    "revisions": ("revision", "revisions"),
    "imports": ("imported file", "imported files"),
    "team sources": ("team source", "team sources"),
    "team claims": ("team claim", "team claims"),
    "team results": ("team result", "team results"),
    "team notes": ("team note", "team notes"),
    "hardware prices": ("hardware price", "hardware prices"),
    "revisions by users": ("revision by a user", "revisions by users"),
}


def describe_counts(counts: dict[str, int]) -> str:
    """'3 users, 1 source, 2 claims': the counts that are not zero, in words."""
    said = [f"{n} {NOUNS[key][n != 1]}" for key, n in counts.items() if n]
    return ", ".join(said) or "nothing"


@dataclass(frozen=True)
class BackupProblem:
    where: str  # the item, e.g. "claims[3] (vllm/prefix-caching/team)"
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message


class BackupError(Exception):
    """A backup that cannot be written or restored; carries every problem found."""

    def __init__(self, file: Path | str, problems: list[BackupProblem]) -> None:
        self.file, self.problems = str(file), problems
        listing = "\n".join(f"  - {p}" for p in problems)
        super().__init__(f"{len(problems)} problem(s) in {file}:\n{listing}")


# Text as the database holds it: any characters, at most the column's length.
Max10 = Annotated[str, StringConstraints(max_length=10)]
Max16 = Annotated[str, StringConstraints(max_length=16)]
Max20 = Annotated[str, StringConstraints(max_length=20)]
Max30 = Annotated[str, StringConstraints(max_length=30)]
Max40 = Annotated[str, StringConstraints(max_length=40)]
Max60 = Annotated[str, StringConstraints(max_length=60)]
Max100 = Annotated[str, StringConstraints(max_length=100)]
Max400 = Annotated[str, StringConstraints(max_length=400)]
Stamp = AwareDatetime
Count = Annotated[int, Field(ge=0, le=INT_MAX)]
Version = Annotated[int, Field(ge=1, le=INT_MAX)]
UserName = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9._-]{1,39}$")]


class Item(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


class UserItem(Item):
    name: UserName
    role: Role
    password_hash: Annotated[str, StringConstraints(min_length=1, max_length=255)]
    disabled: bool
    created_at: Stamp


class TokenItem(Item):
    token_hash: Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}$")]
    prefix: Max16
    user: UserName
    label: Max100 | None = None
    created_at: Stamp
    expires_at: Stamp | None = None
    revoked_at: Stamp | None = None


class CaveatItem(Item):
    kind: Max30
    text: str


class SourceItem(Item):
    slug: Slug
    short: Max60
    title: str
    subtitle: str | None = None
    publisher: str | None = None
    author: str | None = None
    date: Max10
    # A backup made before migration 0008 may name project docs by their old kind.
    kind: Annotated[Max30, BeforeValidator(lambda kind: OLD_SOURCE_KINDS.get(kind, kind))]
    url: str | None = None
    version: Max40 | None = None  # the docs version read (first-party sources)
    commit: Max40 | None = None
    read: Max10 | None = None
    note: str | None = None
    position: Count = 0
    published: bool = False
    withdrawn: bool = False
    caveats: list[CaveatItem] = []


# Published rows the seed files no longer hold, kept (withdrawn) because team rows point at
# them. They are restored as they were: vocabularies may have moved on since they were seeded.
class SystemItem(Item):
    slug: Slug
    name: str
    kind: Max30
    licence: Max60
    status: Max20
    status_since: Max10 | None = None
    language: str | None = None
    repository: str | None = None
    summary: str
    tags: list[str] = []
    summary_sources: list[str] = []
    withdrawn: bool = True
    # A system a team added (schema revision 0010): kept here, never in the seed files.
    team: bool = False
    user: UserName | None = None
    version: Version = 1
    updated_at: Stamp | None = None


class CapabilityItem(Item):
    slug: Slug
    name: str
    description: str
    category: Slug
    position: Count = 0
    withdrawn: Literal[True] = True


class MetricItem(Item):
    slug: Slug
    name: str
    units: list[Unit] = Field(min_length=1)
    better: Max10
    kind: Max20
    position: Count = 0
    withdrawn: Literal[True] = True


class VocabularyItem(Item):
    """What withdrawn hardware, model and workload entries share (aliases are not kept: a
    withdrawn entry answers to its slug only)."""

    slug: Slug
    name: str
    vague: bool = False
    sources: list[str] = []
    position: Count = 0
    withdrawn: bool = True
    # An entry a team added (schema revision 0010); its aliases are in `team_aliases`.
    team: bool = False
    user: UserName | None = None
    version: Version = 1
    updated_at: Stamp | None = None


class TeamAliasItem(Item):
    """A name a team gave a hardware, model or workload entry (its own or a published one)."""

    kind: Literal["hardware", "model", "workload"]
    entry: Slug
    alias: Annotated[str, StringConstraints(min_length=1, max_length=200)]
    position: Count = 0
    user: UserName | None = None


class HardwareItem(VocabularyItem):
    vendor: str | None = None
    form_factor: Max20 | None = None
    memory_gb: Number = None
    # As the device reports it, and unified memory's GPU share (schema revision 0012).
    reported_memory_gb: Number = None
    reported_memory_source: Max100 | None = None
    unified_memory: bool = False
    gpu_share: Number = None
    gpu_share_source: Max100 | None = None
    note: str | None = None


class ModelItem(VocabularyItem):
    family: str | None = None
    parameters_b: Number = None
    kind: Max20 | None = None  # `architecture` (dense or moe) in backups before migration 0011
    architecture: Max100 | None = None  # the Hugging Face class (from migration 0011)
    precision: Max100 | None = None

    @model_validator(mode="before")
    @classmethod
    def _old_architecture(cls, data: Any) -> Any:
        # A backup made before migration 0011 names the kind `architecture` (dense or moe).
        if isinstance(data, dict) and data.get("architecture") in ("dense", "moe"):
            data = {**data, "kind": data["architecture"]}
            del data["architecture"]
        return data

    active_parameters_b: Number = None
    note: str | None = None


class WorkloadItem(VocabularyItem):
    description: str
    input_tokens: Count | None = None
    output_tokens: Count | None = None
    shape: Max20 | None = None


class TeamRow(Item):
    """What team claims and results share: where they sit, who saved them, how often."""

    position: Count = 0
    withdrawn: bool = False
    user: UserName | None = None
    version: Version = 1
    updated_at: Stamp | None = None


class ClaimItem(TeamRow):
    system: Slug
    capability: Slug
    source: Slug
    level: Level
    strength: Annotated[int, Field(ge=1, le=3)] | None = None
    since: Max40 | None = None
    how: Annotated[str, StringConstraints(max_length=200)] | None = None
    page: str | None = None
    note: str | None = None


class ResultItem(TeamRow):
    id: Annotated[str, StringConstraints(min_length=1, max_length=120)]
    system: Slug
    metric: Slug
    source: Slug
    value: Number = None
    low: Number = None
    high: Number = None
    qualifier: Literal["exact", "approx", "up-to", "at-least", "less-than", "average", "max"]
    unit: Unit
    # Vocabulary slugs (format 1: free text, matched to the vocabulary on restore).
    hardware: str | None = None
    gpus: Annotated[int, Field(ge=1, le=INT_MAX)] | None = None
    model: str | None = None
    precision: str | None = None
    concurrency: Annotated[int, Field(ge=1, le=INT_MAX)] | None = None
    workload: str | None = None
    setup: str | None = None
    hardware_text: str | None = None
    model_text: str | None = None
    system_version: str | None = None
    baseline: str | None = None
    run_by: str | None = None
    date: Max10 | None = None
    note: str | None = None
    import_run: Annotated[str, StringConstraints(max_length=100)] | None = None


class ImportRunItem(Item):
    position: Count = 0
    location: Annotated[str, StringConstraints(max_length=100)]
    setup: dict[str, Any] = {}
    metrics: dict[str, Any] = {}
    raw: dict[str, Any] = {}


class ImportItem(Item):
    """A confirmed import: the file's source, its preview and its runs (each result names
    its run as `key#position`). Pending previews are not kept: they last a day anyway."""

    key: Annotated[str, StringConstraints(min_length=1, max_length=40)]
    user: UserName
    created_at: Stamp
    state: Literal["saved"]
    file_name: Annotated[str, StringConstraints(max_length=300)]
    file_sha256: Annotated[str, StringConstraints(max_length=64)]
    format: Max30
    context: dict[str, Any] = {}
    preview: dict[str, Any] = {}
    source: Slug
    runs: list[ImportRunItem] = []


class NoteClaim(Item):
    """The claim a note is on: its cell and source, and its note (which tells a source's
    several readings of one cell apart, as the claim table's own key does)."""

    capability: Slug
    source: Slug
    note: str | None = None


class NoteItem(Item):
    """A team note on a published claim (`claim`), figure (`result`) or system (neither)."""

    id: Annotated[str, StringConstraints(pattern=r"^note-[0-9a-z]{1,35}$")]
    system: Slug
    claim: NoteClaim | None = None
    result: Annotated[str, StringConstraints(min_length=1, max_length=120)] | None = None
    text: Annotated[str, StringConstraints(min_length=1, max_length=TEXT_MAX)]
    link: NoteLink | None = None  # a restored link is put in an href: http(s) only
    user: UserName | None = None
    version: Version = 1
    created_at: Stamp
    updated_at: Stamp


class RevisionItem(Item):
    id: Annotated[int, Field(ge=1, le=2**63 - 1)]
    at: Stamp
    actor: Annotated[str, StringConstraints(min_length=1, max_length=100)]
    user: UserName | None = None
    entity: Max40
    key: Max400
    system_slug: Max100 | None = None
    action: Action
    before: dict[str, Any] | None = None
    after: dict[str, Any] | None = None
    message: str | None = None


class PriceItem(Item):
    hardware: Max100
    usd_per_gpu_hour: Annotated[float, Field(gt=0, le=10_000)]
    basis: Annotated[str, StringConstraints(max_length=300)]
    user: UserName | None = None
    updated_at: Stamp


class TeamData(Item):
    """The whole document, in the order it is written."""

    format: Literal["inference-atlas-team-data"]
    format_version: int
    schema_revision: str
    users: list[UserItem] = []
    tokens: list[TokenItem] = []
    sources: list[SourceItem] = []
    withdrawn_systems: list[SystemItem] = []
    withdrawn_capabilities: list[CapabilityItem] = []
    withdrawn_metrics: list[MetricItem] = []
    withdrawn_hardware: list[HardwareItem] = []
    withdrawn_models: list[ModelItem] = []
    withdrawn_workloads: list[WorkloadItem] = []
    team_aliases: list[TeamAliasItem] = []  # made in schema revision 0010
    claims: list[ClaimItem] = []
    imports: list[ImportItem] = []
    results: list[ResultItem] = []
    notes: list[NoteItem] = []  # made in schema revision 0005n; older backups have none
    prices: list[PriceItem] = []  # made in schema revision 0009; older backups have none
    revisions: list[RevisionItem] = []


def item_label(section: str, item: Any) -> str:
    """How a problem names an item: its key, read from whatever the file holds."""
    if not isinstance(item, dict):
        return ""
    get = item.get
    keys: dict[str, Callable[[], object]] = {
        "users": lambda: get("name"),
        "tokens": lambda: f"{get('user')}'s token {get('prefix')}…",
        "claims": lambda: f"{get('system')}/{get('capability')}/{get('source')}",
        "results": lambda: get("id"),
        "imports": lambda: get("key"),
        "notes": lambda: get("id"),
        "prices": lambda: get("hardware"),
        "revisions": lambda: f"#{get('id')}",
    }
    label = keys.get(section, lambda: get("slug"))()
    return f" ({label})" if label is not None else ""


def where(section: str, index: int, item: Any) -> str:
    return f"{section}[{index}]{item_label(section, item)}"
