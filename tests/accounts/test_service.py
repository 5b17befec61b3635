"""Users, sessions and tokens without HTTP: the rules the CLI and the pages share."""

from datetime import timedelta

import pytest
from sqlalchemy import Engine
from sqlmodel import Session, select

from app.accounts import users as service
from app.accounts.models import ApiToken, LoginSession, Role, utcnow
from app.accounts.users import AccountError

pytestmark = pytest.mark.database

PASSWORD = "correct horse battery staple"
DAY = timedelta(days=1)


@pytest.fixture
def session(empty_engine: Engine):
    with Session(empty_engine) as session:
        service.add_user(session, "ada", "admin", PASSWORD)
        service.add_user(session, "eddie", "editor", PASSWORD)
        yield session


def test_every_problem_with_a_new_user_is_named(session) -> None:
    with pytest.raises(AccountError) as caught:
        service.add_user(session, "Bad Name!", "boss", "short")
    assert set(caught.value.problems) == {"name", "role", "password"}
    assert "'Bad Name!' is not allowed" in caught.value.problems["name"]
    assert "use one of viewer, editor, admin" in caught.value.problems["role"]
    with pytest.raises(AccountError, match="already a user called 'ada'"):
        service.add_user(session, " ADA ", "viewer", PASSWORD)


def test_names_are_stored_lowercase_and_found_however_typed(session) -> None:
    user = service.add_user(session, "Vera", "viewer", PASSWORD)
    assert user.name == "vera"
    assert service.get_user(session, " VERA ") is user


def test_the_last_active_admin_cannot_be_demoted_or_disabled(session) -> None:
    with pytest.raises(AccountError, match="only active admin"):
        service.set_role(session, "ada", "editor")
    with pytest.raises(AccountError, match="only active admin"):
        service.disable_user(session, "ada")
    service.set_role(session, "eddie", "admin")
    service.disable_user(session, "ada")  # eddie is still an admin


def test_disabling_ends_sessions_and_revokes_tokens(session) -> None:
    token, _ = service.start_session(session, 2, "10.0.0.1", DAY)
    _, raw = service.add_token(session, "eddie")
    assert service.session_identity(session, token) is not None
    assert service.token_identity(session, raw) is not None
    assert service.disable_user(session, "eddie") == (1, 1)
    assert service.session_identity(session, token) is None
    assert service.token_identity(session, raw) is None
    assert session.exec(select(LoginSession)).all() == []
    # Enabling lets the user sign in again, but the old token stays revoked.
    service.enable_user(session, "eddie")
    assert service.token_identity(session, raw) is None


def test_a_session_ends_when_it_expires_or_is_ended(session) -> None:
    token, expires = service.start_session(session, 2, None, DAY)
    who, stale = service.session_identity(session, token)
    assert (who.name, who.role, who.via, stale) == ("eddie", Role.editor, "session", False)
    assert service.session_identity(session, token, now=expires + timedelta(seconds=1)) is None
    # Only the token's hash is stored.
    assert session.exec(select(LoginSession.id)).one() == service.digest(token) != token
    assert service.end_session(session, token)
    assert service.session_identity(session, token) is None


def test_last_seen_is_due_a_write_only_every_few_minutes(session) -> None:
    token, _ = service.start_session(session, 2, None, DAY)
    assert service.session_identity(session, token, now=utcnow() + timedelta(minutes=1))[1] is False
    assert service.session_identity(session, token, now=utcnow() + timedelta(minutes=6))[1] is True


def test_a_new_password_ends_the_users_sessions(session) -> None:
    token, _ = service.start_session(session, 2, None, DAY)
    assert service.set_password(session, "eddie", "another long passphrase") == 1
    assert service.session_identity(session, token) is None
    with pytest.raises(AccountError, match="at least 12"):
        service.set_password(session, "eddie", "short")


def test_tokens_expire_and_are_revoked(session) -> None:
    now = utcnow()
    token, raw = service.add_token(session, "eddie", days=1, label="ci", now=now)
    assert raw.startswith("atl_") and len(raw) > 40
    stored = session.exec(select(ApiToken)).one()
    # Only the hash and the first characters (to tell tokens apart in a list) are kept.
    assert stored.token_hash == service.digest(raw) and stored.prefix == raw[:10]
    assert service.token_identity(session, raw, now=now + timedelta(hours=23)).name == "eddie"
    assert service.token_identity(session, raw, now=now + timedelta(hours=25)) is None
    assert service.token_identity(session, raw + "x", now=now) is None
    service.revoke_token(session, token.id)
    assert service.token_identity(session, raw, now=now) is None
    row = service.list_tokens(session)[0]
    assert (row.user, row.label, row.status(now)) == ("eddie", "ci", "revoked")


def test_tokens_need_an_enabled_user_and_a_positive_lifetime(session) -> None:
    with pytest.raises(AccountError, match="at least 1 day"):
        service.add_token(session, "eddie", days=0)
    with pytest.raises(AccountError, match="no user called 'nobody'"):
        service.add_token(session, "nobody")


def test_the_user_list_counts_live_sessions_and_tokens(session) -> None:
    service.start_session(session, 2, None, DAY)
    service.start_session(session, 2, None, DAY)
    service.add_token(session, "eddie")
    revoked, _ = service.add_token(session, "eddie")
    service.revoke_token(session, revoked.id)
    rows = {r.name: r for r in service.list_users(session)}
    assert (rows["eddie"].sessions, rows["eddie"].tokens) == (2, 1)
    assert (rows["ada"].sessions, rows["ada"].tokens, rows["ada"].last_seen_at) == (0, 0, None)


def test_a_new_user_with_a_run_of_digits_for_a_password_is_refused(session) -> None:
    with pytest.raises(AccountError) as caught:
        service.add_user(session, "grace", "editor", "123456789012")
    assert set(caught.value.problems) == {"password"}
    assert "run of keys in order" in caught.value.problems["password"]
