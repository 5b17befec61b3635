"""The options issue 36 part 6 added, over HTTP (fixture seed): the NVIDIA generation and the
model's family and attention, as ids in /decide and /api/v1/recommend, filled in from a named
model or accelerator, validated, and listed in the OpenAPI document."""

from fastapi.testclient import TestClient

from tests.test_decide_http import soup_of

API = "/api/v1/recommend?"


def test_the_new_ids_are_answers_and_old_ids_keep_their_meaning(client: TestClient) -> None:
    body = client.get(API + "hardware=nvidia-hopper-or-newer&traits=mla&traits=deepseek").json()
    assert body["answers"] == {
        "hardware": ["nvidia-hopper-or-newer"],
        "traits": ["deepseek", "mla"],  # in the question's order
    }
    assert body["subject"] is None, "an option id is never read as a name"
    old = client.get(API + "hardware=nvidia-datacenter").json()
    assert old["answers"] == {"hardware": ["nvidia-datacenter"]} and old["subject"] is None


def test_a_named_model_ticks_its_family_and_mla_and_says_why(client: TestClient) -> None:
    deepseek = client.get(API + "model=deepseek-v3").json()
    assert deepseek["answers"]["traits"] == ["deepseek", "mla"]
    assumed = " ".join(deepseek["subject"]["assumed"])
    assert "DeepSeek family" in assumed and "kv_lora_rank 512" in assumed
    internlm = client.get(API + "model=internlm2-20b&traits=mla").json()
    assert internlm["answers"]["traits"] == ["internlm", "mla"], "a ticked option stays"
    llama = client.get(API + "model=llama-3.1-8b").json()
    assert "traits" not in llama["answers"], "no family or MLA fact: nothing ticked"


def test_a_named_accelerator_answers_its_generation(client: TestClient) -> None:
    h200 = client.get(API + "hardware=H200").json()
    assert h200["answers"]["hardware"] == ["nvidia-hopper-or-newer"]
    assert "H100 or newer" in " ".join(h200["subject"]["assumed"])
    a100 = client.get(API + "hardware=A100%2080GB").json()
    assert a100["answers"]["hardware"] == ["nvidia-before-hopper"]


def test_a_bad_trait_is_422_naming_the_field_and_its_options(client: TestClient) -> None:
    response = client.get(API + "traits=falcon")
    assert response.status_code == 422
    problem = next(p for p in response.json()["detail"] if p["field"] == "traits")
    assert {"deepseek", "internlm", "mla"} <= set(problem["allowed"])
    page = client.get("/decide?traits=falcon")
    assert page.status_code == 422
    assert "traits=falcon" in soup_of(page).select_one(".problem-banner").get_text()


def test_the_openapi_document_lists_the_new_options(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    params = {p["name"]: p for p in spec["paths"]["/api/v1/recommend"]["get"]["parameters"]}
    traits = str(params["traits"]["schema"])
    assert all(o in traits for o in ("deepseek", "internlm", "mla"))
    hardware = str(params["hardware"]["schema"])
    assert "nvidia-hopper-or-newer" in hardware and "nvidia-before-hopper" in hardware


def test_the_decide_page_asks_about_the_model_and_offers_the_generations(
    client: TestClient,
) -> None:
    soup = soup_of(client.get("/decide?step=traits"))
    assert (
        soup.select_one("#question-heading")
        .get_text(strip=True)
        .startswith("Anything particular about the model?")
    )
    boxes = soup.select('input[type="checkbox"][name="traits"]')
    assert [b["value"] for b in boxes] == ["deepseek", "internlm", "mla"]
    soup = soup_of(client.get("/decide?step=hardware"))
    values = [i["value"] for i in soup.select('input[type="radio"][name="hardware"]')]
    assert values[:3] == ["nvidia-datacenter", "nvidia-hopper-or-newer", "nvidia-before-hopper"]
