"""CSV exports neutralise formulas (OWASP's rule) in every column, as imported files fill
them: a cell starting with =, +, -, @, a tab or a carriage return gets a leading '."""

import csv
import io
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine

from app.present.exports import spreadsheet_safe
from tests.team.test_write_api import RESULT, token_for

pytestmark = pytest.mark.database

FORMULAS = [
    '=HYPERLINK("http://evil.example")',
    "+1+cmd|' /C calc'!A0",
    "-2+3",
    "@SUM(A1)",
    "\tx",
    "\rx",
]


@pytest.mark.parametrize("text", FORMULAS)
def test_formula_looking_text_gets_a_leading_quote(text: str) -> None:
    assert spreadsheet_safe(text) == "'" + text


def test_numbers_and_plain_text_are_written_as_they_are() -> None:
    assert spreadsheet_safe(-3.5) == -3.5 and spreadsheet_safe(0) == 0
    assert spreadsheet_safe("vllm") == "vllm" and spreadsheet_safe(None) == ""
    assert spreadsheet_safe("a=b") == "a=b"


def test_every_text_column_of_benchmarks_csv_is_neutralised(
    accounts_app: Any, accounts_engine: Engine
) -> None:
    editor = TestClient(accounts_app, headers=token_for(accounts_engine, "eddie"))
    # The free-text fields (names are checked against the vocabulary, so cannot carry one).
    hostile = {"setup": FORMULAS[0], "system_version": FORMULAS[2], "precision": FORMULAS[3]}
    made = editor.post("/api/v1/benchmarks", json=RESULT | hostile)
    assert made.status_code == 201, made.text
    result_id = made.json()["id"]
    text = TestClient(accounts_app).get("/benchmarks.csv?system=vllm").text
    [row] = [r for r in csv.DictReader(io.StringIO(text)) if r["id"] == result_id]
    for cell in row.values():
        assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), row
    assert row["setup"] == "'" + FORMULAS[0]
    assert row["system_version"] == "'-2+3"
