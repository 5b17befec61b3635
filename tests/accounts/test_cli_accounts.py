"""inference-atlas user … and token …: passwords from stdin, tokens printed once."""

from pathlib import Path

import pytest
from sqlmodel import Session
from typer.testing import CliRunner

from app.accounts import users as service
from app.accounts.passwords import verify_password
from app.cli import cli
from app.db import make_engine
from tests.conftest import SEED_DIR
from tests.databases import copy_of

pytestmark = pytest.mark.database

PASSWORD = "correct horse battery staple"


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, database_url: str) -> str:
    """A seeded database of the test's own: the commands would otherwise migrate and seed
    an empty one first (tests/test_cli.py pins that), which is not what these tests are about."""
    url = copy_of(database_url, tmp_path, SEED_DIR)
    monkeypatch.setenv("DATABASE_URL", url)
    return url


def run(*args: str, stdin: str | None = None):
    return CliRunner().invoke(cli, list(args), input=stdin)


def test_user_add_reads_the_password_from_stdin(db: str) -> None:
    result = run("user", "add", "Ada", "--role", "admin", "--password-stdin", stdin=PASSWORD + "\n")
    assert result.exit_code == 0, result.output
    assert result.stdout == "Added ada (admin).\n"
    engine = make_engine(db)
    with Session(engine) as session:
        user = service.get_user(session, "ada")
        assert user is not None and user.role == "admin"
        assert PASSWORD not in user.password_hash
    engine.dispose()


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        ("", "The password is empty."),
        ("short\n", "use at least 12"),
        ("first line of it\nsecond line\n", "more than one line"),
    ],
)
def test_bad_passwords_are_refused_and_nothing_is_written(db: str, stdin, message) -> None:
    result = run("user", "add", "ada", "--password-stdin", stdin=stdin)
    assert result.exit_code == 1
    assert message in result.stderr and "Nothing was written." in result.stderr
    assert "No users yet" in run("user", "list").stdout


def test_a_password_is_never_taken_from_the_arguments(db: str) -> None:
    result = run("user", "add", "ada", "--password", PASSWORD)
    assert result.exit_code == 2  # no such option
    # Without --password-stdin and without a terminal to prompt on, it says what to do.
    result = run("user", "add", "ada", stdin="")
    assert result.exit_code == 1
    assert "--password-stdin" in result.stderr


def test_listing_changing_and_disabling_users(db: str) -> None:
    run("user", "add", "ada", "--role", "admin", "--password-stdin", stdin=PASSWORD)
    run("user", "add", "eddie", "--role", "editor", "--password-stdin", stdin=PASSWORD)
    assert run("user", "add", "eddie", "--password-stdin", stdin=PASSWORD).exit_code == 1
    result = run("token", "add", "--user", "eddie")
    lines = run("user", "list").stdout.splitlines()
    assert lines[0].split() == ["NAME", "ROLE", "STATUS", "SESSIONS", "TOKENS", "ADDED"]
    assert lines[2].split()[:5] == ["eddie", "editor", "active", "0", "1"]
    assert run("user", "set-role", "eddie", "viewer").stdout == "eddie is now viewer.\n"
    assert run("user", "set-role", "eddie", "boss").exit_code == 2  # not a role
    result = run("user", "disable", "eddie")
    assert result.stdout == "Disabled eddie: 0 browser sessions ended, 1 API token revoked.\n"
    assert run("user", "list").stdout.splitlines()[2].split()[:5] == [
        "eddie",
        "viewer",
        "disabled",
        "0",
        "0",
    ]
    refused = run("user", "disable", "ada")
    assert refused.exit_code == 1 and "only active admin" in refused.stderr
    assert run("user", "enable", "eddie").stdout == "eddie can sign in again.\n"
    missing = run("user", "set-role", "nobody", "editor")
    assert missing.exit_code == 1 and "There is no user called 'nobody'." in missing.stderr


def test_set_password_changes_it_and_ends_sessions(db: str) -> None:
    run("user", "add", "ada", "--password-stdin", stdin=PASSWORD)
    result = run("user", "set-password", "ada", "--password-stdin", stdin="another long secret\n")
    assert result.exit_code == 0
    assert result.stdout == "Changed the password of ada; 0 browser sessions ended.\n"
    engine = make_engine(db)
    with Session(engine) as session:
        user = service.get_user(session, "ada")
        assert verify_password("another long secret", user.password_hash)[0]
    engine.dispose()


def test_a_token_is_printed_once_alone_on_stdout_and_works(db: str) -> None:
    run("user", "add", "eddie", "--role", "editor", "--password-stdin", stdin=PASSWORD)
    result = run("token", "add", "--user", "eddie", "--expires", "30", "--label", "nightly CI")
    assert result.exit_code == 0, result.output
    token = result.stdout.strip()
    assert token.startswith("atl_") and "\n" not in token
    assert "shown this once" in result.stderr and "Token 1 for eddie" in result.stderr
    engine = make_engine(db)
    with Session(engine) as session:
        assert service.token_identity(session, token).name == "eddie"
    listed = run("token", "list").stdout
    assert token not in listed
    row = listed.splitlines()[1]
    assert row.split()[:3] == ["1", "eddie", "nightly"] and row.endswith("active")
    assert run("token", "revoke", "1").exit_code == 0
    assert run("token", "list", "--user", "eddie").stdout.splitlines()[1].endswith("revoked")
    with Session(engine) as session:
        assert service.token_identity(session, token) is None
    engine.dispose()
    assert run("token", "revoke", "7").exit_code == 1
    assert run("token", "add", "--user", "eddie", "--expires", "0").exit_code == 1
