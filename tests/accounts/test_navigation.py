"""The header's navigation: the page's own item marked, and the person's menu holding
Catalogue and API tokens for those who may use them."""

from collections.abc import Callable

import pytest
from bs4 import BeautifulSoup
from fastapi.testclient import TestClient

Clients = Callable[..., TestClient]


def current(client: TestClient, path: str) -> list[str]:
    soup = BeautifulSoup(client.get(path).text, "html.parser")
    return [a.get_text(strip=True) for a in soup.select(".site-header [aria-current=page]")]


@pytest.mark.parametrize(
    ("path", "marked"),
    [
        ("/systems/vllm", ["Systems"]),
        ("/features/prefix-caching", ["Features"]),
        ("/features", ["Features"]),
        ("/matrix", ["Matrix"]),
        ("/hardware", ["Matrix"]),
        ("/benchmarks", ["Benchmarks"]),
        ("/catalogue", ["Catalogue"]),
        ("/account/tokens", ["API tokens"]),
        ("/account/password", ["Password"]),
    ],
)
def test_the_page_marks_its_own_item_and_no_other(
    clients: Clients, path: str, marked: list[str]
) -> None:
    assert current(clients("eddie"), path) == marked


def test_the_menu_holds_what_each_role_may_use(clients: Clients) -> None:
    def menu(name: str | None) -> list[str]:
        soup = BeautifulSoup(clients(name).get("/").text, "html.parser")
        return [a.get_text(strip=True) for a in soup.select(".account-menu li a")]

    assert menu("ada") == ["Imports", "Catalogue", "API tokens", "Users", "Password"]
    assert menu("eddie") == ["Imports", "Catalogue", "API tokens", "Password"]
    assert menu("vera") == ["API tokens", "Password"]
    assert menu(None) == []
    soup = BeautifulSoup(clients("eddie").get("/catalogue").text, "html.parser")
    assert "is-current" in soup.select_one(".account-menu summary")["class"]
