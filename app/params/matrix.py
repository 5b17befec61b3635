"""/matrix, /hardware and /api/v1/matrix: the must-haves, filters and paging they accept."""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Literal, get_args

from pydantic import Field

from app.params.reader import MAX_VALUES, SPLIT, QueryModel, Vocabulary, encode
from app.vocabulary.fixed import LICENCE_FAMILIES, STATUSES, SYSTEM_KINDS

MIN_LEVELS = ("any", "partial", "yes")
MATRIX_SORTS = ("name", "matches", "coverage")

NeedLevel = Literal["any", "partial", "yes"]


@dataclass(frozen=True)
class Need:
    capability: str
    level: NeedLevel = "any"

    def token(self) -> str:
        return self.capability if self.level == "any" else f"{self.capability}:{self.level}"

    @classmethod
    def parse(cls, token: str) -> "Need":
        capability, _, level = token.partition(":")
        return cls(capability, level or "any")  # type: ignore[arg-type]


LicenceFamily = Literal["permissive", "copyleft", "proprietary", "unknown"]
SystemKind = Literal["engine", "wrapper", "desktop-app", "orchestration", "proxy", "library"]
Status = Literal["active", "maintenance", "archived", "unknown"]
assert get_args(LicenceFamily) == LICENCE_FAMILIES
assert get_args(SystemKind) == SYSTEM_KINDS and get_args(Status) == STATUSES


MATRIX_PAGE_SIZE = 50
"""Systems per matrix page: a page stays small however many systems a team adds."""


class MatrixParams(QueryModel):
    """Everything the matrix pages and /api/v1/matrix accept."""

    need: Annotated[
        tuple[str, ...],
        Field(
            description="capability a row must have, optionally `capability:partial|yes`",
            max_length=MAX_VALUES,
        ),
        Vocabulary("need"),
        SPLIT,
    ] = ()
    hw: Annotated[
        tuple[str, ...],
        Field(description="hardware targets every row supports", max_length=MAX_VALUES),
        Vocabulary("hardware-target"),
        SPLIT,
    ] = ()
    licence: Annotated[tuple[LicenceFamily, ...], Field(description="licence families"), SPLIT] = ()
    kind: Annotated[tuple[SystemKind, ...], Field(description="kinds of system"), SPLIT] = ()
    status: Annotated[tuple[Status, ...], Field(description="maintenance status"), SPLIT] = ()
    q: Annotated[str, Field(description="text search in names and summaries", max_length=200)] = ""
    sort: Annotated[Literal["name", "matches", "coverage"], Field(description="row order")] = "name"
    diff: Annotated[bool, Field(description="show only columns where the rows differ")] = False
    group: Annotated[
        tuple[str, ...],
        Field(description="capability categories to show", max_length=MAX_VALUES),
        Vocabulary("group"),
        SPLIT,
    ] = ()
    add: Annotated[
        str,
        Field(
            description="a must-have to add (the page's picker); folded into `need`", max_length=100
        ),
        Vocabulary("capability"),
    ] = ""
    at: Annotated[NeedLevel, Field(description="the minimum level for `add`")] = "any"
    cell: Annotated[
        str,
        Field(
            description="the cell whose claims are open beside the matrix, `system:capability`",
            max_length=120,
            pattern=r"^[a-z0-9.-]+:[a-z0-9.-]+$",
        ),
    ] = ""
    min_coverage: Annotated[
        int,
        Field(
            description="hide systems that sources speak to on fewer than this percentage of"
            " the view's capabilities",
            ge=0,
            le=100,
        ),
    ] = 0
    page: Annotated[
        int,
        Field(
            description=f"which page of rows ({MATRIX_PAGE_SIZE} systems each); a page past "
            "the last one shows the last",
            ge=1,
            le=100_000,
        ),
    ] = 1

    @property
    def needs(self) -> tuple[Need, ...]:
        """The must-haves, one per capability (the last level asked for wins, `add` last)."""
        tokens = [*self.need, Need(self.add, self.at).token()] if self.add else self.need
        by_capability = {n.capability: n for n in map(Need.parse, tokens)}
        return tuple(by_capability.values())

    def query_string(self, *, with_cell: bool = False, **changes: object) -> str:
        """The canonical query string (stable order, no defaults), with optional changes.

        The open cell belongs to the page's own URL only (`with_cell`): exports, links to the
        other view and "relax" links leave it out.
        """
        p = self.replace(**changes) if changes else self
        pairs: list[tuple[str, str]] = [("need", n.token()) for n in p.needs]
        for name in ("hw", "licence", "kind", "status"):
            pairs += [(name, v) for v in getattr(p, name)]
        if p.q:
            pairs.append(("q", p.q))
        if p.sort != "name":
            pairs.append(("sort", p.sort))
        if p.diff:
            pairs.append(("diff", "1"))
        pairs += [("group", g) for g in p.group]
        if p.min_coverage:
            pairs.append(("min_coverage", str(p.min_coverage)))
        if p.page > 1:
            pairs.append(("page", str(p.page)))
        if with_cell and p.cell:
            pairs.append(("cell", p.cell))
        return encode(pairs)

    def active_filters(self) -> list[tuple[str, str]]:
        """(field, value) of every filter that narrows the rows, for "relax this" hints."""
        out = [("need", n.token()) for n in self.needs]
        for name in ("hw", "licence", "kind", "status"):
            out += [(name, v) for v in getattr(self, name)]
        if self.q:
            out.append(("q", self.q))
        if self.min_coverage:
            out.append(("min_coverage", str(self.min_coverage)))
        return out

    def without(self, name: str, value: str) -> "MatrixParams":
        """These parameters with one filter value removed (from the first page: the rows change)."""
        if name == "q":
            return self.replace(q="", page=1)
        if name == "min_coverage":
            return self.replace(min_coverage=0, page=1)
        if name == "need":
            kept = tuple(n.token() for n in self.needs if n.token() != value)
            return self.replace(need=kept, add="", at="any", page=1)
        values = tuple(v for v in getattr(self, name) if v != value)
        return self.replace(**{name: values, "page": 1})


class MatrixApiParams(MatrixParams):
    view: Annotated[
        Literal["features", "hardware", "models"],
        Field(description="which matrix (models: architectures x systems, its own filters)"),
    ] = "features"


def need_vocabulary(capabilities: Sequence[str]) -> list[str]:
    """Every `need` token: a capability alone or with a minimum level."""
    return [f"{c}:{level}" if level != "any" else c for c in capabilities for level in MIN_LEVELS]
