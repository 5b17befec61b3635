"""The editor forms for team notes: beside claims and systems on the system page, in the matrix
cell panel and beside figures on /benchmarks; who may use them, messages, versions, what every
reader sees."""

from collections.abc import Callable

import pytest
from bs4 import BeautifulSoup
from fastapi.testclient import TestClient
from sqlalchemy import Engine, func
from sqlmodel import Session, select

from app.db import writer
from app.models import TeamNote
from tests.team.html import field_notes, flash_of, page, post

Clients = Callable[..., TestClient]
CLAIM = {"system": "vllm", "capability": "prefix-caching", "source": "overview-early-2026"}
CLAIM_TARGET = "note-new-c-vllm-prefix-caching-overview-early-2026"


def notes(engine: Engine) -> int:
    with Session(engine) as session:
        return session.exec(select(func.count()).select_from(TeamNote)).one()


def add(client: TestClient, **fields: str) -> str:
    """Add a note through the form, as the system page posts it; its id."""
    data = CLAIM | {"text": "We use it daily.", "next": "/systems/vllm#cap-prefix-caching"}
    response = post(client, "/notes", data | fields)
    assert response.status_code == 303, response.text
    note_id = response.headers["location"].rpartition("#note-")[2]
    # Read back signed in (never from the shared cache): that read also moves the version
    # watcher on, as the editor's browser following the redirect would.
    assert client.get(f"/api/v1/notes/{note_id}").status_code == 200
    return note_id


def claim_item(soup: BeautifulSoup, source: str) -> BeautifulSoup:
    """The list item of one source's claim in the prefix-caching row of vLLM's page."""
    row = soup.select_one("#cap-prefix-caching")
    return next(
        li
        for li in row.select("ul.claim-list > li")
        if li.select_one(f"a.cite[href='/sources#{source}']")
    )


@pytest.fixture
def note_id(clients: Clients) -> str:
    return add(clients("eddie"))


# Who may use them -------------------------------------------------------------------------------

POSTS = [
    ("/notes", CLAIM | {"text": "x"}),
    ("/notes/{id}/edit", {"text": "x", "version": "1"}),
    ("/notes/{id}/delete", {"version": "1"}),
]
PAGES = ["/notes/new?system=vllm", "/notes/{id}/edit", "/notes/{id}/delete"]


@pytest.mark.parametrize(("path", "data"), POSTS)
def test_anonymous_people_are_sent_to_sign_in_and_viewers_refused(
    clients: Clients, accounts_engine: Engine, note_id: str, path: str, data: dict[str, str]
) -> None:
    path = path.format(id=note_id)
    before = notes(accounts_engine)
    anonymous = post(clients(), path, data)
    assert anonymous.status_code == 303 and anonymous.headers["location"] == "/login"
    htmx = post(clients(), path, data, target=CLAIM_TARGET)
    assert htmx.status_code == 401 and htmx.headers["hx-redirect"] == "/login"
    viewer = post(clients("vera"), path, data)
    assert viewer.status_code == 403
    assert "you are signed in as vera (viewer)" in viewer.text.lower()
    assert notes(accounts_engine) == before
    assert clients("eddie").get(f"/api/v1/notes/{note_id}").json()["version"] == 1


@pytest.mark.parametrize("who", ["eddie", "ada"])
@pytest.mark.parametrize(("path", "data"), POSTS)
def test_editors_and_admins_can_use_every_form(
    clients: Clients, note_id: str, who: str, path: str, data: dict[str, str]
) -> None:
    response = post(clients(who), path.format(id=note_id), data)
    assert response.status_code == 303, response.text
    assert response.headers["location"].startswith("/systems/vllm#")


@pytest.mark.parametrize("path", PAGES)
def test_the_form_pages_need_an_editor(clients: Clients, note_id: str, path: str) -> None:
    path = path.format(id=note_id)
    anonymous = clients().get(path, follow_redirects=False)
    assert anonymous.status_code == 303
    assert anonymous.headers["location"].startswith("/login?next=%2Fnotes%2F")
    assert clients("vera").get(path).status_code == 403
    for who in ("eddie", "ada"):
        shown = clients(who).get(path)
        assert shown.status_code == 200 and shown.headers["cache-control"] == "no-store"


def test_readers_see_notes_and_only_editors_get_the_forms(clients: Clients, note_id: str) -> None:
    for who in (None, "vera"):
        soup = page(clients(who).get("/systems/vllm"))
        item = claim_item(soup, "overview-early-2026")
        note = item.select_one(f"li.team-note#note-{note_id}")
        assert note.select_one(".note-badge").get_text() == "team note"
        assert note.select_one(".note-text").get_text() == "We use it daily."
        assert note.select_one(".note-by").get_text(" ", strip=True).startswith("— eddie, ")
        assert note.select_one("time")["datetime"]
        assert soup.select("a.note-add") == [] and soup.select(".note-actions") == []
        panel = page(clients(who).get("/matrix?cell=vllm:prefix-caching"))
        assert panel.select_one(f"#cell_detail #note-{note_id} .note-text")
    editor = page(clients("eddie").get("/systems/vllm"))
    item = claim_item(editor, "overview-early-2026")
    add_link = item.select_one("a.note-add")
    assert add_link["id"] == CLAIM_TARGET and add_link["hx-target"] == "this"
    assert add_link["href"] == (
        "/notes/new?system=vllm&capability=prefix-caching&source=overview-early-2026"
        "&next=%2Fsystems%2Fvllm%23cap-prefix-caching"
    )
    delete = item.select_one(f"#note-{note_id} form[action='/notes/{note_id}/delete']")
    assert delete.select_one("[name=version]")["value"] == "1"
    # Published figures get a link too; the team's own claims do not (they are edited).
    assert editor.select_one("#bench-ov-vllm-h100-peak a.note-add")
    assert editor.select_one("#team-notes a.note-add")["href"].startswith("/notes/new?system=vllm&")


# Adding -----------------------------------------------------------------------------------------


def test_a_note_added_on_the_system_page_comes_back_at_the_note_with_a_confirmation(
    clients: Clients,
) -> None:
    editor = clients("eddie")
    note_id = add(editor, text="Fine since 0.6.", link="https://example.com/apc")
    assert flash_of(editor, "/systems/vllm") == (
        "Added a team note on vLLM · Prefix caching, as Server overview says."
    )
    note = page(clients().get("/systems/vllm")).select_one(f"#note-{note_id}")
    link = note.select_one("a.note-link")
    assert (link["href"], link.get_text()) == ("https://example.com/apc", "example.com/apc")
    assert "nofollow" in link["rel"] and "noopener" in link["rel"]


def test_htmx_swaps_the_link_for_the_form_and_a_problem_for_the_form_again(
    clients: Clients, accounts_engine: Engine
) -> None:
    editor = clients("eddie")
    link = page(editor.get("/systems/vllm")).select_one(f"#{CLAIM_TARGET}")
    headers = {"HX-Request": "true", "HX-Target": CLAIM_TARGET}
    form = editor.get(link["href"], headers=headers)
    assert form.status_code == 200 and form.text.lstrip().startswith("<form")
    soup = page(form)
    assert soup.form["id"] == CLAIM_TARGET and soup.form["hx-post"] == "/notes"
    hidden = {i["name"]: i["value"] for i in soup.select("input[type=hidden]")}
    assert hidden == CLAIM | {"next": "/systems/vllm#cap-prefix-caching"}
    before = notes(accounts_engine)
    bad = post(
        editor, "/notes", hidden | {"text": " ", "link": "javascript:alert(1)"}, target=CLAIM_TARGET
    )
    assert bad.status_code == 422 and bad.text.lstrip().startswith("<form")
    assert field_notes(page(bad)) == {
        f"{CLAIM_TARGET}-text": "Required.",
        f"{CLAIM_TARGET}-link": "Not a web address; allowed: http:// or https:// and a host name.",
    }
    assert page(bad).select_one("input[name=link]")["value"] == "javascript:alert(1)"
    assert notes(accounts_engine) == before
    good = post(editor, "/notes", hidden | {"text": "Typed again."}, target=CLAIM_TARGET)
    assert good.status_code == 204
    assert good.headers["hx-redirect"].startswith("/systems/vllm#note-note-")


def test_without_javascript_a_problem_comes_back_on_a_page_of_its_own(clients: Clients) -> None:
    response = post(clients("eddie"), "/notes", CLAIM | {"text": "", "next": "/benchmarks"})
    assert response.status_code == 422
    soup = page(response)
    assert soup.select_one("h1").get_text() == "Add a team note"
    assert soup.select_one(".note-on").get_text() == (
        "On vLLM · Prefix caching, as Server overview says"
    )
    assert (
        soup.select_one(".problem-banner")
        .get_text(" ", strip=True)
        .startswith("The note was not saved: 1 thing needs changing")
    )
    assert soup.select_one("a[role=button]")["href"] == "/benchmarks"  # Cancel goes back


def test_notes_on_figures_from_benchmarks_and_in_the_matrix_cell_panel(clients: Clients) -> None:
    editor = clients("eddie")
    here = "/benchmarks?system=vllm"
    row = page(editor.get(here)).select_one("#result-ov-vllm-h100-peak")
    link = row.select_one("a.note-add")
    form = page(editor.get(link["href"])).select_one("form.note-form")
    hidden = {i["name"]: i["value"] for i in form.select("input[type=hidden]")}
    assert hidden == {"result": "ov-vllm-h100-peak", "next": here}
    saved = post(editor, "/notes", hidden | {"text": "Peak, not sustained."})
    note_id = saved.headers["location"].rpartition("#note-")[2]
    assert saved.headers["location"] == f"{here}#note-{note_id}"
    assert flash_of(editor, here) == (
        "Added a team note on vLLM: Output throughput ~12,500 tok/s (Server overview)."
    )
    edit = page(editor.get(f"/notes/{note_id}/edit")).select_one("form.note-form")
    assert edit.select_one(".note-on").get_text() == (
        "On vLLM: Output throughput ~12,500 tok/s (Server overview)"
    )
    assert edit.select_one("[name=next]")["value"] == "/systems/vllm#bench-ov-vllm-h100-peak"
    shown = page(clients().get(here))
    notes_row = shown.select_one("#result-ov-vllm-h100-peak + tr.notes-row")
    assert notes_row.select_one(".note-text").get_text() == "Peak, not sustained."
    system = page(clients().get("/systems/vllm"))
    assert system.select_one("#bench-ov-vllm-h100-peak + tr.notes-row .note-text")
    # Beside the matrix the form goes back to it, filters and open cell included.
    matrix = page(editor.get("/matrix?need=prefix-caching&cell=vllm:prefix-caching"))
    link = matrix.select_one(f"#cell_detail #{CLAIM_TARGET}")
    assert link["href"].endswith(
        "&next=%2Fmatrix%3Fneed%3Dprefix-caching%26cell%3Dvllm%3Aprefix-caching"
    )
    # A panel HTMX loaded does not know the matrix around it: it goes back to the page the
    # browser shows (as the claim form does).
    panel = editor.get(
        "/matrix/cell?system=vllm&capability=prefix-caching",
        headers={"HX-Request": "true", "HX-Target": "cell_detail"},
    )
    assert "next=" not in page(panel).select_one(f"#{CLAIM_TARGET}")["href"]
    response = editor.post(
        "/notes",
        data=CLAIM | {"text": "From the panel.", "next": ""},
        headers={
            "Sec-Fetch-Site": "same-origin",
            "HX-Request": "true",
            "HX-Target": CLAIM_TARGET,
            "HX-Current-URL": "http://testserver/matrix?need=prefix-caching&cell=vllm:prefix-caching",
        },
    )
    assert response.headers["hx-redirect"].startswith(
        "/matrix?need=prefix-caching&cell=vllm:prefix-caching#note-note-"
    )


def test_unknown_items_get_a_404_page_naming_what_is_wrong(clients: Clients) -> None:
    editor = clients("eddie")
    missing = editor.get("/notes/new?system=vllm&capability=mobile&source=overview-early-2026")
    assert missing.status_code == 404
    assert "makes no claim on vllm/mobile" in page(missing).select_one(".error-detail").text
    assert editor.get("/notes/note-0000000000/edit").status_code == 404


# Editing and deleting -------------------------------------------------------------------------


def test_an_edit_based_on_an_old_version_shows_both_and_can_be_saved_on_top(
    clients: Clients, note_id: str
) -> None:
    ada, eddie = clients("ada"), clients("eddie")
    path = f"/notes/{note_id}/edit"
    form = page(eddie.get(f"{path}?next=/systems/vllm")).select_one("form.note-form")
    assert form.select_one("textarea[name=text]").get_text() == "We use it daily."
    assert form.select_one("[name=version]")["value"] == "1"
    assert post(ada, path, {"text": "Daily, since 0.6.", "version": "1"}).status_code == 303
    mine = {"text": "We use it every day.", "link": "https://example.com/x", "version": "1"}
    clash = post(eddie, path, mine)
    assert clash.status_code == 409
    soup = page(clash)
    rows = {
        tr.th.get_text(" ", strip=True): [td.get_text() for td in tr.select("td")]
        for tr in soup.select(".clash-table tbody tr.differs")
    }
    assert rows == {
        "Note (differs)": ["We use it every day.", "Daily, since 0.6."],
        "Link (differs)": ["https://example.com/x", "—"],
    }
    assert "ada saved this note after you opened it" in soup.select_one(".clash").get_text()
    assert soup.select_one("form.note-form [name=version]")["value"] == "2"
    assert soup.select_one("textarea[name=text]").get_text() == "We use it every day."
    button = soup.select_one("form.note-form button[type=submit]").get_text()
    assert button == "Save mine on top of version 2"
    htmx = post(eddie, path, mine, target=f"note-edit-{note_id}")
    assert htmx.status_code == 409 and htmx.text.lstrip().startswith("<form")
    again = post(eddie, path, mine | {"version": "2"})
    assert again.status_code == 303
    assert flash_of(eddie, "/systems/vllm") == (
        "Saved the team note on vLLM · Prefix caching, as Server overview says."
    )
    assert eddie.get(f"/api/v1/notes/{note_id}").json()["version"] == 3


def test_delete_asks_with_the_version_and_refuses_a_changed_note(
    clients: Clients, accounts_engine: Engine, note_id: str
) -> None:
    editor = clients("eddie")
    post(clients("ada"), f"/notes/{note_id}/edit", {"text": "Changed.", "version": "1"})
    before = notes(accounts_engine)
    stale = post(editor, f"/notes/{note_id}/delete", {"version": "1"})
    assert stale.status_code == 409 and notes(accounts_engine) == before
    soup = page(stale)
    assert "Nothing was deleted" in soup.select_one(".clash").get_text()
    assert soup.select_one("dd.note-text").get_text() == "Changed."
    assert soup.select_one("form [name=version]")["value"] == "2"
    gone = post(editor, f"/notes/{note_id}/delete", {"version": "2", "next": "/systems/vllm"})
    assert gone.status_code == 303 and gone.headers["location"] == "/systems/vllm"
    assert notes(accounts_engine) == before - 1
    assert flash_of(editor, "/systems/vllm").startswith("Deleted the team note on vLLM")
    assert post(editor, f"/notes/{note_id}/delete", {"version": "2"}).status_code == 404


def test_what_editors_type_is_text_and_only_web_links_become_links(
    clients: Clients, accounts_engine: Engine
) -> None:
    text = '<script>alert(1)</script> <a href="javascript:alert(2)">x</a>'
    note_id = add(clients("eddie"), text=text, link="https://example.com/a?b=<i>")
    html = clients().get("/systems/vllm").text
    assert "<script>alert(1)" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    note = page(clients().get("/systems/vllm")).select_one(f"#note-{note_id}")
    assert note.select_one(".note-text").get_text() == text
    assert [a["href"] for a in note.select("a")] == ["https://example.com/a?b=<i>"]
    # A link that got into the database some other way is still not made into an href.
    with Session(writer(accounts_engine)) as session, session.begin():
        row = session.exec(select(TeamNote).where(TeamNote.slug == note_id)).one()
        row.link = "javascript:alert(3)"
        session.add(row)
    bumped = clients("eddie").post(
        "/api/v1/notes",
        json={"system": "tgi", "text": "bump"},
        headers={"Sec-Fetch-Site": "same-origin"},
    )
    assert bumped.status_code == 201  # a write: the next page is built afresh
    note = page(clients("vera").get("/systems/vllm")).select_one(f"#note-{note_id}")
    assert note.select("a") == []
