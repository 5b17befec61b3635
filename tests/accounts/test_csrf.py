"""Cross-site request forgery: state-changing requests from other sites are refused."""

import pytest
from bs4 import BeautifulSoup
from sqlmodel import Session
from starlette.datastructures import Headers

from app.accounts.csrf import cross_origin_problem
from app.accounts.users import list_users
from tests.accounts.conftest import SAME_ORIGIN

COOKIE = "atlas_session=abc.def.ghi"


@pytest.mark.parametrize(
    ("headers", "refused"),
    [
        ({"sec-fetch-site": "same-origin"}, False),
        ({"sec-fetch-site": "none"}, False),  # typed in the address bar, a bookmark
        ({"sec-fetch-site": "same-site"}, True),  # a sibling subdomain is another app
        ({"sec-fetch-site": "cross-site"}, True),
        # Sec-Fetch-Site decides when present, whatever Origin says.
        ({"sec-fetch-site": "cross-site", "origin": "http://atlas.example"}, True),
        ({"origin": "http://atlas.example"}, False),
        ({"origin": "http://ATLAS.example"}, False),
        ({"origin": "http://atlas.example:8080"}, True),
        ({"origin": "http://evil.example"}, True),
        ({"origin": "https://atlas.example"}, True),  # another scheme is another origin
        ({"origin": "null"}, True),  # sandboxed frames, file: pages
        ({}, False),  # curl, scripts: nothing to forge with
        ({"cookie": COOKIE}, True),  # a signed-in request that hides where it came from
        ({"cookie": "theme=dark"}, False),  # some other cookie rides along: not ours
        ({"authorization": "Bearer atl_x"}, False),  # a page cannot attach this header
        ({"authorization": "Bearer atl_x", "sec-fetch-site": "cross-site"}, False),
        ({"authorization": "Bearer atl_x", "cookie": COOKIE}, True),
        ({"authorization": "Basic eDp5", "origin": "http://evil.example"}, True),
    ],
)
def test_the_rules(headers: dict[str, str], refused: bool) -> None:
    problem = cross_origin_problem(Headers({"host": "atlas.example", **headers}), "atlas_session")
    assert (problem is not None) == refused, problem


@pytest.mark.parametrize(
    "headers",
    [
        {"Sec-Fetch-Site": "cross-site", "Origin": "http://evil.example"},
        {"Sec-Fetch-Site": "same-site"},
        {"Origin": "http://evil.example"},
        {},  # the signed-in cookie without either header
    ],
)
def test_a_forged_admin_action_is_refused_and_changes_nothing(
    clients, accounts_engine, headers
) -> None:
    admin = clients("ada")
    response = admin.post("/admin/users/eddie/disable", headers=headers)
    assert response.status_code == 403
    assert response.headers["content-type"].startswith("text/plain")
    assert "cross-site request forgery" in response.text
    with Session(accounts_engine) as session:
        eddie = next(u for u in list_users(session) if u.name == "eddie")
    assert not eddie.disabled


def test_a_forged_sign_in_is_refused(clients) -> None:
    # Login CSRF: another site signing the victim in to the attacker's account.
    response = clients().post(
        "/login",
        data={"name": "eddie", "password": "whatever it is"},
        headers={"Sec-Fetch-Site": "cross-site"},
    )
    assert response.status_code == 403
    assert "Sec-Fetch-Site: cross-site" in response.text


def test_same_origin_forms_and_htmx_requests_pass(clients) -> None:
    admin = clients("ada")
    htmx = {"HX-Request": "true", **SAME_ORIGIN}
    for headers in (SAME_ORIGIN, {"Origin": "http://testserver"}, htmx):
        response = admin.post(
            "/admin/users/eddie/role",
            data={"role": "editor"},
            headers=headers,
            follow_redirects=False,
        )
        assert response.status_code == 303, response.text


def test_api_refusals_are_json(clients) -> None:
    response = clients().post("/api/v1/systems", headers={"Origin": "http://evil.example"})
    assert response.status_code == 403
    assert "Origin: http://evil.example" in response.json()["detail"]


def test_reads_are_never_refused(clients) -> None:
    response = clients().get("/sources", headers={"Sec-Fetch-Site": "cross-site"})
    assert response.status_code == 200  # a link from another site must open
    # ... on the page itself, not a refusal or sign-in page sent with a 200.
    soup = BeautifulSoup(response.text, "html.parser")
    assert soup.select_one("main h1").get_text(strip=True) == "Sources"
    assert soup.select_one("#coverage") is not None
