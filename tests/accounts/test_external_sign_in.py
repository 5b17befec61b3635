"""Roles from groups, account names for newcomers, trusted proxy sign-in and GET /api/v1/me.

The OpenID Connect flow itself runs against a real provider in the slow tier
(test_oidc_live.py); proxy sign-in through Caddy's forward_auth there too (test_proxy_caddy.py).
"""

import asyncio
import re
from collections.abc import Iterator

import pytest
from bs4 import BeautifulSoup
from fastapi import FastAPI
from fastapi.testclient import TestClient
from joserfc.errors import ExpiredTokenError

from app.accounts.external import RoleRules, account_name, claim_groups, verified_email
from app.accounts.models import Role
from app.accounts.oidc import SignInFailedError, _provider_errors
from app.accounts.proxy import ProxySettingsError, ProxySignIn
from app.settings import Settings
from tests.accounts.conftest import build_app, sign_in

pytestmark = pytest.mark.database

RULES = RoleRules(
    admin=frozenset({"atlas-admins", "0b9c1a2e-guid"}),
    editor=frozenset({"atlas-editors", "@example.org", "pat@example.com"}),
    default=Role.viewer,
)


@pytest.mark.parametrize(
    ("groups", "email", "role"),
    [
        (["Atlas-Admins", "atlas-editors"], None, Role.admin),  # the highest, any case
        (["0B9C1A2E-guid"], None, Role.admin),  # Entra ID sends group ids
        (["atlas-editors"], None, Role.editor),
        ([], "gail@Example.org", Role.editor),  # Google Workspace: the domain
        ([], "pat@example.com", Role.editor),  # one address
        ([], "sam@example.com", Role.viewer),  # neither: the default
    ],
)
def test_the_role_is_the_highest_any_group_or_address_gives(groups, email, role) -> None:
    assert RULES.role_for(groups, email) is role


def test_default_none_refuses_and_an_unverified_address_gives_nothing() -> None:
    strict = RoleRules(RULES.admin, RULES.editor, None)
    assert strict.role_for(["staff"], None) is None
    claims = {"email": "gail@example.org", "email_verified": False}
    assert verified_email(claims) is None
    assert verified_email(claims | {"email_verified": True}) == "gail@example.org"
    assert claim_groups({"groups": "a b,c"}, "groups") == ["a", "b", "c"]
    assert claim_groups({"groups": [1, "x"]}, "groups") == ["x"]


def test_settings_lists_become_rules() -> None:
    settings = Settings(atlas_oidc_admin_groups=" Admins ,", atlas_oidc_default_role="none")  # type: ignore[call-arg]
    rules = RoleRules.from_settings(settings)
    assert rules.admin == {"admins"} and rules.editor == frozenset() and rules.default is None


def test_newcomers_get_a_free_name_in_the_pattern() -> None:
    assert account_name("Ada Lovelace", "s1") == "ada-lovelace"
    assert account_name("ada", "s1", ["ada", "ada-2"]) == "ada-3"
    assert account_name("ada@example.com", "s1") == "ada"
    assert account_name("!!", "s1").startswith("user-")


def test_an_expired_id_token_is_a_clear_refusal() -> None:
    async def verify() -> None:
        async with _provider_errors("Test IdP"):
            raise ExpiredTokenError("exp")

    with pytest.raises(SignInFailedError, match="had expired"):
        asyncio.run(verify())


def test_a_proxy_trusting_every_address_is_refused() -> None:
    for trusted in ("*", "0.0.0.0/0", "10.0.0.1, ::/0"):
        settings = Settings(atlas_proxy_user_header="X-Forwarded-User", trusted_proxies=trusted)  # type: ignore[call-arg]
        with pytest.raises(ProxySettingsError, match="trusts every address"):
            ProxySignIn.from_settings(settings)
    with pytest.raises(ProxySettingsError, match=r"'proxy\.local' is neither"):
        ProxySignIn.from_settings(
            Settings(atlas_proxy_user_header="X-User", trusted_proxies="proxy.local")  # type: ignore[call-arg]
        )


PROXY = ("10.1.2.3", 41000)
USER = {"X-Forwarded-User": "pat@example.com", "X-Forwarded-Groups": "staff,atlas-editors"}


@pytest.fixture(scope="module")
def proxied(accounts_url: str) -> Iterator[FastAPI]:
    app = build_app(
        accounts_url,
        atlas_proxy_user_header="X-Forwarded-User",
        atlas_proxy_groups_header="X-Forwarded-Groups",
        atlas_oidc_editor_groups="atlas-editors",
        atlas_oidc_admin_groups="atlas-admins",
        trusted_proxies="127.0.0.1, 10.0.0.0/8",
    )
    with TestClient(app):
        yield app


def test_the_proxy_headers_count_from_a_trusted_proxy(proxied: FastAPI) -> None:
    with TestClient(proxied, client=PROXY) as proxy:
        me = proxy.get("/api/v1/me", headers=USER)
        assert me.json() == {"name": "pat", "role": "editor", "via": "proxy"}
        assert me.headers["cache-control"] == "private, no-store"
        admin = USER | {"X-Forwarded-Groups": "atlas-admins"}
        assert proxy.get("/api/v1/me", headers=admin).json()["role"] == "admin"  # recomputed
        assert proxy.get("/api/v1/me").status_code == 401  # no header: nobody


def test_the_proxy_headers_are_ignored_from_anywhere_else(proxied: FastAPI) -> None:
    with TestClient(proxied, client=("192.0.2.9", 41000)) as stranger:
        assert stranger.get("/api/v1/me", headers=USER).status_code == 401
        # X-Forwarded-For is not believed either: the address stays the stranger's.
        page = stranger.get("/login", headers={"X-Forwarded-For": "10.1.2.3"} | USER)
        assert "Signed in as" not in page.text and page.headers["cache-control"] == "no-store"


def test_a_proxied_person_never_gets_a_shared_cached_page(proxied: FastAPI) -> None:
    with TestClient(proxied, client=PROXY) as proxy:
        anonymous = proxy.get("/matrix")
        assert anonymous.status_code == 200 and ">pat<" not in anonymous.text
        mine = proxy.get("/matrix", headers=USER)
        assert mine.headers["cache-control"].startswith("private")
        assert ">pat<" in mine.text  # their name in the header


def test_me_says_how_each_caller_signed_in(clients) -> None:
    anonymous = clients()
    answer = anonymous.get("/api/v1/me")
    assert answer.status_code == 401 and answer.headers["www-authenticate"] == "Bearer"
    browser = clients()
    assert sign_in(browser, "eddie").status_code == 303
    assert browser.get("/api/v1/me").json() == {
        "name": "eddie",
        "role": "editor",
        "via": "password",
    }
    made = browser.post(
        "/account/tokens",
        data={"label": "me"},
        headers={"Sec-Fetch-Site": "same-origin", "Origin": "http://testserver"},
    )
    token = re.search(r'id="new-token-value"[^>]*value="([^"]+)"', made.text).group(1)
    script = clients()
    mine = script.get("/api/v1/me", headers={"Authorization": f"Bearer {token}"})
    assert mine.json() == {"name": "eddie", "role": "editor", "via": "token"}


def test_the_users_page_says_whose_role_their_groups_set(proxied: FastAPI) -> None:
    with TestClient(proxied, client=PROXY) as proxy:
        admin = USER | {
            "X-Forwarded-User": "root@example.com",
            "X-Forwarded-Groups": "atlas-admins",
        }
        page = proxy.get("/admin/users", headers=admin)
        assert page.status_code == 200
        soup = BeautifulSoup(page.text, "html.parser")
        row = soup.select_one("#user-root td .role-source")
        assert row is not None and "trusted proxy" in row.get_text()
        assert soup.select_one("#user-eddie td .role-source") is None  # a local account


def test_someone_signed_in_elsewhere_is_told_they_have_no_password_here(proxied) -> None:
    with TestClient(proxied, client=PROXY) as proxy:
        page = BeautifulSoup(proxy.get("/account/password", headers=USER).text, "html.parser")
        assert "keeps no password for you" in page.select_one(".account-note").get_text()
        assert page.select_one("form[action='/account/password']") is None
