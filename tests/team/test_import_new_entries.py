"""An import preview offers "add as a new entry" for a GPU or model no entry knows; one post
adds the team's entry (the file's wording kept as an alias) and resolves the runs."""

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine
from sqlmodel import Session, select

from app.models import LanguageModel, LanguageModelAlias
from tests.accounts.conftest import SAME_ORIGIN
from tests.team.html import flash_of, page
from tests.team.test_import_pages import FIXTURES, upload

pytestmark = pytest.mark.database
GGUF_RUNS = FIXTURES / "llama-bench" / "m2max-qwen2.5-7b-q8.jsonl"
IN_FILE = "models/qwen2.5-7b-instruct-q8_0.gguf"
POSTS = [("/imports/x-1/entries", {"kind": "model", "file": IN_FILE, "name": "x"})]


def test_an_unknown_model_is_added_from_the_preview_in_one_step(
    clients: Any, accounts_engine: Engine, tmp_path: Path
) -> None:
    eddie = clients("eddie")
    sent = upload(
        eddie, GGUF_RUNS, system="llama-cpp", precision="Q8_0", hardware="apple-silicon-unspecified"
    )
    assert sent.status_code == 303, sent.text
    where = sent.headers["location"]
    preview = page(eddie.get(where))
    [offer] = preview.select("form.import-offer")
    assert offer["action"] == f"{where}/entries"
    assert offer.select_one("input[name=file]")["value"] == IN_FILE
    assert offer.select_one("input[name=name]")["value"] == "qwen2.5-7b-instruct-q8_0"
    data = {"kind": "model", "file": IN_FILE, "name": "Qwen2.5 7B Instruct Q8_0"}
    added = eddie.post(f"{where}/entries", data=data, headers=SAME_ORIGIN, follow_redirects=False)
    assert added.status_code == 303 and added.headers["location"] == where
    assert "Added the model Qwen2.5 7B Instruct Q8_0" in flash_of(eddie, where)
    again = page(eddie.get(where))
    assert again.select("form.import-offer") == []
    banner = again.select_one(".problem-banner")
    assert banner is None or "model" not in banner.get_text()
    first = again.select("table.import-runs tbody tr")[0].select("td")
    assert first[2].select_one("a")["href"] == "/models/qwen2.5-7b-instruct-q8-0"
    with Session(accounts_engine) as session:
        row = session.exec(
            select(LanguageModel).where(LanguageModel.name == "Qwen2.5 7B Instruct Q8_0")
        ).one()
        assert row.team
        aliases = session.exec(
            select(LanguageModelAlias.alias).where(LanguageModelAlias.languagemodel_id == row.id)
        ).all()
        assert aliases == [IN_FILE]
    # Once more: the name is now taken, and the preview says so without adding anything.
    twice = eddie.post(f"{where}/entries", data=data, headers=SAME_ORIGIN, follow_redirects=False)
    assert twice.status_code == 303 and "Not added" in flash_of(eddie, where)
