"""/metrics: requests by route template and status, latency, caches, data version, errors."""

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from tests.accounts.conftest import build_app
from tests.ops.conftest import label_values, scrape, value

REQUESTS = "atlas_http_requests_total"


def test_requests_are_counted_by_route_template_and_status(ops_client: TestClient) -> None:
    before = scrape(ops_client)
    assert ops_client.get("/systems/vllm").status_code == 200
    assert ops_client.get("/systems/sglang").status_code == 200
    assert ops_client.get("/systems/no-such-system").status_code == 404
    after = scrape(ops_client)

    def grew(status: str) -> float:
        labels = {"route": "/systems/{slug}", "method": "GET", "status": status}
        return value(after, REQUESTS, **labels) - value(before, REQUESTS, **labels)

    assert (grew("200"), grew("404")) == (2, 1)
    # The template, never the path asked for.
    assert not {r for r in label_values(after, REQUESTS, "route") if "vllm" in r or "no-such" in r}


def test_unknown_paths_share_one_label(ops_client: TestClient) -> None:
    ops_client.get("/no/such/page")
    before = scrape(ops_client)
    for i in range(5):
        assert ops_client.get(f"/no/such/page/{i}").status_code == 404
    after = scrape(ops_client)
    labels = {"route": "unmatched", "method": "GET", "status": "404"}
    assert value(after, REQUESTS, **labels) - value(before, REQUESTS, **labels) == 5
    assert label_values(after, REQUESTS, "route") == label_values(before, REQUESTS, "route")


def test_head_static_and_odd_methods_keep_bounded_labels(ops_client: TestClient) -> None:
    before = scrape(ops_client)
    assert ops_client.head("/healthz").status_code == 200
    assert ops_client.get("/static/css/app.css").status_code == 200
    assert ops_client.request("BREW", "/matrix").status_code == 405
    after = scrape(ops_client)
    for labels in (
        {"route": "/healthz", "method": "HEAD", "status": "200"},
        {"route": "/static", "method": "GET", "status": "200"},
        {"route": "/matrix", "method": "other", "status": "405"},
    ):
        assert value(after, REQUESTS, **labels) - value(before, REQUESTS, **labels) == 1, labels
    assert "BREW" not in label_values(after, REQUESTS, "method")


def test_latency_is_a_histogram_by_route(ops_client: TestClient) -> None:
    name = "atlas_http_request_duration_seconds"
    before = scrape(ops_client)
    ops_client.get("/sources")
    after = scrape(ops_client)
    count = value(after, f"{name}_count", route="/sources") - value(
        before, f"{name}_count", route="/sources"
    )
    assert count == 1
    assert value(after, f"{name}_bucket", route="/sources", le="+Inf") >= 1
    assert value(after, f"{name}_sum", route="/sources") > 0


def test_render_cache_hits_and_misses_are_counted(ops_client: TestClient) -> None:
    name = "atlas_cache_lookups_total"
    url = "/matrix?q=vllm&metrics-test=1"  # a key no other test asks for
    before = scrape(ops_client)
    ops_client.get(url)
    middle = scrape(ops_client)
    ops_client.get(url)
    after = scrape(ops_client)
    hits = [value(s, name, cache="render", result="hit") for s in (before, middle, after)]
    misses = [value(s, name, cache="render", result="miss") for s in (before, middle, after)]
    assert (misses[1] - misses[0], hits[1] - hits[0]) == (1, 0)
    assert (misses[2] - misses[1], hits[2] - hits[1]) == (0, 1)
    assert value(after, "atlas_cache_bytes", cache="render") > 0


def test_data_version_and_database_read_age(ops_client: TestClient) -> None:
    samples = scrape(ops_client)
    version = ops_client.app.state.fresh_version.value  # type: ignore[attr-defined]
    assert value(samples, "atlas_data_version_info", version=version) == 1
    assert 0 <= value(samples, "atlas_database_read_age_seconds") < 15


def test_database_errors_are_counted(ops_client: TestClient) -> None:
    def errors() -> float:
        return sum(
            v for (n, _), v in scrape(ops_client).items() if n == "atlas_database_errors_total"
        )

    before = errors()
    engine = ops_client.app.state.engine  # type: ignore[attr-defined]
    with pytest.raises(DBAPIError), engine.connect() as connection:
        connection.execute(text("SELECT * FROM no_such_table"))
    assert errors() - before == 1


def test_process_metrics_and_prometheus_formats(ops_client: TestClient) -> None:
    plain = ops_client.get("/metrics")
    assert plain.headers["content-type"].startswith("text/plain; version=0.0.4")
    assert plain.headers["cache-control"] == "no-store"
    assert "process_resident_memory_bytes" in plain.text
    open_metrics = ops_client.get("/metrics", headers={"Accept": "application/openmetrics-text"})
    assert open_metrics.headers["content-type"].startswith("application/openmetrics-text")
    assert open_metrics.text.endswith("# EOF\n")


@pytest.fixture(scope="module")
def token_client(ops_url: str):
    app = build_app(ops_url, atlas_metrics_token="scrape-me-please-0123456789")
    with TestClient(app) as client:
        yield client


def test_a_metrics_token_is_required_once_set(token_client: TestClient, ada_token: str) -> None:
    assert token_client.get("/metrics").status_code == 401
    assert token_client.get("/metrics").headers["www-authenticate"].startswith("Bearer")
    wrong = {"Authorization": "Bearer scrape-me-please-012345678"}
    assert token_client.get("/metrics", headers=wrong).status_code == 401
    # A user's API token is not the metrics token: scrapers get a credential of their own.
    user = {"Authorization": f"Bearer {ada_token}"}
    assert token_client.get("/metrics", headers=user).status_code == 401
    right = {"Authorization": "Bearer scrape-me-please-0123456789"}
    assert "atlas_http_requests_total" in token_client.get("/metrics", headers=right).text


def test_a_private_instance_keeps_metrics_from_anonymous_callers(ops_url: str) -> None:
    private = build_app(ops_url, atlas_public_read=False)
    with TestClient(private) as client:
        refused = client.get("/metrics")
        assert refused.status_code == 403 and "ATLAS_METRICS_TOKEN" in refused.text
    with_token = build_app(ops_url, atlas_public_read=False, atlas_metrics_token="t" * 40)
    with TestClient(with_token) as client:
        allowed = client.get("/metrics", headers={"Authorization": "Bearer " + "t" * 40})
        assert allowed.status_code == 200


def test_metrics_keep_the_host_check(ops_client: TestClient) -> None:
    assert ops_client.get("/metrics", headers={"Host": "evil.example"}).status_code == 400
