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

from app.forms.base import Clash, EditorForm, as_text, side_by_side, validated
from app.schemas import MetricChoice, TeamClaimView
from app.text import level_label, number
from app.vocabulary.fixed import LEVELS
from app.vocabulary.names import Names
from app.writes.documents import ClaimDoc, ResultChanges, ResultDoc
from app.writes.inputs import TeamClaimIn, TeamResultFields, TeamResultIn, TeamResultPatch

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
    "hardware": "Accelerator",
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


def result_in(system: str, values: dict[str, str]) -> TeamResultIn:
    """A new result from the add form; TeamError names each field that is wrong."""
    data = {k: v for k, v in values.items() if v and k in RESULT_FIELDS} | {"system": system}
    return validated(TeamResultIn, data)


def result_changes(values: dict[str, str]) -> ResultChanges:
    """Every editable field from the edit form: an emptied field clears it."""
    data = {name: values.get(name) or None for name in EDITABLE}
    return cast(ResultChanges, validated(TeamResultPatch, data).model_dump(exclude={"version"}))


def claim_in(values: dict[str, str]) -> TeamClaimIn:
    return validated(TeamClaimIn, {"level": values.get("level"), "note": values.get("note")})


# What the templates draw ----------------------------------------------------------------------


@dataclass
class ResultForm(EditorForm):
    """The add or edit form of one team result (`version` set when editing)."""

    action: str
    metrics: list[MetricChoice]
    # kind -> (slug, name) of each hardware, model and workload entry, offered as suggestions
    vocabulary: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    systems: list[tuple[str, str]] = field(default_factory=list)  # empty: the system is fixed
    system_name: str = ""

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

    def own_fields(self) -> set[str]:
        return set(RESULT_FIELDS) - ({"system"} if not self.systems else set())


@dataclass
class ClaimForm(EditorForm):
    """The team's claim on one cell: set it, change it (based on `version`), remove it."""

    system: str
    system_name: str
    capability: str
    capability_name: str
    current: TeamClaimView | None = None  # the team's claim as saved, if it has one
    removing: bool = False  # the clash arose while removing the claim

    @property
    def action(self) -> str:
        return f"/systems/{self.system}/claims/{self.capability}"

    @property
    def target(self) -> str:
        """The id of the block a problem swaps back in (one per cell on a page)."""
        return f"claim-{self.capability}"

    def own_fields(self) -> tuple[str, ...]:
        return ("level", "note")

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
    # An empty qualifier is saved as "exact": they only differ if the saved one is not.
    yours = yours | {"qualifier": yours.get("qualifier") or "exact"}
    meant = yours | {
        kind: found
        for kind, kind_names in (names or {}).items()
        if (found := kind_names.resolve_typed(yours.get(kind, "")))
    }
    labels = {name: LABELS[name] for name in EDITABLE}
    return side_by_side(labels, yours, result_values(current), current, meant=meant)


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


def claim_clash(yours: dict[str, str], current: dict[str, Any], *, created: bool) -> Clash:
    """The editor's level and note beside the claim as someone else saved it (or made it)."""
    labels = {name: LABELS[name] for name in ("level", "note")}
    theirs = {name: as_text(current.get(name)) for name in labels}
    return side_by_side(labels, yours, theirs, current, added_since=created)
