"""/decide and /api/v1/recommend: answers in the URL, sourced reasons, errors naming values."""

from bs4 import BeautifulSoup
from fastapi.testclient import TestClient

HTMX = {"HX-Request": "true", "HX-Target": "decide_flow"}


def soup_of(response) -> BeautifulSoup:
    return BeautifulSoup(response.text, "html.parser")


def test_api_shape_and_every_reason_is_sourced(client: TestClient) -> None:
    body = client.get("/api/v1/recommend?hardware=apple-silicon&workload=coding-agent").json()
    assert body["ranked"][0]["slug"] == "omlx"
    for pick in body["ranked"]:
        assert {"slug", "score", "reasons"} <= set(pick)
        for reason in pick["reasons"]:
            assert reason["text"] and reason["source"]
    for excluded in body["excluded"]:
        assert excluded["reasons"] and all(r["text"] and r["source"] for r in excluded["reasons"])
    excluded = {e["slug"] for e in body["excluded"]}
    assert {"tensorrt-llm", "lmdeploy"} <= excluded  # NVIDIA-only engines cannot run on a Mac


def test_page_shows_the_same_ranking_as_the_api(client: TestClient) -> None:
    query = "hardware=nvidia-datacenter&scale=high-throughput&workload=rag"
    api = client.get(f"/api/v1/recommend?{query}").json()
    soup = soup_of(client.get(f"/decide?{query}"))
    names = [a.get_text() for a in soup.select(".picks .pick-name")]
    assert names == [p["name"] for p in api["ranked"][:5]]
    assert names[0] == "SGLang"
    cites = soup.select(".picks .reasons a.cite")
    assert cites and all(a["href"].startswith("/sources#") for a in cites)


def test_what_would_change_names_an_answer_and_a_new_first_place(client: TestClient) -> None:
    body = client.get("/api/v1/recommend?hardware=apple-silicon&workload=coding-agent").json()
    changes = body["changes"]
    assert changes and all(c["new_top"] != "omlx" for c in changes)
    for trial in changes:
        answers = {
            "hardware": "apple-silicon",
            "workload": "coding-agent",
            trial["question"]: trial["option"],
        }
        query = "&".join(f"{q}={o}" for q, o in answers.items())
        assert (
            client.get(f"/api/v1/recommend?{query}").json()["ranked"][0]["slug"] == trial["new_top"]
        )


def test_one_question_at_a_time_in_order(client: TestClient) -> None:
    soup = soup_of(client.get("/decide"))
    assert soup.select_one("#question-heading").get_text() == "What will it run on?"
    assert soup.select_one(".result-panel .empty")
    soup = soup_of(client.get("/decide?hardware=cpu-only"))
    assert soup.select_one("#question-heading").get_text() == "How many people will use it at once?"
    hidden = {(i["name"], i["value"]) for i in soup.select('.question-form input[type="hidden"]')}
    assert hidden == {("hardware", "cpu-only")}


def test_skip_and_change_in_place(client: TestClient) -> None:
    soup = soup_of(client.get("/decide?hardware=cpu-only"))
    skip = soup.select_one(".question-form a[role=button]")["href"]
    assert skip == "/decide?hardware=cpu-only&skip=scale"
    soup = soup_of(client.get(skip))
    assert soup.select_one("#question-heading").get_text() == "What is the main workload?"
    change = soup.select_one('a[aria-label="Change the answer to: What will it run on?"]')["href"]
    soup = soup_of(client.get(change))
    assert soup.select_one("#question-heading").get_text() == "What will it run on?"
    assert soup.select_one('input[value="cpu-only"]').has_attr("checked")


def test_htmx_swaps_the_flow_and_pushes_the_url(client: TestClient) -> None:
    response = client.get("/decide?hardware=mobile", headers=HTMX)
    soup = soup_of(response)
    assert soup.select_one("h1") is None and soup.select_one("#decide_flow")
    assert response.headers["HX-Push-Url"] == "/decide?hardware=mobile"


def test_sources_differ_is_said_on_the_page(client: TestClient) -> None:
    soup = soup_of(client.get("/decide?hardware=apple-silicon"))
    note = soup.select_one(".sources-differ").get_text()
    assert "mlx-lm" in note and "llama.cpp" in note


def test_compare_link_for_the_top_three(client: TestClient) -> None:
    soup = soup_of(client.get("/decide?hardware=nvidia-datacenter&scale=production"))
    href = soup.select_one('a[href^="/compare?"]')["href"]
    api = client.get("/api/v1/recommend?hardware=nvidia-datacenter&scale=production").json()
    assert href == "/compare?" + "&".join(f"s={p['slug']}" for p in api["ranked"][:3])


def test_unknown_question_or_option_is_422_naming_it(client: TestClient) -> None:
    response = client.get(
        "/api/v1/recommend?hardware=quantum&colour=red&scale=production&scale=single-user"
    )
    assert response.status_code == 422
    fields = {p["field"]: p for p in response.json()["detail"]}
    assert "nvidia-datacenter" in fields["hardware"]["allowed"]
    assert "colour" not in fields, "an unknown parameter is ignored, not an error"
    assert "takes one value" in fields["scale"]["message"]
    page = client.get("/decide?hardware=quantum")
    assert page.status_code == 422
    assert "hardware=quantum" in soup_of(page).select_one(".problem-banner").get_text()


def test_needs_accepts_several_values(client: TestClient) -> None:
    body = client.get("/api/v1/recommend?needs=permissive-license&needs=openai-api").json()
    excluded = {e["slug"] for e in body["excluded"]}
    assert {"lm-studio", "aphrodite"} <= excluded
    assert body["answers"]["needs"] == ["permissive-license", "openai-api"]  # question order
