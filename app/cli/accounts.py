"""The user and token commands: who can sign in, with which role, and API tokens for scripts."""

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated

import typer
from sqlmodel import Session

from app.accounts import users as accounts
from app.accounts.models import Role, utcnow
from app.accounts.passwords import password_problem
from app.cli.common import (
    count,
    database,
    prepare_engine,
    print_table,
    quiet_unless_changed,
    refuse,
)
from app.db import writer
from app.seeding.prepare import SchemaError
from app.settings import Settings


@contextmanager
def _accounts() -> Iterator[Session]:
    """One write transaction for a user or token command; a refusal writes nothing."""
    settings = Settings()
    with database(settings) as engine:
        # A new database is migrated and seeded first, as `serve` would (said on stderr).
        prepare_engine(engine, settings, quiet_unless_changed)
        try:
            # Not expiring on commit: the commands print what they wrote after it is committed.
            with Session(writer(engine), expire_on_commit=False) as session, session.begin():
                yield session
        except accounts.AccountError as exc:
            refuse("\n".join(exc.problems.values()))
        except SchemaError as exc:
            refuse(str(exc))


def _read_password(name: str, from_stdin: bool) -> str:
    """The new password: one line of standard input, or typed twice at a terminal. Never an
    argument: arguments show in `ps` and in shell history."""
    if from_stdin:
        lines = sys.stdin.read().splitlines()
        if len(lines) > 1:
            refuse("Standard input holds more than one line; give the password alone.")
        password = lines[0] if lines else ""
    elif sys.stdin.isatty():
        password = typer.prompt("Password", hide_input=True, confirmation_prompt=True)
    else:
        refuse("Give --password-stdin to read the password from standard input.")
    if problem := password_problem(password, name):
        refuse(problem)
    return password


PasswordStdin = Annotated[
    bool, typer.Option("--password-stdin", help="Read the password from standard input.")
]


def user_add(
    name: str,
    role: Annotated[Role, typer.Option(help="What the user may do.")] = Role.viewer,
    password_stdin: PasswordStdin = False,
) -> None:
    """Add a user who signs in with NAME and a password."""
    password = _read_password(name, password_stdin)
    with _accounts() as session:
        user = accounts.add_user(session, name, role.value, password)
    typer.echo(f"Added {user.name} ({user.role}).")


def user_list() -> None:
    """Every user, their role and status, live sessions and tokens."""
    with _accounts() as session:
        rows = accounts.list_users(session)
    if not rows:
        typer.echo("No users yet: add one with inference-atlas user add NAME --role admin.")
        return
    table = [("NAME", "ROLE", "STATUS", "SESSIONS", "TOKENS", "ADDED")] + [
        (
            u.name,
            u.role,
            "disabled" if u.disabled else "active",
            str(u.sessions),
            str(u.tokens),
            u.created_at.strftime("%Y-%m-%d"),
        )
        for u in rows
    ]
    print_table(table)


def user_set_role(name: str, role: Role) -> None:
    """Change what a user may do."""
    with _accounts() as session:
        user = accounts.set_role(session, name, role.value)
    typer.echo(f"{user.name} is now {user.role}.")


def user_disable(name: str) -> None:
    """Stop a user signing in: ends their browser sessions and revokes their API tokens."""
    with _accounts() as session:
        ended, revoked = accounts.disable_user(session, name)
    typer.echo(
        f"Disabled {accounts.normalise_name(name)}: {count(ended, 'browser session')} ended, "
        f"{count(revoked, 'API token')} revoked."
    )


def user_enable(name: str) -> None:
    """Let a disabled user sign in again (their old tokens stay revoked)."""
    with _accounts() as session:
        user = accounts.enable_user(session, name)
    typer.echo(f"{user.name} can sign in again.")


def user_set_password(name: str, password_stdin: PasswordStdin = False) -> None:
    """Give a user a new password; their browser sessions end."""
    password = _read_password(name, password_stdin)
    with _accounts() as session:
        ended = accounts.set_password(session, name, password)
    who = accounts.normalise_name(name)
    typer.echo(f"Changed the password of {who}; {count(ended, 'browser session')} ended.")


def token_add(
    user: Annotated[str, typer.Option("--user", help="Whose token: it acts with their role.")],
    expires: Annotated[
        int | None, typer.Option("--expires", help="Days until it stops working (default: never).")
    ] = None,
    label: Annotated[str | None, typer.Option(help="What the token is for.")] = None,
) -> None:
    """Make an API token. It is printed once, on standard output; only its hash is kept."""
    with _accounts() as session:
        token, raw = accounts.add_token(session, user, expires, label)
    until = token.expires_at.strftime("%Y-%m-%d %H:%M UTC") if token.expires_at else "never"
    typer.echo(
        f"Token {token.id} for {accounts.normalise_name(user)} (expires: {until}). "
        "It is shown this once: store it now.",
        err=True,
    )
    typer.echo(raw)


def token_list(
    user: Annotated[str | None, typer.Option("--user", help="Only this user's tokens.")] = None,
) -> None:
    """Every token: id, owner, label, first characters, dates and status."""
    with _accounts() as session:
        rows = accounts.list_tokens(session, user)
    if not rows:
        typer.echo("No API tokens.")
        return
    now = utcnow()
    table = [("ID", "USER", "LABEL", "STARTS", "CREATED", "EXPIRES", "STATUS")] + [
        (
            str(t.id),
            t.user,
            t.label or "-",
            t.prefix + "…",
            t.created_at.strftime("%Y-%m-%d"),
            t.expires_at.strftime("%Y-%m-%d") if t.expires_at else "never",
            t.status(now),
        )
        for t in rows
    ]
    print_table(table)


def token_revoke(token_id: Annotated[int, typer.Argument(metavar="ID")]) -> None:
    """Stop a token working at once."""
    with _accounts() as session:
        token = accounts.revoke_token(session, token_id)
        revoked_at = token.revoked_at
    typer.echo(f"Token {token_id} revoked ({revoked_at:%Y-%m-%d %H:%M} UTC).")
