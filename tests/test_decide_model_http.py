"""/decide and /api/v1/recommend from a named model (issue 36): names as typed, the fit of
each system, the architecture it loads, and CPU offload read from the claims (fixture seed)."""

from fastapi.testclient import TestClient

from app.decision.model import Reason
from app.queries.decide_support import SupportRow, loading
from app.schemas import ModelEntryView, SourceRef

API = "/api/v1/recommend?"


def test_a_named_model_fills_in_its_kind_and_an_option_id_keeps_its_meaning(
    client: TestClient,
) -> None:
    named = client.get(API + "model=DeepSeek-V3&hardware=H100%20SXM").json()
    assert named["answers"]["model"] == ["moe"], named
    # An H100 answers the finer generation; the old broad id still covers it (below).
    assert named["answers"]["hardware"] == ["nvidia-hopper-or-newer"]
    subject = named["subject"]
    assert subject["model"] == "deepseek-v3" and subject["hardware"] == "nvidia-h100-sxm5-80gb"
    assumed = " ".join(subject["assumed"])
    assert "mixture-of-experts" in assumed and "8,192 tokens" in assumed and "one GPU" in assumed
    old = client.get(API + "model=moe&hardware=nvidia-datacenter").json()
    assert old["subject"] is None and all(p["fit"] is None for p in old["ranked"])
    assert old["answers"] == {"model": ["moe"], "hardware": ["nvidia-datacenter"]}
    alone = client.get(API + "hardware=H100%20SXM").json()
    assert alone["answers"]["hardware"] == ["nvidia-hopper-or-newer"]
    assert alone["subject"]["model"] is None
    assert alone["subject"]["hardware_name"] == "NVIDIA H100 SXM5 80GB"


def test_a_model_that_does_not_fit_keeps_only_systems_that_can_offload(
    client: TestClient,
) -> None:
    # 128 sequences of 8k tokens: 137 GB of KV cache beside 16 GB of weights.
    body = client.get(API + "model=llama-3.1-8b&hardware=H100%20SXM&scale=high-throughput").json()
    assert body["subject"]["fit"]["fits"] is False
    ranked = {p["slug"]: p for p in body["ranked"]}
    llama = ranked["llama-cpp"]  # its cpu-gpu-offload claims say yes
    assert llama["fit"]["fits"] is False and llama["fit"]["offload"] is True
    caveat = next(n for n in llama["model_notes"] if n["kind"] == "against")
    assert "CPU memory" in caveat["text"] and caveat["source"]
    assert llama["fit"]["min_gpus"] and llama["fit"]["min_gpus"] > 1
    assert f"needs ≥ {llama['fit']['min_gpus']} × NVIDIA H100 SXM5 80GB" in llama["fit"]["text"]
    # A system no source speaks for on offload stays, marked unknown, never ruled out.
    silent = ranked["vllm"]
    assert silent["fit"]["offload"] is False
    assert any(n["kind"] == "unknown" and "CPU memory" in n["text"] for n in silent["model_notes"])
    changes = body["fit_changes"]
    # More GPUs, by the general answer (4: vLLM's and SGLang's count too; llama.cpp's own
    # margin lets 2 do). AWQ on 2 no longer fits: its BF16 embeddings and head are counted.
    general = body["subject"]["fit"]["min_gpus"]
    assert changes and any(f"gpus={general}" in c["query"] for c in changes)


def test_a_model_that_fits_says_so_with_the_release_that_loads_it(client: TestClient) -> None:
    body = client.get(API + "model=llama-3.1-8b&hardware=H100%20SXM&scale=small-team").json()
    assert body["subject"]["fit"]["fits"] is True and body["subject"]["concurrency"] == 8
    ranked = {p["slug"]: p for p in body["ranked"]}
    assert ranked["tgi"]["fit"]["fits"] is True
    loads = ranked["tgi"]["model_notes"][0]
    assert "from v0.9.0" in loads["text"] and loads["page"].startswith("https://")
    unknown = ranked["vllm"]["model_notes"][0]
    assert unknown["kind"] == "unknown" and "No source says" in unknown["text"]
    assert not body["fit_changes"]


def test_gpus_and_context_change_the_fit_and_bad_values_name_the_field(
    client: TestClient,
) -> None:
    crowd = "model=llama-3.1-8b&hardware=H100%20SXM&scale=high-throughput"
    two = client.get(API + crowd + "&gpus=4").json()
    assert two["subject"]["gpus"] == 4 and two["subject"]["fit"]["fits"] is True
    assert not any(
        n["kind"] == "unknown" and "CPU" in n["text"]
        for p in two["ranked"]
        for n in p["model_notes"]
    )
    short = client.get(API + crowd + "&context=1024").json()
    assert short["subject"]["fit"]["fits"] is True
    no_facts = client.get(API + "model=deepseek-v3&hardware=H100%20SXM").json()
    assert no_facts["subject"]["fit"] is None
    assert any("no fit" in a for a in no_facts["subject"]["assumed"])
    too_long = client.get(API + "model=llama-3.1-8b&context=1000000")
    assert too_long.status_code == 422
    problem = too_long.json()["detail"][0]
    assert problem["field"] == "context" and "131,072" in problem["message"]
    # A name that names nothing is not found, as on /api/v1/support and /api/v1/fit.
    unknown = client.get(API + "model=no-such-model-xyz")
    assert unknown.status_code == 404
    detail = unknown.json()
    assert detail["field"] == "model" and detail["value"] == "no-such-model-xyz"
    assert "moe" in detail["suggestions"]
    page = client.get("/decide?model=no-such-model-xyz")
    assert page.status_code == 422 and "no-such-model-xyz" in page.text


def test_the_page_shows_the_fit_the_assumptions_and_what_would_make_it_fit(
    client: TestClient,
) -> None:
    query = "model=llama-3.1-8b&hardware=H100%20SXM&scale=high-throughput&context=4096"
    page = client.get("/decide?" + query)
    assert page.status_code == 200
    text = page.text
    assert "Does not fit." in text and "What would make it fit" in text
    assert "4k context" in text and 'name="context" value="4096"' in text
    assert "Runs only with part of the model in CPU memory" in text


SOURCE = SourceRef(slug="reg", short="Registry", title="A registry", date="2026-01")
MODEL = ModelEntryView(
    slug="m",
    name="Model M",
    aliases=[],
    family=None,
    parameters_b=7,
    architecture="MArch",
    note=None,
    vague=False,
    sources=[],
    figures=0,
)


def row(level: str, since: str | None = None, until: str | None = None) -> SupportRow:
    return SupportRow(
        level, since, until, "https://example.org/registry", "not in the list", SOURCE
    )


def test_loading_rules_out_on_no_and_on_removal_and_never_on_silence() -> None:
    silent = loading([], "X", MODEL)
    assert silent[0] is False and silent[1].kind == "unknown"
    gone = loading([row("yes", "v1.0", "v3.0")], "X", MODEL)
    assert gone[0] is True and "gone in v3.0" in gone[1].text and "from v1.0" in gone[1].text
    no = loading([row("no")], "X", MODEL)
    assert no[0] is True and "not in the list" in no[1].text and no[1].source == "reg"
    kept = loading([row("no"), row("yes", "v2.0")], "X", MODEL)
    assert kept[0] is False and "from v2.0" in kept[1].text
    assert isinstance(kept[1], Reason)
