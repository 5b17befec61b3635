"""Alembic's entry point: run by migrate.py beside it (and by `alembic` in a checkout).

The schema is SQLModel.metadata; batch mode makes the same scripts work on SQLite (which can
barely ALTER a table) and on PostgreSQL.
"""

from typing import Any, Literal

from alembic import context
from alembic.autogenerate.api import AutogenContext
from sqlalchemy import Connection, TypeDecorator
from sqlmodel import SQLModel
from sqlmodel.sql.sqltypes import AutoString

from app import models  # noqa: F401  (registers the tables on SQLModel.metadata)
from app.db import make_engine

target_metadata = SQLModel.metadata


def render_item(type_: str, obj: Any, _context: AutogenContext) -> str | Literal[False]:
    """Write our types as plain SQLAlchemy ones, so a script never imports app code."""
    if type_ != "type":
        return False
    if isinstance(obj, AutoString):
        return f"sa.String(length={obj.length})" if obj.length else "sa.String()"
    if isinstance(obj, TypeDecorator):  # e.g. UTCDateTime: stored as its plain type
        return f"sa.{obj.impl!r}"
    return False


def _database_url() -> str:
    from app.settings import Settings

    # `alembic -x url=...` picks another database; otherwise the app's own setting.
    return context.get_x_argument(as_dictionary=True).get("url") or Settings().database_url


def configure(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=True,
        compare_type=True,
        render_item=render_item,
    )


def run_online() -> None:
    # app/migrations/migrate.py hands over a connection inside its transaction (and its lock).
    connection = context.config.attributes.get("connection")
    if connection is not None:
        configure(connection)
        with context.begin_transaction():
            context.run_migrations()
        return
    # The `alembic` command in a checkout (e.g. `alembic revision --autogenerate`).
    engine = make_engine(_database_url())
    with engine.begin() as connection:
        configure(connection)
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


def run_offline() -> None:
    context.configure(
        url=_database_url(),
        target_metadata=target_metadata,
        literal_binds=True,
        render_as_batch=True,
        render_item=render_item,
    )
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
