"""Sign-in through a real OpenID Connect provider (tests/accounts/oidc_provider.py), the
whole redirect flow: the app sends the browser to the provider, the person is picked there,
the provider sends the browser back with a code, the app redeems it and checks the ID token.

The browser is a TestClient (own cookie jar) for the app and an HTTP client for the
provider's pages; the provider is a process of its own, reached over real HTTP by the app.
"""

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import httpx2
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlmodel import Session, col, select

from app.accounts import users as service
from app.accounts.oidc import FLOW_COOKIE
from app.db import make_engine, writer
from app.models import Revision
from tests.accounts.conftest import PASSWORD, build_app, sign_in
from tests.accounts.oidc_provider import GROUP_SETTINGS, oidc_provider
from tests.live_servers import free_port

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def issuer(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with oidc_provider(tmp_path_factory.mktemp("oidc")) as url:
        yield url


def oidc_app(url: str, issuer: str, **extra: object) -> FastAPI:
    return build_app(
        url,
        public_url="http://testserver",
        atlas_oidc_issuer=issuer,
        atlas_oidc_client_id="inference-atlas",
        atlas_oidc_client_secret="client-secret",
        atlas_oidc_name="Test IdP",
        **(GROUP_SETTINGS | extra),
    )


@pytest.fixture(scope="module")
def app(accounts_url: str, issuer: str) -> Iterator[FastAPI]:
    built = oidc_app(accounts_url, issuer)
    with TestClient(built):
        yield built


@pytest.fixture
def browser(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as client:
        yield client


def to_provider(browser: TestClient, next_path: str = "/") -> str:
    """Start signing in; the provider's authorization URL the app sends the browser to."""
    started = browser.get("/login/oidc", params={"next": next_path}, follow_redirects=False)
    assert started.status_code == 303, started.text
    assert FLOW_COOKIE in started.headers["set-cookie"]
    return started.headers["location"]


def at_provider(authorize_url: str, sub: str | None = None) -> str:
    """The person signs in at the provider as `sub` (None: declines); the callback URL."""
    query = parse_qs(urlsplit(authorize_url).query)
    assert query["code_challenge_method"] == ["S256"] and query["code_challenge"]
    assert query["state"] and query["nonce"]
    with httpx2.Client(timeout=10) as provider:
        assert provider.get(authorize_url).status_code == 200  # its sign-in form
        form = {"sub": sub} if sub else {"action": "deny"}
        answer = provider.post(authorize_url, data=form)
    assert answer.status_code == 302, answer.text
    return answer.headers["location"]


def signs_in(browser: TestClient, sub: str, next_path: str = "/") -> dict[str, str]:
    back = at_provider(to_provider(browser, next_path), sub)
    done = browser.get(back, follow_redirects=False)
    assert done.status_code == 303, done.text
    assert done.headers["location"] == next_path
    return whoami(browser)


def whoami(browser: TestClient) -> dict[str, str]:
    me = browser.get("/api/v1/me")
    assert me.status_code == 200, me.text
    return me.json()


def no_session(browser: TestClient, answer: httpx2.Response, status: int, says: str) -> None:
    assert answer.status_code == status, answer.text
    assert says in answer.text
    assert "atlas_session=" not in answer.headers.get("set-cookie", "")
    assert browser.get("/api/v1/me").status_code == 401


def test_three_people_sign_in_with_the_roles_their_groups_give(app: FastAPI) -> None:
    expected = {
        "ada-sub": ("ada-2", "admin"),
        "eddie-sub": ("eddie-2", "editor"),  # the group list matches in any case
        "vera-sub": ("vera-2", "viewer"),  # in no listed group: the default role
        "gail-sub": ("gail", "editor"),  # no groups; a verified address in @example.org
    }
    for sub, (name, role) in expected.items():
        with TestClient(app) as browser:
            assert signs_in(browser, sub, "/changes") == {"name": name, "role": role, "via": "oidc"}
    # The local accounts of the same names are other people, and still sign in.
    with TestClient(app) as local:
        assert sign_in(local, "ada").status_code == 303
        assert whoami(local) == {"name": "ada", "role": "admin", "via": "password"}


def test_the_role_is_recomputed_at_each_sign_in_and_every_change_is_a_revision(
    app: FastAPI, accounts_url: str, browser: TestClient
) -> None:
    assert signs_in(browser, "vera-sub")["role"] == "viewer"
    engine = make_engine(accounts_url)
    with Session(writer(engine)) as session, session.begin():
        service.set_role(session, "vera-2", "admin")  # by hand: lasts until the next sign-in
    with TestClient(app) as again:
        assert signs_in(again, "vera-sub") == {"name": "vera-2", "role": "viewer", "via": "oidc"}
    with Session(engine) as session:
        changes = session.exec(
            select(Revision).where(Revision.key == "vera-2").order_by(col(Revision.id))
        ).all()
    engine.dispose()
    assert [(r.entity, r.action) for r in changes][-3:] == [
        ("user_account", "create"),
        ("user_account", "update"),  # the admin's
        ("user_account", "update"),  # back to the groups' role at sign-in
    ]
    assert changes[-1].before == {"role": "admin"} and changes[-1].after["role"] == "viewer"
    # The public history does not list accounts.
    assert "vera-2" not in browser.get("/api/v1/changes").text


def test_a_forged_state_gives_no_session(app: FastAPI, browser: TestClient) -> None:
    back = at_provider(to_provider(browser), "ada-sub")
    forged = back.replace("state=", "state=x")
    no_session(browser, browser.get(forged), 400, "not started in this browser")


def test_a_callback_in_another_browser_gives_no_session(app: FastAPI, browser: TestClient) -> None:
    back = at_provider(to_provider(browser), "ada-sub")
    with TestClient(app) as other:  # an attacker's link, opened by someone else
        no_session(other, other.get(back), 400, "not started in this browser")


def test_a_replayed_code_gives_no_session(app: FastAPI, browser: TestClient) -> None:
    flow_start = to_provider(browser)
    flow = browser.cookies.get(FLOW_COOKIE)
    back = at_provider(flow_start, "eddie-sub")
    assert browser.get(back, follow_redirects=False).status_code == 303  # used once
    # The same browser again: its flow ended with the first use.
    with TestClient(app) as same:
        no_session(same, same.get(back), 400, "already used")
    # Someone holding a copy of the flow cookie too: the provider refuses the used code.
    with TestClient(app, cookies={FLOW_COOKIE: flow}) as thief:
        no_session(thief, thief.get(back), 400, "refused the sign-in code")


def test_declined_consent_gives_no_session(app: FastAPI, browser: TestClient) -> None:
    back = at_provider(to_provider(browser), None)
    no_session(browser, browser.get(back), 400, "declined")


def test_someone_in_no_admitted_group_is_refused_when_the_default_is_none(
    accounts_url: str, issuer: str
) -> None:
    with TestClient(oidc_app(accounts_url, issuer, atlas_oidc_default_role="none")) as browser:
        back = at_provider(to_provider(browser), "vera-sub")
        no_session(browser, browser.get(back), 403, "none of the groups")
        assert signs_in(browser, "ada-sub")["role"] == "admin"


def test_a_provider_that_is_down_gets_a_clear_page(accounts_url: str, tmp_path: Path) -> None:
    down = f"http://127.0.0.1:{free_port()}"
    with TestClient(oidc_app(accounts_url, down)) as browser:
        answer = browser.get("/login/oidc", follow_redirects=False)
        no_session(browser, answer, 502, "could not be reached")


def test_a_password_still_signs_in_unless_password_login_is_off(
    accounts_url: str, issuer: str
) -> None:
    with TestClient(oidc_app(accounts_url, issuer, atlas_password_login=False)) as browser:
        page = browser.get("/login")
        assert "Sign in with Test IdP" in page.text and 'name="password"' not in page.text
        refused = sign_in(browser, "ada", PASSWORD)
        no_session(browser, refused, 403, "identity provider only")
