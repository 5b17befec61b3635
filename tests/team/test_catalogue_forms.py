"""The editors' catalogue forms: add hardware, a model, a workload or a system from a page;
problems named beside each field with nothing saved; markup kept as text."""

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine
from sqlmodel import Session, select

from app.models import Hardware, LanguageModel, System, Workload
from tests.team.html import field_notes, page, post
from tests.team.test_notes_api import count

pytestmark = pytest.mark.database
Clients = Callable[..., TestClient]
POSTS = [
    ("/catalogue/hardware", {"name": "Form Roles GPU"}),
    ("/catalogue/model", {"name": "Form Roles Model"}),
    ("/catalogue/workload", {"name": "Form roles load"}),
    ("/catalogue/system", {"name": "Form Roles Engine", "kind": "engine"}),
]


@pytest.mark.parametrize(("path", "data"), POSTS)
def test_the_forms_are_for_editors(clients: Clients, path: str, data: dict[str, str]) -> None:
    anonymous = post(clients(), path, data)
    assert anonymous.status_code == 303 and anonymous.headers["location"].startswith("/login")
    assert post(clients("vera"), path, data).status_code == 403
    assert clients("vera").get(path).status_code == 403
    saved = post(clients("eddie"), path, data)
    assert saved.status_code == 303, saved.text


def test_an_editor_adds_hardware_and_lands_on_its_page(
    clients: Clients, accounts_engine: Engine
) -> None:
    eddie = clients("eddie")
    form = page(eddie.get("/catalogue/hardware"))
    assert form.select_one("h1").get_text() == "Add hardware"
    assert {i["name"] for i in form.select("form.catalogue-form [name]")} >= {
        "name",
        "vendor",
        "memory_gb",
        "form_factor",
        "aliases",
    }
    data = {
        "name": "NVIDIA H200 NVL",
        "vendor": "NVIDIA",
        "memory_gb": "141",
        "form_factor": "pcie",
        "aliases": "H200 NVL\n\nNVL 141GB\n",
    }
    saved = post(eddie, "/catalogue/hardware", data)
    assert saved.status_code == 303 and saved.headers["location"] == "/hardware/nvidia-h200-nvl"
    shown = page(eddie.get("/hardware/nvidia-h200-nvl"))
    assert "Added NVIDIA H200 NVL" in shown.get_text()
    assert shown.select_one(".team-badge").get_text() == "team-added"
    assert [c.get_text() for c in shown.select(".entry-facts code")][:2] == [
        "H200 NVL",
        "NVL 141GB",
    ]
    with Session(accounts_engine) as session:
        row = session.exec(select(Hardware).where(Hardware.slug == "nvidia-h200-nvl")).one()
        assert (row.team, row.memory_gb, row.form_factor) == (True, 141, "pcie")
    # Editors find the form from any vocabulary page; readers do not.
    links = page(eddie.get("/hardware/nvidia-rtx-4090")).select(".catalogue-add a")
    assert "/catalogue/hardware" in [a["href"] for a in links]
    assert page(clients().get("/hardware/nvidia-rtx-4090")).select_one(".catalogue-add") is None


def test_problems_are_named_beside_each_field_and_nothing_is_saved(
    clients: Clients, accounts_engine: Engine
) -> None:
    eddie = clients("eddie")
    before = [count(accounts_engine, m) for m in (Hardware, LanguageModel, Workload, System)]
    bad = post(
        eddie,
        "/catalogue/model",
        {"name": "", "parameters_b": "lots", "model_kind": "dense", "hf_id": "x"},
    )
    assert bad.status_code == 422
    notes = field_notes(page(bad))
    assert set(notes) == {"add-model-name", "add-model-parameters_b"}
    assert "Not a number" in notes["add-model-parameters_b"]
    taken = post(eddie, "/catalogue/workload", {"name": "Online serving"})
    assert taken.status_code == 409
    assert "online-serving" in field_notes(page(taken))["add-workload-name"]
    system = post(eddie, "/catalogue/system", {"name": "Fork", "kind": "spaceship"})
    assert system.status_code == 422 and "add-system-kind" in field_notes(page(system))
    after = [count(accounts_engine, m) for m in (Hardware, LanguageModel, Workload, System)]
    assert after == before


def test_markup_in_a_name_is_shown_as_text(clients: Clients, accounts_app: Any) -> None:
    eddie = clients("eddie")
    name = '<script>alert("x")</script> GPU'
    saved = post(eddie, "/catalogue/hardware", {"name": name})
    assert saved.status_code == 303
    shown = eddie.get(saved.headers["location"])
    assert "<script>alert" not in shown.text and "&lt;script&gt;" in shown.text
    assert page(shown).select_one("h1").get_text() == name
    listed = eddie.get("/api/v1/hardware").json()
    assert name in {e["name"] for e in listed}
