"""What the write API and the editor forms accept: a team's benchmark results and claims.

The field types are the seed's own (app/seeding/schema.py), so a team figure meets the same
rules as a published one: slugs, printable text of bounded length, real calendar dates,
finite figures, units from one list.
"""

import re
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BeforeValidator, Field, StringConstraints

from app.seeding.schema import (
    INT_MAX,
    DateText,
    Figure,
    Level,
    OptionalText,
    Slug,
    Strict,
    Text,
    Unit,
    _http_url,
    _number,
    _printable,
)
from app.vocabulary.names import canonical_precision

# The app prints 2550 as "2,550" (present/formatting.number), so a person copying a figure
# off a page types it that way: commas are read as thousands separators when they group
# digits in threes, and refused with a clear word otherwise ("2,55" may be a decimal comma).
THOUSANDS = re.compile(r"[+-]?\d{1,3}(,\d{3})+(\.\d+)?")


def _typed_number(value: Any) -> Any:
    value = _number(value)
    if isinstance(value, str) and "," in value:
        if not THOUSANDS.fullmatch(value):
            raise ValueError(
                f"{value!r} is not a number: a comma may only group thousands (2,550 or "
                "2550), and decimals take a point (2.55)"
            )
        return value.replace(",", "")
    return value


Number = Annotated[Figure | None, BeforeValidator(_typed_number)]
Qualifier = Literal["exact", "approx", "up-to", "at-least", "less-than", "average", "max"]
Concurrency = Annotated[
    Annotated[int, Field(ge=1, le=INT_MAX)] | None, BeforeValidator(_typed_number)
]
MeasuredDate = Annotated[DateText | None, BeforeValidator(lambda v: v or None)]
Version = Annotated[int, Field(ge=1, le=INT_MAX)]
# A known precision in any spelling ("fp8", "Int4") is stored as the seed spells it, so team
# figures meet published ones; anything else is kept as typed.
Precision = Annotated[OptionalText, AfterValidator(lambda v: canonical_precision(v) if v else v)]
MAX_RESULTS_PER_POST = 500
"""A bigger batch is a file import (issue: imports), not one request."""


class TeamResultFields(Strict):
    """The editable fields of a team result; every one optional (a PATCH names some)."""

    value: Number = None
    low: Number = None
    high: Number = None
    qualifier: Qualifier | None = None
    unit: Unit | None = None
    hardware: OptionalText = Field(
        default=None, description="A hardware slug or alias (GET /api/v1/hardware)"
    )
    gpus: Concurrency = Field(default=None, description="How many of the hardware the run used")
    model: OptionalText = Field(
        default=None, description="A model slug or alias (GET /api/v1/models)"
    )
    precision: Precision = None
    concurrency: Concurrency = None
    workload: OptionalText = Field(
        default=None, description="A workload slug or alias (GET /api/v1/workloads)"
    )
    setup: OptionalText = Field(default=None, description="One line on the setup, in your words")
    system_version: OptionalText = None
    date: MeasuredDate = Field(default=None, description="When it was measured (YYYY-MM-DD)")
    note: OptionalText = None


class TeamResultIn(TeamResultFields):
    """One result a team measured. Give `value`, or `low` and `high` for a range."""

    system: Slug
    metric: Slug
    unit: Unit
    qualifier: Qualifier = "exact"


class TeamResultPatch(TeamResultFields):
    """A change to a team result: only the fields given change (null clears an optional one).

    `version` is the version the change is based on (or send it as `If-Match`)."""

    version: Version | None = None


class TeamClaimIn(Strict):
    """The team's own reading of one cell of the matrix."""

    level: Level
    note: OptionalText = None
    version: Version | None = Field(
        default=None, description="Needed when the team already has a claim on this cell"
    )


LINK_MAX = 1000
NoteText = Text  # printable, trimmed, 1 to 2000 characters: a remark, not a document
NoteLink = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1, max_length=LINK_MAX),
    AfterValidator(_printable),
    AfterValidator(_http_url),  # pages put it in an href: http and https only
]
OptionalLink = Annotated[NoteLink | None, BeforeValidator(lambda v: v or None)]
ResultId = Annotated[str, StringConstraints(min_length=1, max_length=120)]


class NoteItemIn(Strict):
    """The published item a note is on, by its stable keys: a benchmark figure by `result`
    alone; a claim by `system`, `capability` and `source` (and `reading`, when the source
    gives several readings of the cell); the system as a whole by `system` alone."""

    system: Slug | None = None
    capability: Slug | None = None
    source: Slug | None = None
    reading: Annotated[int, Field(ge=1, le=100)] | None = None
    result: ResultId | None = Field(default=None, description="a benchmark figure's id")


class TeamNoteIn(NoteItemIn):
    """A team's note on a published claim, figure or system: text, and a web link if any."""

    text: NoteText
    link: OptionalLink = Field(default=None, description="http:// or https:// only")


class TeamNotePatch(Strict):
    """A change to a note: the fields given change (a null link removes it); `version` is
    the version the change is based on (or send it as `If-Match`)."""

    text: NoteText | None = None
    link: OptionalLink = None
    version: Version | None = None


class VersionIn(Strict):
    version: Version | None = None


def check_value_or_range(value: float | None, low: float | None, high: float | None) -> None:
    has_range = low is not None or high is not None
    if (value is None) == (not has_range) or (has_range and None in (low, high)):
        raise ValueError("give either 'value' or both 'low' and 'high'")
    if low is not None and high is not None and low > high:
        raise ValueError(f"'low' ({low:g}) is above 'high' ({high:g})")
