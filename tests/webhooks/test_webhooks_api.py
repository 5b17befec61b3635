"""The webhooks API and the deliveries it leads to, received by a real local HTTP server."""

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine

from app.webhooks.sender import Sender
from tests.webhooks.conftest import Clock, run_round
from tests.webhooks.receiver import receiving

pytestmark = pytest.mark.database

SECRET = "a-receiver-secret-of-some-length"
RESULT = {
    "system": "vllm",
    "metric": "throughput",
    "value": 2450,
    "unit": "tok/s",
    "hardware": "H100 SXM",
    "gpus": 1,
    "model": "Llama 3.1 8B",
    "precision": "fp16",
    "concurrency": 32,
    "workload": "online serving",
    "setup": "chat, 1k in / 256 out",
    "system_version": "0.11.0",
    "date": "2026-11-20",
}
Users = Callable[[str], TestClient]


def sender(engine: Engine, clock: Clock, **options: Any) -> Sender:
    values: dict[str, Any] = {"public_base": "https://atlas.example.com", "allow_private": True}
    return Sender(engine, clock=clock, **(values | options))


def register(as_user: Users, url: str, **fields: Any) -> dict[str, Any]:
    response = as_user("ada").post("/api/v1/webhooks", json={"url": url} | fields)
    assert response.status_code == 201, response.text
    return response.json()


def remove_all(as_user: Users) -> None:
    for hook in as_user("ada").get("/api/v1/webhooks").json():
        as_user("ada").delete(f"/api/v1/webhooks/{hook['id']}")


def test_only_admins_manage_webhooks(as_user: Users, hooks_app: Any) -> None:
    body = {"url": "https://hooks.example.com/x"}
    assert as_user("eddie").post("/api/v1/webhooks", json=body).status_code == 403
    assert as_user("vera").get("/api/v1/webhooks").status_code == 403
    assert TestClient(hooks_app).get("/api/v1/webhooks").status_code == 401


def test_a_made_secret_is_shown_once_and_never_again(as_user: Users) -> None:
    made = register(as_user, "https://hooks.example.com/made")
    assert len(made["secret"]) >= 32
    again = as_user("ada").get(f"/api/v1/webhooks/{made['id']}")
    assert "secret" not in again.json() and made["secret"] not in again.text
    listed = as_user("ada").get("/api/v1/webhooks")
    assert made["secret"] not in listed.text
    given = register(as_user, "https://hooks.example.com/given", secret=SECRET)
    assert given["secret"] is None
    rotated = as_user("ada").patch(f"/api/v1/webhooks/{given['id']}", json={"rotate_secret": True})
    assert rotated.status_code == 200 and len(rotated.json()["secret"]) >= 32
    remove_all(as_user)


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        ({"url": "ftp://hooks.example.com/"}, "url", "http:// or https://"),
        ({"url": "https://user:pw@hooks.example.com/"}, "url", "user name or password"),
        (
            {"url": "https://hooks.example.com/", "events": ["claim.exploded"]},
            "events",
            "claim.updated",
        ),
        ({"url": "https://hooks.example.com/", "events": []}, "events", "at least one"),
    ],
)
def test_a_bad_receiver_is_refused_naming_the_field(
    as_user: Users, body: dict[str, Any], field: str, words: str
) -> None:
    response = as_user("ada").post("/api/v1/webhooks", json=body)
    assert response.status_code == 422
    problems = {p["field"]: p["message"] for p in response.json()["detail"]}
    assert words in problems[field]


def test_a_change_reaches_the_receiver_signed_with_its_revisions(
    as_user: Users, hooks_engine: Engine
) -> None:
    with receiving(SECRET) as receiver:
        hook = register(as_user, receiver.url, events=["result.created"], secret=SECRET)
        saved = as_user("eddie").post("/api/v1/benchmarks", json=RESULT)
        assert saved.status_code == 201, saved.text
        assert run_round(sender(hooks_engine, Clock())) == 1
    (got,) = receiver.received
    assert got.signed
    assert got.headers["x-atlas-event"] == "result.created"
    assert got.headers["content-type"] == "application/json"
    payload = got.json
    assert payload["actor"] == "eddie" and payload["revision_count"] == 1
    (revision,) = payload["revisions"]
    assert revision["event"] == "result.created" and revision["before"] is None
    assert revision["after"]["value"] == 2450 and revision["system"] == "vllm"
    assert revision["link"].startswith("https://atlas.example.com/benchmarks?system=vllm#result-")
    log = as_user("ada").get(f"/api/v1/webhooks/{hook['id']}/deliveries").json()
    assert [(d["id"], d["status"], d["last_code"]) for d in log] == [
        (got.headers["x-atlas-delivery"], "delivered", 200)
    ]
    remove_all(as_user)


def test_a_receiver_is_sent_only_the_events_it_asked_for(
    as_user: Users, hooks_engine: Engine
) -> None:
    with receiving(SECRET) as receiver:
        register(as_user, receiver.url, events=["claim.updated"], secret=SECRET)
        assert as_user("eddie").post("/api/v1/benchmarks", json=RESULT).status_code == 201
        assert run_round(sender(hooks_engine, Clock())) == 0
    assert receiver.received == []
    remove_all(as_user)


def test_a_failing_receiver_is_retried_on_the_schedule(
    as_user: Users, hooks_engine: Engine
) -> None:
    with receiving(SECRET, answers=[500, 503]) as receiver:
        hook = register(as_user, receiver.url, secret=SECRET)
        assert as_user("ada").post(f"/api/v1/webhooks/{hook['id']}/test").status_code == 202
        clock = Clock()
        assert run_round(sender(hooks_engine, clock)) == 1  # 500
        clock.advance(9)
        assert run_round(sender(hooks_engine, clock)) == 0  # not yet: the first wait is 10 s
        clock.advance(1)
        assert run_round(sender(hooks_engine, clock)) == 1  # 503
        clock.advance(29)
        assert run_round(sender(hooks_engine, clock)) == 0
        clock.advance(1)
        assert run_round(sender(hooks_engine, clock)) == 1  # 200, 40 s after the first try
    assert [r.headers["x-atlas-event"] for r in receiver.received] == ["ping"] * 3
    assert len({r.headers["x-atlas-delivery"] for r in receiver.received}) == 1
    assert all(r.signed for r in receiver.received)
    (delivery,) = as_user("ada").get(f"/api/v1/webhooks/{hook['id']}/deliveries").json()
    assert delivery["status"] == "delivered" and delivery["attempts"] == 3
    assert [a["code"] for a in delivery["log"]] == [500, 503, 200]
    remove_all(as_user)


def test_a_receiver_that_never_answers_fails_after_a_day(
    as_user: Users, hooks_engine: Engine
) -> None:
    with receiving(SECRET) as receiver:
        dead = receiver.url  # the port is closed once the server stops
    hook = register(as_user, dead, secret=SECRET)
    as_user("ada").post(f"/api/v1/webhooks/{hook['id']}/test")
    clock = Clock()  # made after the delivery was filed: it is due at once
    tries = 0
    while run_round(sender(hooks_engine, clock)):
        tries += 1
        clock.advance(8 * 3600)  # past any wait
    (delivery,) = as_user("ada").get(f"/api/v1/webhooks/{hook['id']}/deliveries").json()
    assert delivery["status"] == "failed" and delivery["attempts"] == tries == 12
    assert delivery["last_code"] is None and "Connect" in delivery["last_error"]
    remove_all(as_user)


def test_a_private_receiver_is_refused_unless_allowed(as_user: Users, hooks_url: str) -> None:
    from tests.accounts.conftest import build_app
    from tests.webhooks.conftest import token_for

    app = build_app(hooks_url, atlas_webhooks_send=False)
    from app.db import make_engine

    engine = make_engine(hooks_url)
    with TestClient(app, headers=token_for(engine, "ada")) as client:
        for url in (
            "http://127.0.0.1:9/",
            "http://10.1.2.3/",
            "http://169.254.169.254/",
            "http://[::1]/",
            "http://localhost/",
            "http://[::ffff:192.168.1.1]/",
        ):
            response = client.post("/api/v1/webhooks", json={"url": url})
            assert response.status_code == 422, url
            (problem,) = response.json()["detail"]
            assert problem["field"] == "url"
            assert "ATLAS_WEBHOOKS_ALLOW_PRIVATE" in problem["message"]
    engine.dispose()


def test_removing_a_receiver_stops_its_deliveries(as_user: Users, hooks_engine: Engine) -> None:
    hook = register(as_user, "https://hooks.example.com/gone", secret=SECRET)
    as_user("ada").post(f"/api/v1/webhooks/{hook['id']}/test")
    assert as_user("ada").delete(f"/api/v1/webhooks/{hook['id']}").status_code == 204
    assert as_user("ada").get(f"/api/v1/webhooks/{hook['id']}").status_code == 404
    assert run_round(sender(hooks_engine, Clock())) == 0


# Every state-changing webhook route, for tests/team/test_every_write_route.py; an id no
# receiver has is a real answer past the role check (404), an empty body too (422).
WRITES = [
    ("post", "/api/v1/webhooks", 422),
    ("patch", "/api/v1/webhooks/999999", 404),
    ("delete", "/api/v1/webhooks/999999", 404),
    ("post", "/api/v1/webhooks/999999/test", 404),
]


@pytest.mark.parametrize(("method", "path", "admin_status"), WRITES)
def test_webhook_writes_are_for_admins_alone(
    as_user: Users, hooks_app: Any, method: str, path: str, admin_status: int
) -> None:
    body = {} if method != "delete" else None
    anonymous = TestClient(hooks_app).request(method, path, json=body)
    assert anonymous.status_code == 401
    for who in ("vera", "eddie"):
        assert as_user(who).request(method, path, json=body).status_code == 403
    assert as_user("ada").request(method, path, json=body).status_code == admin_status
