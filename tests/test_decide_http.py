"""/decide and /api/v1/recommend: answers in the URL, sourced reasons, errors naming values."""

import pytest
from bs4 import BeautifulSoup
from fastapi.testclient import TestClient
from sqlalchemy import Engine
from sqlmodel import Session

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
    # Before any answer the panel is not empty: the sourced default order, with its sources.
    assert soup.select_one("#result-heading").get_text() == "Before your first answer"
    assert soup.select_one(".picks.default-order .pick-name").get_text() == "vLLM"
    assert not soup.select(".picks .score"), "no scores before an answer"
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


def recommend(client: TestClient, query: str) -> dict:
    response = client.get(f"/api/v1/recommend?{query}")
    assert response.status_code == 200, response.text
    return response.json()


def test_one_answer_gives_a_sourced_pick_or_says_nothing_separates_them(
    client: TestClient,
) -> None:
    # The article's pick for the hardware alone, never a name-order accident.
    assert recommend(client, "hardware=nvidia-datacenter")["ranked"][0]["slug"] == "tensorrt-llm"
    assert recommend(client, "scale=single-user")["ranked"][0]["slug"] == "llama-cpp"
    amd = recommend(client, "hardware=amd-gpu")
    assert set(amd["differ"]) == {"llama-cpp", "sglang"}, "O and G disagree about AMD"
    tied = recommend(client, "model=dense")
    assert tied["first_by"] == "default-order" and len(tied["tie"]["slugs"]) > 2
    assert tied["ranked"][0]["slug"] == "vllm" and tied["tie"]["order"][0]["source"]
    soup = soup_of(client.get("/decide?model=dense"))
    assert "don't separate" in soup.select_one(".tie-note").get_text()
    assert soup.select(".tie-note .default-order a.cite")


def test_no_source_says_is_unknown_not_a_rule_out(client: TestClient) -> None:
    body = recommend(client, "needs=openai-api")
    assert "litellm" not in {e["slug"] for e in body["excluded"]}
    litellm = next(p for p in body["ranked"] if p["slug"] == "litellm")
    assert litellm["unknowns"] and "No source says" in litellm["unknowns"][0]["text"]
    body = recommend(client, "hardware=nvidia-datacenter")
    hf = next(p for p in body["ranked"] if p["slug"] == "hf-transformers")
    assert hf["confidence"] == "low" and all(r["weight"] >= 0 for r in hf["reasons"])
    assert all(
        r["text"].startswith("A source says") for e in body["excluded"] for r in e["reasons"]
    )


def test_a_disputed_reason_says_who_stands_where(client: TestClient) -> None:
    body = recommend(client, "scale=production&workload=rag")
    vllm = next(p for p in body["ranked"] if p["slug"] == "vllm")
    disputed = [r for r in vllm["reasons"] if r["disputed"]]
    assert disputed and -1 < disputed[0]["weight"] < 0
    soup = soup_of(client.get("/decide?scale=production&workload=rag&why=vllm"))
    assert soup.select_one("#why-not .disputed-flag")
    assert "Server overview" in soup.select_one("#why-not .dispute-note").get_text()


def test_why_not_any_system(client: TestClient) -> None:
    query = "hardware=nvidia-datacenter&scale=production&workload=rag"
    soup = soup_of(client.get(f"/decide?{query}"))
    links = [a["href"] for a in soup.select(".picks a.why-link")]
    assert links and all(f"/decide?{query}&why=" in href for href in links)
    assert soup.select(".excluded a.why-link"), "ruled-out systems can be asked too"
    page = client.get(f"/decide?{query}&why=vllm", follow_redirects=False)
    assert page.status_code == 200, "why= is part of the canonical URL"
    why = soup_of(page).select_one("#why-not")
    assert why.select_one("h3").get_text() == "Why not vLLM?"
    assert "behind SGLang" in why.get_text()
    assert [h.get_text() for h in why.select("h4")][-1] == "What puts SGLang ahead"
    fragment = client.get(f"/decide?{query}&why=mlx-lm", headers=HTMX)
    assert "ruled out" in soup_of(fragment).select_one("#why-not").get_text()
    bad = client.get(f"/decide?{query}&why=nosuch")
    assert (
        bad.status_code == 422
        and "why=nosuch" in soup_of(bad).select_one(".problem-banner").get_text()
    )


def test_the_score_scale_and_silent_answers_are_explained(client: TestClient) -> None:
    soup = soup_of(client.get("/decide?hardware=apple-silicon&priority=throughput"))
    assert "first pick" in soup.select_one(".scale-line").get_text()
    assert soup.select_one("details.score-scale summary")
    assert "Throughput" in soup.select_one(".unused-note").get_text()
    body = recommend(client, "hardware=apple-silicon&priority=throughput")
    assert [u["question"] for u in body["unused_answers"]] == ["priority"]
    assert body["scale"]


def test_what_would_change_keeps_the_hardware_you_have(client: TestClient) -> None:
    body = recommend(client, "hardware=apple-silicon&interface=api")
    assert body["changes"] and all(c["question"] != "hardware" for c in body["changes"])
    assert body["changes"][0]["kind"] == "change", "answers you can change come first"
    refine = recommend(client, "hardware=amd-gpu&scale=production")["changes"]
    assert all(c["kind"] == "refine" for c in refine if c["question"] == "hardware")


def test_new_questions_and_options_are_accepted_and_documented(client: TestClient) -> None:
    query = (
        "hardware=amd-instinct&model=moe&quantization=aqlm-quip-vptq-bitnet"
        "&needs=speculative-decoding&needs=embed-library&stack=docker"
    )
    assert recommend(client, query)["answers"]["model"] == ["moe"]
    assert recommend(client, "quantization=exotic")["ranked"][0]["slug"] == "aphrodite"
    parameters = {
        p["name"]: p
        for p in client.get("/openapi.json").json()["paths"]["/api/v1/recommend"]["get"][
            "parameters"
        ]
    }
    # model and hardware also take a name as typed: the options are the first of two forms.
    assert parameters["model"]["schema"]["anyOf"][0]["enum"] == [
        "dense",
        "moe",
        "vision-language",
        "speech-translation",
    ]
    assert {"amd-instinct", "amd-radeon", "amd-gpu"} <= set(
        parameters["hardware"]["schema"]["anyOf"][0]["enum"]
    )
    assert {"exotic", "exl2-exl3"} <= set(parameters["quantization"]["schema"]["enum"])
    needs = set(parameters["needs"]["schema"]["items"]["enum"])
    assert {"speculative-decoding", "cpu-offload", "autoscaling", "embed-library"} <= needs
    assert "`moe` (A mixture-of-experts model" in parameters["model"]["description"]


@pytest.mark.parametrize(
    "answers",
    [
        {"hardware": ("nvidia-datacenter",), "priority": ("throughput",)},
        {"hardware": ("nvidia-datacenter",), "scale": ("production",), "needs": ("openai-api",)},
        {"hardware": ("apple-silicon",)},
    ],
)
def test_without_team_sweeps_the_ranking_is_exactly_the_engines(
    engine: Engine, answers: dict[str, tuple[str, ...]]
) -> None:
    from app.decision.engine import recommend
    from app.measures.service_level import Level
    from app.queries.decide import candidates, recommendation, rules

    with Session(engine) as session:
        plain = recommend(answers, candidates(session), rules(session))
        for level in (None, Level(per_user=50)):
            found = recommendation(session, answers, level=level)
            assert found.measured == [] and found.measured_weight == ""
            assert [(p.slug, p.score) for p in found.ranked] == [
                (p.slug, p.score) for p in plain.ranked
            ]
