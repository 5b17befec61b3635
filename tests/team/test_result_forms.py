"""The editor forms for team results: who may use them, messages, versions, confirmations."""

from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, func
from sqlmodel import Session, select

from app.models import BenchmarkResult, LanguageModel
from tests.team.html import RESULT_FORM, field_notes, flash_of, new_result, page, post

Clients = Callable[..., TestClient]


def results(engine: Engine) -> int:
    with Session(engine) as session:
        return session.exec(select(func.count()).select_from(BenchmarkResult)).one()


@pytest.fixture
def result_id(clients: Clients) -> str:
    return new_result(clients("eddie"))


# Who may use them -------------------------------------------------------------------------------

POSTS = [
    ("/systems/vllm/team-results", RESULT_FORM),
    ("/team-results", RESULT_FORM | {"system": "vllm"}),
    ("/team-results/{id}/edit", RESULT_FORM | {"version": "1"}),
    ("/team-results/{id}/delete", {"version": "1"}),
]
PAGES = ["/team-results/new", "/team-results/{id}/edit", "/team-results/{id}/delete"]


@pytest.mark.parametrize(("path", "data"), POSTS)
def test_anonymous_people_are_sent_to_sign_in_and_viewers_refused(
    clients: Clients, accounts_engine: Engine, result_id: str, path: str, data: dict[str, str]
) -> None:
    path = path.format(id=result_id)
    before = results(accounts_engine)
    anonymous = post(clients(), path, data)
    assert anonymous.status_code == 303 and anonymous.headers["location"] == "/login"
    htmx = post(clients(), path, data, target="team_result_form")
    assert htmx.status_code == 401 and htmx.headers["hx-redirect"] == "/login"
    viewer = post(clients("vera"), path, data)
    assert viewer.status_code == 403
    assert page(viewer).select_one("h1").get_text() == "Not allowed"
    assert "you are signed in as vera (viewer)" in viewer.text.lower()
    assert results(accounts_engine) == before
    assert new_result_version(clients("eddie"), result_id) == 1


def new_result_version(client: TestClient, result_id: str) -> int:
    form = page(client.get(f"/team-results/{result_id}/edit"))
    return int(form.select_one("#team_result_form input[name=version]")["value"])


@pytest.mark.parametrize("who", ["eddie", "ada"])
@pytest.mark.parametrize(("path", "data"), POSTS)
def test_editors_and_admins_can_use_every_form(
    clients: Clients, result_id: str, who: str, path: str, data: dict[str, str]
) -> None:
    response = post(clients(who), path.format(id=result_id), data)
    assert response.status_code == 303, response.text
    assert response.headers["location"].startswith("/systems/vllm#")


@pytest.mark.parametrize("path", PAGES)
def test_the_form_pages_need_an_editor(clients: Clients, result_id: str, path: str) -> None:
    path = path.format(id=result_id)
    anonymous = clients().get(path, follow_redirects=False)
    assert anonymous.status_code == 303
    assert anonymous.headers["location"].startswith("/login?next=%2Fteam-results%2F")
    assert clients("vera").get(path).status_code == 403
    for who in ("eddie", "ada"):
        shown = clients(who).get(path)
        assert shown.status_code == 200 and shown.headers["cache-control"] == "no-store"


def test_only_editors_see_the_forms_and_controls(clients: Clients, result_id: str) -> None:
    for who in (None, "vera"):
        for path in ("/systems/vllm", "/benchmarks"):
            soup = page(clients(who).get(path))
            assert soup.select("form[method=post][action*=team-results]") == []
            assert soup.select(f"a[href^='/team-results/{result_id}/edit']") == []
    system = page(clients("eddie").get("/systems/vllm"))
    assert system.select_one("#add-team-result form")["action"] == "/systems/vllm/team-results"
    row = system.select_one(f"#bench-{result_id}")
    assert row.select_one(".team-badge").get_text() == "team-measured"
    assert row.select_one(f"form[action='/team-results/{result_id}/delete'] [name=version]")
    published = system.select("table.benchmarks tbody tr[id]:not(:has(.team-badge))")
    assert published
    for r in published:  # a published figure is annotated, never edited or deleted
        assert not r.select("a[href*='/team-results/'], form[action*='/team-results/']")
        assert r.select_one(".team-actions a.note-add")
    benchmarks = page(clients("ada").get("/benchmarks"))
    assert benchmarks.select_one("#add-team-result select[name=system] option[value=vllm]")
    assert benchmarks.select_one(f"#result-{result_id} .team-actions a")["href"] == (
        f"/team-results/{result_id}/edit?next=/benchmarks"
    )


# Adding -----------------------------------------------------------------------------------------


def test_a_result_added_on_the_system_page_comes_back_with_a_confirmation(
    clients: Clients,
) -> None:
    editor = clients("eddie")
    result_id = new_result(editor, value="3120", note="batch of 64")
    assert flash_of(editor, "/systems/vllm") == (
        "Added a team result for vLLM: Output throughput 3,120 tok/s."
    )
    assert flash_of(editor, "/systems/vllm") is None  # shown once
    row = page(editor.get("/systems/vllm")).select_one(f"#bench-{result_id}")
    assert row.select_one(".figure").get_text() == "3,120 tok/s"
    assert row.select_one("[data-label='Measured by']").get_text() == "eddie"
    anonymous = page(clients().get("/benchmarks?origin=team"))
    team_row = anonymous.select_one(f"#result-{result_id}")
    assert team_row.select_one(".team-badge").get_text() == "team-measured"


def test_a_result_added_on_benchmarks_names_its_system_and_goes_back_there(
    clients: Clients,
) -> None:
    editor = clients("eddie")
    data = RESULT_FORM | {"system": "sglang", "next": "/benchmarks?origin=team"}
    response = post(editor, "/team-results", data)
    assert response.status_code == 303
    location = response.headers["location"]
    assert location.startswith("/benchmarks?origin=team#result-team-")
    assert flash_of(editor, "/benchmarks?origin=team").startswith("Added a team result for SGLang")


def test_a_bad_result_is_shown_again_with_each_message_and_what_was_typed(
    clients: Clients, accounts_engine: Engine
) -> None:
    before = results(accounts_engine)
    typed = RESULT_FORM | {
        "system": "",
        "unit": "ms",
        "value": "fast",
        "concurrency": "0",
        "date": "2026-02-30",
        "note": "<b>kept</b>",
    }
    response = post(clients("eddie"), "/team-results", typed)
    assert response.status_code == 422
    soup = page(response)
    assert field_notes(soup) == {
        "tr-system": "Choose one from the list.",
        "tr-value": "Not a number; type a figure such as 2450 or 12.5.",
        "tr-concurrency": "Too low: the lowest allowed is 1.",
        "tr-date": "Not a calendar date; allowed: a real year, month and day.",
    }
    assert soup.select_one("h1").get_text() == "Add a team result"
    assert (
        soup.select_one("[role=alert]")
        .get_text(strip=True)
        .startswith("The result was not saved: 4 things need changing")
    )
    assert soup.select_one("#tr-note")["value"] == "<b>kept</b>"  # escaped, not markup
    assert "<b>kept</b>" not in response.text
    assert soup.select_one("#tr-value")["value"] == "fast"
    assert soup.select_one("#tr-unit option[selected]")["value"] == "ms"
    assert soup.select_one("a[role=button]")["href"] == "/"  # Cancel: back where it started
    # The metric's unit is checked by the service once the fields parse.
    unit = post(clients("eddie"), "/systems/vllm/team-results", RESULT_FORM | {"unit": "ms"})
    assert field_notes(page(unit)) == {
        "tr-unit": "'ms' does not fit the metric 'throughput'; allowed: tok/s."
    }
    assert results(accounts_engine) == before


def test_a_hardware_name_not_in_the_vocabulary_gets_a_did_you_mean(
    clients: Clients, accounts_engine: Engine
) -> None:
    before = results(accounts_engine)
    typed = RESULT_FORM | {"hardware": "H100 SMX", "model": "Llama 3.1 8B Instruct"}
    response = post(clients("eddie"), "/systems/vllm/team-results", typed)
    assert response.status_code == 422
    soup = page(response)
    notes = field_notes(soup)
    assert set(notes) == {"tr-hardware", "tr-model"}
    assert notes["tr-hardware"].startswith(
        "Not a known hardware name; did you mean nvidia-h100-sxm5-80gb, "
    )
    assert notes["tr-model"].startswith("Not a known model name; did you mean ")
    assert "llama-3.1-8b" in notes["tr-model"] and notes["tr-model"].endswith("?")
    assert soup.select_one("#tr-hardware")["value"] == "H100 SMX", "what was typed stays"
    # The suggestions the field offers are the vocabulary's entries.
    offered = {o["value"] for o in soup.select("#tr-hardware-list option")}
    assert {"nvidia-h100-sxm5-80gb", "nvidia-h100-unspecified"} <= offered
    assert soup.select_one("#tr-hardware")["list"] == "tr-hardware-list"
    assert results(accounts_engine) == before


def test_a_range_problem_marks_the_range_and_htmx_gets_the_form_alone(clients: Clients) -> None:
    typed = RESULT_FORM | {"value": "", "low": "9", "high": "3"}
    response = post(
        clients("eddie"), "/systems/vllm/team-results", typed, target="team_result_form"
    )
    assert response.status_code == 422
    assert response.text.lstrip().startswith('<form id="team_result_form"')
    assert field_notes(page(response)) == {
        "tr-low": "'low' (9) is above 'high' (3).",
        "tr-high": "'low' (9) is above 'high' (3).",
    }
    assert page(response).select_one("a[role=button]")["href"] == "/"


def test_htmx_success_reloads_the_page_at_the_new_row(clients: Clients) -> None:
    response = post(
        clients("eddie"), "/systems/vllm/team-results", RESULT_FORM, target="team_result_form"
    )
    assert response.status_code == 204
    assert response.headers["hx-redirect"].startswith("/systems/vllm#bench-team-")
    # The browser is on that page already: moving to an anchor alone would load nothing.
    assert response.headers["hx-refresh"] == "true"


# Editing ----------------------------------------------------------------------------------------


def test_an_edit_is_saved_and_goes_back_to_where_it_started(
    clients: Clients, result_id: str
) -> None:
    editor = clients("eddie")
    link = page(editor.get("/benchmarks")).select_one(f"#result-{result_id} .team-actions a")
    form = page(editor.get(link["href"])).select_one("#team_result_form")
    assert form.select_one("[name=next]")["value"] == "/benchmarks"
    assert form.select_one("#tr-metric-name")["value"] == "Output throughput"
    assert form.select_one("#tr-value")["value"] == "2450"
    changed = RESULT_FORM | {
        "value": "",
        "low": "2400",
        "high": "2500",
        "version": "1",
        "next": "/benchmarks",
    }
    response = post(editor, f"/team-results/{result_id}/edit", changed)
    assert response.headers["location"] == f"/benchmarks#result-{result_id}"
    assert flash_of(editor, "/benchmarks") == (
        "Saved the team result for vLLM: Output throughput 2,400–2,500 tok/s (version 2)."
    )
    same = post(editor, f"/team-results/{result_id}/edit", changed | {"version": "2"})
    assert same.status_code == 303
    assert flash_of(editor, "/benchmarks") == "Nothing to save: the team result is as it was."


def test_an_edit_based_on_an_old_version_shows_both_and_can_be_saved_on_top(
    clients: Clients, result_id: str
) -> None:
    ada, eddie = clients("ada"), clients("eddie")
    path = f"/team-results/{result_id}/edit"
    assert post(ada, path, RESULT_FORM | {"value": "2600", "version": "1"}).status_code == 303
    mine = RESULT_FORM | {"value": "2450", "note": "rerun with a warm cache", "version": "1"}
    clash = post(eddie, path, mine)
    assert clash.status_code == 409
    soup = page(clash)
    rows = {
        tr.th.get_text(" ", strip=True): [td.get_text() for td in tr.select("td")]
        for tr in soup.select(".clash-table tbody tr.differs")
    }
    assert rows == {
        "Value (differs)": ["2450", "2600"],
        "Note (differs)": ["rerun with a warm cache", "our nightly run"],
    }
    assert "ada saved this result after you opened it" in soup.select_one(".clash").get_text()
    assert soup.select_one("#team_result_form [name=version]")["value"] == "2"
    assert soup.select_one("#tr-note")["value"] == "rerun with a warm cache"
    button = soup.select_one("#team_result_form button[type=submit]").get_text()
    assert button == "Save mine on top of version 2"
    htmx = post(eddie, path, mine, target="team_result_form")
    assert htmx.status_code == 409 and htmx.text.lstrip().startswith("<form")
    again = post(eddie, path, mine | {"version": "2"})
    assert again.status_code == 303
    saved = page(eddie.get(path))
    assert saved.select_one("#tr-note")["value"] == "rerun with a warm cache"
    assert saved.select_one("[name=version]")["value"] == "3"


def test_a_bad_edit_stays_based_on_the_version_it_started_from(
    clients: Clients, result_id: str
) -> None:
    response = post(
        clients("eddie"),
        f"/team-results/{result_id}/edit",
        RESULT_FORM | {"unit": "", "version": "1"},
    )
    assert response.status_code == 422
    soup = page(response)
    assert field_notes(soup) == {"tr-unit": "A result needs a unit."}
    assert soup.select_one("[name=version]")["value"] == "1"


def test_published_figures_and_unknown_ids_cannot_be_edited(
    clients: Clients, accounts_engine: Engine
) -> None:
    with Session(accounts_engine) as session:
        published = session.exec(select(BenchmarkResult.slug).limit(1)).one()
    editor = clients("eddie")
    for result_id in (published, "team-0000000000"):
        assert editor.get(f"/team-results/{result_id}/edit").status_code == 404
        response = post(editor, f"/team-results/{result_id}/edit", RESULT_FORM | {"version": "1"})
        assert response.status_code == 404
        assert "No team result has the id" in page(response).select_one(".error-detail").text


# Deleting ---------------------------------------------------------------------------------------


def test_delete_asks_with_the_version_and_refuses_a_changed_result(
    clients: Clients, accounts_engine: Engine, result_id: str
) -> None:
    editor = clients("eddie")
    row = page(editor.get("/systems/vllm")).select_one(f"#bench-{result_id}")
    confirm = row.select_one("details.confirm-delete form")
    assert confirm["method"] == "post" and confirm.select_one("[name=version]")["value"] == "1"
    post(
        clients("ada"),
        f"/team-results/{result_id}/edit",
        RESULT_FORM | {"value": "2500", "version": "1"},
    )
    before = results(accounts_engine)
    stale = post(editor, f"/team-results/{result_id}/delete", {"version": "1"})
    assert stale.status_code == 409 and results(accounts_engine) == before
    soup = page(stale)
    assert "Nothing was deleted" in soup.select_one(".clash").get_text()
    assert soup.select_one("form [name=version]")["value"] == "2"
    gone = post(editor, f"/team-results/{result_id}/delete", {"version": "2"})
    assert gone.status_code == 303 and gone.headers["location"] == "/systems/vllm#benchmarks"
    assert results(accounts_engine) == before - 1
    assert flash_of(editor, "/systems/vllm") == (
        "Deleted the team result for vLLM: Output throughput 2,500 tok/s."
    )
    again = post(editor, f"/team-results/{result_id}/delete", {"version": "2"})
    assert again.status_code == 404


# The confirmation cookie ------------------------------------------------------------------------


def test_the_confirmation_is_signed_and_never_shown_to_anonymous_readers(
    clients: Clients,
) -> None:
    editor = clients("eddie")
    response = post(editor, "/systems/vllm/team-results", RESULT_FORM)
    cookie = editor.cookies["atlas_flash"]
    anonymous = clients()
    anonymous.cookies.set("atlas_flash", cookie)
    # An anonymous page may come from the shared cache: it never reads the cookie.
    assert flash_of(anonymous, "/systems/vllm") is None
    forged = clients("eddie")
    flash_of(forged, "/")  # the one-time note that says who signed in
    forged.cookies.set("atlas_flash", '"You have won."')
    assert flash_of(forged, "/systems/vllm") is None
    assert response.headers["set-cookie"].startswith("atlas_flash=")
    assert "httponly" in response.headers["set-cookie"].lower()


def test_cross_site_form_posts_are_refused(clients: Clients, accounts_engine: Engine) -> None:
    before = results(accounts_engine)
    response = clients("eddie").post(
        "/systems/vllm/team-results",
        data=RESULT_FORM,
        headers={"Sec-Fetch-Site": "cross-site", "Origin": "http://evil.example"},
    )
    assert response.status_code == 403 and results(accounts_engine) == before


def test_numbers_typed_the_way_the_app_prints_them_are_read(
    clients: Clients, accounts_engine: Engine
) -> None:
    editor = clients("eddie")
    result_id = new_result(editor, value="2,550", concurrency="1,024")
    row = page(editor.get("/systems/vllm")).select_one(f"#bench-{result_id}")
    assert row.select_one(".figure").get_text() == "2,550 tok/s"
    with Session(accounts_engine) as session:
        saved = session.exec(select(BenchmarkResult).where(BenchmarkResult.slug == result_id)).one()
    assert (saved.value, saved.concurrency) == (2550, 1024)


@pytest.mark.parametrize("typed", ["2,55", "25,50", "2,550,0"])
def test_a_comma_that_does_not_group_thousands_is_refused_with_why(
    clients: Clients, accounts_engine: Engine, typed: str
) -> None:
    before = results(accounts_engine)
    response = post(clients("eddie"), "/systems/vllm/team-results", RESULT_FORM | {"value": typed})
    assert response.status_code == 422
    assert field_notes(page(response))["tr-value"] == (
        f"'{typed}' is not a number: a comma may only group thousands (2,550 or 2550), "
        "and decimals take a point (2.55)."
    )
    assert results(accounts_engine) == before


def test_the_measured_on_date_is_picked_and_a_month_alone_stays_editable(
    clients: Clients,
) -> None:
    editor = clients("eddie")
    empty = page(editor.get("/team-results/new")).select_one("#tr-date")
    assert (empty["type"], empty["value"]) == ("date", "")
    day = page(editor.get(f"/team-results/{new_result(editor)}/edit")).select_one("[name=date]")
    assert (day["type"], day["value"]) == ("date", "2026-11-20")
    # A date input would show "2026-06" as empty and the save would drop it.
    month = page(editor.get(f"/team-results/{new_result(editor, date='2026-06')}/edit"))
    assert (month.select_one("[name=date]")["type"], month.select_one("[name=date]")["value"]) == (
        "text",
        "2026-06",
    )


def test_a_model_name_typed_without_instruct_is_its_entry(
    clients: Clients, accounts_engine: Engine
) -> None:
    """Issue 37: "Llama 3.3 70B" is the Llama 3.3 70B Instruct entry, and a size the
    vocabulary lacks is still refused rather than read as another size."""
    result_id = new_result(clients("eddie"), model="Llama 3.3 70B")
    with Session(accounts_engine) as session:
        saved = session.exec(select(BenchmarkResult).where(BenchmarkResult.slug == result_id)).one()
        model = session.get(LanguageModel, saved.model_id)
        assert model is not None and model.slug == "llama-3.3-70b-instruct"
    refused = post(
        clients("eddie"), "/systems/vllm/team-results", RESULT_FORM | {"model": "Llama 3.3 8B"}
    )
    assert refused.status_code == 422
    assert set(field_notes(page(refused))) == {"tr-model"}
