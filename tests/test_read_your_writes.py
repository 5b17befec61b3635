"""Read your writes, everywhere (docs/architecture.md): once a write's response has been sent,
every later request to any server of the instance reflects it — HTML, JSON, an HTMX part,
conditional or not — and a page that changed is never answered 304.

Two real servers on one database (SQLite here, PostgreSQL in the postgres tier), 25 rounds
of: warm every page on both, write through one, read at once on both with the old ETags.
No waiting: a stale answer fails the round it happens in.
"""

import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.databases import new_database_url
from tests.live_servers import editor_token, send_json, serving

pytestmark = [pytest.mark.slow, pytest.mark.database]
ROUNDS = int(__import__("os").environ.get("RYW_ROUNDS", "25"))


@dataclass(frozen=True)
class Page:
    """One page of each kind of cache the write must reach."""

    kind: str
    path: str
    headers: tuple[tuple[str, str], ...] = ()


PAGES = [
    # The whole page (render cache; the system's read models).
    Page("html", "/systems/vllm"),
    # Its JSON twin.
    Page("json", "/api/v1/systems/vllm"),
    # An HTMX part: the matrix's cell panel (the matrix base memo).
    Page(
        "htmx",
        "/matrix?cell=vllm:openai-api",
        (("HX-Request", "true"), ("HX-Target", "cell_detail")),
    ),
    # Figures: the benchmark page's rows and chart cards, and their JSON.
    Page("figures", "/benchmarks?system=vllm"),
    Page("figures-json", "/api/v1/benchmarks?system=vllm"),
]


def fetch(base: str, page: Page, etag: str | None = None) -> tuple[int, str, str]:
    """(status, body, ETag) of an anonymous GET, conditional when `etag` is given."""
    headers = dict(page.headers) | ({"If-None-Match": etag} if etag else {})
    request = urllib.request.Request(base + page.path, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read().decode(), response.headers.get("etag", "")
    except urllib.error.HTTPError as error:
        if error.code == 304:
            return 304, "", etag or ""
        raise


def test_a_write_is_seen_by_the_next_request_on_every_server(
    tmp_path: Path, seed_copy: Path
) -> None:
    env = {"DATABASE_URL": new_database_url(tmp_path, "shared"), "SEED_DIR": str(seed_copy)}
    with serving(tmp_path, env) as bases:
        token = editor_token(env)
        claim_version: int | None = None
        stale: list[str] = []
        for round_ in range(ROUNDS):
            warm = {(b, p): fetch(b, p)[2] for b in bases for p in PAGES}
            writer = bases[round_ % 2]
            note = f"read-your-writes round {round_}"
            body: dict[str, object] = {"level": ("partial", "no")[round_ % 2], "note": note}
            if claim_version is not None:
                body["version"] = claim_version
            status, claim = send_json(
                f"{writer}/api/v1/systems/vllm/claims/openai-api", body, token, "PUT"
            )
            assert status in (200, 201), claim
            claim_version = claim["version"]
            status, result = send_json(
                f"{writer}/api/v1/benchmarks",
                {
                    "system": "vllm",
                    "metric": "throughput",
                    "value": 40_000 + round_,
                    "unit": "tok/s",
                    "hardware": "H100 SXM",
                    "gpus": 1,
                },
                token,
            )
            assert status == 201, result
            # The responses are in: every server, every kind of page, at once.
            for base in bases:
                for page in PAGES:
                    wanted = note if page.kind in ("html", "json", "htmx") else result["id"]
                    for etag in (warm[base, page], None):
                        got, text, _ = fetch(base, page, etag)
                        if got == 304 or wanted not in text:
                            stale.append(
                                f"round {round_}: {page.kind} {page.path} on "
                                f"{base} ({got}, conditional: {bool(etag)})"
                            )
        assert stale == []
