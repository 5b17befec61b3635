"""Editing and deleting a saved row of the team's (a result, a note) through its forms: the
flows are the same for each kind, methods of `TeamRows`, whose fields say what differs.

An edit answers as every editor form does (app/forms/editing.py): 303 back where the form came
from, with a one-time message; the form again with each field's problem (422); or, when
someone saved the row since the form was drawn, both versions side by side (409). A delete
is asked for first, and refused (409, the row as it is now) when the row has changed since.
"""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar, cast

from fastapi import Request
from fastapi.responses import Response
from sqlmodel import Session
from starlette.concurrency import run_in_threadpool

from app.accounts.identity import SignedIn
from app.accounts.web import safe_next
from app.forms import base
from app.forms.base import Clash, EditorForm
from app.forms.editing import not_found, posted, redirect_with_flash
from app.writes.common import StaleVersionError, TeamError, UnknownItemError, VersionRequiredError
from app.writes.transaction import write_transaction

Doc = TypeVar("Doc", bound=Mapping[str, Any])
Doc_co = TypeVar("Doc_co", bound=Mapping[str, Any], covariant=True)
Form = TypeVar("Form", bound=EditorForm)


class SavedRows(Protocol[Doc_co]):
    """What a write returns (app.writes.common.Saved): the rows' documents."""

    @property
    def items(self) -> Sequence[Doc_co]: ...


@dataclass(frozen=True)
class TeamRows(Generic[Doc, Form]):
    """One kind of the team's saved rows, as its edit and delete forms change it."""

    noun: str  # "team result": in the messages, and the 404 for a row that has gone
    fields: tuple[str, ...]  # what the edit form posts
    read: Callable[[Session, str], Doc]  # the row as the API shows it; raises if not there
    values: Callable[[Doc], dict[str, str]]  # a saved row as the edit form's values
    changes: Callable[[dict[str, str]], Any]  # the edit form's values as a change
    update: Callable[[Session, SignedIn, str, Any, int | None], SavedRows[Doc]]
    remove: Callable[[Session, SignedIn, str, int | None], None]
    edit_form: Callable[[Session, Doc, dict[str, str], str], Form]  # row, values, next
    clash: Callable[[Session, dict[str, str], Doc], Clash]  # values, the row as saved now
    form_page: Callable[[Request, Session, Form, int], Response]  # form, status
    # The page that asks before deleting: row, next, whether the row changed since, status.
    confirm_page: Callable[[Request, Session, Doc, str, bool, int], Response]
    back: Callable[[Request, dict[str, str], Doc, bool], str]  # False: the row is gone
    words: Callable[[Session, Doc], str]  # the row in words, after its noun: "on vLLM"
    says_version: bool = False  # a save's message names the row's new version

    def edit_page(self, request: Request, session: Session, row_id: str) -> Response:
        """The edit form of a saved row (a build for @page, app/web/pages.py)."""

        def page(doc: Doc, next_path: str) -> Response:
            form = self.edit_form(session, doc, self.values(doc), next_path)
            return self.form_page(request, session, form, 200)

        return self._show(request, session, row_id, page)

    def delete_page(self, request: Request, session: Session, row_id: str) -> Response:
        """The page that asks before a saved row is deleted (a build for @page)."""

        def page(doc: Doc, next_path: str) -> Response:
            return self.confirm_page(request, session, doc, next_path, False, 200)

        return self._show(request, session, row_id, page)

    async def save(
        self, request: Request, session: Session, who: SignedIn, row_id: str
    ) -> Response:
        """Save the posted edit form: back where it came from, or the form again with what is
        wrong (422) or, when someone saved the row since, both versions (409)."""
        values = await posted(request, self.fields)
        return await run_in_threadpool(self._save, request, session, who, row_id, values)

    async def delete(
        self, request: Request, session: Session, who: SignedIn, row_id: str
    ) -> Response:
        """Delete a saved row, if it is still at the version the editor saw (else 409, with
        the row as it is now)."""
        values = await posted(request, ("version", "next"))
        return await run_in_threadpool(self._delete, request, session, who, row_id, values)

    def _show(
        self, request: Request, session: Session, row_id: str, page: Callable[[Doc, str], Response]
    ) -> Response:
        asked = request.query_params.get("next", "")
        next_path = asked and safe_next(asked)
        doc = self._saved(session, row_id)
        return self._gone(request, session, row_id) if doc is None else page(doc, next_path)

    def _save(
        self, request: Request, session: Session, who: SignedIn, row_id: str, values: dict[str, str]
    ) -> Response:
        version = base.version_of(values)
        try:
            changes = self.changes(values)
            with write_transaction(session):
                saved = self.update(session, who, row_id, changes, version)
        except (StaleVersionError, VersionRequiredError) as exc:
            current = cast(Doc, exc.row)  # the row as saved now, as `read` gives it
            form = self.edit_form(session, current, values, values["next"])
            form.clash = self.clash(session, values, current)
            return self.form_page(request, session, form, 409)
        except UnknownItemError:
            return self._gone(request, session, row_id)
        except TeamError as exc:
            doc = self._saved(session, row_id)
            if doc is None:
                return self._gone(request, session, row_id)
            form = self.edit_form(session, doc, values, values["next"])
            # Still the version the editor saw: a re-show never moves them past a change.
            form.version, form.problems = version or form.version, base.sentences(exc.problems)
            return self.form_page(request, session, form, 422)
        doc = saved.items[0]
        back = self.back(request, values, doc, True)
        if doc["version"] == version:
            message = f"Nothing to save: the {self.noun} is as it was."
        else:
            changed = f" (version {doc['version']})" if self.says_version else ""
            message = f"Saved the {self.noun} {self.words(session, doc)}{changed}."
        return redirect_with_flash(request, back, message)

    def _delete(
        self, request: Request, session: Session, who: SignedIn, row_id: str, values: dict[str, str]
    ) -> Response:
        try:
            with write_transaction(session):
                doc = self.read(session, row_id)
                self.remove(session, who, row_id, base.version_of(values))
        except (StaleVersionError, VersionRequiredError) as exc:
            current = cast(Doc, exc.row)  # the row as saved now, as `read` gives it
            return self.confirm_page(request, session, current, values["next"], True, 409)
        except (UnknownItemError, TeamError):
            return self._gone(request, session, row_id)
        back = self.back(request, values, doc, False)
        message = f"Deleted the {self.noun} {self.words(session, doc)}."
        return redirect_with_flash(request, back, message)

    def _saved(self, session: Session, row_id: str) -> Doc | None:
        try:
            return self.read(session, row_id)
        except (UnknownItemError, TeamError):
            return None

    def _gone(self, request: Request, session: Session, row_id: str) -> Response:
        message = f"No {self.noun} has the id {row_id!r}; it may have been deleted since."
        return not_found(request, session, message)
