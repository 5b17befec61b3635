"""The editor forms' side of team writes: posted text -> the write API's own input models.

A form posts text; these turn it into TeamResultIn, a change for update_result or a
TeamClaimIn, so the forms meet exactly the rules the API meets (no second set of checks).
What differs is the wording: each problem is said per field, for a person at a form.
The dataclasses are what the templates draw: values as typed, messages, the version a
change is based on, and, after a clash, the row as someone else saved it.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from pydantic import ValidationError

from app.present.formatting import level_label, number
from app.schemas import MetricChoice, TeamClaimView
from app.vocabulary.fixed import LEVELS
from app.vocabulary.names import Names
from app.writes.documents import ClaimDoc, ResultChanges, ResultDoc
from app.writes.inputs import TeamClaimIn, TeamResultFields, TeamResultIn, TeamResultPatch
from app.writes.team import TeamError

EDITABLE = tuple(TeamResultFields.model_fields)  # value, low, high, qualifier, unit, …
RESULT_FIELDS = ("system", "metric", *EDITABLE)
LABELS = {
    "system": "System",
    "metric": "Metric",
    "unit": "Unit",
    "value": "Value",
    "low": "Low",
    "high": "High",
    "qualifier": "Qualifier",
    "hardware": "Hardware",
    "gpus": "GPUs",
    "model": "Model",
    "precision": "Precision",
    "concurrency": "Concurrency",
    "workload": "Workload",
    "setup": "Setup",
    "system_version": "System version",
    "date": "Measured on",
    "note": "Note",
    "level": "Level",
}
QUALIFIERS = ("exact", "approx", "up-to", "at-least", "less-than", "average", "max")


def posted(form: Mapping[str, Any], names: tuple[str, ...]) -> dict[str, str]:
    """The named fields as typed (trimmed); a missing field is empty."""
    return {name: str(form.get(name) or "").strip() for name in names}


def result_in(system: str, values: dict[str, str]) -> TeamResultIn:
    """A new result from the add form; TeamError names each field that is wrong."""
    data = {k: v for k, v in values.items() if v and k in RESULT_FIELDS} | {"system": system}
    try:
        return TeamResultIn.model_validate(data)
    except ValidationError as exc:
        raise TeamError(field_problems(exc)) from None


def result_changes(values: dict[str, str]) -> ResultChanges:
    """Every editable field from the edit form: an emptied field clears it."""
    data = {name: values.get(name) or None for name in EDITABLE}
    try:
        patch = TeamResultPatch.model_validate(data)
    except ValidationError as exc:
        raise TeamError(field_problems(exc)) from None
    return cast(ResultChanges, patch.model_dump(exclude={"version"}))


def claim_in(values: dict[str, str]) -> TeamClaimIn:
    try:
        return TeamClaimIn.model_validate(
            {"level": values.get("level"), "note": values.get("note")}
        )
    except ValidationError as exc:
        raise TeamError(field_problems(exc)) from None


def version_of(values: dict[str, str]) -> int | None:
    """The version a change is based on (a hidden field); None when there is none, or when
    it is not a number, which the service then treats as a change based on no version."""
    text = values.get("version", "")
    return int(text) if text.isdigit() and int(text) >= 1 else None


# Pydantic's messages name types ("a valid number, unable to parse string as a number"); a
# person at a form wants to know what to type instead.
FRIENDLY = {
    "float_parsing": "Not a number; type a figure such as 2450 or 12.5.",
    "float_type": "Not a number; type a figure such as 2450 or 12.5.",
    "finite_number": "Not a number; type a figure such as 2450 or 12.5.",
    "int_parsing": "Not a whole number; type one such as 1, 8 or 32.",
    "int_from_float": "Not a whole number; type one such as 1, 8 or 32.",
    "missing": "Required.",
    "literal_error": "Choose one of the listed values.",
    "string_pattern_mismatch": "Choose one from the list.",
}


def field_problems(exc: ValidationError) -> dict[str, str]:
    """One message per field, in words a person can act on."""
    problems: dict[str, str] = {}
    for error in exc.errors(include_url=False):
        name = str(error["loc"][0]) if error["loc"] else "form"
        problems.setdefault(name, _message(name, error))
    return problems


def sentences(problems: dict[str, str]) -> dict[str, str]:
    """The service's messages (written for the API) as a form shows them: sentences."""
    return {name: _sentence(text) for name, text in problems.items()}


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "?")) else ".")


def _message(name: str, error: Any) -> str:
    kind, ctx = error["type"], error.get("ctx") or {}
    if name == "date" and kind == "string_pattern_mismatch":
        return "Not a date; type it as YYYY-MM-DD (or YYYY-MM, or YYYY)."
    if kind == "greater_than_equal":
        return f"Too low: the lowest allowed is {ctx.get('ge', 0):g}."
    if kind == "less_than_equal":
        return f"Too high: the highest allowed is {number(float(ctx.get('le', 0)))}."
    if kind == "string_too_long":
        return f"Too long: at most {ctx.get('max_length')} characters."
    if kind in FRIENDLY:
        return FRIENDLY[kind]
    return _sentence(str(error["msg"]).removeprefix("Value error, "))


def as_text(value: Any) -> str:
    """A stored value as a form shows it: 2450.0 -> '2450', None -> ''."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def same(a: str, b: str) -> bool:
    """Whether two typed values mean the same (2450 and 2450.0 do)."""
    try:
        return float(a) == float(b)
    except ValueError:
        return a.strip() == b.strip()


# What the templates draw ----------------------------------------------------------------------


@dataclass
class Clash:
    """A change based on an old version: what the editor sent beside what is saved now."""

    version: int  # the version now saved; re-applying builds on it
    by: str | None
    rows: list[tuple[str, str, str, bool]]  # label, yours, current, differs
    added_since: bool = False  # there was none when the form was drawn; someone made one


@dataclass
class ResultForm:
    """The add or edit form of one team result."""

    action: str
    values: dict[str, str]
    metrics: list[MetricChoice]
    # kind -> (slug, name) of each hardware, model and workload entry, offered as suggestions
    vocabulary: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    systems: list[tuple[str, str]] = field(default_factory=list)  # empty: the system is fixed
    system_name: str = ""
    problems: dict[str, str] = field(default_factory=dict)
    next: str = ""
    version: int | None = None  # set when editing
    clash: Clash | None = None
    cancel: str = ""

    @property
    def editing(self) -> bool:
        return self.version is not None

    @property
    def metric_options(self) -> list[tuple[str, str]]:
        return [(m.slug, m.name) for m in self.metrics]

    @property
    def qualifiers(self) -> list[tuple[str, str]]:
        return [(q, q.replace("-", " ")) for q in QUALIFIERS]

    @property
    def units(self) -> list[tuple[str, list[str]]]:
        """Each unit with the metrics it fits (so the unit list can follow the metric)."""
        chosen = [m for m in self.metrics if m.slug == self.values.get("metric")]
        metrics = chosen if self.editing and chosen else self.metrics
        order = dict.fromkeys(u for m in metrics for u in m.units)
        return [(u, [m.slug for m in metrics if u in m.units]) for u in order]

    @property
    def figure_problem(self) -> str:
        """What is wrong with the figure: the value, the range, or the two given at once."""
        named = [(n, self.problems[n]) for n in ("value", "low", "high") if n in self.problems]
        if len(named) == 1 and named[0][0] == "value":
            return named[0][1]
        return " ".join(f"{LABELS[n]}: {text}" for n, text in named)

    def figure_invalid(self, name: str) -> bool:
        """A bad number marks its own input; the value-or-range check marks what was typed
        (or the value, when nothing was)."""
        if name != "value" and name in self.problems:
            return True
        given = [n for n in ("value", "low", "high") if self.values.get(n)]
        return "value" in self.problems and name in (given or ["value"])

    @property
    def general(self) -> list[str]:
        """Problems that belong to no field of this form."""
        shown = set(RESULT_FIELDS) - ({"system"} if not self.systems else set())
        return [f"{k}: {v}" for k, v in self.problems.items() if k not in shown]


@dataclass
class ClaimForm:
    """The team's claim on one cell: set it, change it (based on `version`), remove it."""

    system: str
    system_name: str
    capability: str
    capability_name: str
    values: dict[str, str]
    current: TeamClaimView | None = None  # the team's claim as saved, if it has one
    version: int | None = None  # the version a change is based on (a hidden field)
    problems: dict[str, str] = field(default_factory=dict)
    next: str = ""
    clash: Clash | None = None
    removing: bool = False  # the clash arose while removing the claim

    @property
    def action(self) -> str:
        return f"/systems/{self.system}/claims/{self.capability}"

    @property
    def target(self) -> str:
        """The id of the block a problem swaps back in (one per cell on a page)."""
        return f"claim-{self.capability}"

    @property
    def general(self) -> list[str]:
        return [f"{k}: {v}" for k, v in self.problems.items() if k not in ("level", "note")]

    @property
    def levels(self) -> list[tuple[str, str]]:
        return [(level, level_label(level)) for level in LEVELS]


def claim_form(
    system: tuple[str, str],
    capability: tuple[str, str],
    current: TeamClaimView | None,
    next_path: str,
) -> ClaimForm:
    """The claim form for a cell as it stands: the team's claim filled in, if it has one."""
    values = {"level": current.level, "note": current.note or ""} if current else {}
    version = current.version if current else None
    return ClaimForm(
        *system, *capability, values=values, current=current, version=version, next=next_path
    )


def result_values(doc: ResultDoc) -> dict[str, str]:
    """A saved result (as the API shows it) as the edit form's values."""
    return {name: as_text(doc.get(name)) for name in RESULT_FIELDS}


def result_clash(
    yours: dict[str, str], current: ResultDoc, names: Mapping[str, Names] | None = None
) -> Clash:
    """Both versions field by field; `names` reads a typed hardware, model or workload name
    as its slug, so "H100 SXM" and nvidia-h100-sxm5-80gb are not shown as a difference."""
    theirs = result_values(current)
    # An empty qualifier is saved as "exact": they only differ if the saved one is not.
    yours = yours | {"qualifier": yours.get("qualifier") or "exact"}
    meant = yours | {
        kind: found
        for kind, kind_names in (names or {}).items()
        if (found := kind_names.resolve(yours.get(kind, "")))
    }
    rows = [
        (
            LABELS[name],
            yours.get(name, ""),
            theirs[name],
            not same(meant.get(name, ""), theirs[name]),
        )
        for name in EDITABLE
        if yours.get(name) or theirs[name]  # a field empty on both sides says nothing
    ]
    return Clash(version=int(current["version"]), by=current.get("by"), rows=rows)


def claim_view(doc: ClaimDoc) -> TeamClaimView:
    """The team's claim as the service reports it (after a clash) as the form shows it."""
    return TeamClaimView(
        capability=doc["capability"],
        level=doc["level"],
        note=doc.get("note"),
        version=doc["version"],
        by=doc.get("by"),
    )


def figure_text(doc: ResultDoc) -> str:
    """A saved result's figure in a sentence: '2,450 tok/s', '10–12 ms'."""
    if doc.get("value") is not None:
        amount = number(float(doc["value"]))
    else:
        amount = f"{number(float(doc['low']))}–{number(float(doc['high']))}"
    return f"{amount} {doc['unit']}"


def claim_clash(yours: dict[str, str], current: ClaimDoc, *, created: bool) -> Clash:
    rows = [
        (
            LABELS.get(name, name.capitalize()),
            yours.get(name, ""),
            as_text(current.get(name)),
            not same(yours.get(name, ""), as_text(current.get(name))),
        )
        for name in ("level", "note")
        if yours.get(name) or current.get(name)
    ]
    return Clash(
        version=int(current["version"]), by=current.get("by"), rows=rows, added_since=created
    )
