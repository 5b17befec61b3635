"""/benchmarks and /api/v1/benchmarks: every figure, filters, exports equal the screen, errors."""

import csv
import datetime as dt
import io
from urllib.parse import parse_qsl

import pytest
from bs4 import BeautifulSoup
from fastapi.testclient import TestClient
from sqlalchemy import Engine, func
from sqlmodel import Session, select

from app.models import BenchmarkResult, Hardware, System
from app.queries.benchmarks import with_freshness
from app.schemas import BenchmarkView

HTMX = {"HX-Request": "true", "HX-Target": "benchmark_results"}


def soup_of(response) -> BeautifulSoup:
    return BeautifulSoup(response.text, "html.parser")


def table_ids(soup: BeautifulSoup) -> list[str]:
    return [tr["id"].removeprefix("result-") for tr in soup.select("table.results tbody tr")]


def test_every_seed_figure_is_on_the_page_with_its_source(
    client: TestClient, engine: Engine
) -> None:
    with Session(engine) as session:
        total = session.exec(select(func.count()).select_from(BenchmarkResult)).one()
    soup = soup_of(client.get("/benchmarks"))
    rows = soup.select("table.results tbody tr")
    assert len(rows) == total
    assert all(row.select_one('a.cite[href^="/sources#"]') for row in rows)


def test_h100_context_is_charted_and_ranked(client: TestClient) -> None:
    soup = soup_of(client.get("/benchmarks?metric=throughput"))
    card = next(
        c
        for c in soup.select("article.context-card")
        if "NVIDIA H100 SXM5 80GB" in c.select_one("h3").get_text()
    )
    svg = card.select_one("svg.chart")
    assert svg["role"] == "img" and svg.select_one("title").get_text()
    assert [t.get_text() for t in svg.select("g.bar > title")] == [
        "TensorRT-LLM: 2,780 tok/s",
        "SGLang: 2,460 tok/s",
        "vLLM: 2,400 tok/s",
    ]
    widths = [float(r["width"]) for r in svg.select("g.bar rect")]
    assert widths[0] / 2780 == pytest.approx(widths[2] / 2400, rel=1e-3)
    ranked = [tr.select_one("th a").get_text() for tr in card.select("table.ranked tbody tr")]
    assert ranked == ["TensorRT-LLM", "SGLang", "vLLM"]


def test_mixed_contexts_are_explained(client: TestClient) -> None:
    soup = soup_of(client.get("/benchmarks?metric=throughput"))
    assert "different contexts" in soup.select_one(".mixed-note").get_text()
    one = soup_of(client.get("/benchmarks?system=powerinfer&metric=generation-speed"))
    assert one.select_one(".mixed-note") is None


def test_scatter_where_throughput_and_ttft_share_a_setting(client: TestClient) -> None:
    soup = soup_of(client.get("/benchmarks?hardware=nvidia-h100-sxm5-80gb"))
    scatters = [s for s in soup.select("svg.chart-scatter") if s.select("circle")]
    assert len(scatters) == 1
    assert len(soup.select("svg.chart-scatter-narrow circle")) == 3, "and drawn for phones"
    assert len(scatters[0].select("circle")) == 3
    card = scatters[0].find_parent("article")
    cells = [[td.get_text() for td in tr.select("td")] for tr in card.select("table tbody tr")]
    assert sorted(cells) == [["680", "2,780"], ["710", "2,460"], ["740", "2,400"]]


def test_superseded_versions_are_marked_stale(client: TestClient) -> None:
    soup = soup_of(client.get("/benchmarks?system=vllm&metric=throughput"))
    row = soup.select_one("#result-bis-vllm-l70b-throughput")
    assert "superseded by v0.19.0" in row.select_one(".stale-flag")["title"]
    trt = soup_of(client.get("/benchmarks?system=tensorrt-llm")).select_one(
        "#result-bis-trtllm-l70b-throughput"
    )
    assert "superseded" not in trt.get_text()


def test_htmx_gets_only_the_results(client: TestClient) -> None:
    response = client.get("/benchmarks?system=sglang", headers=HTMX)
    soup = soup_of(response)
    assert soup.select_one("form") is None and soup.select_one("#benchmark_results")
    assert response.headers["HX-Push-Url"] == "/benchmarks?system=sglang"
    assert "HX-Request" in response.headers["vary"]


def test_filters_and_sort(client: TestClient) -> None:
    body = client.get("/api/v1/benchmarks?cmin=50&cmax=100&sort=-value&metric=throughput").json()
    values = [r["value"] for r in body["results"]]
    assert values == sorted(values, reverse=True)
    assert all(50 <= r["concurrency"] <= 100 for r in body["results"])
    assert client.get("/api/v1/benchmarks?origin=team").json()["results"] == []


def test_sort_links_flip_direction(client: TestClient) -> None:
    soup = soup_of(client.get("/benchmarks?sort=value"))
    header = soup.select_one('th[aria-sort="ascending"] a')
    assert header["href"] == "/benchmarks?sort=-value"


def test_csv_and_json_exports_equal_the_screen(client: TestClient) -> None:
    query = "system=vllm&system=sglang&sort=metric"
    shown = table_ids(soup_of(client.get(f"/benchmarks?{query}")))
    rows = list(csv.DictReader(io.StringIO(client.get(f"/benchmarks.csv?{query}").text)))
    assert [r["id"] for r in rows] == shown
    assert all(r["source"] for r in rows)
    body = client.get(f"/api/v1/benchmarks?{query}").json()
    assert [r["id"] for r in body["results"]] == shown


def test_bad_parameters_are_named(client: TestClient) -> None:
    response = client.get("/api/v1/benchmarks?system=vllmm&cmin=many&sort=speed")
    assert response.status_code == 422
    fields = {p["field"]: p for p in response.json()["detail"]}
    assert set(fields) == {"system", "cmin", "sort"}
    # Named as the pages name them, with the value to give.
    assert "vLLM (vllm)" in fields["system"]["allowed"]
    page = client.get("/benchmarks?metric=speed")
    assert page.status_code == 422
    assert "metric=speed" in soup_of(page).select_one(".problem-banner").get_text()


def test_an_unknown_filter_value_shows_nothing_and_names_what_is_allowed(
    client: TestClient,
) -> None:
    page = client.get("/benchmarks?hardware=google-tpu-v9")
    assert page.status_code == 422
    soup = soup_of(page)
    banner = soup.select_one(".problem-banner").get_text(" ", strip=True)
    assert "hardware=google-tpu-v9" in banner
    assert "NVIDIA H100 SXM5 80GB (nvidia-h100-sxm5-80gb)" in banner
    # Nothing shown as if the filter had not been asked for.
    assert table_ids(soup) == []
    assert client.get("/api/v1/benchmarks?hardware=google-tpu-v9").status_code == 422


def test_a_known_entry_without_figures_is_an_empty_result_not_a_refusal(
    client: TestClient, engine: Engine
) -> None:

    with Session(engine) as session:
        used = {r.hardware_id for r in session.exec(select(BenchmarkResult))}
        unused = [
            h.slug for h in session.exec(select(Hardware)) if h.id not in used and not h.withdrawn
        ]
    assert unused, "the fixture seed lists hardware no figure uses"
    response = client.get(f"/api/v1/benchmarks?hardware={unused[0]}")
    assert response.status_code == 200 and response.json()["results"] == []


def test_a_system_no_source_has_measured_is_said_so(client: TestClient, engine: Engine) -> None:
    with Session(engine) as session:
        results = session.exec(select(BenchmarkResult)).all()
        unmeasured = [
            s for s in session.exec(select(System)) if s.id not in {r.system_id for r in results}
        ]
        unused = [
            h.slug
            for h in session.exec(select(Hardware))
            if h.id not in {r.hardware_id for r in results}
        ]
    assert unmeasured and unused, "the fixture seed lists a system and hardware no figure names"
    system = unmeasured[0]
    alone = soup_of(client.get(f"/benchmarks?system={system.slug}"))
    said = alone.select_one("p.unmeasured")
    assert said is not None
    assert f"No source has measured {system.name} yet" in said.get_text(" ", strip=True)
    # With vLLM (which has figures, only none on this hardware) only the unmeasured is named.
    both = soup_of(client.get(f"/benchmarks?system={system.slug}&system=vllm&hardware={unused[0]}"))
    named = both.select_one("p.unmeasured")
    assert named is not None and "vLLM" not in named.get_text()
    # A measured system filtered down to nothing gets the plain empty state only.
    plain = soup_of(client.get(f"/benchmarks?system=vllm&hardware={unused[0]}"))
    assert plain.select_one(".empty-state") is not None
    assert plain.select_one("p.unmeasured") is None


def test_only_a_newer_minor_or_major_release_supersedes(client: TestClient) -> None:
    sample = client.get("/api/v1/benchmarks?system=sglang").json()["results"][0]
    views = [
        BenchmarkView.model_validate({**sample, "system_version": version, "date": "2026-05"})
        for version in ("v0.5.9", "v0.4.2", "0.5", "nightly")
    ]
    marked = with_freshness(views, {"sglang": "v0.5.10.post1"}, dt.date(2026, 6, 1))
    stale = [v.stale for v in marked]
    assert stale[0] is None, "a patch release (v0.5.9 -> v0.5.10.post1) is not stale"
    assert stale[1] == "v0.4.2 is superseded by v0.5.10.post1"
    assert stale[2] is None and stale[3] is None
    aged = with_freshness(views[:1], {}, dt.date(2028, 1, 1))
    assert aged[0].stale == "older than 12 months"


def offered_metrics(soup: BeautifulSoup) -> dict[str, str]:
    """The metric choices the filter shows (not hidden), with their counts."""
    return {
        label.select_one("input")["value"]: label.select_one(".facet-count").get_text(" ")
        for label in soup.select("#benchmark-form label.facet")
        if label.select_one("input")["name"] == "metric" and not label.has_attr("hidden")
    }


def test_editorial_scores_are_not_offered_as_metrics(client: TestClient) -> None:
    soup = soup_of(client.get("/benchmarks"))
    offered = offered_metrics(soup)
    assert "throughput" in offered
    assert "ease-score" not in offered and "control-score" not in offered
    note = soup.select_one("#benchmark-form .facet-note").get_text(" ", strip=True)
    assert "not measurements" in note and "system's page" in note
    # Reachable where they belong: the system page lists its own, and a URL that ticks one
    # keeps it ticked (and visible, so it can be unticked).
    assert "Ease of use (editorial position)" in client.get("/systems/ollama").text
    ticked = offered_metrics(soup_of(client.get("/benchmarks?metric=ease-score")))
    assert "ease-score" in ticked


def test_a_metric_with_no_figure_in_the_selection_is_hidden_by_its_count(
    client: TestClient,
) -> None:
    # The count is what the stylesheet hides by (.facet-count.none on an unticked choice), and
    # an HTMX swap updates it; the browser tier checks the hiding itself.
    soup = soup_of(client.get("/benchmarks?system=powerinfer"))
    counts = {
        label.select_one("input")["value"]: label.select_one(".facet-count")
        for label in soup.select("#benchmark-form label.facet")
        if label.select_one("input")["name"] == "metric"
    }
    assert "none" not in counts["generation-speed"]["class"]
    assert "none" in counts["ttft-p50"]["class"], "PowerInfer has no TTFT figure"
    css = client.get("/static/css/app.css").text
    assert ".filters label.facet:has(.facet-count.none):not(:has(input:checked))" in css


def test_a_platform_is_read_as_the_accelerators_under_it(client: TestClient) -> None:
    # /decide and the matrix name platforms; figures name accelerators. Both are typed here.
    moved = client.get("/benchmarks?hardware=nvidia-datacenter", follow_redirects=False)
    assert moved.status_code == 303
    location = moved.headers["location"]
    assert "hardware=nvidia-h100-sxm5-80gb" in location and "nvidia-datacenter" not in location
    under = {v for k, v in parse_qsl(location.partition("?")[2]) if k == "hardware"}
    # The matrix's CUDA column is read the same way: the data-centre parts and the consumer ones.
    api = client.get("/api/v1/benchmarks?hardware=nvidia-cuda").json()["results"]
    cuda = {r["hardware"] for r in api}
    assert "nvidia-rtx-4090" in cuda and "nvidia-rtx-4090" not in under
    assert cuda - {"nvidia-rtx-4090"} <= under


def test_a_platform_without_accelerators_here_is_an_empty_result_not_a_422(
    client: TestClient,
) -> None:
    # The fixture seed lists no TPU: google-tpu is known (a platform), so nothing, not a refusal.
    page = client.get("/benchmarks?hardware=google-tpu")
    assert page.status_code == 200
    assert table_ids(soup_of(page)) == []
    assert client.get("/api/v1/benchmarks?hardware=google-tpu").status_code == 200


def test_an_empty_result_says_why_and_offers_the_nearest_filters_with_data(
    client: TestClient, engine: Engine
) -> None:
    with Session(engine) as session:
        used = {r.hardware_id for r in session.exec(select(BenchmarkResult))}
        unused = next(
            h for h in session.exec(select(Hardware)) if h.id not in used and not h.withdrawn
        )
    soup = soup_of(client.get(f"/benchmarks?hardware={unused.slug}&metric=throughput"))
    assert table_ids(soup) == []
    ways = {
        li.get_text(" ", strip=True).split(".")[0]: li for li in soup.select(".nearer-filters li")
    }
    # The metric is not what emptied it: without it there are still none.
    assert (
        "there are still none"
        in ways[
            "No result has metric Output throughput with the other filters as they are"
        ].get_text()
    )
    way = ways[f"No result has accelerator {unused.name} with the other filters as they are"]
    text = way.get_text(" ", strip=True)
    without = way.select_one("a")
    assert without["href"] == "/benchmarks?metric=throughput"
    # The count it gives is the page behind the link.
    shown = len(table_ids(soup_of(client.get(without["href"]))))
    assert f"({shown} results)" in text
    instead = way.select("a")[1:]
    assert 1 <= len(instead) <= 3
    for link in instead:
        assert table_ids(soup_of(client.get(link["href"])))


def test_a_bad_number_in_the_query_is_named_in_words(client: TestClient) -> None:
    page = client.get("/benchmarks?cmin=lots")
    assert page.status_code == 422
    banner = soup_of(page).select_one(".problem-banner").get_text(" ", strip=True)
    assert "Not a whole number; type one such as 1, 8 or 32" in banner
    assert "Input should" not in banner and "unable to parse" not in banner
    api = client.get("/api/v1/benchmarks?cmin=-3").json()
    assert "Too low: the lowest allowed is" in str(api) and "greater_than" not in str(api)


def test_a_service_level_says_it_cannot_use_published_figures(client: TestClient) -> None:
    plain = soup_of(client.get("/benchmarks?metric=throughput"))
    assert plain.select_one(".level-unused") is None
    assert plain.select_one("#level-scope")  # said where the level is set, before it is
    asked = soup_of(client.get("/benchmarks?metric=throughput&per_user=20&ttft_p99=500"))
    note = asked.select_one(".level-unused").get_text(" ", strip=True)
    # Published figures carry no per-user data: every one is listed unchanged and counted.
    assert table_ids(asked) == table_ids(plain)
    assert f"could not apply to {len(table_ids(plain))} published figures" in note
    assert asked.select_one(".level-unused a")["href"] in (
        "#team_sweeps",
        "/benchmarks?origin=team",
    )
    priced = soup_of(client.get("/benchmarks?metric=throughput&price=2.5"))
    assert "The price could not apply" in priced.select_one(".level-unused").get_text(
        " ", strip=True
    )
