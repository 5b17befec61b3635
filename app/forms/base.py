"""What every editor form is made of: the posted text, the write API's input model read from
it (problems said per field, for a person at a form), the version a change is based on, and,
after a clash, both versions side by side.

The result and claim forms (app/forms/team.py) and the note forms (app/forms/notes.py) build
on these; the HTTP side they share is app/forms/editing.py.
"""

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from app.text import validation_words
from app.writes.common import TeamError

Model = TypeVar("Model", bound=BaseModel)


def posted(form: Mapping[str, Any], names: tuple[str, ...]) -> dict[str, str]:
    """The named fields as typed (trimmed); a missing field is empty."""
    return {name: str(form.get(name) or "").strip() for name in names}


def version_of(values: dict[str, str]) -> int | None:
    """The version a change is based on (a hidden field); None when there is none, or when
    it is not a number, which the service then treats as a change based on no version."""
    text = values.get("version", "")
    return int(text) if text.isdigit() and int(text) >= 1 else None


def validated(model: type[Model], data: Mapping[str, Any]) -> Model:
    """`data` as the write API's input `model`; TeamError names each field that is wrong."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise TeamError(field_problems(exc)) from None


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
    return validation_words(kind, ctx, str(error["msg"]))


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


def side_by_side(
    labels: Mapping[str, str],
    yours: Mapping[str, str],
    theirs: Mapping[str, str],
    current: Mapping[str, Any],
    *,
    meant: Mapping[str, str] | None = None,
    added_since: bool = False,
) -> Clash:
    """The fields `labels` names, yours beside theirs (the `current` row's values as text);
    `meant` is what yours say once read (a name as its slug), where that differs."""
    meant = yours if meant is None else meant
    rows = [
        (label, yours.get(name, ""), theirs[name], not same(meant.get(name, ""), theirs[name]))
        for name, label in labels.items()
        if yours.get(name) or theirs[name]  # a field empty on both sides says nothing
    ]
    version = int(current["version"])
    return Clash(version=version, by=current.get("by"), rows=rows, added_since=added_since)


@dataclass(kw_only=True)
class EditorForm:
    """What every editor form carries: the values as typed, the version they are based on,
    each field's problem, where to go back to, and the clash a change ran into."""

    values: dict[str, str]
    version: int | None = None
    problems: dict[str, str] = field(default_factory=dict)
    next: str = ""
    clash: Clash | None = None
    cancel: str = ""  # where "Cancel" leads; none when empty

    def own_fields(self) -> Collection[str]:
        """The fields the form shows, each beside its own problem."""
        return ()

    @property
    def general(self) -> list[str]:
        """Problems that belong to no field of the form."""
        shown = self.own_fields()
        return [f"{k}: {v}" for k, v in self.problems.items() if k not in shown]
