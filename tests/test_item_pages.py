"""A page per benchmark figure (/benchmarks/{id}) and per claim (/systems/{slug}/claims/
{capability}/{source}), their JSON twins, the links to them, and the 404s that name what is
wrong."""

from bs4 import BeautifulSoup
from fastapi.testclient import TestClient

FIGURE = "bis-trtllm-l70b-throughput"
CLAIM = "/systems/vllm/claims/prefix-caching/overview-early-2026"


def soup_of(response) -> BeautifulSoup:
    assert response.status_code == 200, response.text
    return BeautifulSoup(response.text, "html.parser")


def facts(soup: BeautifulSoup, heading_id: str) -> dict[str, str]:
    """The dt/dd pairs of the section headed `heading_id`, as text."""
    section = soup.find(id=heading_id).find_parent("section")
    return {
        dt.get_text(strip=True): dt.find_next_sibling("dd").get_text(" ", strip=True)
        for dt in section.select("dl.entry-facts > dt")
    }


# -- a figure ----------------------------------------------------------------------------------
def test_a_figure_page_shows_the_value_its_whole_context_and_its_source(client: TestClient) -> None:
    soup = soup_of(client.get(f"/benchmarks/{FIGURE}"))
    assert soup.h1.get_text(" ", strip=True) == "TensorRT-LLM · Output throughput: 2,780 tok/s"
    figure = facts(soup, "figure-facts-heading")
    assert figure["Value"] == "2,780 tok/s" and figure["Unit"].startswith("tok/s")
    assert figure["System"] == "TensorRT-LLM v1.2"
    assert figure["Accelerator"] == "1× NVIDIA H100 SXM5 80GB" and figure["GPUs"] == "1"
    assert (figure["Model"], figure["Precision"]) == ("Llama 3.3 70B Instruct", "FP8")
    assert figure["Load"] == "100 concurrent requests"
    assert figure["Workload"].startswith("Online serving")
    assert figure["Run by"] == "Spheron / Prem AI" and figure["Id"] == FIGURE
    source = facts(soup, "source-heading")
    assert source["Title"] == "Best Open-Source LLM Inference Servers 2026"
    assert source["Kind"] == "article" and source["Dated"] == "17 Apr 2026"
    # The other figures of the same context, each linked to its own page.
    others = {a["href"] for a in soup.select("table.same-context a[href^='/benchmarks/']")}
    assert others == {
        "/benchmarks/bis-sglang-l70b-throughput",
        "/benchmarks/bis-vllm-l70b-throughput",
    }
    links = {a.get_text(strip=True): a["href"] for a in soup.select(".item-links a")}
    assert links["JSON"] == f"/api/v1/benchmarks/{FIGURE}"
    assert links["All of TensorRT-LLM's figures"] == "/systems/tensorrt-llm#benchmarks"
    # The context link filters /benchmarks down to this figure's context, and it is there.
    context = client.get(links["Every figure in this context"])
    rows = BeautifulSoup(context.text, "html.parser").select("table.results tbody tr[id]")
    assert {r["id"] for r in rows} == {
        f"result-{FIGURE}",
        "result-bis-sglang-l70b-throughput",
        "result-bis-vllm-l70b-throughput",
    }


def test_a_figure_from_a_caveated_source_lists_the_caveats(client: TestClient) -> None:
    soup = soup_of(client.get("/benchmarks/ov-vllm-h100-peak"))
    caveats = [li.get_text(strip=True) for li in soup.select(".caveat-list li")]
    assert caveats[0].startswith("probably machine-written: Leftover chat-assistant markers")


def test_the_figures_json_is_the_same_read_model(client: TestClient) -> None:
    body = client.get(f"/api/v1/benchmarks/{FIGURE}").json()
    figure = body["figure"]
    assert (figure["id"], figure["value"], figure["unit"], figure["gpus"]) == (
        FIGURE,
        2780,
        "tok/s",
        1,
    )
    assert (figure["hardware"], figure["model"], figure["precision"], figure["concurrency"]) == (
        "nvidia-h100-sxm5-80gb",
        "llama-3.3-70b-instruct",
        "FP8",
        100,
    )
    assert body["source"]["slug"] == "best-inference-servers-2026" and body["team"] is False
    assert body["context_label"].startswith("1× NVIDIA H100 SXM5 80GB · Llama 3.3 70B Instruct")
    assert sorted(o["id"] for o in body["same_context"]) == [
        "bis-sglang-l70b-throughput",
        "bis-vllm-l70b-throughput",
    ]
    assert body["links"]["page"] == f"/benchmarks/{FIGURE}"
    assert body["figure"]["team_notes"] == [] and body["figure"]["withdrawn"] is False


def test_results_tables_link_each_figure_to_its_page(client: TestClient) -> None:
    for path in ("/benchmarks?system=tensorrt-llm", "/systems/tensorrt-llm"):
        soup = soup_of(client.get(path))
        hrefs = {a["href"] for a in soup.select("td.figure a.figure-link")}
        assert f"/benchmarks/{FIGURE}" in hrefs, path


def test_an_unknown_figure_is_a_404_that_suggests_the_closest(client: TestClient) -> None:
    page = client.get("/benchmarks/bis-trtllm-l70b-thruput")
    assert page.status_code == 404
    soup = BeautifulSoup(page.text, "html.parser")
    assert "no benchmark figure called" in soup.select_one(".error-detail").get_text()
    assert f"/benchmarks/{FIGURE}" in {a["href"] for a in soup.select(".did-you-mean a")}
    api = client.get("/api/v1/benchmarks/nothing-like-it")
    assert api.status_code == 404 and api.json()["field"] == "figure"
    assert api.json()["allowed"] == []  # every id only feeds the suggestions


# -- a claim -----------------------------------------------------------------------------------
def test_a_claim_page_shows_the_reading_its_weight_and_the_cell_it_sits_in(
    client: TestClient,
) -> None:
    soup = soup_of(client.get(CLAIM))
    assert soup.h1.get_text(" ", strip=True) == "vLLM · Prefix caching, as Server overview says"
    said = facts(soup, "says-heading")
    level, _, dissent = said["Level"].partition(" An article disagrees (Jan 2026)")
    assert level.endswith("No") and "recomputes shared prefixes" in said["Note"]
    assert dissent.endswith("outweigh it, so the cell is not disputed")
    assert said["Weight"] == "weak: the source is probably machine-written"
    # The overview's "no" is outweighed by vLLM's agreeing docs: labelled, and no dispute.
    cell = soup.find(id="cell-heading").find_parent("section")
    assert cell.select_one(".disputed-flag") is None
    others = {a["href"] for a in cell.select(".claim-list a[href^='/systems/']")}
    assert "/systems/vllm/claims/prefix-caching/vllm-docs" in others
    assert CLAIM not in others  # the claim itself is not among the others
    links = {a.get_text(strip=True): a["href"] for a in soup.select(".item-links a")}
    assert (
        links["The whole cell, every source"]
        == "/matrix/cell?system=vllm&capability=prefix-caching"
    )
    assert (
        links["JSON"] == f"/api/v1{CLAIM}"
        and links["All of vLLM"] == "/systems/vllm#cap-prefix-caching"
    )


def test_a_source_with_two_readings_of_a_cell_shows_both(client: TestClient) -> None:
    soup = soup_of(client.get("/systems/sglang/claims/cpu-x86/genai-in-depth-serving-frameworks"))
    readings = soup.select(".claim-reading")
    assert [r["id"] for r in readings] == ["reading-1", "reading-2"]
    assert "Opening table" in readings[0].get_text() and "✗" in readings[1].get_text()


def test_the_claims_json_is_the_same_read_model(client: TestClient) -> None:
    body = client.get(f"/api/v1{CLAIM}").json()
    assert (body["system"]["slug"], body["capability"]["slug"], body["source"]["slug"]) == (
        "vllm",
        "prefix-caching",
        "overview-early-2026",
    )
    assert [(r["level"], r["outweighed"]) for r in body["readings"]] == [("no", True)]
    assert body["cell_level"] == "yes" and body["cell_disputed"] is False
    assert "vllm-docs" in {c["source"]["slug"] for c in body["others"]}
    assert body["source"]["caveats"][0]["kind"] == "machine-written"
    assert body["first_party"] is False and body["team"] is False


def test_the_cell_panel_links_each_claim_to_its_page(client: TestClient) -> None:
    soup = soup_of(client.get("/matrix/cell?system=vllm&capability=prefix-caching"))
    hrefs = [a["href"] for a in soup.select("#cell_detail a.claim-page-link")]
    assert CLAIM in hrefs and len(hrefs) == len(soup.select("#cell_detail .claim-list > li"))
    two = soup_of(client.get("/matrix/cell?system=sglang&capability=cpu-x86"))
    assert {a["href"] for a in two.select("a.claim-page-link")} >= {
        "/systems/sglang/claims/cpu-x86/genai-in-depth-serving-frameworks#reading-1",
        "/systems/sglang/claims/cpu-x86/genai-in-depth-serving-frameworks#reading-2",
    }


def test_a_claim_that_is_not_there_is_a_404_that_says_why(client: TestClient) -> None:
    silent = client.get("/systems/vllm/claims/prefix-caching/nobody")
    assert silent.status_code == 404
    soup = BeautifulSoup(silent.text, "html.parser")
    assert "makes no claim on vllm / prefix-caching" in soup.select_one(".error-detail").get_text()
    # The sources that do speak to the cell are listed, each linked to its claim.
    assert CLAIM in {a["href"] for a in soup.select(".slug-list a")}
    system = client.get("/api/v1/systems/vllx/claims/prefix-caching/vllm-docs").json()
    assert system["field"] == "system" and "vllm" in system["suggestions"]
    capability = client.get("/api/v1/systems/vllm/claims/prefix-cache/vllm-docs").json()
    assert capability["field"] == "capability" and "prefix-caching" in capability["suggestions"]


def test_both_twins_are_in_the_openapi_document(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    # One resource: the figure's GET beside the team's PATCH and DELETE (one Allow list).
    assert {"get", "patch", "delete"} <= set(paths["/api/v1/benchmarks/{result_id}"])
    assert "/api/v1/benchmarks/{figure_id}" not in paths
    assert "get" in paths["/api/v1/systems/{slug}/claims/{capability}/{source}"]
