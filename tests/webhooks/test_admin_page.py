"""/admin/webhooks: an admin adds a receiver in the browser's way (a form), sees its secret
once, tests, pauses and removes it; HTML checked with CSS selectors."""

from collections.abc import Callable, Iterator

import pytest
from bs4 import BeautifulSoup
from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.accounts.conftest import SAME_ORIGIN, sign_in


@pytest.fixture
def ada(hooks_app: FastAPI) -> Iterator[TestClient]:
    with TestClient(hooks_app) as client:
        assert sign_in(client, "ada").status_code == 303
        yield client


def post(client: TestClient, path: str, **data: str):
    return client.post(path, data=data, headers=SAME_ORIGIN, follow_redirects=False)


def test_an_admin_adds_tests_pauses_and_removes_a_receiver(
    ada: TestClient, as_user: Callable[[str], TestClient]
) -> None:
    made = post(
        ada,
        "/admin/webhooks",
        url="https://chat.example.com/hook",
        events="claim.updated, result.created",
    )
    assert made.status_code == 201 and made.headers["cache-control"] == "no-store"
    page = BeautifulSoup(made.text, "html.parser")
    secret = page.select_one("#new-secret-value")["value"]
    assert len(secret) >= 32
    (article,) = page.select("article.webhook")
    hook_id = article["id"].removeprefix("webhook-")
    assert [c.text for c in article.select("p code")] == ["claim.updated", "result.created"]
    again = ada.get("/admin/webhooks")
    assert secret not in again.text and "new-secret-value" not in again.text
    tested = post(ada, f"/admin/webhooks/{hook_id}/test")
    assert tested.status_code == 303
    shown = BeautifulSoup(ada.get(tested.headers["location"]).text, "html.parser")
    assert "test delivery" in shown.select_one(".done-banner").text
    assert [td.text for td in shown.select("table.deliveries tbody tr td:first-child")] == ["ping"]
    post(ada, f"/admin/webhooks/{hook_id}/pause")
    paused = BeautifulSoup(ada.get("/admin/webhooks").text, "html.parser")
    assert paused.select_one(f"#webhook-{hook_id} .badge").text == "paused"
    post(ada, f"/admin/webhooks/{hook_id}/remove")
    assert (
        BeautifulSoup(ada.get("/admin/webhooks").text, "html.parser").select("article.webhook")
        == []
    )


def test_a_bad_receiver_is_shown_back_with_its_problem(ada: TestClient) -> None:
    refused = post(ada, "/admin/webhooks", url="https://chat.example.com/", events="claim.exploded")
    assert refused.status_code == 422
    page = BeautifulSoup(refused.text, "html.parser")
    assert page.select_one("#hook-events")["aria-invalid"] == "true"
    assert "claim.exploded" in page.select_one("#hook-events-note").text
    assert page.select_one("#hook-url")["value"] == "https://chat.example.com/"


def test_only_an_admin_sees_the_page(as_user: Callable[[str], TestClient]) -> None:
    assert as_user("eddie").get("/admin/webhooks").status_code == 403


# Every form post of the page, for tests/team/test_every_write_route.py.
POSTS = [("/admin/webhooks", {"url": ""}), ("/admin/webhooks/999999/test", {})]


@pytest.mark.parametrize(("path", "data"), POSTS)
def test_the_page_changes_are_for_admins_alone(
    hooks_app: FastAPI, ada: TestClient, path: str, data: dict[str, str]
) -> None:
    with TestClient(hooks_app) as anonymous:
        refused = post(anonymous, path, **data)
        assert refused.status_code == 303 and refused.headers["location"].startswith("/login")
    for who in ("vera", "eddie"):
        with TestClient(hooks_app) as client:
            sign_in(client, who)
            assert post(client, path, **data).status_code == 403
    assert post(ada, path, **data).status_code in (404, 422)  # past the check
