"""Coverage (issue 21): the share of each system's feature and hardware cells some source
answers, printed by `inference-atlas check` and shown on /sources and each system page."""

import shutil
from collections import Counter
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from fastapi.testclient import TestClient
from sqlalchemy import Engine
from sqlmodel import Session
from typer.testing import CliRunner

from app.cli import cli
from app.queries.coverage import count_coverage, database_coverage, report_lines, seed_coverage
from app.seeding.load import load_seed
from tests.conftest import REAL_SEED_DIR, SEED_DIR
from tests.test_seed_errors import replace_in


def test_a_cell_counts_once_it_is_answered_and_per_view() -> None:
    kinds = {"a": "feature", "b": "feature", "c": "feature", "gpu": "hardware"}
    coverage = count_coverage(
        [("vllm", "vLLM"), ("olla", "Olla")], kinds, {("vllm", "a"), ("vllm", "gpu"), ("olla", "b")}
    )
    vllm = coverage.of("vllm")
    assert vllm is not None
    assert (vllm.feature.answered, vllm.feature.total, vllm.feature.percent) == (1, 3, 33)
    assert (vllm.hardware.answered, vllm.hardware.total, vllm.hardware.percent) == (1, 1, 100)
    assert (coverage.feature.answered, coverage.feature.total) == (2, 6)
    assert [s.system for s in coverage.systems] == ["olla", "vllm"]  # by name
    # 95 % is the bar for the systems most readers compare; a share is rounded down.
    assert vllm.target == 0.95 and coverage.of("olla").target == 0.80  # type: ignore[union-attr]
    assert vllm.short_of_target


def test_an_unknown_claim_does_not_count_as_an_answer(tmp_path: Path) -> None:
    seed_dir = Path(shutil.copytree(SEED_DIR, tmp_path / "seed"))
    # vLLM's docs are the only source on its tool calling.
    replace_in(
        seed_dir / "claims/vllm-docs.yaml",
        "  tool-calling:\n    level: yes",
        "  tool-calling:\n    level: unknown",
    )
    before = seed_coverage(load_seed(SEED_DIR)).of("vllm")
    after = seed_coverage(load_seed(seed_dir)).of("vllm")
    assert before is not None and after is not None
    assert (before.feature.answered, after.feature.answered) == (24, 23)


def test_check_prints_each_systems_coverage() -> None:
    result = CliRunner().invoke(cli, ["check", "--seed-dir", str(SEED_DIR)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "Seed files are valid."
    vllm = next(line for line in lines if line.lstrip().startswith("vLLM "))
    assert vllm.split() == ["vLLM", "24/31", "77%", "13/15", "86%", "below", "target"]
    assert lines[-1].split() == ["all", "systems", "204/527", "38%", "79/255", "30%"]


def test_sources_and_system_pages_show_coverage(client: TestClient) -> None:
    sources = BeautifulSoup(client.get("/sources").text, "html.parser")
    rows = {
        tr.select_one("th").get_text(strip=True): [td.get_text(" ", strip=True) for td in tr("td")]  # type: ignore[union-attr]
        for tr in sources.select("#coverage tbody tr")
    }
    assert rows["vLLM"] == ["24 of 31 (77%)", "13 of 15 (86%)"]
    assert rows["LiteLLM"] == ["0 of 31 (0%)", "0 of 15 (0%)"]
    system = BeautifulSoup(client.get("/systems/vllm").text, "html.parser")
    line = system.select_one("#coverage")
    assert line is not None
    assert "24 of 31 feature cells (77%) and 13 of 15 hardware targets (86%)" in line.get_text()


@pytest.mark.data
def test_the_real_seeds_coverage(real_engine: Engine) -> None:
    """The published data's coverage, printed (pytest -s). Issue 21 aims at 80 % overall, 95 %
    for the main eleven. Its totals were pinned here and re-pinned with every source added;
    what must hold is that every cell counts once, and that what `check` reads from the files
    is what /sources and the system pages read from the database (the matrix's cells)."""
    data = load_seed(REAL_SEED_DIR)
    coverage = seed_coverage(data)
    print("\n".join(report_lines(coverage)))
    kinds = Counter(data.categories[c.category].kind for c in data.capabilities.values())
    assert coverage.feature.total == len(data.systems) * kinds["feature"]
    assert coverage.hardware.total == len(data.systems) * kinds["hardware"]
    assert {s.system for s in coverage.systems} == set(data.systems)
    for view in ("feature", "hardware"):
        answered = sum(getattr(s, view).answered for s in coverage.systems)
        assert answered == getattr(coverage, view).answered <= getattr(coverage, view).total
    with Session(real_engine) as session:
        assert database_coverage(session).model_dump() == coverage.model_dump()
