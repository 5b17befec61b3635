"""/decide on the real seed/: the cases issues 36 and 37 name."""

import pytest
from fastapi.testclient import TestClient

pytestmark = pytest.mark.data


def test_several_gpus_for_one_model_keeps_ollama_and_lm_studio(real_client: TestClient) -> None:
    # Both split a model's layers over the GPUs (their pipeline-parallelism cells, from their
    # own docs); only an article says they cannot use several GPUs.
    body = real_client.get("/api/v1/recommend?needs=multi-gpu").json()
    ranked = {p["slug"] for p in body["ranked"]}
    excluded = {e["slug"]: e for e in body["excluded"]}
    assert {"ollama", "lm-studio"} <= ranked, excluded.get("ollama") or excluded.get("lm-studio")
    # The rule still rules out a system whose sources say it splits a model no way at all.
    reasons = [r["rule"] for e in excluded.values() for r in e["reasons"]]
    assert "multi-gpu-required-b" in reasons
    page = real_client.get("/decide?needs=multi-gpu")
    assert page.status_code == 200 and "Ollama" in page.text and "LM Studio" in page.text
