"""Energy per output token from GPU telemetry (issue 23): a sweep of two AIPerf runs built on
the committed file tests/imports/real/aiperf/wellflat-k8s-dev-2026-01.json, checked by hand;
a sweep without telemetry has none (null, never 0)."""

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup
from fastapi.testclient import TestClient
from sqlalchemy import Engine

from tests.team.sweep_data import VLLM_SWEEP
from tests.team.test_sweeps_http import confirm
from tests.team.test_write_api import token_for

pytestmark = pytest.mark.database

REAL = Path(__file__).parents[1] / "imports" / "real" / "aiperf" / "wellflat-k8s-dev-2026-01.json"
# The test vocabulary's entries stand in for the file's A100 and gpt-oss-20b.
MODEL, HARDWARE = "llama-3.1-8b", "NVIDIA H100 SXM5 80GB"

# The committed run (concurrency 1), as the file has it: gpu_0 alone worked (of 8).
C1_OUTPUT, C1_PER_USER, C1_WATTS = 54.55756456668085, 55.485253498122844, 94.61787741935483
# A second load made from it: concurrency 4, figures chosen for the hand check.
C4_OUTPUT, C4_PER_USER, C4_WATTS = 180.0, 45.0, 150.0
# By hand: J per output token = W per GPU / output tok/s per GPU (one GPU).
C1_JOULES = C1_WATTS / C1_OUTPUT  # 1.7343 J
C4_JOULES = C4_WATTS / C4_OUTPUT  # 0.8333 J
# At per_user = 50: between c=4 (45) and c=1 (55.49), share = 5 / 10.485 of the way to c=1.
SHARE = (50 - C4_PER_USER) / (C1_PER_USER - C4_PER_USER)
AT_50_PER_GPU = C4_OUTPUT + SHARE * (C1_OUTPUT - C4_OUTPUT)
AT_50_JOULES = (C4_WATTS + SHARE * (C1_WATTS - C4_WATTS)) / AT_50_PER_GPU


def second_load() -> bytes:
    data: dict[str, Any] = json.loads(REAL.read_text())
    heavier = copy.deepcopy(data)
    heavier["input_config"]["loadgen"]["concurrency"] = 4
    heavier["output_token_throughput"]["avg"] = C4_OUTPUT
    heavier["output_token_throughput_per_user"]["avg"] = C4_PER_USER
    endpoint = next(iter(heavier["telemetry_data"]["endpoints"].values()))
    endpoint["gpus"]["gpu_0"]["metrics"]["gpu_power_usage"]["avg"] = C4_WATTS
    return json.dumps(heavier).encode()


@pytest.fixture(scope="module")
def imported(accounts_app: Any, accounts_engine: Engine) -> None:
    editor = TestClient(accounts_app, headers=token_for(accounts_engine, "eddie"))
    context = {"system": "vllm", "hardware": HARDWARE, "precision": "FP8", "model": MODEL}
    confirm(editor, REAL.name, REAL.read_bytes(), system_version="0.13.0", **context)
    confirm(editor, "c4.json", second_load(), system_version="0.13.0", **context)
    # The same setup's vLLM sweep without telemetry, in another version: no energy.
    confirm(
        editor,
        VLLM_SWEEP.name,
        VLLM_SWEEP.read_bytes(),
        system_version="0.12.0",
        gpus="1",
        **context,
    )


@pytest.fixture
def anonymous(clients: Callable[..., TestClient], imported: None) -> TestClient:
    return clients()


def curves(client: TestClient, query: str) -> dict[str, dict[str, Any]]:
    response = client.get(f"/api/v1/sweeps?model={MODEL}&{query}")
    assert response.status_code == 200, response.text
    found = {c["system_version"]: c for chart in response.json()["charts"] for c in chart["curves"]}
    return found


def test_each_load_has_its_energy_per_token_by_hand(anonymous: TestClient) -> None:
    response = anonymous.get(f"/api/v1/sweeps?model={MODEL}")
    assert "GPUs that worked" in response.json()["energy_note"]
    points = {p["concurrency"]: p for p in curves(anonymous, "")["0.13.0"]["points"]}
    assert points[1]["gpu_watts"] == pytest.approx(C1_WATTS)
    assert points[1]["joules_per_output_token"] == pytest.approx(C1_JOULES)
    assert points[4]["joules_per_output_token"] == pytest.approx(C4_JOULES)


def test_at_a_level_the_power_is_interpolated_like_the_throughput(anonymous: TestClient) -> None:
    at = curves(anonymous, "per_user=50")["0.13.0"]["at_level"]
    assert at["per_gpu"] == pytest.approx(AT_50_PER_GPU)
    assert at["joules_per_output_token"] == pytest.approx(AT_50_JOULES)
    assert 0.83 < AT_50_JOULES < 1.74  # between the two loads' figures, as it must be


def test_without_telemetry_there_is_no_energy_never_zero(anonymous: TestClient) -> None:
    plain = curves(anonymous, "per_user=50")["0.12.0"]
    assert all(p["joules_per_output_token"] is None for p in plain["points"])
    assert all(p["gpu_watts"] is None for p in plain["points"])
    if plain["at_level"]["reached"]:
        assert plain["at_level"]["joules_per_output_token"] is None


def test_the_page_shows_energy_with_its_assumptions(anonymous: TestClient) -> None:
    response = anonymous.get(f"/benchmarks?model={MODEL}")
    assert response.status_code == 200
    sweeps = BeautifulSoup(response.text, "html.parser").select_one("section#team_sweeps")
    assert sweeps is not None
    notes = [n.get_text(" ", strip=True) for n in sweeps.select(".note.energy")]
    assert f"{C1_JOULES:.3g} J per output token (95 W per GPU)" in notes
    assert len(notes) == 2  # the two telemetry runs; the vLLM sweep shows none
    assumptions = sweeps.select_one(".energy-assumptions")
    assert assumptions is not None and "cooling are not counted" in assumptions.get_text()


def test_decide_shows_the_energy_of_the_measured_figure(anonymous: TestClient) -> None:
    query = "hardware=nvidia-datacenter&priority=throughput&per_user=50"
    rows = anonymous.get(f"/api/v1/recommend?{query}").json()["measured"]
    with_power = [row for row in rows if row["joules_per_output_token"] is not None]
    assert [row["per_gpu"] for row in with_power] == [pytest.approx(AT_50_PER_GPU)]
    assert with_power[0]["joules_per_output_token"] == pytest.approx(AT_50_JOULES)
    page = anonymous.get(f"/decide?{query}")
    measured = BeautifulSoup(page.text, "html.parser").select_one("section#measured")
    assert measured is not None
    assert f"{AT_50_JOULES:.3g} J per output token" in measured.get_text(" ", strip=True)
