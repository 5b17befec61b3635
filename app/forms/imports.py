"""The import pages' forms: the upload form and a preview's context form, and what they say.

The routes are in app/routes/imports.py; previews and confirmations are app/writes/imports.py.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field

from pydantic import ValidationError
from sqlmodel import Session

from app.queries.entries import vocabulary_choices
from app.queries.matrix_data import system_name_map
from app.writes.documents import ImportDoc
from app.writes.imports import CONTEXT_FIELDS

# (heading, metric key, digits) of the preview table's figures.
PREVIEW_COLUMNS = (
    ("Output tok/s", "output_throughput", 0),
    ("TTFT ms (mean)", "ttft_mean", 1),
    ("TTFT ms (p99)", "ttft_p99", 1),
    ("TPOT ms (mean)", "tpot_mean", 2),
    ("tok/s per user", "output_throughput_per_user", 1),
    ("Prompt tok/s", "prompt_tok_s", 0),
    ("Generation tok/s", "generation_tok_s", 1),
)


@dataclass
class ContextForm:
    """The upload form, or a preview's context form: values as typed, problems by field."""

    action: str
    values: dict[str, str] = field(default_factory=dict)
    problems: dict[str, str] = field(default_factory=dict)
    systems: list[tuple[str, str]] = field(default_factory=list)
    general: list[str] = field(default_factory=list)
    vocabulary: dict[str, list[tuple[str, str]]] = field(default_factory=dict)

    def with_choices(self, session: Session) -> "ContextForm":
        """The form with its lists filled: systems by name, and the vocabulary's entries."""
        names = system_name_map(session)
        self.systems = sorted(names.items(), key=lambda item: item[1].lower())
        self.vocabulary = vocabulary_choices(session)
        return self


def context_values(preview: ImportDoc) -> dict[str, str]:
    """The context form starts from what was given, else from what the first run says."""
    given = {k: str(v) for k, v in preview["context"].items()}
    first: Mapping[str, object] = preview["runs"][0]["setup"] if preview["runs"] else {}
    found = {k: str(first[k]) for k in CONTEXT_FIELDS if k in first}
    return found | given


def read_message(document: ImportDoc) -> str:
    """What a preview says once it is read: how many runs, and whether it is ready to save."""
    runs = len(document["runs"])
    said = f"Read {runs} run{'s' if runs != 1 else ''} from {document['file']}"
    if document["ready"]:
        return f"{said}: check them, then save."
    missing = len(document["problems"])
    return f"{said}: {missing} thing{'s' if missing != 1 else ''} to give before saving."


def field_problems(exc: ValidationError) -> dict[str, str]:
    """The first problem with each field ('file' for one not tied to a field)."""
    problems: dict[str, str] = {}
    for error in exc.errors(include_url=False):
        name = ".".join(str(p) for p in error["loc"]) or "file"
        problems.setdefault(name, error["msg"])
    return problems
