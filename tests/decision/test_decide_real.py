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


def test_qwen3_next_on_one_h100_rules_out_by_architecture_and_by_offload(
    real_client: TestClient,
) -> None:
    body = real_client.get("/api/v1/recommend?model=Qwen3-Next&hardware=H100").json()
    subject = body["subject"]
    assert subject["model"] == "qwen3-next-80b-a3b-instruct" and subject["fit"]["fits"] is False
    assert "needs ≥ 4 × NVIDIA H100" in subject["fit"]["text"]
    assert "cpu-offload" in body["answers"]["needs"]  # not fitting is the offload need
    excluded = {e["slug"]: e for e in body["excluded"]}
    tgi = excluded["tgi"]["reasons"][0]
    assert "cannot load Qwen3-Next" in tgi["text"] and "/text-generation-inference/" in tgi["page"]
    # LMDeploy's own docs: weights must fit the GPUs listed, so it is ruled out with them.
    lmdeploy = " ".join(r["text"] for r in excluded["lmdeploy"]["reasons"])
    assert "No part of the model can stay in CPU memory" in lmdeploy
    ranked = {p["slug"]: p for p in body["ranked"]}
    vllm = ranked["vllm"]
    assert vllm["fit"]["offload"] is True
    assert any("--cpu-offload-gb" in n["text"] for n in vllm["model_notes"])
    assert any(c["query"].endswith("gpus=4") or "gpus=4" in c["query"] for c in body["fit_changes"])
