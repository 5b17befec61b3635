"""Query-string models: one per view, shared by the HTML page, its JSON twin and OpenAPI.

Each model declares its parameters once (names, types, allowed values, limits). `read_query`
reads a query string leniently against it: a bad value is dropped and reported by name, an
unknown parameter is ignored (and listed), a tracking parameter vanishes silently. Values
whose vocabulary lives in the database (systems, capabilities, …) carry a `Vocabulary`
marker and are checked against the current data in the same pass.
"""

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Generic, Literal, Self, TypeVar, get_args, get_origin

from annotated_types import MaxLen
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, create_model
from starlette.datastructures import QueryParams

from app.decision.questions import QUESTIONS, Question
from app.present.service_level import Level
from app.vocabulary.fixed import LICENCE_FAMILIES, STATUSES, SYSTEM_KINDS

MAX_VALUES = 50
"""Values one list parameter may carry; more is a problem, not work."""

MIN_LEVELS = ("any", "partial", "yes")
MATRIX_SORTS = ("name", "matches", "coverage")

# Parameters that chat apps, newsletters and ad networks append to shared links.
TRACKING_PARAMETERS = re.compile(
    r"(utm_\w*|fbclid|gclid|gclsrc|dclid|gbraid|wbraid|msclkid|twclid|ttclid|li_fat_id|igshid"
    r"|mc_cid|mc_eid|yclid|_ga|_gl|_hsenc|_hsmi|mkt_tok|ref|ref_src|ref_url|referrer|spm"
    r"|s_cid|oly_anon_id|oly_enc_id|vero_id|wickedid|rb_clickid|si)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Vocabulary:
    """Marks a parameter whose allowed values come from the data (a vocabulary's name)."""

    name: str


@dataclass(frozen=True)
class CommaSeparated:
    """Marks a list parameter that also accepts `a,b` in one value."""


SPLIT = CommaSeparated()


@dataclass(frozen=True)
class ParamProblem:
    field: str
    value: str
    allowed: tuple[str, ...]
    reason: str = ""

    @property
    def message(self) -> str:
        if self.reason:
            return f"{self.field}={self.value!r}: {self.reason}"
        shown = ", ".join(self.allowed[:40]) + (" …" if len(self.allowed) > 40 else "")
        return f"{self.field}={self.value!r} is not allowed; allowed values: {shown}"


class ParamError(Exception):
    def __init__(self, problems: list[ParamProblem]) -> None:
        self.problems = problems
        super().__init__("; ".join(p.message for p in problems[:5]))


@dataclass(frozen=True)
class ProblemGroup:
    """The problems of one parameter, for display: the bad values once, the allowed values once."""

    field: str
    values: tuple[str, ...]
    allowed: tuple[str, ...]
    reasons: tuple[str, ...]


def group_problems(problems: Sequence[ParamProblem], limit: int = 5) -> list[ProblemGroup]:
    """At most `limit` bad values per parameter; however many came, the page stays small."""
    by_field: dict[str, list[ParamProblem]] = {}
    for problem in problems:
        by_field.setdefault(problem.field, []).append(problem)
    return [
        ProblemGroup(
            field=field,
            values=tuple(dict.fromkeys(p.value for p in group)),
            allowed=next((p.allowed for p in group if p.allowed), ()),
            reasons=tuple(dict.fromkeys(p.reason for p in group if p.reason)),
        )
        for field, group in by_field.items()
    ]


P = TypeVar("P", bound=BaseModel)


@dataclass(frozen=True)
class Reading(Generic[P]):
    """What a query string said: the parameters, the problems, the names that were ignored."""

    params: P
    problems: list[ParamProblem]
    ignored: list[str]


def is_untidy(query: str, canonical: str) -> bool:
    """Whether a query string says more than its canonical form (empty fields, defaults)."""
    from urllib.parse import parse_qsl

    return parse_qsl(query, keep_blank_values=True) != parse_qsl(canonical, keep_blank_values=True)


def read_query(
    model: type[P], query: QueryParams, vocabularies: Mapping[str, Sequence[str]] | None = None
) -> Reading[P]:
    """Read `query` against `model`; bad values are dropped and reported, never raised."""
    problems: list[ParamProblem] = []
    ignored = [
        name
        for name in dict.fromkeys(query.keys())
        if name not in model.model_fields and not TRACKING_PARAMETERS.fullmatch(name)
    ]
    values: dict[str, Any] = {}
    for name, field in model.model_fields.items():
        raw = [v.strip() for v in query.getlist(name)]
        raw = [v for v in raw if v]
        if not raw:
            continue
        marks = field.metadata
        vocabulary = _vocabulary(marks, vocabularies or {})
        if get_origin(field.annotation) is tuple:
            values[name] = _read_list(name, field.annotation, marks, vocabulary, raw, problems)
        else:
            value = _read_one(name, field.annotation, vocabulary, raw, problems)
            if value is not None:
                values[name] = value
    return Reading(_validated(model, values, problems), problems, ignored)


def _validated(model: type[P], values: dict[str, Any], problems: list[ParamProblem]) -> P:
    """The model; a field that breaks a whole-field rule (a count) is reported and left out."""
    try:
        return model.model_validate(values)
    except ValidationError as exc:
        for error in exc.errors():
            name = str(error["loc"][0])
            value = values.pop(name, "")
            shown = ",".join(map(str, value)) if isinstance(value, tuple) else str(value)
            problems.append(ParamProblem(name, shown[:200], (), error["msg"]))
        return model.model_validate(values)


def _vocabulary(
    marks: list[Any], vocabularies: Mapping[str, Sequence[str]]
) -> Sequence[str] | None:
    for mark in marks:
        if isinstance(mark, Vocabulary):
            return vocabularies.get(mark.name, ())
    return None


def _read_list(
    name: str,
    annotation: Any,
    marks: list[Any],
    vocabulary: Sequence[str] | None,
    raw: list[str],
    problems: list[ParamProblem],
) -> tuple[Any, ...]:
    if SPLIT in marks:
        raw = [part.strip() for value in raw for part in value.split(",") if part.strip()]
    distinct = list(dict.fromkeys(raw))
    # Counted as sent (repeats too), as the schema's maxItems says.
    most = min([MAX_VALUES, *(m.max_length for m in marks if isinstance(m, MaxLen))])
    if len(raw) > most:
        reason = f"{len(raw)} values given; at most {most} are read"
        problems.append(ParamProblem(name, f"{distinct[0]},…", (), reason))
        distinct = distinct[:most]
    item_type = get_args(annotation)[0]
    out = []
    for value in distinct:
        checked = _check(name, item_type, vocabulary, value, problems)
        if checked is not None:
            out.append(checked)
    return tuple(out)


def _read_one(
    name: str,
    annotation: Any,
    vocabulary: Sequence[str] | None,
    raw: list[str],
    problems: list[ParamProblem],
) -> Any:
    distinct = list(dict.fromkeys(raw))
    if len(distinct) > 1:
        reason = f"takes one value; got {len(distinct)} ({', '.join(distinct[:5])})"
        problems.append(ParamProblem(name, ",".join(distinct[:5]), (), reason))
    return _check(name, annotation, vocabulary, distinct[0], problems)


def _check(
    name: str,
    annotation: Any,
    vocabulary: Sequence[str] | None,
    value: str,
    problems: list[ParamProblem],
) -> Any:
    if vocabulary is not None:
        if value in vocabulary:
            return value
        problems.append(ParamProblem(name, value[:100], tuple(vocabulary)))
        return None
    try:
        return _adapter(annotation).validate_python(value)
    except ValidationError as exc:
        allowed = _allowed(annotation)
        reason = "" if allowed else exc.errors()[0]["msg"]
        problems.append(ParamProblem(name, value[:100], allowed, reason))
        return None


_adapters: dict[Any, TypeAdapter[Any]] = {}


def _adapter(annotation: Any) -> TypeAdapter[Any]:
    adapter = _adapters.get(annotation)
    if adapter is None:
        adapter = _adapters[annotation] = TypeAdapter(annotation)
    return adapter


def _allowed(annotation: Any) -> tuple[str, ...]:
    """The values a Literal allows (also inside Optional), else nothing to list."""
    for candidate in (annotation, *get_args(annotation)):
        if get_origin(candidate) is Literal:
            return tuple(str(a) for a in get_args(candidate))
    return ()


class QueryModel(BaseModel):
    """Base of the query models: frozen, and unknown names are simply not fields."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    def replace(self, **changes: Any) -> Self:
        return self.model_copy(update=changes)


def _encode(pairs: list[tuple[str, str]]) -> str:
    from urllib.parse import urlencode

    return urlencode(pairs, safe=":,")


# --- /matrix, /hardware, /api/v1/matrix -------------------------------------------------

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
        Field(description="capability a row must have, optionally `capability:partial|yes`",
              max_length=MAX_VALUES),
        Vocabulary("need"), SPLIT,
    ] = ()  # fmt: skip
    hw: Annotated[
        tuple[str, ...],
        Field(description="hardware targets every row supports", max_length=MAX_VALUES),
        Vocabulary("hardware-target"), SPLIT,
    ] = ()  # fmt: skip
    licence: Annotated[tuple[LicenceFamily, ...], Field(description="licence families"), SPLIT] = ()
    kind: Annotated[tuple[SystemKind, ...], Field(description="kinds of system"), SPLIT] = ()
    status: Annotated[tuple[Status, ...], Field(description="maintenance status"), SPLIT] = ()
    q: Annotated[str, Field(description="text search in names and summaries", max_length=200)] = ""
    sort: Annotated[Literal["name", "matches", "coverage"], Field(description="row order")] = "name"
    diff: Annotated[bool, Field(description="show only columns where the rows differ")] = False
    group: Annotated[
        tuple[str, ...],
        Field(description="capability categories to show", max_length=MAX_VALUES),
        Vocabulary("group"), SPLIT,
    ] = ()  # fmt: skip
    add: Annotated[
        str,
        Field(description="a must-have to add (the page's picker); folded into `need`",
              max_length=100),
        Vocabulary("capability"),
    ] = ""  # fmt: skip
    at: Annotated[NeedLevel, Field(description="the minimum level for `add`")] = "any"
    cell: Annotated[
        str,
        Field(description="the cell whose claims are open beside the matrix, `system:capability`",
              max_length=120, pattern=r"^[a-z0-9.-]+:[a-z0-9.-]+$"),
    ] = ""  # fmt: skip
    min_coverage: Annotated[
        int,
        Field(description="hide systems that sources speak to on fewer than this percentage of"
                          " the view's capabilities", ge=0, le=100),
    ] = 0  # fmt: skip
    page: Annotated[
        int,
        Field(description=f"which page of rows ({MATRIX_PAGE_SIZE} systems each); a page past "
                          "the last one shows the last", ge=1, le=100_000),
    ] = 1  # fmt: skip

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
        return _encode(pairs)

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
    view: Annotated[Literal["features", "hardware"], Field(description="which matrix")] = "features"


def need_vocabulary(capabilities: Sequence[str]) -> list[str]:
    """Every `need` token: a capability alone or with a minimum level."""
    return [f"{c}:{level}" if level != "any" else c for c in capabilities for level in MIN_LEVELS]


# --- /benchmarks, /api/v1/benchmarks -----------------------------------------------------

BENCHMARK_SORTS = ("system", "metric", "value", "hardware", "model", "precision", "concurrency",
                   "workload", "run_by", "source", "date")  # fmt: skip
BenchmarkSort = Literal[
    "system", "metric", "value", "hardware", "model", "precision", "concurrency", "workload",
    "run_by", "source", "date", "-system", "-metric", "-value", "-hardware", "-model",
    "-precision", "-concurrency", "-workload", "-run_by", "-source", "-date",
]  # fmt: skip
Concurrency = Annotated[int, Field(ge=0, le=1_000_000)]


# A list of names from the data; each field adds its description and its Vocabulary marker.
# Hardware and model names may contain commas, so these lists are never split.
DataList = Annotated[tuple[str, ...], Field(max_length=MAX_VALUES)]


BENCHMARK_FILTERS = ("system", "metric", "hardware", "model", "precision", "workload", "source")
"""The /benchmarks list filters, in the order the page shows them."""

RESULTS_PAGE_SIZE = 200
"""Rows per page of the /benchmarks results table."""


LEVEL_FIELDS = ("per_user", "ttft_p99", "tpot_p99", "goodput")


class LevelOnly(QueryModel):
    """A service level (app/present/service_level.py): the targets a sweep is read at."""

    per_user: Annotated[
        float | None,
        Field(description="service level: at least this many tok/s per user", gt=0, le=100_000),
    ] = None
    ttft_p99: Annotated[
        float | None,
        Field(description="service level: p99 time to first token at most this (ms)", gt=0,
              le=10_000_000),
    ] = None  # fmt: skip
    tpot_p99: Annotated[
        float | None,
        Field(description="service level: p99 time per output token at most this (ms)", gt=0,
              le=10_000_000),
    ] = None  # fmt: skip

    goodput: Annotated[
        float | None,
        Field(description="service level: at least this per cent of requests within the goodput "
                          "targets each run was given (only runs whose file carries a goodput)",
              gt=0, le=100),
    ] = None  # fmt: skip

    def level(self) -> Level:
        return Level(self.per_user, self.ttft_p99, self.tpot_p99, self.goodput)

    def level_pairs(self) -> list[tuple[str, str]]:
        names = (*LEVEL_FIELDS, "price")
        return [(n, f"{v:g}") for n in names if (v := getattr(self, n, None)) is not None]


class LevelParams(LevelOnly):
    """A service level and a price per GPU-hour for the costs at it."""

    price: Annotated[
        float | None,
        Field(description="US dollars per GPU-hour for costs per million tokens, in place of "
                          "the instance's price; only when exactly one hardware is filtered",
              gt=0, le=10_000),
    ] = None  # fmt: skip


class BenchmarkParams(LevelParams):
    """Everything /benchmarks and /api/v1/benchmarks accept."""

    system: Annotated[DataList, Field(description="systems (slugs)"), Vocabulary("system")] = ()
    metric: Annotated[DataList, Field(description="metrics (slugs)"), Vocabulary("metric")] = ()
    hardware: Annotated[
        DataList,
        Field(description="hardware (slugs; an alias is read as its slug)"),
        Vocabulary("hardware"),
    ] = ()
    model: Annotated[
        DataList,
        Field(description="models (slugs; an alias is read as its slug)"),
        Vocabulary("model"),
    ] = ()
    precision: Annotated[
        DataList, Field(description="weight precisions"), Vocabulary("precision")
    ] = ()
    workload: Annotated[
        DataList,
        Field(description="workloads (slugs; an alias is read as its slug)"),
        Vocabulary("workload"),
    ] = ()
    source: Annotated[DataList, Field(description="sources (slugs)"), Vocabulary("source")] = ()
    origin: Annotated[
        Literal["", "published", "team"], Field(description="published or team figures")
    ] = ""
    cmin: Annotated[Concurrency | None, Field(description="lowest concurrency")] = None
    cmax: Annotated[Concurrency | None, Field(description="highest concurrency")] = None
    sort: Annotated[
        BenchmarkSort | Literal[""], Field(description="a column, `-` in front for descending")
    ] = ""
    page: Annotated[
        int,
        Field(description=f"which page of the page's results table ({RESULTS_PAGE_SIZE} rows "
                          "each); the JSON and CSV always hold every result", ge=1, le=100_000),
    ] = 1  # fmt: skip

    def query_string(self, with_page: bool = True) -> str:
        pairs: list[tuple[str, str]] = []
        for name in BENCHMARK_FILTERS:
            pairs += [(name, v) for v in getattr(self, name)]
        for name in ("origin", "cmin", "cmax", "sort"):
            value = getattr(self, name)
            if value not in ("", None):
                pairs.append((name, str(value)))
        pairs += self.level_pairs()
        if with_page and self.page > 1:
            pairs.append(("page", str(self.page)))
        return _encode(pairs)

    def sorted_by(self, column: str) -> str:
        """The query string for sorting by `column`, flipping direction when already sorted."""
        flipped = f"-{column}" if self.sort == column else column
        return self.replace(sort=flipped, page=1).query_string()


class SweepParams(LevelParams):
    """What /api/v1/sweeps accepts: the /benchmarks filters that narrow a team's sweeps."""

    system: Annotated[DataList, Field(description="systems (slugs)"), Vocabulary("system")] = ()
    hardware: Annotated[
        DataList, Field(description="hardware, as the figures name it"), Vocabulary("hardware")
    ] = ()
    model: Annotated[
        DataList, Field(description="models, as the figures name them"), Vocabulary("model")
    ] = ()
    precision: Annotated[
        DataList, Field(description="weight precisions"), Vocabulary("precision")
    ] = ()
    source: Annotated[
        DataList,
        Field(description="sources (slugs): an import's source keeps its runs"),
        Vocabulary("source"),
    ] = ()
    cmin: Annotated[Concurrency | None, Field(description="lowest concurrency of a run")] = None
    cmax: Annotated[Concurrency | None, Field(description="highest concurrency of a run")] = None

    def query_string(self) -> str:
        pairs: list[tuple[str, str]] = []
        for name in ("system", "hardware", "model", "precision", "source"):
            pairs += [(name, v) for v in getattr(self, name)]
        pairs += [(n, str(v)) for n in ("cmin", "cmax") if (v := getattr(self, n)) is not None]
        return _encode(pairs + self.level_pairs())

    @classmethod
    def of(cls, page: BenchmarkParams) -> "SweepParams":
        """The sweep filters within the /benchmarks page's own."""
        return cls.model_validate(page.model_dump(include=set(cls.model_fields)))


# --- /compare, /api/v1/compare -----------------------------------------------------------


class CompareParams(LevelParams):
    s: Annotated[
        tuple[str, ...],
        Field(description="two to four system slugs, in display order", max_length=MAX_VALUES),
        Vocabulary("system"), SPLIT,
    ] = ()  # fmt: skip
    diff: Annotated[bool, Field(description="show only the rows where the systems differ")] = False
    q: Annotated[str, Field(description="find a system to add", max_length=100)] = ""
    # The Find button: add the system `q` names (exactly, or as the only match) at once.
    # Never part of a canonical URL.
    find: Annotated[bool, Field(description="add the system `q` names, if one is clear")] = False

    def query_string(self, **changes: object) -> str:
        p = self.replace(**changes) if changes else self
        pairs = [("s", slug) for slug in p.s]
        if p.diff:
            pairs.append(("diff", "1"))
        pairs += p.level_pairs()
        if p.q:
            pairs.append(("q", p.q))
        return _encode(pairs)


class CompareApiParams(LevelParams):
    s: Annotated[
        tuple[str, ...],
        Field(description="two to four system slugs, in display order", min_length=2,
              max_length=4, json_schema_extra={"uniqueItems": True}),
        Vocabulary("system"), SPLIT,
    ] = ()  # fmt: skip
    diff: Annotated[bool, Field(description="only the rows where the systems differ")] = False


def compare_problems(query: QueryParams) -> list[ParamProblem]:
    """Systems listed twice: each may appear once."""
    given = [v.strip() for raw in query.getlist("s") for v in raw.split(",") if v.strip()]
    return [
        ParamProblem("s", slug, (), "is listed twice; each system can appear once")
        for slug in dict.fromkeys(x for x in given if given.count(x) > 1)
    ][:MAX_VALUES]


# --- /decide, /api/v1/recommend ----------------------------------------------------------


def _answer_field(question: Question) -> tuple[Any, Any]:
    # Each question's options are known only from QUESTIONS: a runtime Literal, typed Any.
    options: Any = Literal[question.option_ids()]
    described = ", ".join(f"`{o.id}` ({o.label})" for o in question.options)
    if question.multiple:
        field = Field(description=f"{question.prompt} Several allowed: {described}",
                      max_length=len(question.options))  # fmt: skip
        return Annotated[tuple[options, ...], field, SPLIT], ()
    return Annotated[
        options | None, Field(description=f"{question.prompt} One of: {described}")
    ], None


_answers: dict[str, Any] = {q.id: _answer_field(q) for q in QUESTIONS}
# The service level is an optional question of its own (team measurements are read at it).
AnswerParams: type[QueryModel] = create_model("AnswerParams", __base__=LevelOnly, **_answers)
QuestionId: Any = Literal[tuple(q.id for q in QUESTIONS)]  # known at runtime only, like options
Skipped: Any = Annotated[tuple[QuestionId, ...], Field(description="questions skipped"), SPLIT]
Step: Any = Annotated[QuestionId | None, Field(description="the question being changed")]
Why = Annotated[
    str | None, Field(description="a system to explain: why it is not first"), Vocabulary("system")
]
FlowParams: type[QueryModel] = create_model(
    "FlowParams", __base__=AnswerParams, skip=(Skipped, ()), step=(Step, None), why=(Why, None)
)


@dataclass(frozen=True)
class DecideParams:
    """The guided flow's state: answers, skipped questions, and the question being changed."""

    answers: tuple[tuple[str, tuple[str, ...]], ...] = ()
    skip: tuple[str, ...] = ()
    step: str = ""
    level: tuple[tuple[str, float], ...] = ()  # the service level's targets, when given

    @classmethod
    def of(cls, model: BaseModel) -> "DecideParams":
        answers = []
        for question in QUESTIONS:
            value = getattr(model, question.id)
            chosen = value if isinstance(value, tuple) else (value,) if value else ()
            if chosen:
                order = question.option_ids()
                answers.append((question.id, tuple(sorted(chosen, key=order.index))))
        answered = {q for q, _ in answers}
        skip = tuple(s for s in getattr(model, "skip", ()) if s not in answered)
        level = tuple((n, v) for n in LEVEL_FIELDS if (v := getattr(model, n, None)) is not None)
        return cls(tuple(answers), skip, getattr(model, "step", None) or "", level)

    def service_level(self) -> Level:
        return Level(**dict(self.level))

    def as_dict(self) -> dict[str, tuple[str, ...]]:
        return dict(self.answers)

    def query_string(self, **changes: object) -> str:
        from urllib.parse import urlencode

        values = {**self.__dict__, **changes}
        pairs = [(q, o) for q, options in values["answers"] for o in options]
        pairs += [("skip", s) for s in values["skip"]]
        if values["step"]:
            pairs.append(("step", str(values["step"])))
        pairs += [(n, f"{v:g}") for n, v in values["level"]]
        return urlencode(pairs)

    def with_answer(self, question: str, options: tuple[str, ...]) -> "DecideParams":
        answers = {**self.as_dict(), question: options}
        ordered = tuple((q.id, answers[q.id]) for q in QUESTIONS if answers.get(q.id))
        return DecideParams(ordered, tuple(s for s in self.skip if s != question), "", self.level)

    def without(self, question: str) -> "DecideParams":
        answers = tuple((q, o) for q, o in self.answers if q != question)
        return DecideParams(answers, tuple(s for s in self.skip if s != question), "", self.level)


# --- /changes, /changes.atom, /api/v1/changes --------------------------------------------

CHANGES_PAGE_SIZE = 50
"""Revisions per page of the history unless `limit` says otherwise."""
CHANGES_MAX_LIMIT = 500
"""The most revisions one request reads (list_revisions refuses more)."""


class ChangesParams(QueryModel):
    """Everything /changes, its Atom feed and /api/v1/changes accept."""

    user: Annotated[
        str,
        Field(description="who made the changes: a user's name, or `seed` for reseeds",
              max_length=100),
        Vocabulary("user"),
    ] = ""  # fmt: skip
    system: Annotated[
        str,
        Field(description="the system the changes are filed under (a slug)", max_length=100),
        Vocabulary("system"),
    ] = ""  # fmt: skip
    kind: Annotated[
        str,
        Field(description="the kind of item changed (`claim`, `system`, `benchmark_result`, …)",
              max_length=40),
        Vocabulary("kind"),
    ] = ""  # fmt: skip
    before: Annotated[
        int | None,
        Field(description="only changes older than this revision id: the `next` link of a page "
                          "carries it, so pages stay put while new changes arrive",
              ge=1, le=2**31 - 1),  # revision ids are SQL integers (PostgreSQL: 4 bytes)
    ] = None  # fmt: skip
    limit: Annotated[
        int,
        Field(description=f"changes per page (at most {CHANGES_MAX_LIMIT})", ge=1,
              le=CHANGES_MAX_LIMIT),
    ] = CHANGES_PAGE_SIZE  # fmt: skip

    def query_string(self, **changes: object) -> str:
        """The canonical query string (stable order, no defaults), with optional changes."""
        p = self.replace(**changes) if changes else self
        pairs = [(name, getattr(p, name)) for name in ("user", "system", "kind")]
        pairs = [(name, value) for name, value in pairs if value]
        if p.before is not None:
            pairs.append(("before", str(p.before)))
        if p.limit != CHANGES_PAGE_SIZE:
            pairs.append(("limit", str(p.limit)))
        return _encode(pairs)

    @property
    def filtered(self) -> bool:
        return bool(self.user or self.system or self.kind)


# --- paging of the JSON lists --------------------------------------------------------------

API_RESULTS_PAGE_SIZE = 1000
"""Results per reply of /api/v1/benchmarks unless `per_page` says otherwise."""
API_RESULTS_MAX_PAGE_SIZE = 5000
LIST_PAGE_SIZE = 500
"""Items per reply of the catalogue lists (/api/v1/systems, …) unless `per_page` says."""
LIST_MAX_PAGE_SIZE = 1000


class BenchmarkApiParams(BenchmarkParams):
    """/api/v1/benchmarks: the page's filters, a page of `per_page` results at a time."""

    page: Annotated[
        int,
        Field(description=f"which page of results ({API_RESULTS_PAGE_SIZE} a page unless "
                          "per_page says; follow `next`)", ge=1, le=100_000),
    ] = 1  # fmt: skip
    per_page: Annotated[
        int,
        Field(description=f"results per page (at most {API_RESULTS_MAX_PAGE_SIZE})", ge=1,
              le=API_RESULTS_MAX_PAGE_SIZE),
    ] = API_RESULTS_PAGE_SIZE  # fmt: skip


class ListParams(QueryModel):
    """The catalogue lists: a page of `per_page` items; a `Link: <…>; rel="next"` header
    names the next page while there is one."""

    page: Annotated[int, Field(description="which page (follow the Link header's next)",
                               ge=1, le=100_000)] = 1  # fmt: skip
    per_page: Annotated[
        int,
        Field(description=f"items per page (at most {LIST_MAX_PAGE_SIZE})", ge=1,
              le=LIST_MAX_PAGE_SIZE),
    ] = LIST_PAGE_SIZE  # fmt: skip


# --- /api/v1/notes -----------------------------------------------------------------------

NOTES_PAGE_SIZE = 100
"""Notes per reply unless `limit` says otherwise."""
NOTES_MAX_LIMIT = 500


class NotesParams(QueryModel):
    """What GET /api/v1/notes accepts: the item whose notes to list, named as a note names it
    when it is posted (a figure by `result`; a claim by system, capability and source)."""

    system: Annotated[
        str,
        Field(description="a system: alone, every note on it (on the system, its claims and "
                          "its figures)", max_length=100),
        Vocabulary("system"),
    ] = ""  # fmt: skip
    capability: Annotated[
        str,
        Field(description="with system and source: the notes on that claim", max_length=100),
        Vocabulary("capability"),
    ] = ""  # fmt: skip
    source: Annotated[
        str,
        Field(description="with system and capability: the notes on that claim", max_length=100),
        Vocabulary("source"),
    ] = ""  # fmt: skip
    reading: Annotated[
        int | None,
        Field(description="which of the source's readings, when it gives several of one cell",
              ge=1, le=100),
    ] = None  # fmt: skip
    result: Annotated[
        str, Field(description="a benchmark figure's id: the notes on it", max_length=120)
    ] = ""
    limit: Annotated[
        int,
        Field(description=f"notes per reply (at most {NOTES_MAX_LIMIT})", ge=1,
              le=NOTES_MAX_LIMIT),
    ] = NOTES_PAGE_SIZE  # fmt: skip
    offset: Annotated[
        int, Field(description="notes to skip (newest first)", ge=0, le=2**31 - 1)
    ] = 0
