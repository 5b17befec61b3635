"""The issue-23 scenario end to end, by HTTP and the API: two team sweeps on one H100, read at
per_user=50 and checked against the hand calculation in tests/team/level_scenario.py."""

from collections.abc import Callable
from typing import Any

import pytest
from bs4 import BeautifulSoup
from fastapi.testclient import TestClient
from sqlalchemy import Engine

from tests.team import html
from tests.team import level_scenario as sc
from tests.team.test_sweeps_http import confirm
from tests.team.test_write_api import token_for


@pytest.fixture(scope="module")
def imported(accounts_app: Any, accounts_engine: Engine) -> dict[str, str]:
    editor = TestClient(accounts_app, headers=token_for(accounts_engine, "eddie"))
    return {
        name: confirm(editor, name, sc.sweep_file(loads), **sc.CONTEXT, **given)
        for name, loads, given in sc.FILES
    }


@pytest.fixture
def anonymous(clients: Callable[..., TestClient], imported: dict[str, str]) -> TestClient:
    return clients()


def curves(client: TestClient, query: str) -> dict[str, dict[str, Any]]:
    response = client.get(f"/api/v1/sweeps?model={sc.LLAMA}&{query}")
    assert response.status_code == 200, response.text
    [chart] = response.json()["charts"]
    return {f"{c['system']} {c['system_version']}": c for c in chart["curves"]}


def test_at_per_user_50_the_api_matches_the_hand_calculation(anonymous: TestClient) -> None:
    found = curves(anonymous, "per_user=50")
    new, old, sglang = found["vllm 0.11.2"], found["vllm 0.10.1"], found["sglang 0.5.2"]
    assert new["at_level"]["per_gpu"] == pytest.approx(sc.VLLM_NEW_AT_50)
    assert new["at_level"]["reached"] is True
    assert new["at_level"]["between"] == ["64 concurrent", "32 concurrent"]
    assert old["at_level"]["per_gpu"] == pytest.approx(sc.VLLM_OLD_AT_50)
    assert sglang["at_level"]["per_gpu"] == pytest.approx(sc.SGLANG_AT_50)
    # Ranked within the one hardware, model, precision and workload.
    ranks = {name: c["at_level"]["rank"] for name, c in found.items()}
    assert ranks == {"vllm 0.11.2": 1, "vllm 0.10.1": 2, "sglang 0.5.2": 3}
    # The repeated load's spread carries through the interpolation.
    assert new["at_level"]["per_gpu_low"] == pytest.approx(sc.VLLM_NEW_AT_50_LOW)
    assert new["at_level"]["per_gpu_high"] == pytest.approx(sc.VLLM_NEW_AT_50_HIGH)


def test_a_load_run_three_times_is_one_point_with_its_spread(anonymous: TestClient) -> None:
    new = curves(anonymous, "")["vllm 0.11.2"]
    assert new["at_level"] is None
    [c32] = [p for p in new["points"] if p["concurrency"] == 32]
    assert (c32["n"], c32["per_gpu"], c32["per_gpu_low"], c32["per_gpu_high"]) == (
        3,
        1800,
        1700,
        1950,
    )
    assert c32["spread"] == "min–max" and len(c32["runs"]) == 3
    assert c32["goodput"] == pytest.approx(1800 / 500)  # the file's goodput, kept (median)
    assert len(new["points"]) == 4


def test_goodput_is_a_level_a_hand_calculation_confirms(anonymous: TestClient) -> None:
    found = curves(anonymous, "goodput=80")
    new, sglang = found["vllm 0.11.2"], found["sglang 0.5.2"]
    assert new["at_level"]["per_gpu"] == pytest.approx(sc.VLLM_NEW_AT_GOODPUT_80)
    assert new["at_level"]["between"] == ["64 concurrent", "32 concurrent"]
    assert sglang["at_level"]["per_gpu"] == pytest.approx(sc.SGLANG_AT_GOODPUT_80)
    [c32] = [p for p in new["points"] if p["concurrency"] == 32]
    assert c32["goodput_share"] == pytest.approx(90.0)  # goodput / request throughput, median
    # Exactly a measured share (c=8 had every request within its targets): that load's figure.
    exact = curves(anonymous, "goodput=100")["vllm 0.11.2"]["at_level"]
    assert (exact["per_gpu"], exact["between"]) == (700, ["8 concurrent", "8 concurrent"])
    # With another target, the tighter one binds: per_user=50 alone gives 2133.33 > 2100.
    both = curves(anonymous, "goodput=80&per_user=50")["vllm 0.11.2"]["at_level"]
    assert both["per_gpu"] == pytest.approx(sc.VLLM_NEW_AT_GOODPUT_80)
    page = anonymous.get(f"/benchmarks?model={sc.LLAMA}&goodput=80")
    text = BeautifulSoup(page.text, "html.parser").get_text(" ", strip=True)
    assert "requests within the run's goodput targets ≥ 80 %" in text
    assert "only runs given the same targets compare on it" in text
    assert "2,100" in text
    # The same level through /compare's and /decide's twins.
    compared = anonymous.get("/api/v1/compare?s=vllm&s=sglang&goodput=80").json()
    [chart] = [c for c in compared["team_sweeps"]["charts"] if c["model"] == sc.LLAMA]
    by_name = {f"{c['system']} {c['system_version']}": c["at_level"] for c in chart["curves"]}
    assert by_name["vllm 0.11.2"]["per_gpu"] == pytest.approx(sc.VLLM_NEW_AT_GOODPUT_80)
    query = "hardware=nvidia-datacenter&priority=throughput&goodput=80"
    rows = {m["system"]: m for m in anonymous.get(f"/api/v1/recommend?{query}").json()["measured"]}
    assert rows["vllm"]["per_gpu"] == pytest.approx(sc.VLLM_NEW_AT_GOODPUT_80)
    assert rows["sglang"]["per_gpu"] == pytest.approx(sc.SGLANG_AT_GOODPUT_80)
    assert "goodput targets ≥ 80 %" in rows["vllm"]["basis"]


def axis_values(svg: Any) -> tuple[Callable[[float], float], Callable[[float], float]]:
    """From the chart's own tick labels: an x and a y in px back to the values they show."""

    def value(label: str) -> float:
        return float(label[:-1]) * 1000 if label.endswith("k") else float(label)

    ticks = svg.select("g.grid text.tick")
    xs = [(float(str(t["x"])), value(t.get_text())) for t in ticks if t["text-anchor"] == "middle"]
    # A y tick's label sits 4 px below its line.
    ys = [(float(str(t["y"])) - 4, value(t.get_text())) for t in ticks if t["text-anchor"] == "end"]

    def scale(pairs: list[tuple[float, float]]) -> Callable[[float], float]:
        (p0, v0), (p1, v1) = min(pairs), max(pairs)
        return lambda px: v0 + (px - p0) / (p1 - p0) * (v1 - v0)

    return scale(xs), scale(ys)


Marks = dict[str, tuple[float, float, list[str]]]


def level_chart(client: TestClient, query: str) -> tuple[Any, str, Marks]:
    """The scenario's sweep chart at a level: the svg, its caption, and each curve's
    interpolated point read back through the chart's ticks, with the labels beside it."""
    page = BeautifulSoup(client.get(f"/benchmarks?model={sc.LLAMA}&{query}").text, "html.parser")
    [svg] = [s for s in page.select("svg.chart-sweep") if s.select(".sweep-at-level")]
    caption = " ".join(t.get_text() for t in svg.select(".sweep-level-caption text"))
    x_of, y_of = axis_values(svg)
    marks = {}
    for mark in svg.select("g.sweep-at-level"):
        [ring], [title] = mark.select("circle"), mark.select("title")
        labels = [t.get_text() for t in mark.select("text.sweep-level-label")]
        point = x_of(float(str(ring["cx"]))), y_of(float(str(ring["cy"])))
        marks[title.get_text().split(" · ")[0]] = (*point, labels)
    return svg, caption, marks


def assert_at(marks: Marks, expected: dict[str, tuple[float, float]], label: str) -> None:
    assert set(marks) == set(expected)
    for name, (x, y) in expected.items():
        assert marks[name][0] == pytest.approx(x, abs=0.01), name
        assert marks[name][1] == pytest.approx(y, abs=0.5), name
        assert marks[name][2] == [label], name


def test_a_goodput_level_labels_each_curves_point_where_it_is_reached(
    anonymous: TestClient,
) -> None:
    # Goodput is on neither axis, so no level line: each curve's interpolated point says what
    # it marks, and a caption above the plot says why there is no line.
    svg, caption, marks = level_chart(anonymous, "goodput=80")
    assert not svg.select(".sweep-level line")
    assert "goodput ≥ 80% of requests, which neither axis shows" in caption
    assert "interpolated between two loads" in caption
    # By hand: every setup is at 80% halfway between c=64 (70%) and c=32 (90%).
    # vLLM 0.11.2: per user (40 + 62.5) / 2 = 51.25, per GPU (2400 + 1800) / 2 = 2100;
    # vLLM 0.10.1: 51.25 and (2000 + 1500) / 2 = 1750; SGLang: (31.25 + 50) / 2, 1750.
    expected = {
        "vLLM 0.11.2": (51.25, 2100),
        "vLLM 0.10.1": (51.25, 1750),
        "SGLang 0.5.2": (40.625, 1750),
    }
    assert_at(marks, expected, "80%")
    # With per_user=50 too, the per-user target binds for SGLang (1500 < 1750): its point is on
    # the per-user line, unlabelled; vLLM's are where goodput binds, labelled.
    svg, caption, marks = level_chart(anonymous, "goodput=80&per_user=50")
    assert len(svg.select(".sweep-level line")) == 1
    assert sorted(name for name, (*_, labels) in marks.items() if labels) == [
        "vLLM 0.10.1",
        "vLLM 0.11.2",
    ]
    assert "unlabelled: the dashed line" in caption
    # /compare draws the same chart.
    compared = anonymous.get("/compare?s=vllm&s=sglang&goodput=80").text
    labels = BeautifulSoup(compared, "html.parser").select("text.sweep-level-label")
    assert [t.get_text() for t in labels] == ["80%"] * 3
    # A per-user level alone keeps its line and draws no caption or labels.
    alone = BeautifulSoup(
        anonymous.get(f"/benchmarks?model={sc.LLAMA}&per_user=50").text, "html.parser"
    )
    assert not alone.select(".sweep-level-caption, .sweep-level-label")


def test_a_ttft_level_labels_each_curves_point_like_goodput(anonymous: TestClient) -> None:
    # p99 TTFT is on neither axis either: no line, a caption naming the level, and each
    # curve's point at the hand-computed place (level_scenario.AT_TTFT_500) labelled "≤500 ms".
    svg, caption, marks = level_chart(anonymous, "ttft_p99=500")
    assert not svg.select(".sweep-level line")
    assert "level: p99 time to first token ≤ 500 ms, which neither axis shows" in caption
    assert "“≤500 ms” marks where a curve reaches it, interpolated between two loads" in caption
    assert_at(marks, sc.AT_TTFT_500, "≤500 ms")
    # The point's own title says which target put it there.
    title = svg.select("g.sweep-at-level title")[0].get_text()
    assert "64 concurrent and 32 concurrent, where p99 TTFT is 500 ms" in title
    # The svg's description carries the caption, its abbreviations intact.
    assert "Level: p99 time to first token ≤ 500 ms" in svg.select("desc")[0].get_text()
    # With per_user=45 too: for vLLM TTFT still binds (45 tok/s/user would allow 2,266.67 and
    # 1,888.89 > 2,175 and 1,812.5); for SGLang per_user does (2000 - (13.75 / 18.75) * 500 =
    # 1,633.33 < 1,812.5), so its point is on the line at x = 45, unlabelled.
    svg, caption, marks = level_chart(anonymous, "ttft_p99=500&per_user=45")
    assert len(svg.select(".sweep-level line")) == 1
    *sglang, labels = marks["SGLang 0.5.2"]
    assert sglang == pytest.approx([45, 2000 - 13.75 / 18.75 * 500], abs=0.5) and labels == []
    assert [marks[v][2] for v in ("vLLM 0.11.2", "vLLM 0.10.1")] == [["≤500 ms"]] * 2
    assert "each cross is at its curve's tightest target (unlabelled: the dashed line)" in caption
    # TTFT and TPOT together: both in ms, so each label names its target. p99 TPOT is 1.5x the
    # mean: SGLang meets 40 ms between c=64 (48) and c=32 (30), 2000 - (8 / 18) * 500 = 1,777.8
    # < 1,812.5, so TPOT binds; vLLM meets it between c=128 (60) and c=64 (37.5) at 2,466.7 and
    # 2,055.6, above its TTFT figures, so TTFT binds.
    svg, caption, marks = level_chart(anonymous, "ttft_p99=500&tpot_p99=40")
    assert {name: labels for name, (*_, labels) in marks.items()} == {
        "vLLM 0.11.2": ["TTFT ≤500 ms"],
        "vLLM 0.10.1": ["TTFT ≤500 ms"],
        "SGLang 0.5.2": ["TPOT ≤40 ms"],
    }
    assert "level: p99 TTFT ≤ 500 ms and p99 TPOT ≤ 40 ms, which neither axis shows" in caption
    assert "each label marks where a curve reaches it" in caption


@pytest.mark.parametrize("value", ["0", "101", "most"])
def test_a_goodput_level_outside_0_to_100_is_a_422_naming_the_field(
    anonymous: TestClient, value: str
) -> None:
    response = anonymous.get(f"/api/v1/sweeps?goodput={value}")
    assert response.status_code == 422
    assert "goodput" in response.text


def test_out_of_reach_is_said_with_the_nearest_point(anonymous: TestClient) -> None:
    found = curves(anonymous, "per_user=150")["sglang 0.5.2"]["at_level"]
    assert (found["reached"], found["per_gpu"], found["between"]) == (False, None, None)
    assert found["note"] == "not reached at this level"
    assert found["nearest"]["load"] == "8 concurrent"


def test_the_page_marks_the_level_and_the_interpolated_points(anonymous: TestClient) -> None:
    response = anonymous.get(f"/benchmarks?model={sc.LLAMA}&per_user=50")
    assert response.status_code == 200
    page = BeautifulSoup(response.text, "html.parser")
    sweeps = page.select_one("section#team_sweeps")
    assert sweeps is not None
    assert "≥ 50 tok/s/user" in sweeps.get_text()
    assert len(sweeps.select(".sweep-level line")) == 1
    assert len(sweeps.select(".sweep-at-level")) == 3  # one interpolated point per curve
    rows = [r.get_text(" ", strip=True) for r in sweeps.select("tr.sweep-at-level-row")]
    assert any("2,133" in r and "64 concurrent and 32 concurrent" in r for r in rows)
    assert "goodput 3.60 req/s" in sweeps.get_text()
    # Error bars for the repeated load.
    assert len(sweeps.select(".sweep-error")) == 1
    form = page.select_one("form#benchmark-form input[name=per_user]")
    assert form is not None and form.get("value") == "50"


def test_a_price_gives_costs_per_million_tokens_and_none_without(
    clients: Callable[..., TestClient], accounts_engine: Engine, imported: dict[str, str]
) -> None:
    anonymous = clients()
    before = curves(anonymous, "per_user=50")["vllm 0.11.2"]
    assert before["price"] is None and before["at_level"]["cost_per_million_output_tokens"] is None
    unpriced = html.page(anonymous.get(f"/benchmarks?model={sc.LLAMA}")).select_one(".sweep-prices")
    assert unpriced.select_one("a")["href"] == f"/hardware/{sc.H100_SLUG}#price"
    assert all(p["cost_per_million_output_tokens"] is None for p in before["points"])
    body = {"usd_per_gpu_hour": sc.PRICE, "basis": "on-demand list price, example cloud, 2026-11"}
    viewer = TestClient(anonymous.app, headers=token_for(accounts_engine, "vera"))
    assert viewer.put(f"/api/v1/hardware/{sc.H100_SLUG}/price", json=body).status_code == 403
    editor = TestClient(anonymous.app, headers=token_for(accounts_engine, "eddie"))
    assert editor.put("/api/v1/hardware/no-such-gpu/price", json=body).status_code == 404
    assert (
        editor.put(
            f"/api/v1/hardware/{sc.H100_SLUG}/price", json={**body, "usd_per_gpu_hour": 0}
        ).status_code
        == 422
    )
    saved = editor.put(f"/api/v1/hardware/{sc.H100_SLUG}/price", json=body)
    assert saved.status_code == 200 and saved.json()["usd_per_gpu_hour"] == sc.PRICE
    # Read as the editor: an anonymous page may be served from the cache until it polls.
    after = curves(editor, "per_user=50")["vllm 0.11.2"]
    assert after["price"]["basis"] == body["basis"]
    assert after["at_level"]["cost_per_million_output_tokens"] == pytest.approx(sc.VLLM_NEW_COST)
    # Per load too, and per million total tokens (the files' total is 3x the output here).
    [c64] = [p for p in after["points"] if p["concurrency"] == 64]
    assert c64["cost_per_million_output_tokens"] == pytest.approx(2.49 / (2400 * 3600) * 1e6)
    assert c64["cost_per_million_total_tokens"] == pytest.approx(2.49 / (7200 * 3600) * 1e6)
    # The price= override, only with one hardware filtered.
    url = curves(editor, f"per_user=50&hardware={sc.H100_SLUG}&price=4.98")["vllm 0.11.2"]
    assert url["at_level"]["cost_per_million_output_tokens"] == pytest.approx(2 * sc.VLLM_NEW_COST)
    # Kept in the history.
    history = editor.get("/api/v1/changes?kind=hardware_price")
    assert history.status_code == 200 and sc.H100_SLUG in history.text
    changes = editor.get("/changes?kind=hardware_price")
    assert changes.status_code == 200 and "2.49" in changes.text
    page = editor.get(f"/benchmarks?model={sc.LLAMA}&per_user=50")
    text = BeautifulSoup(page.text, "html.parser").get_text(" ", strip=True)
    assert "$0.324 per M output tokens" in text and "× 3600" in text

    # The accelerator's page: editors change the price in a form (issue 37), errors in words.
    signed_in = clients("eddie")
    form = f"/hardware/{sc.H100_SLUG}/price"
    shown = html.page(signed_in.get(f"/hardware/{sc.H100_SLUG}"))
    assert shown.select_one("#hp-usd_per_gpu_hour")["value"] == "2.49"
    assert "$2.49" in shown.select_one(".price-now").get_text()
    assert clients("vera").post(form, data=body, headers=html.SAME_ORIGIN).status_code == 403
    refused = html.post(signed_in, form, {"usd_per_gpu_hour": "cheap", "basis": "x"})
    assert refused.status_code == 422
    assert html.field_notes(html.page(refused)) == {
        "hp-usd_per_gpu_hour": "Not a number; type dollars per GPU-hour such as 2.49.",
        "hp-basis": "Say where the price comes from (3 to 300 characters): provider, "
        "on-demand or reserved, and the date.",
    }
    assert html.page(refused).select_one("#hp-usd_per_gpu_hour")["value"] == "cheap"
    zero = html.post(signed_in, form, {"usd_per_gpu_hour": "0", "basis": body["basis"]})
    assert html.field_notes(html.page(zero))["hp-usd_per_gpu_hour"].startswith("Out of range")
    assert curves(editor, "per_user=50")["vllm 0.11.2"]["price"]["usd_per_gpu_hour"] == sc.PRICE
    moved = html.post(signed_in, form, {"usd_per_gpu_hour": "$4.98", "basis": "reserved, 2026-12"})
    assert moved.status_code == 303 and moved.headers["location"].endswith("#price")
    doubled = curves(editor, "per_user=50")["vllm 0.11.2"]
    assert doubled["price"]["basis"] == "reserved, 2026-12"
    cost = doubled["at_level"]["cost_per_million_output_tokens"]
    assert cost == pytest.approx(2 * sc.VLLM_NEW_COST)
    assert "$4.98" in html.page(signed_in.get(f"/hardware/{sc.H100_SLUG}")).get_text()
    assert editor.get("/api/v1/changes?kind=hardware_price").text.count(sc.H100_SLUG) >= 2
    # Anyone may try a price for one link: the filter form carries it.
    tried = html.page(anonymous.get(f"/benchmarks?hardware={sc.H100_SLUG}&price=1.5"))
    assert tried.select_one("input[name=price]")["value"] == "1.5"
    assert tried.select_one("input[name=price]")["aria-describedby"] == "price-scope"


def test_versions_make_a_timeline_with_its_flag(anonymous: TestClient) -> None:
    response = anonymous.get(f"/api/v1/sweeps?model={sc.LLAMA}&per_user=50")
    [vllm] = [t for t in response.json()["timelines"] if t["system"] == "vllm"]
    assert [e["version"] for e in vllm["entries"]] == ["0.10.1", "0.11.2"]
    newer = vllm["entries"][1]
    # +20% (1777.78 -> 2133.33) is wider than the spread at the level (c=32 run three times).
    assert newer["change"] == pytest.approx(sc.VLLM_NEW_AT_50 / sc.VLLM_OLD_AT_50 - 1)
    assert newer["flag"] == "improvement" and newer["n"] == 1
    assert vllm["note"] == ""
    [sglang] = [t for t in response.json()["timelines"] if t["system"] == "sglang"]
    assert sglang["note"] == "measured in one version only; a timeline needs two"
    # Without a level: the heaviest load both versions ran (128), 2500 -> 3000, +20%.
    plain = anonymous.get(f"/api/v1/sweeps?model={sc.LLAMA}").json()["timelines"]
    [vllm] = [t for t in plain if t["system"] == "vllm"]
    assert vllm["basis"].startswith("at 128 concurrent")
    assert vllm["entries"][1]["change"] == pytest.approx(0.2)
    # The system page shows it; /benchmarks too.
    page = BeautifulSoup(anonymous.get("/systems/vllm").text, "html.parser")
    versions = page.select_one("section#versions")
    assert versions is not None and "Improvement" in versions.get_text()
    bench = BeautifulSoup(anonymous.get(f"/benchmarks?model={sc.LLAMA}").text, "html.parser")
    assert "Improvement" in bench.select_one("section#team_sweeps").get_text()  # type: ignore[union-attr]


def test_decide_weighs_the_team_measurements_and_cites_them(anonymous: TestClient) -> None:
    query = "hardware=nvidia-datacenter&priority=throughput"
    plain = anonymous.get(f"/api/v1/recommend?{query}").json()
    at_50 = anonymous.get(f"/api/v1/recommend?{query}&per_user=50").json()
    rows = {m["system"]: m for m in at_50["measured"]}
    assert rows["vllm"]["per_gpu"] == pytest.approx(sc.VLLM_NEW_AT_50)
    assert rows["vllm"]["weight"] == 2.0
    assert rows["sglang"]["weight"] == pytest.approx(
        2.0 * sc.SGLANG_AT_50 / sc.VLLM_NEW_AT_50, abs=0.01
    )
    assert "at per-user throughput ≥ 50 tok/s/user" in rows["vllm"]["basis"]
    assert at_50["measured_weight"].startswith("The team's own sweeps")
    picks = {p["slug"]: p for p in at_50["ranked"]}
    [reason] = [r for r in picks["vllm"]["reasons"] if r["rule"] == "team-measurement"]
    assert reason["source"].startswith("import-") and "2,133 tok/s per GPU" in reason["text"]
    # Each measured system gains exactly its measured weight over the same answers' scores
    # without a level (where the best measured load is read instead).
    assert picks["vllm"]["score"] > 0 and plain["measured"]
    page = BeautifulSoup(anonymous.get(f"/decide?{query}&per_user=50").text, "html.parser")
    measured = page.select_one("section#measured")
    assert measured is not None and "2,133" in measured.get_text()
    assert page.select_one("form.decide-level input[name=per_user]").get("value") == "50"  # type: ignore[union-attr]


def test_compare_and_the_benchmarks_api_read_the_level_too(anonymous: TestClient) -> None:
    compared = anonymous.get("/api/v1/compare?s=vllm&s=sglang&per_user=50").json()
    [chart] = [c for c in compared["team_sweeps"]["charts"] if c["model"] == sc.LLAMA]
    found = {
        f"{c['system']} {c['system_version']}": c["at_level"]["per_gpu"] for c in chart["curves"]
    }
    assert found["vllm 0.11.2"] == pytest.approx(sc.VLLM_NEW_AT_50)
    assert anonymous.get("/api/v1/compare?s=vllm&s=sglang").json()["team_sweeps"] is None
    page = BeautifulSoup(anonymous.get("/compare?s=vllm&s=sglang&per_user=50").text, "html.parser")
    assert "2,133" in page.select_one("section#team_sweeps").get_text()  # type: ignore[union-attr]
    bench = anonymous.get(f"/api/v1/benchmarks?model={sc.LLAMA}&per_user=50").json()
    [chart] = bench["team_sweeps"]["charts"]
    assert {c["at_level"]["rank"] for c in chart["curves"]} == {1, 2, 3}


@pytest.mark.parametrize(
    "url",
    [
        "/benchmarks?per_user=50",
        "/api/v1/sweeps?per_user=50",
        "/decide?hardware=nvidia-datacenter&priority=throughput&per_user=50",
        "/compare?s=vllm&s=sglang&per_user=50",
    ],
)
def test_the_level_urls_are_canonical(anonymous: TestClient, url: str) -> None:
    """`make bench` measures these: each answers itself, never a redirect."""
    assert anonymous.get(url, follow_redirects=False).status_code == 200
