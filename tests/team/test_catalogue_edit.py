"""The team's entries page (/catalogue): every entry the team added, each with an edit form
(versioned: a stale form is answered 409 with the entry as saved, nothing overwritten) and a
delete page that refuses an entry in use, saying what uses it, and offers to withdraw it."""

from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine
from sqlmodel import Session, select

from app.models import Hardware, LanguageModel, System
from tests.team.html import RESULT_FORM, page, post

pytestmark = pytest.mark.database
Clients = Callable[..., TestClient]
POSTS = [
    ("/catalogue/hardware/no-such-gpu/edit", {"name": "x"}),
    ("/catalogue/hardware/no-such-gpu/delete", {"version": "1"}),
    ("/catalogue/hardware/no-such-gpu/withdraw", {"version": "1"}),
]


@pytest.mark.parametrize(("path", "data"), POSTS)
def test_the_edit_forms_are_for_editors(clients: Clients, path: str, data: dict[str, str]) -> None:
    anonymous = post(clients(), path, data)
    assert anonymous.status_code == 303 and anonymous.headers["location"].startswith("/login")
    assert post(clients("vera"), path, data).status_code == 403
    assert clients("vera").get("/catalogue").status_code == 403
    assert post(clients("eddie"), path, data).status_code == 404  # past the role check


def _add(client: TestClient, kind: str, data: dict[str, str]) -> str:
    saved = post(client, f"/catalogue/{kind}", data)
    assert saved.status_code == 303, saved.text
    return saved.headers["location"].rsplit("/", 1)[1]


def test_the_list_shows_the_teams_entries_with_their_uses(clients: Clients) -> None:
    eddie = clients("eddie")
    gpu = _add(eddie, "hardware", {"name": "Listed GPU 7", "memory_gb": "48"})
    engine = _add(eddie, "system", {"name": "Listed Engine", "kind": "engine"})
    used = post(
        eddie, f"/systems/{engine}/team-results", RESULT_FORM | {"hardware": "Listed GPU 7"}
    )
    assert used.status_code == 303, used.text
    form = page(eddie.get("/catalogue/hardware/nvidia-rtx-4090/edit"))
    assert [i["name"] for i in form.select("form.catalogue-form [name]")] == ["version", "aliases"]
    version = form.select_one("[name=version]")["value"]
    named = post(
        eddie,
        "/catalogue/hardware/nvidia-rtx-4090/edit",
        {"version": version, "aliases": "Team 4090"},
    )
    assert named.status_code == 303, named.text

    listed = page(eddie.get("/catalogue"))
    row = listed.select_one(f"#team-hardware-{gpu}")
    cells = [c.get_text(" ", strip=True) for c in row.select("th, td")]
    assert cells[0] == f"Listed GPU 7 {gpu}" and cells[1] == "1 result"
    assert row.select_one("a[href$='/edit']")["href"] == f"/catalogue/hardware/{gpu}/edit"
    assert "Withdraw" in cells[2]
    system_row = listed.select_one(f"#team-system-{engine}")
    assert "1 result" in system_row.get_text()
    aliases = listed.select_one(".team-aliases").get_text(" ", strip=True)
    assert "Team 4090" in aliases
    # Readers do not get the page; editors reach it from the vocabulary pages.
    assert clients("vera").get("/catalogue").status_code == 403
    links = [a["href"] for a in page(eddie.get(f"/hardware/{gpu}")).select(".catalogue-add a")]
    assert f"/catalogue/hardware/{gpu}/edit" in links and "/catalogue" in links
    listing = [a["href"] for a in page(eddie.get("/models")).select(".catalogue-add a")]
    assert "/catalogue" in listing


def test_an_edit_saves_and_a_stale_one_is_refused_with_the_entry_as_saved(
    clients: Clients, accounts_engine: Engine
) -> None:
    eddie, ada = clients("eddie"), clients("ada")
    slug = _add(eddie, "model", {"name": "Edited Model 3B", "parameters_b": "3"})
    form = page(eddie.get(f"/catalogue/model/{slug}/edit"))
    assert form.select_one("h1").get_text() == "Edit Edited Model 3B"
    assert form.select_one("[name=parameters_b]")["value"] == "3"
    version = form.select_one("[name=version]")["value"]
    # Someone else saves first.
    theirs = post(
        ada,
        f"/catalogue/model/{slug}/edit",
        {"version": version, "name": "Edited Model 3B", "parameters_b": "3.2", "family": "Ours"},
    )
    assert theirs.status_code == 303 and theirs.headers["location"] == f"/models/{slug}"
    mine = post(
        eddie,
        f"/catalogue/model/{slug}/edit",
        {"version": version, "name": "Edited Model 3B", "parameters_b": "4"},
    )
    assert mine.status_code == 409
    shown = page(mine)
    # Both side by side, as the team results show a clash; what was typed stays in the form.
    clash = shown.select_one(".clash[role=alert]").get_text(" ", strip=True)
    assert f"now at version {int(version) + 1}" in clash and "Nothing was overwritten" in clash
    rows = {
        tr.th.get_text(" ", strip=True): [td.get_text(strip=True) for td in tr.select("td")]
        for tr in shown.select(".clash-table tbody tr")
    }
    assert rows["Parameters (billions) (differs)"] == ["4", "3.2"]
    assert rows["Family (differs)"] == ["—", "Ours"]
    assert shown.select_one("[name=parameters_b]")["value"] == "4"
    assert shown.select_one("[name=version]")["value"] == str(int(version) + 1)
    assert (
        "Save mine on top of version" in shown.select_one("form.catalogue-form button").get_text()
    )
    with Session(accounts_engine) as session:
        row = session.exec(select(LanguageModel).where(LanguageModel.slug == slug)).one()
        assert (row.parameters_b, row.family) == (3.2, "Ours")
    # A field's limits named beside it, nothing saved; a name another entry holds: 409.
    again = shown.select_one("[name=version]")["value"]
    bad = post(
        eddie,
        f"/catalogue/model/{slug}/edit",
        {"version": again, "name": "Edited Model 3B", "parameters_b": "lots"},
    )
    assert (
        bad.status_code == 422
        and "Not a number" in page(bad).select_one("#edit-model-parameters_b-note").get_text()
    )
    taken = post(eddie, f"/catalogue/model/{slug}/edit", {"version": again, "name": "Llama 3.1 8B"})
    assert taken.status_code == 409 and "llama-3.1-8b" in taken.text
    emptied = post(eddie, f"/catalogue/model/{slug}/edit", {"version": again, "name": ""})
    assert emptied.status_code == 422
    # A published system has no edit form.
    assert eddie.get("/catalogue/system/vllm/edit").status_code == 404


def test_delete_refuses_an_entry_in_use_and_offers_to_withdraw_it(
    clients: Clients, accounts_engine: Engine
) -> None:
    eddie = clients("eddie")
    used = _add(eddie, "hardware", {"name": "Used GPU 9"})
    spare = _add(eddie, "hardware", {"name": "Spare GPU 9"})
    saved = post(eddie, "/systems/vllm/team-results", RESULT_FORM | {"hardware": "Used GPU 9"})
    assert saved.status_code == 303, saved.text

    ask = page(eddie.get(f"/catalogue/hardware/{used}/delete"))
    assert "1 result" in ask.get_text() and ask.select_one("form[action$='/delete']") is None
    version = ask.select_one("form[action$='/withdraw'] [name=version]")["value"]
    # Posted anyway (an old tab): 409 naming what uses it, nothing deleted.
    refused = post(eddie, f"/catalogue/hardware/{used}/delete", {"version": version})
    assert refused.status_code == 409
    said = page(refused).select_one(".problem-banner").get_text(" ", strip=True)
    assert "is in use by 1 row(s): result " in said
    withdrawn = post(
        eddie, f"/catalogue/hardware/{used}/withdraw", {"version": version, "withdrawn": "yes"}
    )
    assert withdrawn.status_code == 303 and withdrawn.headers["location"] == "/catalogue"
    with Session(accounts_engine) as session:
        row = session.exec(select(Hardware).where(Hardware.slug == used)).one()
        assert row.withdrawn
    listed = page(eddie.get("/catalogue")).select_one(f"#team-hardware-{used}")
    assert "is-withdrawn" in listed["class"] and "Bring back" in listed.get_text()
    # A stale withdraw (the version before it) is refused, saying so.
    stale = post(
        eddie, f"/catalogue/hardware/{used}/withdraw", {"version": version, "withdrawn": "no"}
    )
    assert stale.status_code == 409 and "someone saved it since" in stale.text

    spare_page = page(eddie.get(f"/catalogue/hardware/{spare}/delete"))
    spare_version = spare_page.select_one("form[action$='/delete'] [name=version]")["value"]
    gone = post(eddie, f"/catalogue/hardware/{spare}/delete", {"version": spare_version})
    assert gone.status_code == 303
    with Session(accounts_engine) as session:
        assert session.exec(select(Hardware).where(Hardware.slug == spare)).first() is None
    assert eddie.get(f"/catalogue/hardware/{spare}/delete").status_code == 404


def test_a_team_system_is_edited_and_deleted_from_its_page(
    clients: Clients, accounts_engine: Engine
) -> None:
    eddie = clients("eddie")
    slug = _add(eddie, "system", {"name": "Short Lived Engine", "kind": "engine"})
    links = [a["href"] for a in page(eddie.get(f"/systems/{slug}")).select(".note-add-line a")]
    assert f"/catalogue/system/{slug}/edit" in links
    form = page(eddie.get(f"/catalogue/system/{slug}/edit"))
    values = {i["name"]: i.get("value", "") for i in form.select("form.catalogue-form input")}
    saved = post(
        eddie,
        f"/catalogue/system/{slug}/edit",
        values | {"kind": "engine", "licence": "", "summary": "Our fork."},
    )
    assert saved.status_code == 303, saved.text
    with Session(accounts_engine) as session:
        row = session.exec(select(System).where(System.slug == slug)).one()
        assert (row.summary, row.licence, row.version) == ("Our fork.", "unknown", 2)
    ask = page(eddie.get(f"/catalogue/system/{slug}/delete"))
    version = ask.select_one("form[action$='/delete'] [name=version]")["value"]
    assert post(eddie, f"/catalogue/system/{slug}/delete", {"version": version}).status_code == 303
    assert eddie.get(f"/systems/{slug}").status_code == 404
