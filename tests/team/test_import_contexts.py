"""An imported run meets a published figure in one context only when hardware (and how many),
model, precision, load and workload all match; otherwise it stands in a context of its own.

The published figure is bis-vllm-l70b-throughput: vLLM on one H100 SXM5, Llama 3.3 70B
Instruct in FP8 at 100 concurrent requests, online serving. The fixture is a vLLM run of the
same setup, whose model id ("meta-llama/Llama-3.3-70B-Instruct") is an alias of that entry.
"""

import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine

from tests.team.test_import_api import FIXTURES, upload
from tests.team.test_write_api import token_for

RUN = FIXTURES / "vllm-bench" / "l70b-concurrency100.json"
PUBLISHED = "bis-vllm-l70b-throughput"
SAME = {
    "system": "vllm",
    "hardware": "H100 SXM",
    "gpus": "1",
    "precision": "fp8",  # written FP8, as the published figure is
    "workload": "online serving",
}


@pytest.fixture(scope="module")
def editor(accounts_app: Any, accounts_engine: Engine) -> TestClient:
    return TestClient(accounts_app, headers=token_for(accounts_engine, "eddie"))


def imported(editor: TestClient, path: Path, **context: str) -> str:
    """Import `path` with `context`; the slug of the source the import saved under."""
    preview = upload(editor, path, **context)
    assert preview.status_code == 201, preview.text
    assert preview.json()["ready"], preview.json()["problems"]
    confirmed = editor.post(f"/api/v1/imports/{preview.json()['id']}/confirm")
    assert confirmed.status_code == 201, confirmed.text
    return str(confirmed.json()["saved"][0]["source"])


def throughput_context(editor: TestClient, source: str) -> dict[str, Any]:
    """The throughput context the import's figure landed in, with every figure in it."""
    page = editor.get("/api/v1/benchmarks?system=vllm&metric=throughput")
    assert page.status_code == 200
    [found] = [
        c
        for c in page.json()["contexts"]
        if any(r["result"]["source"]["slug"] == source for r in c["results"])
    ]
    return found


def test_a_run_of_the_same_setup_meets_the_published_figure(editor: TestClient) -> None:
    source = imported(editor, RUN, **SAME)
    context = throughput_context(editor, source)
    ids = {r["result"]["id"] for r in context["results"]}
    assert PUBLISHED in ids and len(ids) == 2
    assert (context["hardware"], context["gpus"], context["model"]) == (
        "nvidia-h100-sxm5-80gb",
        1,
        "llama-3.3-70b-instruct",
    )
    assert (context["precision"], context["concurrency"], context["workload"]) == (
        "FP8",
        100,
        "online-serving",
    )
    # The team's figure stands beside the article's, marked as the team's own measurement.
    team = [r["result"] for r in context["results"] if r["result"]["id"] != PUBLISHED]
    assert team[0]["source"]["kind"] == "team-measurement" and team[0]["run_by"] == "eddie"
    # Both measure vLLM: ranks are between systems, so this context has none.
    assert context["why_not_ranked"] == "Only one system was measured in this context."


@pytest.mark.parametrize(
    ("change", "differs_in"),
    [
        ({"gpus": "2"}, "gpus"),
        ({"precision": "BF16"}, "precision"),
        ({"hardware": "H100"}, "hardware"),  # a bare H100 is not taken to be the SXM5 part
        ({"workload": "offline-batch"}, "workload"),
        ({"workload": ""}, "workload"),  # no workload said: not assumed to be online serving
        ({"model": "llama-3-70b"}, "model"),
    ],
)
def test_a_run_that_differs_in_one_thing_stands_apart(
    editor: TestClient, change: dict[str, str], differs_in: str
) -> None:
    context = {k: v for k, v in (SAME | change).items() if v}
    source = imported(editor, RUN, **context)
    found = throughput_context(editor, source)
    assert PUBLISHED not in {r["result"]["id"] for r in found["results"]}, differs_in


def test_the_chart_tells_the_teams_bar_from_the_articles(editor: TestClient) -> None:
    """Two vLLM bars in one chart: the team's is labelled as the team's."""
    imported(editor, RUN, **SAME)
    page = editor.get("/benchmarks?metric=throughput&hardware=nvidia-h100-sxm5-80gb")
    assert page.status_code == 200
    labels = re.findall(r'<text[^>]*class="bar-label"[^>]*>([^<]+)</text>', page.text)
    assert "vLLM (team)" in labels and "vLLM" in labels, labels
