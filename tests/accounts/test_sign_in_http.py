"""Browser sign-in over HTTP: the cookie, going back after signing in, sign-out, limits."""

import pytest
from bs4 import BeautifulSoup
from fastapi.testclient import TestClient
from sqlmodel import Session

from app.accounts import users as service
from app.accounts.models import LoginSession
from app.accounts.web import COOKIE, safe_next
from app.db import make_engine, writer
from app.web.cache import PUBLIC_CACHING
from tests.accounts.conftest import PASSWORD, SAME_ORIGIN, build_app, sign_in

pytestmark = pytest.mark.database


def soup(response) -> BeautifulSoup:
    return BeautifulSoup(response.text, "html.parser")


def test_the_sign_in_page_is_a_form_that_keeps_where_to_go_back(clients) -> None:
    page = soup(clients().get("/login?next=/matrix?need=prefix-caching"))
    form = page.select_one("form[action='/login'][method=post]")
    assert form.select_one("input[name=name][autocomplete=username]") is not None
    assert form.select_one("input[name=password][type=password]") is not None
    assert form.select_one("input[name=next]")["value"] == "/matrix?need=prefix-caching"


def test_signing_in_sets_a_signed_httponly_lax_cookie_and_goes_back(clients) -> None:
    client = clients()
    response = sign_in(client, "eddie", next_path="/systems/vllm")
    assert response.status_code == 303
    assert response.headers["location"] == "/systems/vllm"
    cookie = response.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}=")
    for attribute in ("HttpOnly", "Path=/", "SameSite=lax", "Max-Age=1209600"):
        assert attribute in cookie
    assert "Secure" not in cookie  # plain http
    page = soup(client.get("/systems/vllm"))
    assert page.select_one(".signed-in-as").get_text(strip=True) == "eddie"
    assert page.select_one("form.sign-out[action='/logout'] button") is not None


def test_the_cookie_is_secure_over_https(accounts_app) -> None:
    client = TestClient(accounts_app, base_url="https://testserver")
    response = client.post(
        "/login",
        data={"name": "vera", "password": PASSWORD},
        headers={"Sec-Fetch-Site": "same-origin"},
        follow_redirects=False,
    )
    assert response.status_code == 303
    assert "Secure" in response.headers["set-cookie"]


def test_a_wrong_password_is_refused_with_a_message_and_no_cookie(clients) -> None:
    client = clients()
    response = sign_in(client, "eddie", password="not the password")
    assert response.status_code == 422
    assert "set-cookie" not in response.headers
    alert = soup(response).select_one("[role=alert]").get_text(strip=True)
    assert alert == "Wrong name or password (or the account is disabled)."
    # The name stays filled in; the password does not.
    assert soup(response).select_one("input[name=name]")["value"] == "eddie"
    assert soup(response).select_one("input[name=password]").get("value") is None


def test_an_unknown_name_gets_the_same_answer_as_a_wrong_password(clients) -> None:
    unknown = sign_in(clients(), "nobody-here")
    wrong = sign_in(clients(), "eddie", password="not the password")
    assert unknown.status_code == wrong.status_code == 422
    assert (
        soup(unknown).select_one("[role=alert]").text == soup(wrong).select_one("[role=alert]").text
    )


def test_empty_fields_are_named(clients) -> None:
    response = clients().post("/login", data={"name": " "}, headers=SAME_ORIGIN)
    assert response.status_code == 422
    notes = [s.get_text(strip=True) for s in soup(response).select("small[id$='-problem']")]
    assert notes == ["Enter your user name.", "Enter your password."]


@pytest.mark.parametrize(
    ("wanted", "goes_to"),
    [
        ("/matrix?need=prefix-caching", "/matrix?need=prefix-caching"),
        ("//evil.example/x", "/"),
        ("/\\evil.example", "/"),
        ("https://evil.example/", "/"),
        ("javascript:alert(1)", "/"),
        ("/login?next=/x", "/"),
        ("/systems/vllm\r\nSet-Cookie: x=1", "/"),
        ("", "/"),
    ],
)
def test_only_same_site_paths_are_gone_back_to(wanted: str, goes_to: str) -> None:
    assert safe_next(wanted) == goes_to


def test_signing_out_ends_the_session_for_good(clients, accounts_engine) -> None:
    client = clients("eddie")
    kept = client.cookies[COOKIE]
    response = client.post("/logout", headers=SAME_ORIGIN, follow_redirects=False)
    assert response.status_code == 303
    assert f'{COOKIE}=""' in response.headers["set-cookie"]
    # A copy of the old cookie is worth nothing: the session row is gone.
    replay = clients()
    replay.cookies.set(COOKIE, kept)
    page = soup(replay.get("/sources"))
    assert page.select_one(".signed-in-as") is None
    assert page.select_one(".account a")["href"] == "/login?next=%2Fsources"


def test_disabling_a_user_ends_their_browser_session(clients, accounts_engine) -> None:
    client = clients("vera")
    assert client.get("/sources").headers["cache-control"] == "private, no-cache"
    admin = clients("ada")
    admin.post("/admin/users/vera/disable", headers=SAME_ORIGIN)
    assert client.get("/sources").headers["cache-control"] == PUBLIC_CACHING  # anonymous now
    assert sign_in(clients(), "vera").status_code == 422
    admin.post("/admin/users/vera/enable", headers=SAME_ORIGIN)
    assert sign_in(clients(), "vera").status_code == 303


def test_signing_in_again_replaces_the_previous_session(
    clients, accounts_app, accounts_engine
) -> None:
    client = clients("eddie")
    first = service.digest(accounts_app.state.cookie_signer.loads(client.cookies[COOKIE]))
    with Session(accounts_engine) as session:
        assert session.get(LoginSession, first) is not None
    sign_in(client, "eddie")
    second = service.digest(accounts_app.state.cookie_signer.loads(client.cookies[COOKIE]))
    with Session(accounts_engine) as session:
        assert session.get(LoginSession, first) is None
        assert session.get(LoginSession, second) is not None


def test_five_failures_lock_the_account_with_429_and_retry_after(fresh_url) -> None:
    app = build_app(fresh_url)
    with TestClient(app) as client:
        for _ in range(5):
            assert sign_in(client, "eddie", password="guess again please").status_code == 422
        response = sign_in(client, "eddie")  # even the right password, while locked
        assert response.status_code == 429
        assert 840 < int(response.headers["retry-after"]) <= 900
        message = soup(response).select_one("[role=alert]").get_text(strip=True)
        assert message == "Too many failed sign-ins for this account. Try again in 15 minutes."
        assert "set-cookie" not in response.headers
        # Another account from the same address still signs in.
        assert sign_in(client, "ada").status_code == 303


def test_twenty_failures_from_one_address_lock_it(fresh_url) -> None:
    app = build_app(fresh_url)
    with TestClient(app) as client:
        for i in range(20):
            assert sign_in(client, f"guess-{i}", password="nothing").status_code == 422
        response = sign_in(client, "ada")
        assert response.status_code == 429
        assert "from your address" in response.text


def test_a_hash_needing_new_parameters_is_replaced_on_sign_in(fresh_url, production_cost) -> None:
    from pwdlib import PasswordHash
    from pwdlib.hashers.argon2 import Argon2Hasher

    weak = PasswordHash((Argon2Hasher(time_cost=1, memory_cost=8192, parallelism=1),))
    engine = make_engine(fresh_url)
    with Session(writer(engine)) as session, session.begin():
        service.get_user(session, "eddie").password_hash = weak.hash(PASSWORD)
    with TestClient(build_app(fresh_url)) as client:
        assert sign_in(client, "eddie").status_code == 303
    with Session(engine) as session:
        assert "m=65536" in service.get_user(session, "eddie").password_hash
    engine.dispose()


def test_signing_in_and_out_say_what_changed(clients) -> None:
    client = clients()
    sign_in(client, "eddie", next_path="/sources")
    said = soup(client.get("/sources")).select_one(".done-banner.flash").get_text()
    assert said == "Signed in as eddie, an editor: you can add results, claims and notes."
    assert soup(client.get("/sources")).select_one(".done-banner.flash") is None, "said once"
    out = client.post(
        "/logout", data={"next": "/sources"}, headers=SAME_ORIGIN, follow_redirects=False
    )
    assert out.headers["location"] == "/logout?next=%2Fsources"
    page = soup(client.get(out.headers["location"]))
    assert "You are signed out" in page.select_one("[role=status]").get_text()
    assert page.select_one("article a")["href"] == "/sources", "back to where they were"
