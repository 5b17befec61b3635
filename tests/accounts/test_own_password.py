"""Own-password change (page and API), the common-password list, duplicate names (409),
the `__Host-` cookie over HTTPS and the scheme in the forgery check."""

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine
from sqlmodel import Session

from app.accounts import users as service
from app.accounts.passwords import is_common, password_problem
from app.db import make_engine, writer
from tests.accounts.conftest import PASSWORD, SAME_ORIGIN, build_app, sign_in

NEW = "a quite different passphrase now"


@pytest.fixture
def app_client(fresh_url: str) -> Iterator[TestClient]:
    with TestClient(build_app(fresh_url)) as client:
        yield client


@pytest.fixture
def engine(fresh_url: str) -> Iterator[Engine]:
    made = make_engine(fresh_url)
    yield made
    made.dispose()


@pytest.mark.parametrize(
    "password",
    [
        "password1234",
        "Password2024!",
        "qwerty123456",
        "iloveyou12345",
        "abcabcabcabc",
        "1q2w3e4r5t6y",
    ],
)
def test_common_passwords_are_refused(password: str) -> None:
    assert is_common(password)
    assert "most common" in (password_problem(password, "eddie") or "")


@pytest.mark.parametrize("password", [PASSWORD, NEW, "Xk9#mP2vL7qz", "83726154&dog!29"])
def test_uncommon_passwords_pass(password: str) -> None:
    assert password_problem(password, "eddie") is None


def test_changing_ones_password_in_the_browser(app_client: TestClient) -> None:
    app = app_client.app
    other = TestClient(app)  # eddie signed in elsewhere too
    assert sign_in(other, "eddie").status_code == 303
    browser = TestClient(app)
    assert sign_in(browser, "eddie").status_code == 303
    form = {"current_password": "not it at all, no", "new_password": NEW, "repeat": NEW}
    wrong = browser.post("/account/password", data=form, headers=SAME_ORIGIN)
    assert wrong.status_code == 422 and "current password is wrong" in wrong.text
    common = form | {"current_password": PASSWORD, "new_password": "password1234"}
    refused = browser.post("/account/password", data=common, headers=SAME_ORIGIN)
    assert refused.status_code == 422 and "most common" in refused.text
    good = form | {"current_password": PASSWORD}
    changed = browser.post(
        "/account/password", data=good, headers=SAME_ORIGIN, follow_redirects=False
    )
    assert changed.status_code == 303
    # This browser stays signed in (a new session); the other one is signed out.
    assert "eddie" in browser.get("/account/password?done=1").text
    assert other.get("/account/password", follow_redirects=False).status_code == 303
    assert sign_in(TestClient(app), "eddie", NEW).status_code == 303
    assert sign_in(TestClient(app), "eddie", PASSWORD).status_code == 422


def test_changing_ones_password_through_the_api(app_client: TestClient, engine: Engine) -> None:
    with Session(writer(engine)) as session, session.begin():
        _, raw = service.add_token(session, "eddie", None)
    api = TestClient(app_client.app, headers={"Authorization": f"Bearer {raw}"})
    body = {"current_password": "wrong wrong wrong", "new_password": NEW}
    wrong = api.post("/api/v1/account/password", json=body)
    assert wrong.status_code == 422
    assert {p["field"] for p in wrong.json()["detail"]} == {"current_password"}
    assert (
        api.post("/api/v1/account/password", json=body | {"current_password": PASSWORD}).status_code
        == 204
    )
    assert sign_in(TestClient(app_client.app), "eddie", NEW).status_code == 303
    anonymous = TestClient(app_client.app).post("/api/v1/account/password", json=body)
    assert anonymous.status_code == 401


def test_a_name_already_taken_is_a_409(app_client: TestClient) -> None:
    assert sign_in(app_client, "ada").status_code == 303
    form = {"name": "eddie", "role": "editor", "password": NEW, "repeat": NEW}
    response = app_client.post("/admin/users", data=form, headers=SAME_ORIGIN)
    assert response.status_code == 409
    assert "already a user called" in response.text


def test_over_https_the_session_cookie_has_the_host_prefix(fresh_url: str) -> None:
    with TestClient(build_app(fresh_url), base_url="https://testserver") as client:
        https_origin = {"Sec-Fetch-Site": "same-origin", "Origin": "https://testserver"}
        response = client.post(
            "/login",
            data={"name": "eddie", "password": PASSWORD, "next": "/"},
            headers=https_origin,
            follow_redirects=False,
        )
        assert response.status_code == 303
        cookie = response.headers["set-cookie"]
        assert cookie.startswith("__Host-atlas_session=")
        assert "Secure" in cookie and "Path=/" in cookie and "Domain" not in cookie
        assert "eddie" in client.get("/account/password").text  # the prefixed cookie signs in
        # An http page of the same host is another origin (a network attacker's).
        forged = client.post(
            "/logout", headers={"Origin": "http://testserver"}, follow_redirects=False
        )
        assert forged.status_code == 403 and "https://testserver" in forged.text


def test_over_http_the_cookie_keeps_its_plain_name(app_client: TestClient) -> None:
    response = sign_in(app_client, "eddie")
    assert response.headers["set-cookie"].startswith("atlas_session=")


@pytest.mark.parametrize(
    "password", ["123456789012", "098765432109", "abcdefghijkl", "qwertyuiopas", "!234567890123"]
)
def test_runs_of_keys_in_order_are_refused_in_words(password: str) -> None:
    assert "run of keys in order" in (password_problem(password, "eddie") or "")


def test_a_run_of_digits_is_refused_at_password_change(app_client: TestClient) -> None:
    browser = TestClient(app_client.app)
    assert sign_in(browser, "eddie").status_code == 303
    form = {"current_password": PASSWORD, "new_password": "123456789012", "repeat": "123456789012"}
    refused = browser.post("/account/password", data=form, headers=SAME_ORIGIN)
    assert refused.status_code == 422 and "run of keys in order" in refused.text
