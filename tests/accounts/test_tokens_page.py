"""/account/tokens: users make and revoke their own API tokens in the browser; admins
manage everyone's."""

import re

import pytest
from fastapi.testclient import TestClient

from tests.accounts.conftest import SAME_ORIGIN

pytestmark = pytest.mark.database

TOKEN = re.compile(r'id="new-token-value"[^>]*value="([^"]+)"')


def make(client: TestClient, **form: str):
    return client.post("/account/tokens", data=form, headers=SAME_ORIGIN, follow_redirects=False)


def bearer(raw: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {raw}"}


def test_a_signed_in_user_makes_a_token_that_is_shown_once_and_works(clients) -> None:
    vera = clients("vera")
    made = make(vera, label="my laptop", expires="30")
    assert made.status_code == 201
    assert made.headers["cache-control"] == "no-store"
    match = TOKEN.search(made.text)
    assert match, made.text
    raw = match.group(1)
    # The token reads the API as vera; the listing afterwards shows only its first characters.
    assert clients().get("/api/v1/systems", headers=bearer(raw)).status_code == 200
    listing = vera.get("/account/tokens")
    assert "my laptop" in listing.text
    assert raw not in listing.text
    assert raw[:10] in listing.text


def test_revoking_a_token_stops_it_at_once(clients) -> None:
    eddie = clients("eddie")
    raw = TOKEN.search(make(eddie, label="ci", expires="").text).group(1)  # type: ignore[union-attr]
    token_id = re.search(
        r'action="/account/tokens/(\d+)/revoke"', eddie.get("/account/tokens").text
    )
    assert token_id
    revoked = eddie.post(
        f"/account/tokens/{token_id.group(1)}/revoke", headers=SAME_ORIGIN, follow_redirects=False
    )
    assert revoked.status_code == 303
    assert "was revoked" in eddie.get(revoked.headers["location"]).text
    assert clients().get("/api/v1/systems", headers=bearer(raw)).status_code == 401


def test_someone_elses_token_cannot_be_revoked_or_seen_by_a_non_admin(clients) -> None:
    ada, vera = clients("ada"), clients("vera")
    made = make(ada, label="admin script", expires="7")
    token_id = re.search(r"Token (\d+) for ada", made.text)
    assert token_id
    assert "admin script" not in vera.get("/account/tokens").text
    refused = vera.post(
        f"/account/tokens/{token_id.group(1)}/revoke", headers=SAME_ORIGIN, follow_redirects=False
    )
    assert refused.status_code == 404
    assert f"no token with id {token_id.group(1)}" in refused.text
    assert "admin script" in ada.get("/account/tokens").text


def test_an_admin_makes_a_token_for_another_user_and_sees_everyones(clients) -> None:
    ada = clients("ada")
    made = make(ada, label="eddie's importer", expires="90", user="eddie")
    assert made.status_code == 201
    assert "for eddie" in made.text
    raw = TOKEN.search(made.text).group(1)  # type: ignore[union-attr]
    # It acts as eddie (an editor): a write with a bad body gets past the role check to a 422.
    write = clients().post("/api/v1/notes", json={}, headers=bearer(raw))
    assert write.status_code == 422
    assert "Everyone else" in ada.get("/account/tokens").text


def test_a_non_admin_cannot_make_a_token_for_someone_else(clients) -> None:
    refused = make(clients("eddie"), label="x", expires="1", user="ada")
    assert refused.status_code == 422
    assert "Only an admin may make a token for someone else" in refused.text
    assert TOKEN.search(refused.text) is None


@pytest.mark.parametrize("expires", ["0", "-3", "soon", "99999"])
def test_a_bad_expiry_names_the_field_and_makes_nothing(clients, expires: str) -> None:
    vera = clients("vera")
    before = vera.get("/account/tokens").text.count('id="token-')
    refused = make(vera, label="x", expires=expires)
    assert refused.status_code == 422
    assert "A whole number of days from 1 to 3,650" in refused.text
    assert vera.get("/account/tokens").text.count('id="token-') == before


def test_anonymous_people_are_sent_to_sign_in(clients) -> None:
    anonymous = clients()
    page = anonymous.get("/account/tokens", follow_redirects=False)
    assert page.status_code in (303, 307)
    assert page.headers["location"].startswith("/login")
    posted = make(anonymous, label="x")
    assert posted.status_code in (303, 307, 401)
