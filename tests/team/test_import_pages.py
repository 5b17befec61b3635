"""The import pages: upload, preview with the context form, confirm; for editors only."""

from pathlib import Path
from typing import Any

from sqlalchemy import Engine

from app.models import BenchmarkResult
from tests.accounts.conftest import SAME_ORIGIN
from tests.team.html import flash_of, page
from tests.team.test_write_api import count

FIXTURES = Path(__file__).parents[1] / "imports" / "fixtures"
SWEEP = FIXTURES / "vllm-bench" / "sweep-append-result.json"


def upload(client: Any, path: Path, **fields: str) -> Any:
    files = {"file": (path.name, path.read_bytes(), "application/json")}
    return client.post(
        "/imports", files=files, data=fields, headers=SAME_ORIGIN, follow_redirects=False
    )


def test_upload_preview_give_context_then_save(clients: Any, accounts_engine: Engine) -> None:
    eddie = clients("eddie")
    form = page(eddie.get("/imports")).select_one("form.import-form")
    assert form["enctype"] == "multipart/form-data"
    sent = upload(eddie, SWEEP, system="vllm")
    assert sent.status_code == 303
    where = sent.headers["location"]
    said = flash_of(eddie, where)
    assert said == f"Read 4 runs from {SWEEP.name}: 3 things to give before saving."
    preview = page(eddie.get(where))
    banner = preview.select_one(".problem-banner").get_text(" ", strip=True)
    assert "hardware" in banner and "precision" in banner
    assert "model : the file names the model 'meta-llama/Llama-3.1-8B-Instruct'" in banner
    assert preview.select_one(".confirm-import button").has_attr("disabled")
    rows = preview.select("table.import-runs tbody tr")
    assert [r.select("td")[1].get_text() for r in rows] == [
        "1 at once",
        "4 at once",
        "16 at once",
        "64 at once",
    ]
    key = where.rsplit("/", 1)[1]
    # The model cell says what the file gave; the form suggests the vocabulary's names.
    model_cell = rows[0].select("td")[2]
    assert "the file says “meta-llama/Llama-3.1-8B-Instruct”" in model_cell.get_text()
    assert preview.select_one("#ctx-model")["list"] == "ctx-model-list"
    assert preview.select_one("#ctx-model-list option[value='llama-3.1-8b']") is not None
    given = {
        "system": "vllm",
        "hardware": "NVIDIA H100 SXM5 80GB",
        "gpus": "1",
        "precision": "FP8",
        "model": "Llama 3.1 8B",
    }
    changed = eddie.post(
        f"/imports/{key}/context", data=given, headers=SAME_ORIGIN, follow_redirects=False
    )
    assert changed.status_code == 303
    ready = page(eddie.get(where))
    assert ready.select_one(".problem-banner") is None
    first = ready.select("table.import-runs tbody tr")[0].select("td")
    assert first[2].select_one("a")["href"] == "/models/llama-3.1-8b"
    assert first[3].get_text(" ", strip=True).startswith("1× NVIDIA H100 SXM5")
    button = ready.select_one(".confirm-import button")
    assert not button.has_attr("disabled") and button.get_text().startswith("Save ")
    assert button.get_text().endswith(" results") and "Save the" not in button.get_text()
    before = count(accounts_engine, BenchmarkResult)
    saved = eddie.post(f"/imports/{key}/confirm", headers=SAME_ORIGIN, follow_redirects=False)
    assert saved.status_code == 303
    assert saved.headers["location"].startswith("/benchmarks?origin=team&source=import-")
    added = count(accounts_engine, BenchmarkResult) - before
    assert added > 4 * 10
    assert flash_of(eddie, saved.headers["location"]) == (
        f"Saved {added} team results from {SWEEP.name}."
    )
    listed = page(eddie.get("/imports")).select("section table tbody tr")
    assert any(SWEEP.name in r.get_text() for r in listed)


def test_a_bad_file_is_shown_again_with_its_problem(clients: Any) -> None:
    refused = upload(clients("eddie"), FIXTURES / "bad" / "results.json.gz", system="vllm")
    assert refused.status_code == 422
    note = page(refused).select_one("#imp-file-note")
    assert "field-problem" in note["class"] and "gunzip" in note.get_text()
    assert page(refused).select_one("#imp-system option[selected]")["value"] == "vllm"


def test_the_import_pages_are_for_editors(clients: Any) -> None:
    anonymous = clients().get("/imports", follow_redirects=False)
    assert anonymous.status_code == 303 and anonymous.headers["location"].startswith("/login")
    assert clients("vera").get("/imports").status_code == 403
    assert upload(clients("vera"), SWEEP).status_code == 403
    assert clients("eddie").get("/imports/nope").status_code == 404


POSTS = [("/imports", {}), ("/imports/{id}/context", {}), ("/imports/{id}/confirm", {})]


def test_every_import_form_post_needs_an_editor(clients: Any) -> None:
    for path, data in POSTS:
        target = path.format(id="x-1")
        anonymous = clients().post(target, data=data, headers=SAME_ORIGIN, follow_redirects=False)
        assert anonymous.status_code == 303 and anonymous.headers["location"] == "/login"
        viewer = clients("vera").post(target, data=data, headers=SAME_ORIGIN)
        assert viewer.status_code == 403
        # Past the role check: no file (422), or no such import (404).
        editor = clients("eddie").post(target, data=data, headers=SAME_ORIGIN)
        assert editor.status_code == (422 if target == "/imports" else 404)


def test_the_upload_limit_is_said_as_the_readme_says_it(clients: Any) -> None:
    note = page(clients("eddie").get("/imports")).select_one("#imp-file-note").get_text()
    assert note.startswith("Up to 50 MB."), "50 000 000 bytes, as the README says"


def _saved_import(eddie: Any) -> str:
    sent = upload(
        eddie,
        SWEEP,
        system="vllm",
        hardware="H100 SXM",
        gpus="1",
        precision="FP8",
        model="llama-3.1-8b",
    )
    key = sent.headers["location"].rsplit("/", 1)[1]
    saved = eddie.post(f"/imports/{key}/confirm", headers=SAME_ORIGIN, follow_redirects=False)
    assert saved.status_code == 303
    return key


def test_a_saved_imports_link_opens_for_every_reader(clients: Any, accounts_url: str) -> None:
    """The group links on system pages and /benchmarks lead somewhere for anyone: a saved
    import is read-only team data; a pending preview stays its uploader's and admins'."""
    from tests.accounts.conftest import add_users

    add_users(accounts_url, {"edna": "editor"})
    eddie = clients("eddie")
    key = _saved_import(eddie)
    pending = upload(eddie, SWEEP, system="vllm").headers["location"]
    for where in ("/systems/vllm", "/benchmarks", "/benchmarks?origin=team"):
        for reader in (clients(), clients("vera")):
            links = [a["href"] for a in page(reader.get(where)).select(".import-links a")]
            assert f"/imports/{key}" in links, where
    for reader in (clients(), clients("vera"), clients("edna"), clients("ada"), eddie):
        shown = reader.get(f"/imports/{key}")
        assert shown.status_code == 200
        doc = page(shown)
        assert doc.select_one("h1").get_text() == SWEEP.name
        assert "uploaded by eddie" in doc.select_one(".lead").get_text()
        assert len(doc.select("table.import-runs tbody tr")) == 4
        # How the file's names resolved, the way to every figure, and nothing to change.
        model = doc.select("table.import-runs tbody tr")[0].select("td")[2]
        assert model.select_one("a")["href"] == "/models/llama-3.1-8b"
        assert f"/benchmarks?source=import-{key}#team_sweeps" in [
            a["href"] for a in doc.select(".import-saved-links a")
        ]
        assert doc.select("form.team-form, form.confirm-import") == []
    # Someone else's preview is not there for them, nor for anyone signed out.
    for stranger in (clients(), clients("vera"), clients("edna")):
        assert stranger.get(pending).status_code == 404
    assert eddie.get(pending).status_code == 200 and clients("ada").get(pending).status_code == 200
