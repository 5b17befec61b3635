"""An import preview's "add as a new entry": a result file names a GPU or model no entry
knows, and one post makes the team's entry (named as the file names it, the file's exact
text kept as an alias, a Hugging Face id too) and builds the preview again, now resolved.

Kept apart from routes/imports.py: the preview page only draws the offers (`offers`)."""

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from app.accounts.identity import SignedIn
from app.accounts.web import EditorUser
from app.db import SessionDep
from app.forms.editing import not_found, posted, redirect_with_flash
from app.writes import entries, imports
from app.writes.common import TeamError
from app.writes.transaction import write_transaction

router = APIRouter(include_in_schema=False)
OFFERED = ("hardware", "model")


def offers(preview: Any) -> list[dict[str, str]]:
    """Per kind the file names but no entry knows: the entry to add ({kind, name, file})."""
    found: dict[tuple[str, str], dict[str, str]] = {}
    for run in preview.get("runs", []):
        setup = run.get("setup", {})
        for kind in OFFERED:
            text = setup.get(f"{kind}_in_file")
            if text and not setup.get(kind) and kind in preview.get("problems", {}):
                found.setdefault(
                    (kind, text), {"kind": kind, "file": text, "name": entry_name(kind, text)}
                )
    return list(found.values())


def entry_name(kind: str, text: str) -> str:
    """The name a new entry takes from the file's: a model by the last part of its id or path
    ("Qwen/Qwen3-32B" -> "Qwen3-32B", "models/x-q4_k_m.gguf" -> "x-q4_k_m")."""
    if kind != "model":
        return text.strip()
    return text.rsplit("/", 1)[-1].removesuffix(".gguf").strip() or text.strip()


@router.post("/imports/{key}/entries")
async def add_entry(key: str, request: Request, session: SessionDep, who: EditorUser) -> Response:
    values = await posted(request, ("kind", "file", "name"))
    return await run_in_threadpool(_add, request, session, who, key, values)


def _add(
    request: Request, session: SessionDep, who: SignedIn, key: str, values: dict[str, str]
) -> Response:
    kind, text = values["kind"], values["file"]
    name = values["name"] or entry_name(kind, text)
    here = f"/imports/{key}"
    if kind not in OFFERED or not text:
        return redirect_with_flash(request, here, "Nothing to add: the form named no entry.")
    aliases = [text] if text != name else []
    fields: dict[str, Any] = {"name": name[:200]}
    try:
        with write_transaction(session):
            doc = imports.add_import_entry(session, who, key, kind, fields, aliases)
    except imports.UnknownImportError as exc:
        return not_found(request, session, str(exc))
    except (entries.NameTakenError, TeamError) as exc:
        return redirect_with_flash(request, here, f"Not added: {exc}")
    what = "hardware entry" if kind == "hardware" else "model"
    return redirect_with_flash(
        request, here, f"Added the {what} {doc['name']} ({doc['slug']}); the preview uses it now."
    )
