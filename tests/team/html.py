"""Helpers for the editor-form tests: post as a browser does, read pages with CSS selectors."""

from typing import Any

from bs4 import BeautifulSoup
from fastapi.testclient import TestClient
from httpx2 import Response

from tests.accounts.conftest import SAME_ORIGIN

RESULT_FORM = {
    "metric": "throughput",
    "unit": "tok/s",
    "value": "2450",
    "hardware": "H100 SXM",
    "gpus": "1",
    "model": "Llama 3.1 8B",
    "precision": "FP16",
    "concurrency": "32",
    "workload": "online serving",
    "setup": "chat, 1k in / 256 out",
    "system_version": "0.11.0",
    "date": "2026-11-20",
    "note": "our nightly run",
}


def post(
    client: TestClient, path: str, data: dict[str, Any], *, target: str | None = None
) -> Response:
    """A form post from one of our pages; with `target`, as HTMX sends it from that element."""
    headers = dict(SAME_ORIGIN)
    if target is not None:
        headers |= {
            "HX-Request": "true",
            "HX-Target": target,
            "HX-Current-URL": "http://testserver/systems/vllm",
        }
    return client.post(path, data=data, headers=headers, follow_redirects=False)


def page(response: Response) -> BeautifulSoup:
    return BeautifulSoup(response.text, "html.parser")


def field_notes(soup: BeautifulSoup) -> dict[str, str]:
    """Each field's message, by the id of the input it describes."""
    notes = {}
    for node in soup.select("[aria-invalid=true]"):
        note = soup.find(id=node["aria-describedby"])
        notes[node["id"]] = note.get_text(strip=True) if note else ""
    return notes


def flash_of(client: TestClient, path: str) -> str | None:
    """The confirmation the next page shows, if any."""
    banner = page(client.get(path)).select_one(".done-banner.flash")
    return banner.get_text(strip=True) if banner else None


def new_result(client: TestClient, system: str = "vllm", **changes: str) -> str:
    """Add a team result through the system page's form; its id."""
    response = post(client, f"/systems/{system}/team-results", RESULT_FORM | changes)
    assert response.status_code == 303, response.text
    return response.headers["location"].rpartition("#bench-")[2]
