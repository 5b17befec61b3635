"""Query-string models shared by HTML views and their JSON twins, with errors that name values."""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal
from urllib.parse import parse_qsl, urlencode

from starlette.datastructures import QueryParams

from app.decision.questions import QUESTIONS, QUESTIONS_BY_ID

MIN_LEVELS = ("any", "partial", "yes")
LICENCE_FAMILIES = ("permissive", "copyleft", "proprietary", "unknown")
SYSTEM_KINDS = ("engine", "wrapper", "desktop-app", "orchestration", "proxy", "library")
STATUSES = ("active", "maintenance", "archived", "unknown")
MATRIX_SORTS = ("name", "matches", "coverage")


def is_untidy(query: str, canonical: str) -> bool:
    """Whether a query string says more than its canonical form (empty fields, defaults)."""
    return parse_qsl(query, keep_blank_values=True) != parse_qsl(canonical, keep_blank_values=True)


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
        super().__init__("; ".join(p.message for p in problems))


@dataclass(frozen=True)
class Need:
    capability: str
    level: Literal["any", "partial", "yes"] = "any"

    def token(self) -> str:
        return self.capability if self.level == "any" else f"{self.capability}:{self.level}"


@dataclass(frozen=True)
class MatrixParams:
    """Everything the matrix pages and /api/v1/matrix accept."""

    need: tuple[Need, ...] = ()
    hw: tuple[str, ...] = ()
    licence: tuple[str, ...] = ()
    kind: tuple[str, ...] = ()
    status: tuple[str, ...] = ()
    q: str = ""
    sort: str = "name"
    diff: bool = False
    group: tuple[str, ...] = ()

    def query_string(self, **changes: object) -> str:
        """The canonical query string (stable order, no defaults), with optional changes."""
        values = {**self.__dict__, **changes}
        pairs: list[tuple[str, str]] = []
        pairs += [("need", n.token()) for n in values["need"]]  # type: ignore[attr-defined]
        for name in ("hw", "licence", "kind", "status"):
            pairs += [(name, v) for v in values[name]]  # type: ignore[attr-defined]
        if values["q"]:
            pairs.append(("q", str(values["q"])))
        if values["sort"] != "name":
            pairs.append(("sort", str(values["sort"])))
        if values["diff"]:
            pairs.append(("diff", "1"))
        pairs += [("group", g) for g in values["group"]]  # type: ignore[attr-defined]
        return urlencode(pairs, safe=":,")

    def active_filters(self) -> list[tuple[str, str]]:
        """(field, value) of every filter that narrows the rows, for "relax this" hints."""
        out = [("need", n.token()) for n in self.need]
        for name in ("hw", "licence", "kind", "status"):
            out += [(name, v) for v in getattr(self, name)]
        if self.q:
            out.append(("q", self.q))
        return out

    def without(self, name: str, value: str) -> "MatrixParams":
        """These parameters with one filter value removed."""
        if name == "q":
            return _replace(self, q="")
        if name == "need":
            return _replace(self, need=tuple(n for n in self.need if n.token() != value))
        return _replace(self, **{name: tuple(v for v in getattr(self, name) if v != value)})


def _replace(params: MatrixParams, **changes: object) -> MatrixParams:
    return MatrixParams(**{**params.__dict__, **changes})  # type: ignore[arg-type]


@dataclass
class _Reader:
    query: QueryParams
    problems: list[ParamProblem] = field(default_factory=list)

    def many(self, name: str, allowed: Sequence[str]) -> tuple[str, ...]:
        values = []
        for raw in self.query.getlist(name):
            for value in filter(None, (v.strip() for v in raw.split(","))):
                if value in allowed:
                    values.append(value)
                else:
                    self.problems.append(ParamProblem(name, value, tuple(allowed)))
        return tuple(dict.fromkeys(values))

    def one(self, name: str, allowed: Sequence[str], default: str) -> str:
        value = self.query.get(name, default).strip() or default
        if value not in allowed:
            self.problems.append(ParamProblem(name, value, tuple(allowed)))
            return default
        return value

    def needs(self, capabilities: Sequence[str]) -> tuple[Need, ...]:
        needs: dict[str, Need] = {}
        for raw in self.query.getlist("need"):
            for token in filter(None, (v.strip() for v in raw.split(","))):
                capability, _, level = token.partition(":")
                if capability not in capabilities:
                    self.problems.append(ParamProblem("need", capability, tuple(capabilities)))
                elif level and level not in MIN_LEVELS:
                    allowed = tuple(f"{capability}:{lv}" for lv in MIN_LEVELS)
                    self.problems.append(ParamProblem("need", token, allowed))
                else:
                    needs[capability] = Need(capability, level or "any")  # type: ignore[arg-type]
        return tuple(needs.values())

    def exact_many(self, name: str, allowed: Sequence[str]) -> tuple[str, ...]:
        """Values that may contain commas (hardware names): no splitting."""
        values = []
        for value in (v.strip() for v in self.query.getlist(name)):
            if not value:
                continue
            if value in allowed:
                values.append(value)
            else:
                self.problems.append(ParamProblem(name, value, tuple(allowed)))
        return tuple(dict.fromkeys(values))

    def integer(self, name: str) -> int | None:
        raw = self.query.get(name, "").strip()
        if not raw:
            return None
        if raw.isdigit():
            return int(raw)
        self.problems.append(ParamProblem(name, raw, ("a whole number, e.g. 10",)))
        return None

    def unknown_names(self, known: Iterable[str]) -> None:
        known = set(known)
        for name in self.query:
            if name not in known:
                self.problems.append(ParamProblem("parameter", name, tuple(sorted(known))))


MATRIX_PARAM_NAMES = ("need", "hw", "licence", "kind", "status", "q", "sort", "diff", "group")


def parse_matrix_params(
    query: QueryParams,
    capabilities: Sequence[str],
    hardware: Sequence[str],
    groups: Sequence[str],
    extra_names: Sequence[str] = (),
) -> tuple[MatrixParams, list[ParamProblem]]:
    """Parse and check the matrix query string; bad values are dropped and reported."""
    reader = _Reader(query)
    reader.unknown_names((*MATRIX_PARAM_NAMES, *extra_names))
    params = MatrixParams(
        need=reader.needs(capabilities),
        hw=reader.many("hw", hardware),
        licence=reader.many("licence", LICENCE_FAMILIES),
        kind=reader.many("kind", SYSTEM_KINDS),
        status=reader.many("status", STATUSES),
        q=query.get("q", "").strip()[:200],
        sort=reader.one("sort", MATRIX_SORTS, "name"),
        diff=reader.one("diff", ("", "0", "1", "on", "true"), "") in ("1", "on", "true"),
        group=reader.many("group", groups),
    )
    return params, reader.problems


BENCHMARK_SORTS = ("system", "metric", "value", "hardware", "model", "precision", "concurrency",
                   "workload", "run_by", "source", "date")  # fmt: skip
BENCHMARK_PARAM_NAMES = ("system", "metric", "hardware", "model", "precision", "source", "origin",
                         "cmin", "cmax", "sort")  # fmt: skip


@dataclass(frozen=True)
class BenchmarkParams:
    """Everything /benchmarks and /api/v1/benchmarks accept."""

    system: tuple[str, ...] = ()
    metric: tuple[str, ...] = ()
    hardware: tuple[str, ...] = ()
    model: tuple[str, ...] = ()
    precision: tuple[str, ...] = ()
    source: tuple[str, ...] = ()
    origin: str = ""
    cmin: int | None = None
    cmax: int | None = None
    sort: str = ""

    def query_string(self) -> str:
        pairs: list[tuple[str, str]] = []
        for name in ("system", "metric", "hardware", "model", "precision", "source"):
            pairs += [(name, v) for v in getattr(self, name)]
        for name in ("origin", "cmin", "cmax", "sort"):
            value = getattr(self, name)
            if value not in ("", None):
                pairs.append((name, str(value)))
        return urlencode(pairs, safe=":,")

    def sorted_by(self, column: str) -> str:
        """The query string for sorting by `column`, flipping direction when already sorted."""
        flipped = f"-{column}" if self.sort == column else column
        return _with(self, sort=flipped).query_string()


def _with(params: BenchmarkParams, **changes: object) -> BenchmarkParams:
    return BenchmarkParams(**{**params.__dict__, **changes})  # type: ignore[arg-type]


def parse_benchmark_params(
    query: QueryParams, vocabulary: dict[str, Sequence[str]], extra_names: Sequence[str] = ()
) -> tuple[BenchmarkParams, list[ParamProblem]]:
    """Parse /benchmarks filters; `vocabulary` gives the allowed values per list field."""
    reader = _Reader(query)
    reader.unknown_names((*BENCHMARK_PARAM_NAMES, *extra_names))
    names = ("system", "metric", "hardware", "model", "precision", "source")
    lists = {name: reader.exact_many(name, vocabulary[name]) for name in names}
    sorts = (*BENCHMARK_SORTS, *(f"-{s}" for s in BENCHMARK_SORTS))
    params = BenchmarkParams(
        **lists,
        origin=reader.one("origin", ("", "published", "team"), ""),
        cmin=reader.integer("cmin"),
        cmax=reader.integer("cmax"),
        sort=reader.one("sort", ("", *sorts), ""),
    )
    return params, reader.problems


@dataclass(frozen=True)
class CompareParams:
    s: tuple[str, ...] = ()
    diff: bool = False
    q: str = ""

    def query_string(self, **changes: object) -> str:
        values = {**self.__dict__, **changes}
        pairs = [("s", slug) for slug in values["s"]]  # type: ignore[attr-defined]
        if values["diff"]:
            pairs.append(("diff", "1"))
        if values["q"]:
            pairs.append(("q", str(values["q"])))
        return urlencode(pairs)


def parse_compare_params(
    query: QueryParams, systems: Sequence[str], extra_names: Sequence[str] = ()
) -> tuple[CompareParams, list[ParamProblem]]:
    """Two to four known systems, each once, in the user's order."""
    reader = _Reader(query)
    reader.unknown_names(("s", "diff", "q", *extra_names))
    chosen: list[str] = []
    for raw in query.getlist("s"):
        for slug in filter(None, (v.strip() for v in raw.split(","))):
            if slug not in systems:
                reader.problems.append(ParamProblem("s", slug, tuple(systems)))
            elif slug in chosen:
                reader.problems.append(ParamProblem("s", slug, (), "is listed twice; each system "
                                                    "can appear once"))  # fmt: skip
            else:
                chosen.append(slug)
    if len(chosen) > 4:
        reason = f"{len(chosen)} systems given; compare at most four at a time"
        reader.problems.append(ParamProblem("s", ",".join(chosen), (), reason))
        chosen = chosen[:4]
    diff = reader.one("diff", ("", "0", "1", "on", "true"), "") in ("1", "on", "true")
    return CompareParams(tuple(chosen), diff, query.get("q", "").strip()[:100]), reader.problems


@dataclass(frozen=True)
class DecideParams:
    """The guided flow's state: answers, skipped questions, and the question being changed."""

    answers: tuple[tuple[str, tuple[str, ...]], ...] = ()
    skip: tuple[str, ...] = ()
    step: str = ""

    def as_dict(self) -> dict[str, tuple[str, ...]]:
        return dict(self.answers)

    def query_string(self, **changes: object) -> str:
        values = {**self.__dict__, **changes}
        pairs = [(q, o) for q, options in values["answers"] for o in options]  # type: ignore[attr-defined]
        pairs += [("skip", s) for s in values["skip"]]  # type: ignore[attr-defined]
        if values["step"]:
            pairs.append(("step", str(values["step"])))
        return urlencode(pairs)

    def with_answer(self, question: str, options: tuple[str, ...]) -> "DecideParams":
        answers = {**self.as_dict(), question: options}
        ordered = tuple((q.id, answers[q.id]) for q in QUESTIONS if answers.get(q.id))
        return DecideParams(ordered, tuple(s for s in self.skip if s != question), "")

    def without(self, question: str) -> "DecideParams":
        answers = tuple((q, o) for q, o in self.answers if q != question)
        return DecideParams(answers, tuple(s for s in self.skip if s != question), "")


def parse_decide_params(
    query: QueryParams, extra_names: Sequence[str] = ()
) -> tuple[DecideParams, list[ParamProblem]]:
    """Answers keyed by question id; unknown questions or options are reported by name."""
    reader = _Reader(query)
    reader.unknown_names((*QUESTIONS_BY_ID, "skip", "step", *extra_names))
    answers = []
    for question in QUESTIONS:
        chosen = reader.many(question.id, question.option_ids())
        if len(chosen) > 1 and not question.multiple:
            reason = f"'{question.id}' takes one answer; got {len(chosen)}"
            reader.problems.append(ParamProblem(question.id, ",".join(chosen), (), reason))
            chosen = chosen[:1]
        if chosen:
            order = question.option_ids()
            answers.append((question.id, tuple(sorted(chosen, key=order.index))))
    ids = tuple(QUESTIONS_BY_ID)
    skip = tuple(s for s in reader.many("skip", ids) if s not in dict(answers))
    step = reader.one("step", ("", *ids), "")
    return DecideParams(tuple(answers), skip, step), reader.problems
