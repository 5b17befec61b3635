"""The render cache is shared, so only anonymous requests may use it; a signed-in request
is built for that user alone, on one database connection at a time."""

from datetime import timedelta

import pytest
from bs4 import BeautifulSoup
from sqlalchemy import event, update
from sqlmodel import Session, select

from app.accounts.models import LoginSession, utcnow
from app.web.cache import PUBLIC_CACHING, VARY

pytestmark = pytest.mark.database


def test_pages_vary_on_cookie_and_authorization(clients) -> None:
    response = clients().get("/sources")
    assert "Cookie" in response.headers["vary"] and "Authorization" in response.headers["vary"]
    assert response.headers["vary"] == VARY


def test_a_signed_in_page_is_neither_served_from_nor_put_in_the_cache(
    clients, accounts_app
) -> None:
    cache = accounts_app.state.render_cache
    cache.clear()
    anonymous = clients()
    first = anonymous.get("/systems/sglang")
    stored = cache.bytes_used
    assert stored > 0, "an anonymous page is cached"
    assert BeautifulSoup(first.text, "html.parser").select_one(".signed-in-as") is None

    eddie = clients("eddie")
    mine = eddie.get("/systems/sglang")
    assert mine.headers["cache-control"] == "private, no-cache"
    assert BeautifulSoup(mine.text, "html.parser").select_one(".signed-in-as").text == "eddie"
    eddie.get("/systems/tgi")  # a page nobody asked for yet: built, and not kept
    assert cache.bytes_used == stored

    again = anonymous.get("/systems/sglang")
    assert "eddie" not in again.text
    assert again.headers["etag"] == first.headers["etag"]


def test_a_cookie_that_names_no_session_is_served_like_anyone(clients) -> None:
    client = clients()
    client.cookies.set("atlas_session", "forged.value.here")
    response = client.get("/sources")
    assert response.status_code == 200
    assert response.headers["cache-control"] == PUBLIC_CACHING


def test_a_signed_in_request_uses_one_connection_at_a_time(clients, accounts_app) -> None:
    """The user lookup, the last-seen write and the page all run on the request's own
    session: at no moment does the request hold two connections."""
    client = clients("eddie")
    engine = accounts_app.state.engine
    with Session(engine) as session, session.begin():
        # Make the session's last visit old, so this request also writes last_seen_at.
        session.exec(update(LoginSession).values(last_seen_at=utcnow() - timedelta(hours=1)))
    # Nothing else reads the database meanwhile: a signed-in request never waits for the
    # shared version read of the page cache (app/web/edge/page_cache.py).
    in_use = {"now": 0, "most": 0, "checkouts": 0}

    def checkout(*_args: object) -> None:
        in_use["now"] += 1
        in_use["checkouts"] += 1
        in_use["most"] = max(in_use["most"], in_use["now"])

    def checkin(*_args: object) -> None:
        in_use["now"] -= 1

    event.listen(engine, "checkout", checkout)
    event.listen(engine, "checkin", checkin)
    try:
        response = client.get("/matrix?kind=engine")
    finally:
        event.remove(engine, "checkout", checkout)
        event.remove(engine, "checkin", checkin)
    assert response.status_code == 200 and "eddie" in response.text
    assert in_use["checkouts"] >= 2  # lookup, last-seen write, page
    assert in_use["most"] == 1
    with Session(engine) as session:
        seen = session.exec(select(LoginSession.last_seen_at)).all()
    assert any(utcnow() - s < timedelta(minutes=1) for s in seen), "last_seen_at was written"
