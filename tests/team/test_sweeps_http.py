"""/benchmarks draws the team's sweeps after imports confirmed through the API: the chart,
its points and frontier flags in the table, the block alone for HTMX, escaping."""

from collections.abc import Callable
from typing import Any

import pytest
from bs4 import BeautifulSoup, Tag
from fastapi.testclient import TestClient
from sqlalchemy import Engine

from tests.team.sweep_data import H100, VLLM_8QPS, VLLM_SWEEP, faster_vllm_sweep
from tests.team.test_write_api import token_for

# The files name meta-llama/Llama-3.1-8B-Instruct; the uploader says it is this entry.
LLAMA, LLAMA_NAME = "llama-3.1-8b", "Llama 3.1 8B"
EVIL = "<script>alert(1)</script>"


def confirm(client: TestClient, name: str, data: bytes, **context: str) -> str:
    """Upload and confirm one result file through the API; the import's source slug."""
    files = {"file": (name, data, "application/json")}
    preview = client.post("/api/v1/imports", files=files, data=context)
    assert preview.status_code == 201 and preview.json()["ready"], preview.text
    saved = client.post(f"/api/v1/imports/{preview.json()['id']}/confirm")
    assert saved.status_code == 201, saved.text
    return str(saved.json()["saved"][0]["source"])


@pytest.fixture(scope="module")
def imported(accounts_app: Any, accounts_engine: Engine) -> dict[str, str]:
    editor = TestClient(accounts_app, headers=token_for(accounts_engine, "eddie"))
    fp8 = {"hardware": H100, "precision": "FP8", "gpus": "1", "model": LLAMA}
    return {
        "sweep": confirm(
            editor,
            VLLM_SWEEP.name,
            VLLM_SWEEP.read_bytes(),
            system="vllm",
            system_version="0.11.2",
            **fp8,
        ),
        "8qps": confirm(editor, VLLM_8QPS.name, VLLM_8QPS.read_bytes(), system="vllm", **fp8),
        "sglang": confirm(
            editor,
            f"{EVIL}.json",
            faster_vllm_sweep(1.3),
            system="sglang",
            system_version=EVIL,
            **fp8,
        ),
    }


@pytest.fixture
def anonymous(clients: Callable[..., TestClient], imported: dict[str, str]) -> TestClient:
    return clients()


def soup(response: Any) -> BeautifulSoup:
    assert response.status_code == 200, response.text[:500]
    return BeautifulSoup(response.text, "html.parser")


def section(page: BeautifulSoup) -> Tag:
    found = page.select_one("section#team_sweeps")
    assert found is not None
    return found


def test_the_page_draws_one_chart_with_every_point_and_its_frontier(anonymous: TestClient) -> None:
    sweeps = section(soup(anonymous.get("/benchmarks")))
    assert sweeps.select_one("h2").get_text() == "Team sweeps"
    assert "Pareto frontier" in sweeps.select_one("p.hint").get_text()
    [svg] = sweeps.select("svg.chart-sweep")
    assert svg["role"] == "img" and svg["aria-label"].startswith(f"Sweep: {LLAMA_NAME}")
    assert svg.select_one("title").get_text() == svg["aria-label"]
    assert len(svg.select("g.sweep-point")) == 9
    assert len(svg.select("g.sweep-point.is-dominated")) == 1
    assert len(svg.select("polyline.sweep-frontier")) == 2
    assert {t.get_text() for t in svg.select("text.axis-label")} == {
        "Per-user throughput (tok/s/user)",
        "Throughput per GPU (tok/s/GPU)",
    }
    assert len(sweeps.select("ul.sweep-legend li")) == 4  # two curves, then filled and hollow


def points(table: Tag) -> dict[tuple[str, str], list[str]]:
    """(curve header, load) -> the row's cells, for every point row of a sweep table."""
    found = {}
    for group in table.select("tbody"):
        curve = group.select_one("tr.sweep-curve th").get_text(" ", strip=True)
        for row in group.select("tr.on-frontier, tr.dominated"):
            cells = [c.get_text(" ", strip=True) for c in row.select("th, td")]
            found[(curve, cells[0])] = cells
    return found


def test_the_table_lists_every_point_with_its_frontier_flag_and_import(
    anonymous: TestClient, imported: dict[str, str]
) -> None:
    table = section(soup(anonymous.get("/benchmarks"))).select_one("table.sweep-table")
    rows = points(table)
    vllm = f"vLLM 0.11.2 · {H100} ×1 · FP8"
    assert {curve for curve, _ in rows} == {vllm, f"SGLang {EVIL} · {H100} ×1 · FP8"}
    assert len(rows) == 9
    assert rows[(vllm, "8 req/s")][3] == "No"
    assert [cells[3] for key, cells in rows.items() if key != (vllm, "8 req/s")] == ["Yes"] * 8
    c64 = rows[(vllm, "64 concurrent")]
    assert c64[1].startswith("92") and c64[1].endswith("1000 / mean TPOT") and c64[2] == "5,618"
    assert c64[4] == f"{VLLM_SWEEP.name} imported line 4"
    [dominated] = table.select("tr.dominated")
    assert dominated.select_one("a.cite")["href"] == f"/sources#{imported['8qps']}"
    # Each row group's header links the system and carries the curve's swatch.
    headers = table.select("tr.sweep-curve th[scope=rowgroup]")
    assert [h.select_one("a")["href"] for h in headers] == ["/systems/sglang", "/systems/vllm"]
    assert all(h.select_one("svg.sweep-swatch path") is not None for h in headers)


def test_an_htmx_request_for_the_sweeps_gets_the_block_alone(anonymous: TestClient) -> None:
    headers = {"HX-Request": "true", "HX-Target": "team_sweeps"}
    response = anonymous.get("/benchmarks?system=sglang", headers=headers)
    assert response.text.lstrip().startswith('<section id="team_sweeps"')
    assert "<html" not in response.text and "HX-Request" in response.headers["vary"]
    [table] = soup(response).select("table.sweep-table")
    assert {curve for curve, _ in points(table)} == {f"SGLang {EVIL} · {H100} ×1 · FP8"}
    assert len(points(table)) == 4
    # The page's own filter swap (the results block) carries the sweeps with it.
    headers["HX-Target"] = "benchmark_results"
    swapped = soup(anonymous.get("/benchmarks?system=vllm", headers=headers))
    assert len(points(section(swapped).select_one("table.sweep-table"))) == 5


@pytest.mark.parametrize("query", ["origin=published", "metric=ttft-p50", "system=llama-cpp"])
def test_no_section_where_the_filters_leave_no_sweep(anonymous: TestClient, query: str) -> None:
    page = soup(anonymous.get(f"/benchmarks?{query}"))
    assert page.select_one("section#team_sweeps") is None
    assert page.select_one("#team_sweeps")["hidden"] is not None


def test_a_file_name_and_version_with_markup_are_shown_as_text(anonymous: TestClient) -> None:
    response = anonymous.get("/benchmarks?system=sglang")
    assert EVIL not in response.text
    page = soup(response)
    assert not [s for s in page.select("script") if "alert" in s.get_text()]
    sweeps = section(page)
    assert sweeps.select_one("table.sweep-table tr.sweep-curve .version").get_text() == EVIL
    assert sweeps.select_one("table.sweep-table a.cite").get_text() == f"{EVIL}.json"
    assert f"SGLang {EVIL}" in sweeps.select_one("ul.sweep-legend li").get_text()


def test_the_json_twin_returns_the_same_sweeps(anonymous: TestClient) -> None:
    page = section(soup(anonymous.get("/benchmarks?system=vllm")))
    assert page.select_one("p.hint a")["href"] == "/api/v1/sweeps?system=vllm"
    body = anonymous.get("/api/v1/sweeps?system=vllm&utm_source=chat&x=1").json()
    assert body["ignored_parameters"] == ["x"]
    [chart] = body["charts"]
    assert chart["model"] == LLAMA and chart["label"].startswith(LLAMA_NAME)
    [curve] = chart["curves"]
    assert curve["label"] == f"vLLM 0.11.2 · {H100} ×1 · FP8"
    assert [p["on_frontier"] for p in curve["points"]] == [False, True, True, True, True]
    assert {p["per_user_from"] for p in curve["points"]} == {"tpot"}
    assert curve["points"][1]["per_gpu"] == pytest.approx(5617.863)


def test_the_json_twin_names_a_bad_filter(anonymous: TestClient) -> None:
    response = anonymous.get("/api/v1/sweeps?system=nope&cmin=-1")
    assert response.status_code == 422
    assert "nope" in response.text and "cmin" in response.text


def test_the_sweeps_are_documented_in_openapi(anonymous: TestClient) -> None:
    operation = anonymous.get("/openapi.json").json()["paths"]["/api/v1/sweeps"]["get"]
    parameters = {p["name"]: p for p in operation["parameters"]}
    assert set(parameters) == {
        "system",
        "hardware",
        "model",
        "precision",
        "source",
        "cmin",
        "cmax",
        "per_user",
        "ttft_p99",
        "tpot_p99",
        "goodput",
        "price",
    }
    assert "sglang" in parameters["system"]["schema"]["items"]["enum"]
