"""Published claims and figures that leave seed/ while team notes point at them: reseeding keeps
them (same rows, marked withdrawn), every page shows them as withdrawn with their notes, and
nothing counts them as current evidence (headline levels, disputes, the matrix filters, the
guided flow, rankings and charts)."""

import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import Engine
from sqlmodel import Session, col, select

from app.models import BenchmarkResult, Capability, Claim, Revision, Source, System
from app.seeding.prepare import seed
from tests.conftest import SEED_DIR
from tests.team.test_write_api import cell, token_for

pytestmark = pytest.mark.database

# Each the only row of its kind that a source gives, so removing its lines removes it.
DISPUTING = {"system": "vllm", "capability": "prefix-caching", "source": "overview-early-2026"}
ONLY_CLAIM = {
    "system": "exllamav2",
    "capability": "amd-rocm",
    "source": "serving-engine-guide-18-tools",
}
FIGURE = "ov-vllm-h100-peak"
UNNOTED = {
    "system": "exllamav2",
    "capability": "apple-silicon",
    "source": "serving-engine-guide-18-tools",
}


def without_claim(seed_dir: Path, system: str, capability: str, source: str) -> None:
    """Take one claim (a `capability:` entry of one system, with its lines) out of a file."""
    path = seed_dir / "claims" / f"{source}.yaml"
    lines, out, in_system, skipping = path.read_text().splitlines(True), [], False, False
    for line in lines:
        if not line.startswith(" "):
            in_system, skipping = line.startswith(f"{system}:"), False
        if line.startswith("  ") and not line.startswith("    "):
            skipping = in_system and line.strip().startswith(f"{capability}:")
        if not skipping:
            out.append(line)
    assert len(out) < len(lines), f"{system}/{capability} not found in {path}"
    path.write_text("".join(out))


def without_figure(seed_dir: Path, result_id: str) -> None:
    for path in (seed_dir / "benchmarks").glob("*.csv"):
        lines = path.read_text().splitlines(True)
        kept = [line for line in lines if not line.startswith(f"{result_id},")]
        if len(kept) < len(lines):
            path.write_text("".join(kept))
            return
    raise AssertionError(f"no figure {result_id}")


def claim_ids(engine: Engine, item: dict[str, str]) -> list[tuple[int, bool]]:
    with Session(engine) as session:
        rows = session.exec(
            select(Claim.id, Claim.withdrawn)
            .join(System, col(System.id) == col(Claim.system_id))
            .join(Capability, col(Capability.id) == col(Claim.capability_id))
            .join(Source, col(Source.id) == col(Claim.source_id))
            .where(
                System.slug == item["system"],
                Capability.slug == item["capability"],
                Source.slug == item["source"],
            )
        )
        return [tuple(row) for row in rows]  # type: ignore[misc]


def figure_row(engine: Engine) -> tuple[int, bool] | None:
    with Session(engine) as session:
        row = session.exec(
            select(BenchmarkResult.id, BenchmarkResult.withdrawn).where(
                BenchmarkResult.slug == FIGURE
            )
        ).first()
        return tuple(row) if row else None  # type: ignore[return-value]


def excluded_for_amd(client: TestClient) -> dict[str, list[str]]:
    body = client.get("/api/v1/recommend", params={"hardware": "amd-gpu"}).json()
    return {e["slug"]: [r["text"] for r in e["reasons"]] for e in body["excluded"]}


@dataclass
class Before:
    """What was true before the reseed, to compare with."""

    disputed: int
    claim: list[tuple[int, bool]]
    only_claim: list[tuple[int, bool]]
    figure: tuple[int, bool] | None
    amd_excluded: dict[str, list[str]]


@pytest.fixture(scope="module")
def reseeded(
    accounts_app: FastAPI, accounts_engine: Engine, tmp_path_factory: pytest.TempPathFactory
) -> Before:
    """Notes on two published claims and a figure; then a reseed from a copy of seed/ without
    them (and without one more claim that nobody annotated)."""
    editor = TestClient(accounts_app, headers=token_for(accounts_engine, "eddie"))
    for body in (
        DISPUTING | {"text": "Wrong: vLLM has had prefix caching since 0.4."},
        ONLY_CLAIM | {"text": "Not checked by us."},
        {"result": FIGURE, "text": "A peak, not a sustained rate."},
    ):
        assert editor.post("/api/v1/notes", json=body).status_code == 201
    before = Before(
        disputed=editor.get("/api/v1/systems/vllm").json()["disputed_count"],
        claim=claim_ids(accounts_engine, DISPUTING),
        only_claim=claim_ids(accounts_engine, ONLY_CLAIM),
        figure=figure_row(accounts_engine),
        amd_excluded=excluded_for_amd(editor),
    )
    copy = tmp_path_factory.mktemp("withdrawn") / "seed"
    shutil.copytree(SEED_DIR, copy)
    for item in (DISPUTING, ONLY_CLAIM, UNNOTED):
        without_claim(copy, **item)
    without_figure(copy, FIGURE)
    seed(accounts_engine, copy)
    return before


@pytest.fixture
def reader(accounts_app: FastAPI) -> TestClient:
    return TestClient(accounts_app)


def soup_of(client: TestClient, path: str) -> BeautifulSoup:
    response = client.get(path)
    assert response.status_code == 200, response.text
    return BeautifulSoup(response.text, "html.parser")


def claim_item(soup: BeautifulSoup, scope: str, source: str) -> Any:
    return next(
        li
        for li in soup.select(f"{scope} ul.claim-list > li")
        if li.select_one(f"a.cite[href='/sources#{source}']")
    )


def test_the_rows_are_kept_withdrawn_and_an_unnoted_one_is_deleted(
    reseeded: Before, accounts_engine: Engine
) -> None:
    assert reseeded.claim[0][1] is False and reseeded.figure and reseeded.figure[1] is False
    assert claim_ids(accounts_engine, DISPUTING) == [(reseeded.claim[0][0], True)]
    assert claim_ids(accounts_engine, ONLY_CLAIM) == [(reseeded.only_claim[0][0], True)]
    assert figure_row(accounts_engine) == (reseeded.figure[0], True)
    assert claim_ids(accounts_engine, UNNOTED) == []
    with Session(accounts_engine) as session:
        withdrawals = session.exec(
            select(Revision.entity, Revision.key).where(Revision.action == "withdraw")
        ).all()
    assert set(withdrawals) == {
        ("claim", "vllm/prefix-caching/overview-early-2026"),
        ("claim", "exllamav2/amd-rocm/serving-engine-guide-18-tools"),
        ("benchmark_result", FIGURE),
    }


def test_a_withdrawn_claim_no_longer_disputes_its_cell_but_is_listed_with_its_note(
    reseeded: Before, reader: TestClient
) -> None:
    # The overview's "no" was an article outweighed by vLLM's agreeing docs (not a dispute):
    # withdrawn, it is no longer even that, and the reason no longer counts it.
    detail = reader.get("/api/v1/systems/vllm").json()
    assert detail["disputed_count"] == reseeded.disputed
    prefix = cell(reader, "vllm", "prefix-caching")
    assert (prefix["level"], prefix["disputed"]) == ("yes", False)
    assert "disagree" not in prefix["reason"]
    gone = prefix["claims"][-1]  # withdrawn claims come last
    assert (gone["source"]["slug"], gone["level"], gone["withdrawn"], gone["outweighed"]) == (
        "overview-early-2026",
        "no",
        True,
        False,
    )
    assert [n["text"] for n in gone["team_notes"]] == [
        "Wrong: vLLM has had prefix caching since 0.4."
    ]
    assert all(not c["withdrawn"] for c in prefix["claims"][:-1])


def test_the_system_page_marks_withdrawn_claims_and_figures_and_keeps_their_notes(
    reseeded: Before, reader: TestClient
) -> None:
    soup = soup_of(reader, "/systems/vllm")
    row = soup.select_one("#cap-prefix-caching")
    assert "is-disputed" not in (row.get("class") or [])
    item = claim_item(soup, "#cap-prefix-caching", "overview-early-2026")
    assert "is-withdrawn" in item["class"]
    assert item.select_one(".withdrawn-badge").get_text() == "withdrawn"
    assert item.select_one(".withdrawn-note").get_text(strip=True) == (
        "no longer in the published data"
    )
    assert item.select_one(".team-note .note-text").get_text().startswith("Wrong: vLLM")
    current = claim_item(soup, "#cap-prefix-caching", "best-inference-servers-2026")
    assert not current.select(".withdrawn-badge")
    figure = soup.select_one(f"#bench-{FIGURE}")
    assert "is-withdrawn" in figure["class"] and figure.select_one(".withdrawn-badge")
    notes = soup.select_one(f"#bench-{FIGURE} + tr.notes-row")
    assert notes.select_one(".note-text").get_text() == "A peak, not a sustained rate."
    # The at-a-glance key figures take only current figures.
    assert FIGURE not in str(soup.select_one(".key-figures") or "")


def test_the_cell_panel_and_the_matrix_treat_an_only_withdrawn_claim_as_no_claim(
    reseeded: Before, reader: TestClient
) -> None:
    panel = soup_of(reader, "/matrix?cell=vllm:prefix-caching").select_one("#cell_detail")
    assert panel.select_one("li.is-withdrawn .withdrawn-badge")
    assert panel.select_one("li.is-withdrawn .team-note .note-text")
    assert not panel.select(".disputed-flag")
    # exllamav2's only claim on AMD left: the cell says no source speaks (unknown, not "no"),
    # and still opens on the withdrawn claim and its note.
    matrix = reader.get("/api/v1/matrix", params={"view": "hardware"}).json()
    row = next(r for r in matrix["rows"] if r["system"]["slug"] == "exllamav2")
    amd = next(c for c in row["cells"] if c["capability"] == "amd-rocm")
    assert (amd["level"], amd["sources"], amd["withdrawn"]) == ("no-claim", [], True)
    link = soup_of(reader, "/hardware").select_one("a[data-cell='exllamav2:amd-rocm']")
    assert link.select_one(".no-claim-mark") and "withdrawn" in link.get_text()
    only = soup_of(reader, "/matrix/cell?system=exllamav2&capability=amd-rocm")
    assert "No source in the published data says" in only.select_one(".empty").get_text()
    assert only.select_one("li.is-withdrawn .note-text").get_text() == "Not checked by us."
    feature = reader.get("/api/v1/capabilities/amd-rocm").json()
    assert "exllamav2" in [s["slug"] for s in feature["unknown"]]
    assert "exllamav2" not in [
        r["system"]["slug"] for r in feature["claimed"] + feature["disputed"]
    ]


def test_the_guided_flow_no_longer_rules_a_system_out_on_a_withdrawn_claim(
    reseeded: Before, reader: TestClient
) -> None:
    assert any("ExLlamaV2 does not run on AMD" in r for r in reseeded.amd_excluded["exllamav2"])
    assert "exllamav2" not in excluded_for_amd(reader)


def test_a_withdrawn_figure_is_listed_on_benchmarks_but_never_ranked_or_charted(
    reseeded: Before, reader: TestClient
) -> None:
    soup = soup_of(reader, "/benchmarks?system=vllm&system=sglang")
    row = soup.select_one(f"#result-{FIGURE}")
    assert "is-withdrawn" in row["class"] and row.select_one(".withdrawn-badge")
    assert row.select("td")[-1].get_text(strip=True) == (
        "Withdrawn: no longer in the published data, so not ranked."
    )
    assert soup.select_one(f"#result-{FIGURE} + tr.notes-row .note-text")
    body = reader.get("/api/v1/benchmarks").json()
    ranked = [r["result"]["id"] for c in body["contexts"] if c["ranked"] for r in c["results"]]
    assert FIGURE not in ranked and ranked
    # The context it was ranked in before: still charted for the others, without it.
    cards = soup_of(reader, "/benchmarks").select("article.context-card")
    peak = next(c for c in cards if "peak output rate" in c.get_text())
    assert "LMDeploy" in peak.svg.get_text() and "vLLM" not in peak.svg.get_text()
    compare = soup_of(reader, "/compare?s=vllm&s=sglang")
    listed = compare.select_one(".other-results li.is-withdrawn")
    assert "12,500 tok/s" in listed.get_text() and listed.select_one(".withdrawn-badge")


def test_reseeding_with_them_back_makes_them_current_on_the_same_rows(
    reseeded: Before, accounts_app: FastAPI, accounts_engine: Engine, reader: TestClient
) -> None:
    seed(accounts_engine, SEED_DIR)
    assert claim_ids(accounts_engine, DISPUTING) == reseeded.claim
    assert figure_row(accounts_engine) == reseeded.figure
    back = cell(reader, "vllm", "prefix-caching")
    assert [c["source"]["slug"] for c in back["claims"] if c["outweighed"]] == [
        "overview-early-2026"
    ]
    notes = reader.get("/api/v1/notes", params={"system": "vllm"}).json()["notes"]
    assert {n["item_withdrawn"] for n in notes} == {False} and len(notes) == 2
