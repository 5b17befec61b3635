"""Issue 13: figures and claims filed under the right system, metric and direction.

Each test pins one correction checked against the article it comes from, so a later edit
cannot quietly put a figure back under a system or metric it does not describe.
"""

from pathlib import Path

import pytest
from sqlalchemy import Engine
from sqlmodel import Session

from app.queries.systems import get_system
from app.seeding.errors import SeedError
from app.seeding.export import export_seed
from app.seeding.load import load_seed
from app.seeding.service import seed
from tests.conftest import SEED_DIR

GENAI = "genai-in-depth-serving-frameworks"


@pytest.fixture(scope="module")
def session(engine: Engine):
    with Session(engine) as session:
        yield session


def cell(session: Session, system: str, capability: str):
    detail = get_system(session, system)
    assert detail is not None
    cells = {c.capability: c for g in (*detail.features, *detail.hardware) for c in g.cells}
    return cells.get(capability)


# -- a source that contradicts itself -------------------------------------------------


def test_sglang_cpu_cell_keeps_both_readings_of_the_genai_article(session: Session) -> None:
    # Opening table: "NVIDIA · AMD (MI300/MI355) · Intel Xeon · ..."; matrix: CPU support ✗.
    x86 = cell(session, "sglang", "cpu-x86")
    assert x86 is not None and x86.disputed
    from_genai = [c for c in x86.claims if c.source.slug == GENAI]
    assert sorted(c.level for c in from_genai) == ["no", "yes"]
    assert all(c.note for c in from_genai)
    assert len({c.note for c in from_genai}) == 2


def write_claims(seed_copy: Path, text: str) -> None:
    path = seed_copy / "claims" / "olla-servers-compared.yaml"
    path.write_text(path.read_text() + text)


def test_two_readings_from_one_source_round_trip(
    empty_engine: Engine, seed_copy: Path, tmp_path: Path
) -> None:
    readings = (
        "candle:\n  cpu-arm:\n"
        "    - level: yes\n      note: first reading\n"
        "    - level: no\n      note: second reading\n"
    )
    write_claims(seed_copy, readings)
    seed(empty_engine, seed_copy)
    export_seed(empty_engine, tmp_path / "out")
    exported = (tmp_path / "out" / "claims" / "olla-servers-compared.yaml").read_text()
    assert exported.endswith(readings)


@pytest.mark.parametrize(
    "readings",
    [
        "candle:\n  cpu-arm:\n    - level: yes\n      note: only one\n",
        "candle:\n  cpu-arm:\n    - level: yes\n    - level: no\n",
        "candle:\n  cpu-arm:\n    - {level: yes, note: same}\n    - {level: no, note: same}\n",
    ],
    ids=["single-entry", "no-notes", "same-note"],
)
def test_a_list_of_readings_needs_two_entries_with_their_own_notes(
    seed_copy: Path, readings: str
) -> None:
    write_claims(seed_copy, readings)
    with pytest.raises(SeedError) as error:
        load_seed(seed_copy)
    assert "candle.cpu-arm" in str(error.value)


def test_the_real_seed_loads() -> None:
    assert load_seed(SEED_DIR).claims[GENAI]["sglang"]["cpu-x86"]
