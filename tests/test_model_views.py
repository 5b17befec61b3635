"""The models x systems matrix, GET /api/v1/support, and the model and system pages' support
parts (issue 35), on the fixture seed: tgi's four registry rows (tests/fixture_seed/support/)."""

import csv
import io

from bs4 import BeautifulSoup
from fastapi.testclient import TestClient


def soup_of(response) -> BeautifulSoup:  # type: ignore[no-untyped-def]
    assert response.status_code == 200, response.text
    return BeautifulSoup(response.text, "html.parser")


def _by_system(answer: dict) -> dict[str, dict]:  # type: ignore[type-arg]
    return {s["system"]: s for s in answer["systems"]}


def test_support_by_architecture_gives_every_column_and_unknown_where_no_row(
    client: TestClient,
) -> None:
    answer = client.get("/api/v1/support?architecture=LlamaForCausalLM").json()
    assert answer["architecture"] == "LlamaForCausalLM" and answer["model"] is None
    cells = _by_system(answer)
    columns = [s["slug"] for s in client.get("/api/v1/matrix?view=models").json()["systems"]]
    assert list(cells) == columns and "tgi" in columns and "vllm" in columns
    tgi = cells["tgi"]
    assert (tgi["level"], tgi["since"], tgi["scope"]) == ("yes", "v0.9.0", "optimised")
    page = tgi["claims"][0]["page"]
    assert page.endswith("/blob/v0.9.0/server/text_generation_server/models/__init__.py#L120")
    assert tgi["claims"][0]["source"]["slug"] == "tgi-model-registry"
    assert tgi["reason"].startswith("Reads yes")
    # vLLM has no registry rows in the fixture: unknown, never "no".
    assert cells["vllm"]["level"] == "no-claim" and cells["vllm"]["claims"] == []
    assert "unknown, not no" in cells["vllm"]["reason"]


def test_support_says_by_when_the_tag_before_was_not_read_and_until_when_removed(
    client: TestClient,
) -> None:
    deepseek = _by_system(client.get("/api/v1/support?architecture=DeepseekV3ForCausalLM").json())
    assert deepseek["tgi"]["since"] == "by v3.1.0"
    assert deepseek["tgi"]["claims"][0]["since_exact"] is False
    # Case does not matter for a class; an unlisted class is answered too.
    neox = _by_system(client.get("/api/v1/support?architecture=gptneoxforcausallm").json())
    assert (neox["tgi"]["until"], neox["tgi"]["since"]) == ("v3.0.0", "v0.4.0")
    qwen = _by_system(client.get("/api/v1/support?architecture=Qwen2ForCausalLM").json())
    assert (qwen["tgi"]["level"], qwen["tgi"]["scope"]) == ("via", "Transformers fallback")


def test_support_by_model_as_typed_uses_its_class_or_its_base_models(client: TestClient) -> None:
    answer = client.get("/api/v1/support", params={"model": "Llama 3.1 8B"}).json()
    assert answer["model"]["slug"] == "llama-3.1-8b"
    assert answer["architecture"] == "LlamaForCausalLM"
    assert _by_system(answer)["tgi"]["level"] == "yes"
    derivative = client.get("/api/v1/support?model=llama-3.1-8b-fp8").json()
    assert derivative["architecture"] == "LlamaForCausalLM"


def test_support_refuses_unknown_names_with_the_closest_and_bad_parameters_by_field(
    client: TestClient,
) -> None:
    missing = client.get("/api/v1/support?model=Llama 3.1 8C")
    assert missing.status_code == 404
    body = missing.json()
    assert body["field"] == "model" and body["value"] == "Llama 3.1 8C"
    assert "llama-3.1-8b" in body["suggestions"]
    typo = client.get("/api/v1/support?architecture=LlamaForCasualLM").json()
    assert typo["field"] == "architecture" and typo["suggestions"][0] == "LlamaForCausalLM"
    # No question points to the whole models matrix.
    everything = client.get("/api/v1/support?model=", follow_redirects=False)
    assert everything.status_code == 307
    assert everything.headers["location"] == "/api/v1/matrix?view=models"
    # Both: the model answers, and the note says the class given beside it was another.
    both = client.get("/api/v1/support?model=llama-3.1-8b&architecture=Qwen2ForCausalLM")
    assert both.status_code == 200 and both.json()["architecture"] == "LlamaForCausalLM"
    assert "architecture=Qwen2ForCausalLM was not used" in both.json()["note"]
    same = client.get("/api/v1/support?model=llama-3.1-8b&architecture=llamaforcausallm")
    assert same.status_code == 200 and same.json()["architecture"] == "LlamaForCausalLM"


def test_models_matrix_rows_by_family_cells_and_filters(client: TestClient) -> None:
    soup = soup_of(client.get("/matrix?view=models"))
    families = [th.get_text(strip=True) for th in soup.select("tr.family-row th")]
    assert families[:3] == ["Llama 3.x", "DeepSeek-V3", "Qwen2.5"]
    assert families[-1] == "Other classes"  # GPTNeoX: in a registry, not in architectures.yaml
    link = soup.select_one('a[data-cell="tgi:GPTNeoXForCausalLM"]')
    assert link["href"] == "/matrix/cell?system=tgi&architecture=GPTNeoXForCausalLM"
    assert "until v3.0.0" in link.get_text()
    assert soup.select("td.lv-no-claim") and not soup.select("td.lv-no")
    narrowed = client.get("/api/v1/matrix?view=models&family=Qwen2.5&system=tgi").json()
    assert [s["slug"] for s in narrowed["systems"]] == ["tgi"]
    rows = [r["architecture"]["name"] for g in narrowed["groups"] for r in g["rows"]]
    assert rows == ["Qwen2ForCausalLM"]
    assert client.get("/api/v1/matrix?view=models&arch_kind=engine").status_code == 422
    listed = client.get("/api/v1/matrix?view=models&listed=1").json()
    assert "GPTNeoXForCausalLM" not in str(listed["groups"])


def test_models_matrix_htmx_swaps_results_and_opens_a_cell(client: TestClient) -> None:
    part = client.get(
        "/matrix?view=models&arch_kind=moe",
        headers={"HX-Request": "true", "HX-Target": "matrix_results"},
    )
    soup = soup_of(part)
    assert soup.select_one("section#matrix_results") and not soup.select_one("form#matrix-form")
    assert [c.get_text(strip=True) for c in soup.select("th[scope=row] code")] == [
        "DeepseekV3ForCausalLM"
    ]
    page = soup_of(client.get("/matrix?view=models&cell=tgi:DeepseekV3ForCausalLM"))
    panel = page.select_one("#cell_detail.is-open")
    assert "by v3.1.0" in panel.get_text()
    assert page.select_one("nav.tabs a[aria-current=page]").get_text() == "Models"


def test_models_matrix_csv_holds_every_row_and_says_no_claim(client: TestClient) -> None:
    text = client.get("/matrix.csv?view=models").text
    rows = list(csv.DictReader(io.StringIO(text)))
    by_class = {r["architecture"]: r for r in rows}
    assert by_class["DeepseekV3ForCausalLM"]["tgi since"] == "by v3.1.0"
    assert by_class["LlamaForCausalLM"]["vllm"] == "no claim"


def test_system_page_counts_its_classes_and_links_to_the_models_matrix(
    client: TestClient,
) -> None:
    section = soup_of(client.get("/systems/tgi")).select_one("section#models")
    assert section.select_one('a[href="/matrix?view=models&system=tgi"]')
    assert "answers for 4 model architecture classes" in section.get_text(" ", strip=True)
    assert soup_of(client.get("/systems/vllm")).select_one("section#models") is None


def test_model_page_shows_config_support_derivatives_and_a_fit_slot(client: TestClient) -> None:
    soup = soup_of(client.get("/models/llama-3.1-8b"))
    fit = soup.select_one("#fit-panel")
    assert fit["hx-get"] == "/fit/panel?model=llama-3.1-8b" and fit["hx-trigger"] == "load"
    assert fit.select_one('a[href="/fit?model=llama-3.1-8b"]')
    rows = {
        tr.select_one("th a")["href"].split("system=")[1].split("&")[0]: tr
        for tr in soup.select("#support tbody tr")
    }
    assert rows["tgi"].select_one("th").get_text(strip=True) == "Text Generation Inference (TGI)"
    assert "yes" in rows["tgi"].get_text().lower() and "v0.9.0" in rows["tgi"].get_text()
    assert "no source says" in rows["vllm"].get_text()
    assert soup.select_one('a[href="/models/llama-3.1-8b-fp8"]')
    assert soup.select_one("#config dl")
    base_link = soup_of(client.get("/models/llama-3.1-8b-fp8")).select_one(
        'a[href="/models/llama-3.1-8b"]'
    )
    assert base_link is not None


def test_models_has_its_own_item_in_the_main_navigation(client: TestClient) -> None:
    for path in ("/models", "/models/llama-3.1-8b"):
        current = soup_of(client.get(path)).select('nav[aria-label=Main] a[aria-current="page"]')
        assert [a["href"] for a in current] == ["/models"], path
    hardware = soup_of(client.get("/hardware/nvidia-h100-sxm5-80gb"))
    assert not hardware.select_one('nav[aria-label=Main] a[href="/models"][aria-current]')


def test_support_answers_for_the_format_a_gguf_file_name_implies(client: TestClient) -> None:
    answer = client.get("/api/v1/support?model=Llama-3.1-8B-Q4_K_M.gguf").json()
    assert answer["model"]["slug"] == "llama-3.1-8b"
    assert answer["format"]["format"] == "GGUF" and answer["format"]["precision"] == "Q4_K_M"
    assert answer["format"]["capability"] == "quant-gguf"
    levels = {s["system"]: s["format_level"] for s in answer["systems"]}
    gguf = client.get("/api/v1/matrix?view=features&need=quant-gguf").json()
    loads = {r["system"]["slug"] for r in gguf["rows"]}
    assert loads and all(levels[s] != "no-claim" for s in loads if s in levels)
    plain = client.get("/api/v1/support?model=llama-3.1-8b").json()
    assert plain["format"] is None and plain["systems"][0]["format_level"] is None


def test_models_finder_filters_by_size_kind_context_and_class(client: TestClient) -> None:
    every = client.get("/api/v1/models").json()
    large = client.get("/api/v1/models?size=large").json()
    assert large and all(40 <= m["parameters_b"] < 150 for m in large)
    assert {m["slug"] for m in large} < {m["slug"] for m in every}
    llama = client.get("/api/v1/models?architecture=LlamaForCausalLM").json()
    assert {m["slug"] for m in llama} == {"llama-3.1-8b", "llama-3.1-8b-fp8"}
    long = client.get("/api/v1/models?context=131072").json()
    assert long and all(m["config"]["context"] >= 131072 for m in long)
    refused = client.get("/api/v1/models?kind=engine")
    assert refused.status_code == 422 and refused.json()["detail"][0]["field"] == "kind"
    soup = soup_of(client.get("/models?architecture=LlamaForCausalLM&size=small"))
    names = [a["href"] for a in soup.select("table.entries tbody th[scope=row] a")]
    assert names == ["/models/llama-3.1-8b", "/models/llama-3.1-8b-fp8"]
    assert len(soup.select(".chips a.chip")) == 3  # two filters and "clear all"
    part = client.get(
        "/models?size=large", headers={"HX-Request": "true", "HX-Target": "model_results"}
    )
    assert "<form" not in part.text and 'id="model_results"' in part.text
    shown = client.get("/models?family=Nope")
    assert shown.status_code == 422 and "family" in shown.text
