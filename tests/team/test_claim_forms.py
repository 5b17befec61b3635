"""The editor forms for the team's claims: on the system page, in the matrix cell panel and on
a page of their own; who may use them, messages, versions, confirmations."""

from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, func
from sqlmodel import Session, select

from app.models import Claim
from tests.team.html import field_notes, flash_of, page, post

Clients = Callable[..., TestClient]


def claims(engine: Engine) -> int:
    with Session(engine) as session:
        return session.exec(select(func.count()).select_from(Claim)).one()


def matrix_cell(client: TestClient, key: str) -> dict[str, object]:
    """How the matrix shows a cell: its level mark and whether it is disputed."""
    link = page(client.get(f"/matrix?cell={key}")).select_one(f"a[data-cell='{key}']")
    return {
        "level": link.get_text(" ", strip=True)[:5],  # the mark and word, not the rating
        "disputed": "is-disputed" in link.parent["class"],
    }


# Who may use them -------------------------------------------------------------------------------

POSTS = [
    ("/systems/vllm/claims/anthropic-api", {"level": "no"}),
    ("/systems/vllm/claims/anthropic-api/delete", {"version": "1"}),
]


@pytest.mark.parametrize(("path", "data"), POSTS)
def test_anonymous_people_are_sent_to_sign_in_and_viewers_refused(
    clients: Clients, accounts_engine: Engine, path: str, data: dict[str, str]
) -> None:
    before = claims(accounts_engine)
    anonymous = post(clients(), path, data)
    assert anonymous.status_code == 303 and anonymous.headers["location"] == "/login"
    htmx = post(clients(), path, data, target="claim-anthropic-api")
    assert htmx.status_code == 401 and htmx.headers["hx-redirect"] == "/login"
    viewer = post(clients("vera"), path, data)
    assert viewer.status_code == 403
    assert page(viewer).select_one("h1").get_text() == "Not allowed"
    assert claims(accounts_engine) == before


@pytest.mark.parametrize("who", ["eddie", "ada"])
def test_editors_and_admins_can_set_and_remove_a_claim(clients: Clients, who: str) -> None:
    client = clients(who)
    made = post(client, "/systems/vllm/claims/anthropic-api", {"level": "no"})
    assert made.status_code == 303
    assert made.headers["location"] == "/matrix/cell?system=vllm&capability=anthropic-api"
    removed = post(client, "/systems/vllm/claims/anthropic-api/delete", {"version": "1"})
    assert removed.status_code == 303
    assert flash_of(client, "/systems/vllm") == (
        "Removed the team's claim on vLLM · Anthropic Messages API."
    )


@pytest.mark.parametrize(
    "path", ["/systems/vllm/claims/speculative-decoding", "/systems/vllm/claims"]
)
def test_the_claim_pages_need_an_editor(clients: Clients, path: str) -> None:
    anonymous = clients().get(path, follow_redirects=False)
    assert anonymous.status_code == 303
    assert anonymous.headers["location"].startswith("/login?next=%2Fsystems%2Fvllm%2Fclaims")
    assert clients("vera").get(path).status_code == 403
    assert clients("ada").get(path, follow_redirects=False).status_code in (200, 303)


def test_only_editors_get_claim_forms(clients: Clients) -> None:
    for who in (None, "vera"):
        assert page(clients(who).get("/systems/vllm")).select(".team-claim") == []
        panel = clients(who).get("/matrix/cell?system=vllm&capability=openai-api")
        assert page(panel).select(".team-claim") == []
    system = page(clients("eddie").get("/systems/vllm"))
    editor = system.select_one("#cap-openai-api details.team-edit")
    assert editor.summary.get_text(" ", strip=True) == "Add a team claim on OpenAI-compatible API"
    form = editor.select_one("form.claim-form")
    assert form["action"] == "/systems/vllm/claims/openai-api"
    assert form["hx-target"] == "#claim-openai-api"
    assert form.select_one("[name=next]")["value"] == "/systems/vllm#cap-openai-api"
    assert form.select("[name=version]") == []  # nothing to base a change on yet
    picker = system.select_one("form.claim-picker")
    assert picker["method"] == "get" and picker["action"] == "/systems/vllm/claims"
    chosen = clients("eddie").get("/systems/vllm/claims?capability=mobile", follow_redirects=False)
    assert chosen.headers["location"] == "/systems/vllm/claims/mobile"


def test_editors_can_open_a_cell_no_source_covers(clients: Clients) -> None:
    for who in (None, "vera"):
        matrix = page(clients(who).get("/hardware"))
        assert matrix.select("td.lv-no-claim") and matrix.select("td.lv-no-claim a") == []
    matrix = page(clients("eddie").get("/hardware"))
    empty = matrix.select("td.lv-no-claim a[data-cell]")
    assert empty and len(empty) == len(matrix.select("td.lv-no-claim"))
    target = empty[0]
    assert target.get_text(" ", strip=True).endswith("no source says: add the team's claim")
    panel = page(clients("eddie").get(target["href"]))
    system, capability = target["data-cell"].split(":")
    form = panel.select_one("form.claim-form")
    assert form["action"] == f"/systems/{system}/claims/{capability}"


# The matrix cell panel ----------------------------------------------------------------------------


def test_a_team_claim_from_the_cell_panel_disputes_the_published_one(clients: Clients) -> None:
    editor = clients("eddie")
    key = "vllm:openai-api"
    assert matrix_cell(editor, key) == {"level": "✓ Yes", "disputed": False}
    panel = page(editor.get(f"/matrix?cell={key}")).select_one("#cell_detail")
    form = panel.select_one("#claim-openai-api form.claim-form")
    assert form.select_one("[name=next]")["value"] == f"/matrix?cell={key}"
    data = {
        "level": "partial",
        "note": "our gateway drops tool calls",
        "next": f"/matrix?cell={key}",
    }
    response = post(editor, "/systems/vllm/claims/openai-api", data)
    assert response.headers["location"] == f"/matrix?cell={key}"
    shown = page(editor.get(f"/matrix?cell={key}"))
    assert shown.select_one(".done-banner.flash").get_text() == (
        "Added the team's claim on vLLM · OpenAI-compatible API: Partial."
    )
    link = shown.select_one(f"a[data-cell='{key}']")
    assert "is-disputed" in link.parent["class"]
    team = [li for li in shown.select("#cell_detail .claim-list li") if li.select(".team-badge")]
    assert len(team) == 1 and team[0].select_one(".team-badge").get_text() == "team claim"
    assert "our gateway drops tool calls" in team[0].get_text()
    editing = shown.select_one("#claim-openai-api")
    assert editing.select_one("[name=version]")["value"] == "1"
    assert editing.select_one("#claim-openai-api-level option[selected]")["value"] == "partial"
    assert editing.select_one("form.claim-remove")
    # Everyone sees the dispute; nobody but editors sees the forms.
    anonymous = clients()
    assert matrix_cell(anonymous, key)["disputed"] is True
    assert page(anonymous.get(f"/matrix?cell={key}")).select(".team-claim") == []


def test_a_panel_loaded_by_htmx_goes_back_to_the_matrix_the_browser_shows(
    clients: Clients,
) -> None:
    editor = clients("eddie")
    panel = editor.get(
        "/matrix/cell?system=vllm&capability=prefix-caching",
        headers={"HX-Request": "true", "HX-Target": "cell_detail"},
    )
    form = page(panel).select_one("#claim-prefix-caching form.claim-form")
    assert form.select_one("[name=next]")["value"] == ""  # the panel cannot know the filters
    where = "http://testserver/matrix?kind=engine&cell=vllm:prefix-caching"
    response = editor.post(
        "/systems/vllm/claims/prefix-caching",
        data={"level": "no", "next": ""},
        headers={
            "Sec-Fetch-Site": "same-origin",
            "HX-Request": "true",
            "HX-Target": "claim-prefix-caching",
            "HX-Current-URL": where,
        },
    )
    assert response.status_code == 204
    assert response.headers["hx-redirect"] == "/matrix?kind=engine&cell=vllm:prefix-caching"
    assert "hx-refresh" not in response.headers
    elsewhere = editor.post(
        "/systems/vllm/claims/prefix-caching/delete",
        data={"version": "1", "next": ""},
        headers={
            "Sec-Fetch-Site": "same-origin",
            "HX-Request": "true",
            "HX-Target": "claim-prefix-caching",
            "HX-Current-URL": "http://evil.example/x",
        },
    )
    assert elsewhere.headers["hx-redirect"] == "/matrix/cell?system=vllm&capability=prefix-caching"


# Problems and clashes -----------------------------------------------------------------------------


def test_a_bad_claim_is_shown_again_with_its_message_and_note(
    clients: Clients, accounts_engine: Engine
) -> None:
    before = claims(accounts_engine)
    data = {"level": "sometimes", "note": "<script>alert(1)</script>", "next": "/systems/vllm"}
    response = post(clients("eddie"), "/systems/vllm/claims/speculative-decoding", data)
    assert response.status_code == 422
    soup = page(response)
    assert field_notes(soup) == {
        "claim-speculative-decoding-level": "Choose one of the listed values."
    }
    assert (
        soup.select_one("#claim-speculative-decoding-note")["value"] == "<script>alert(1)</script>"
    )
    assert "<script>alert(1)" not in response.text
    assert soup.select_one("h1").get_text() == "The team's claim: vLLM · Speculative decoding"
    assert soup.select("#sources-say ~ ul.claim-list li")  # what the sources say, for context
    htmx = post(
        clients("eddie"),
        "/systems/vllm/claims/speculative-decoding",
        data,
        target="claim-speculative-decoding",
    )
    assert htmx.status_code == 422
    assert htmx.text.lstrip().startswith('<div id="claim-speculative-decoding" class="team-claim">')
    assert claims(accounts_engine) == before


def test_a_claim_changed_meanwhile_shows_both_and_can_be_saved_on_top(clients: Clients) -> None:
    eddie, ada = clients("eddie"), clients("ada")
    path = "/systems/sglang/claims/openai-api"
    assert post(eddie, path, {"level": "partial", "note": "no streaming"}).status_code == 303
    assert post(ada, path, {"level": "yes", "version": "1"}).status_code == 303
    mine = {"level": "no", "note": "fails our suite", "version": "1", "next": "/systems/sglang"}
    clash = post(eddie, path, mine, target="claim-openai-api")
    assert clash.status_code == 409
    soup = page(clash)
    rows = {
        tr.th.get_text(" ", strip=True): [td.get_text() for td in tr.select("td")]
        for tr in soup.select(".clash-table tbody tr")
    }
    assert rows == {"Level (differs)": ["no", "yes"], "Note (differs)": ["fails our suite", "—"]}
    assert "ada saved the team's claim after you opened it" in soup.select_one(".clash").text
    assert soup.select_one("form.claim-form [name=version]")["value"] == "2"
    assert soup.select_one("form.claim-remove [name=version]")["value"] == "2"
    again = post(eddie, path, mine | {"version": "2"})
    assert again.status_code == 303 and again.headers["location"] == "/systems/sglang"
    assert flash_of(eddie, "/systems/sglang") == (
        "Changed the team's claim on SGLang · OpenAI-compatible API: No."
    )


def test_a_claim_added_by_someone_else_meanwhile_is_not_overwritten(clients: Clients) -> None:
    path = "/systems/sglang/claims/mobile"
    assert post(clients("ada"), path, {"level": "no"}).status_code == 303
    clash = post(clients("eddie"), path, {"level": "yes"})  # drawn when there was none
    assert clash.status_code == 409
    assert "Someone added the team's claim while you were editing" in page(clash).get_text()


def test_removing_a_claim_changed_meanwhile_asks_again(clients: Clients) -> None:
    eddie = clients("eddie")
    path = "/systems/llama-cpp/claims/openai-api"
    post(eddie, path, {"level": "partial"})
    post(clients("ada"), path, {"level": "no", "note": "checked again", "version": "1"})
    stale = post(eddie, f"{path}/delete", {"version": "1", "next": "/systems/llama-cpp"})
    assert stale.status_code == 409
    soup = page(stale)
    assert "Nothing was removed" in soup.select_one(".clash").get_text()
    assert "checked again" in soup.select_one(".clash").get_text()
    assert soup.select("form.claim-form") == []
    remove = soup.select_one("form.claim-remove")
    assert remove.select_one("[name=version]")["value"] == "2"
    assert remove.select_one("a")["href"] == "/systems/llama-cpp"
    assert post(eddie, f"{path}/delete", {"version": "2"}).status_code == 303
    nothing = post(eddie, f"{path}/delete", {"version": "2"})
    assert nothing.status_code == 303
    assert flash_of(eddie, "/systems/llama-cpp") == (
        "The team had no claim on llama.cpp · OpenAI-compatible API to remove."
    )


def test_unknown_cells_are_404s(clients: Clients) -> None:
    editor = clients("eddie")
    assert post(editor, "/systems/nope/claims/openai-api", {"level": "no"}).status_code == 404
    response = post(editor, "/systems/vllm/claims/teleport", {"level": "no"})
    assert response.status_code == 404 and "teleport" in response.text
