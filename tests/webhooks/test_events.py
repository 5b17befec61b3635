"""What a delivery says and when it is retried (pure), and which addresses are refused."""

import hashlib
import hmac
import json
from datetime import UTC, datetime, timedelta

import pytest

from app.webhooks.addresses import RefusedAddressError, check_addresses, refusal, url_problem
from app.webhooks.events import (
    MAX_BODY_BYTES,
    MAX_REVISIONS,
    RETRY_DELAYS,
    body,
    build_payload,
    event_name,
    retry_at,
    signature,
    wants,
)

AT = datetime(2026, 12, 6, 3, 0, tzinfo=UTC)


def revision(key: str, actor: str = "eddie", **extra: object) -> dict[str, object]:
    return {
        "actor": actor,
        "entity": "benchmark_result",
        "key": key,
        "action": "create",
        "at": AT,
        "before": None,
        "after": {"v": 1},
    } | extra


def test_event_names_read_as_entity_and_past_action() -> None:
    assert event_name("benchmark_result", "create") == "result.created"
    assert event_name("claim", "withdraw") == "claim.withdrawn"
    assert wants(["*"], ["x.y"]) and wants(["a.b", "x.y"], ["x.y"]) and not wants(["a.b"], ["x.y"])


def test_the_signature_is_the_hmac_of_the_body() -> None:
    content = b'{"a":1}'
    expected = hmac.new(b"s3cret", content, hashlib.sha256).hexdigest()
    assert signature("s3cret", content) == f"sha256={expected}"


def test_three_retries_in_two_minutes_then_about_a_day_then_failed() -> None:
    assert sum(RETRY_DELAYS[:3], timedelta()) <= timedelta(minutes=2)
    assert timedelta(hours=23) < sum(RETRY_DELAYS, timedelta()) <= timedelta(hours=24)
    assert retry_at(1, AT) == AT + timedelta(seconds=10)
    assert retry_at(len(RETRY_DELAYS) + 1, AT) is None


def test_a_big_transaction_is_cut_and_a_named_one_keeps_its_name() -> None:
    many = [revision(f"r{i}") for i in range(MAX_REVISIONS + 5)]
    payload = build_payload(
        "k", many, ("import.confirmed", {"import": "i1", "link": "/imports/i1"}), "seed"
    )
    assert payload["event"] == "import.confirmed"
    assert payload["events"] == ["import.confirmed", "result.created"]
    assert len(payload["revisions"]) == MAX_REVISIONS and payload["truncated"]
    assert payload["revision_count"] == MAX_REVISIONS + 5
    sent = json.loads(body(payload, "https://a.example", lambda r: f"/x/{r['key']}"))
    assert sent["subject"]["link"] == "https://a.example/imports/i1"
    assert sent["revisions"][0]["link"] == "https://a.example/x/r0"


def test_a_body_over_the_limit_drops_the_documents() -> None:
    huge = revision("r1", after={"text": "x" * MAX_BODY_BYTES})
    sent = json.loads(body(build_payload("k", [huge], None, "seed"), "https://a", lambda r: None))
    assert sent["truncated"] and "after" not in sent["revisions"][0]


@pytest.mark.parametrize(
    ("address", "kind"),
    [
        ("127.0.0.1", "loopback"),
        ("10.0.0.1", "private"),
        ("169.254.169.254", "link-local"),
        ("::1", "loopback"),
        ("::ffff:192.168.0.1", "private"),
        ("0.0.0.0", "unspecified"),
        ("100.64.0.1", "non-public"),
        ("93.184.215.14", None),
        ("2606:4700::1111", None),
    ],
)
def test_addresses_refused_by_kind(address: str, kind: str | None) -> None:
    assert refusal(address) == kind


def test_one_private_address_among_public_ones_is_refused() -> None:
    with pytest.raises(RefusedAddressError, match=r"10\.0\.0\.1, a private address"):
        check_addresses("hooks.example.com", ["93.184.215.14", "10.0.0.1"])


def test_url_forms() -> None:
    assert url_problem("https://hooks.example.com/x") is None
    assert "http://" in (url_problem("file:///etc/passwd") or "")
    assert "port" in (url_problem("https://h.example.com:99999/") or "")
