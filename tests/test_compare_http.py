"""/compare and /api/v1/compare: same data, canonical URLs, differences, errors, sharing."""

import pytest
from bs4 import BeautifulSoup
from fastapi.testclient import TestClient


def soup_of(response) -> BeautifulSoup:
    return BeautifulSoup(response.text, "html.parser")


def test_page_and_api_show_the_same_comparison(client: TestClient) -> None:
    api = client.get("/api/v1/compare?s=vllm&s=sglang&s=llama-cpp").json()
    soup = soup_of(client.get("/compare?s=vllm&s=sglang&s=llama-cpp"))
    assert [a.get_text() for a in soup.select("thead .compare-name")] == [
        "vLLM",
        "SGLang",
        "llama.cpp",
    ]
    names = soup.select("tbody.capabilities th[scope=row] > span[title]")
    rows = {span.get_text() for span in names}
    for section in api["features"] + api["hardware"]:
        for row in section["rows"]:
            assert row["name"] in rows
    assert soup.select_one("h1").get_text() == "vLLM vs SGLang vs llama.cpp"
    assert f"{api['differences']} differences" in soup.select_one("title").get_text()


def test_open_graph_tags_describe_the_comparison(client: TestClient) -> None:
    soup = soup_of(client.get("/compare?s=vllm&s=sglang"))
    title = soup.select_one('meta[property="og:title"]')["content"]
    assert title.startswith("vLLM vs SGLang — ") and "differences" in title
    assert "vLLM, SGLang" in soup.select_one('meta[property="og:description"]')["content"]
    assert soup.select_one('meta[name="twitter:card"]')


def test_order_is_the_users_and_the_url_is_canonical(client: TestClient) -> None:
    soup = soup_of(client.get("/compare?s=sglang&s=vllm"))
    assert [a.get_text() for a in soup.select("thead .compare-name")] == ["SGLang", "vLLM"]
    response = client.get("/compare?s=sglang&s=vllm&q=&diff=", follow_redirects=False)
    assert (
        response.status_code == 303 and response.headers["location"] == "/compare?s=sglang&s=vllm"
    )
    assert soup.select_one("button[data-copy]")["data-copy"].endswith("/compare?s=sglang&s=vllm")


def test_move_and_remove_links(client: TestClient) -> None:
    soup = soup_of(client.get("/compare?s=vllm&s=sglang&s=tgi"))
    assert (
        soup.select_one('a[aria-label="Move SGLang left"]')["href"]
        == "/compare?s=sglang&s=vllm&s=tgi"
    )
    assert (
        soup.select_one('a[aria-label="Move SGLang right"]')["href"]
        == "/compare?s=vllm&s=tgi&s=sglang"
    )
    assert soup.select_one('a[aria-label="Remove Text Generation Inference (TGI)"]')["href"] == (
        "/compare?s=vllm&s=sglang"
    )


def test_differences_only_hides_rows_that_agree(client: TestClient) -> None:
    everything = client.get("/api/v1/compare?s=vllm&s=sglang").json()
    diff = client.get("/api/v1/compare?s=vllm&s=sglang&diff=1").json()
    all_rows = [r for s in everything["features"] for r in s["rows"]]
    diff_rows = [r for s in diff["features"] for r in s["rows"]]
    assert 0 < len(diff_rows) < len(all_rows)
    assert all(r["differs"] for r in diff_rows)
    assert diff["differences"] == everything["differences"]
    toggle = soup_of(client.get("/compare?s=vllm&s=sglang")).select_one(".share-bar [aria-pressed]")
    assert toggle["href"] == "/compare?s=vllm&s=sglang&diff=1"


def test_one_system_strictly_ahead_is_marked_in_text(client: TestClient) -> None:
    body = client.get("/api/v1/compare?s=omlx&s=mlx-lm").json()
    row = next(r for s in body["features"] for r in s["rows"] if r["key"] == "persistent-kv-cache")
    assert row["ahead"] == 0
    soup = soup_of(client.get("/compare?s=omlx&s=mlx-lm"))
    marked = [tr for tr in soup.select("table.compare tr") if tr.select_one(".ahead")]
    assert any("Persistent / SSD KV cache" in tr.select_one("th").get_text() for tr in marked)


def test_shared_benchmarks_are_charted_and_the_rest_explained(client: TestClient) -> None:
    body = client.get("/api/v1/compare?s=vllm&s=sglang&s=tensorrt-llm").json()
    h100 = [c for c in body["shared_contexts"] if c["hardware"] == "nvidia-h100-sxm5-80gb"]
    assert h100 and all(len({r["result"]["system"] for r in c["results"]}) >= 2 for c in h100)
    soup = soup_of(client.get("/compare?s=vllm&s=sglang&s=tensorrt-llm"))
    assert soup.select(".compare-benchmarks svg.chart")
    assert "cannot be ranked" in soup.select_one(".other-results summary").get_text()
    lonely = soup_of(client.get("/compare?s=litellm&s=olla"))
    assert "No benchmark" in lonely.select_one(".compare-benchmarks .empty").get_text()


def test_past_the_chart_limit_shared_contexts_link_to_their_benchmarks_page(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("app.routes.compare.MAX_CHARTS", 1)
    query = "s=vllm&s=sglang&s=tensorrt-llm"
    shared = client.get(f"/api/v1/compare?{query}").json()["shared_contexts"]
    assert len(shared) >= 3  # the API still gives every shared context
    # An unknown parameter of its own: other tests' pages sit in the render cache.
    soup = soup_of(client.get(f"/compare?{query}&charts=1"))
    assert len(soup.select(".compare-benchmarks article.context-card")) == 1
    links = soup.select(".compare-benchmarks .more-contexts a")
    assert (
        f"{len(shared) - 1} more shared contexts"
        in soup.select_one(".more-contexts summary").get_text()
    )
    assert len(links) == len(shared) - 1
    for link in links[:3]:
        page = BeautifulSoup(client.get(link["href"]).text, "html.parser")
        # The context is charted there, for the compared systems only.
        headings = [h.get_text(" ", strip=True) for h in page.select("article.context-card h3")]
        assert link.get_text(" ", strip=True) in headings, (link["href"], headings)
        systems = {a["href"] for a in page.select("table.results tbody th a[href^='/systems/']")}
        assert systems <= {"/systems/vllm", "/systems/sglang", "/systems/tensorrt-llm"}


def test_search_as_you_type_suggests_systems_not_yet_chosen(client: TestClient) -> None:
    response = client.get(
        "/compare?s=vllm&s=sglang&q=llama",
        headers={"HX-Request": "true", "HX-Target": "suggestions"},
    )
    soup = soup_of(response)
    assert soup.select_one("h1") is None
    links = [a["href"] for a in soup.select("#suggestions a")]
    assert "/compare?s=vllm&s=sglang&s=llama-cpp" in links
    full = soup_of(client.get("/compare?s=vllm&s=sglang&q=llama"))
    assert [a["href"] for a in full.select("#suggestions a")] == links


def test_errors_name_what_was_wrong(client: TestClient) -> None:
    cases = {
        "s=vllm": "Choose at least two systems",
        "s=vllm&s=vllm": "listed twice",
        "s=vllm&s=nope": "no system called “nope”",
        "s=vllm&s=sglang&s=tgi&s=lmdeploy&s=ollama": "at most four",
    }
    for query, text in cases.items():
        page = client.get(f"/compare?{query}")
        assert page.status_code == 422, query
        assert text in soup_of(page).select_one(".problem-banner").get_text(), query
        api = client.get(f"/api/v1/compare?{query}")
        assert api.status_code == 422, query
        assert api.json()["detail"][0]["field"] == "s"
    assert "vllm" in client.get("/api/v1/compare?s=vllm&s=nope").json()["detail"][0]["allowed"]
    banner = soup_of(client.get("/compare?s=vllm&s=nope")).select_one(".problem-banner")
    assert "s=" not in banner.get_text()  # told in words, not parameter syntax
    assert "/systems/llama-cpp" in {a["href"] for a in banner.select("a")}
    assert "vLLM is listed twice" in soup_of(client.get("/compare?s=vllm&s=vllm")).get_text()


def test_system_page_offers_comparisons(client: TestClient) -> None:
    soup = soup_of(client.get("/systems/vllm"))
    links = [a["href"] for a in soup.select(".compare-with a")]
    assert "/compare?s=vllm&s=sglang" in links


def test_when_to_choose_which_uses_the_decision_rules(client: TestClient) -> None:
    soup = soup_of(client.get("/compare?s=omlx&s=mlx-lm"))
    lines = [li.get_text(" ", strip=True) for li in soup.select(".when-rules li")]
    assert any(
        line.startswith(
            "Choose oMLX when you run on an Apple Silicon Mac and the main "
            "workload is agents and tool use or coding agents."
        )
        and "GenAI in Depth" in line
        for line in lines
    )
    # Sentences, not a dump of the questions and option labels.
    heads = [li.strong.get_text(" ", strip=True) for li in soup.select(".when-rules li")]
    assert heads and all(h.startswith(("Choose oMLX when ", "Choose mlx-lm when ")) for h in heads)
    assert all(h.endswith(".") and "?" not in h and ":" not in h for h in heads), heads


def test_a_missing_claim_is_never_a_win(client: TestClient) -> None:
    # Ollama wraps llama.cpp: no source speaking about Ollama's FlashAttention is not a "no".
    body = client.get("/api/v1/compare?s=llama-cpp&s=ollama").json()
    rows = {r["key"]: r for s in body["features"] for r in s["rows"]}
    for key in ("flash-attention", "spec-draft-model"):
        assert rows[key]["covered"] == [True, False]
        assert rows[key]["gap"] and not rows[key]["differs"] and rows[key]["ahead"] is None
    soup = soup_of(client.get("/compare?s=llama-cpp&s=ollama"))
    one_sided = soup.select("tbody.one-sided tr.gap")
    names = [tr.select_one("th span[title]").get_text() for tr in one_sided]
    assert "FlashAttention" in " ".join(names)
    assert not soup.select("tbody.one-sided .ahead")
    assert all(tr.select_one(".no-claim") for tr in one_sided)


def test_differences_count_only_explicit_disagreements(client: TestClient) -> None:
    body = client.get("/api/v1/compare?s=vllm&s=sglang").json()
    rows = [r for s in body["features"] + body["hardware"] for r in s["rows"]]
    assert body["differences"] == sum(r["differs"] for r in rows + body["overview"])
    assert body["gaps"] == sum(r["gap"] for r in rows + body["overview"]) > 0
    assert all(not r["differs"] for r in rows if r["covered"].count(True) < 2)
    # Every project has its own repository and version: shown, never counted.
    assert not any(r["differs"] for r in body["overview"] if r["name"] == "Repository")
    soup = soup_of(client.get("/compare?s=vllm&s=sglang"))
    title = soup.select_one('meta[property="og:title"]')["content"]
    assert f"{body['differences']} differences, {body['gaps']} rows only one side" in title
    diff = soup_of(client.get("/compare?s=vllm&s=sglang&diff=1"))
    assert not diff.select("tr.gap:not(.differs)")


def test_the_legend_explains_every_mark(client: TestClient) -> None:
    soup = soup_of(client.get("/compare?s=vllm&s=sglang"))
    legend = soup.select_one(".compare-legend").get_text(" ", strip=True)
    for words in (
        "Yes",
        "Partial",
        "Experimental",
        "Via another project",
        "No",
        "No source says",
        "Disputed",
        "own rating",
    ):
        assert words in legend


def test_systems_may_be_named_as_people_write_them(client: TestClient) -> None:
    """Display names, any case, any punctuation: answered with the slug form of the link."""
    for query in ("s=llama.cpp&s=vllm", "s=LLAMA.CPP&s=vLLM", "s=llama.cpp,VLLM"):
        response = client.get(f"/compare?{query}", follow_redirects=False)
        assert response.status_code == 303, query
        assert response.headers["location"] == "/compare?s=llama-cpp&s=vllm", query
    api = client.get("/api/v1/compare?s=TensorRT-LLM&s=llama.cpp")
    assert api.status_code == 200
    assert [s["slug"] for s in api.json()["systems"]] == ["tensorrt-llm", "llama-cpp"]
    # One system given by slug and by name is the same system twice.
    twice = client.get("/compare?s=llama-cpp&s=llama.cpp")
    assert twice.status_code == 422 and "listed twice" in twice.text
    assert client.get("/api/v1/compare?s=vllm&s=llama.cp").status_code == 422


def test_benchmark_filters_take_system_names(client: TestClient) -> None:
    response = client.get("/benchmarks?system=TensorRT-LLM", follow_redirects=False)
    assert response.status_code == 303
    assert response.headers["location"] == "/benchmarks?system=tensorrt-llm"
    named = client.get("/api/v1/benchmarks?system=TensorRT-LLM").json()["results"]
    by_slug = client.get("/api/v1/benchmarks?system=tensorrt-llm").json()["results"]
    assert named == by_slug and {r["system"] for r in named} == {"tensorrt-llm"}


def test_suggestions_put_names_that_start_with_the_search_first(client: TestClient) -> None:
    soup = BeautifulSoup(client.get("/compare?s=vllm&q=llama").text, "html.parser")
    offered = [a.get_text() for a in soup.select("#suggestions a")]
    assert offered[0] == "Add llama.cpp"
    assert set(offered[1:3]) == {"Add ExLlamaV2", "Add Ollama"}


def test_find_adds_the_system_named_in_one_click(client: TestClient) -> None:
    response = client.get("/compare?s=vllm&q=ollama&find=1", follow_redirects=False)
    assert response.status_code == 303
    assert response.headers["location"] == "/compare?s=vllm&s=ollama"
    # No clear pick: back to the page with its suggestions, the search kept.
    response = client.get("/compare?s=vllm&q=llama&find=1", follow_redirects=False)
    assert response.headers["location"] == "/compare?s=vllm&q=llama"
