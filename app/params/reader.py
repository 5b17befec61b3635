"""The lenient reader of query strings, and the base of the query models.

Each model declares its parameters once (names, types, allowed values, limits). `read_query`
reads a query string leniently against it: a bad value is dropped and reported by name, an
unknown parameter is ignored (and listed), a tracking parameter vanishes silently. Values
whose vocabulary lives in the database (systems, capabilities, …) carry a `Vocabulary`
marker and are checked against the current data in the same pass.
"""

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Literal, Self, TypeVar, get_args, get_origin

from annotated_types import MaxLen
from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError
from starlette.datastructures import QueryParams

from app.text import validation_words

MAX_VALUES = 50
"""Values one list parameter may carry; more is a problem, not work."""


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


# The query string as read (repeated keys kept, in order). Named here so that queries/,
# which must not know HTTP, read it through the params layer.
Query = QueryParams


def query_from(pairs: list[tuple[str, str]]) -> Query:
    """A query string made of `pairs`, as if it had been sent."""
    return QueryParams(pairs)


ASCII_SPACE = " \t\n\r\f\v"


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
        # An empty field (a form's blank box, spaces typed) is no answer; control characters
        # such as \x1c, which str.strip() also takes for space, are a value, and a wrong one.
        raw = [v.strip(ASCII_SPACE) for v in query.getlist(name)]
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
            problems.append(ParamProblem(name, shown[:200], (), _words(error)))
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
        # A value the vocabulary holds whole stays whole: some names have a comma in them
        # ("Mistral, Mistral Nemo, Ministral" is one family).
        whole = set(vocabulary or ())
        raw = [
            part.strip(ASCII_SPACE)
            for value in raw
            for part in ([value] if value in whole else value.split(","))
            if part.strip(ASCII_SPACE)
        ]
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
        reason = "" if allowed else _words(exc.errors()[0])
        problems.append(ParamProblem(name, value[:100], allowed, reason))
        return None


def _words(error: Any) -> str:
    """Pydantic's error in words a person can act on ("Not a whole number; type one such as
    1, 8 or 32." rather than "Input should be a valid integer, unable to parse string")."""
    return validation_words(error["type"], error.get("ctx") or {}, str(error["msg"]))


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


def encode(pairs: list[tuple[str, str]]) -> str:
    """A canonical query string: `:` and `,` stay readable, as the models' tokens use them."""
    from urllib.parse import urlencode

    return urlencode(pairs, safe=":,")
