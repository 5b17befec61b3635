"""Each account may upload IMPORTS_PER_DAY result files in a rolling day (a preview parses up
to 50 MB and is kept a day); past that a 429 with Retry-After, before the file is parsed."""

import datetime as dt
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine
from sqlmodel import Session, col, select

from app.accounts import users as accounts
from app.db import writer
from app.models import ImportBatch
from app.writes import imports
from tests.team.test_import_api import CONTEXT, SWEEP, upload
from tests.team.test_write_api import token_for

pytestmark = pytest.mark.database


def test_past_the_days_uploads_an_editor_gets_429_until_the_oldest_is_a_day_old(
    accounts_app: Any, accounts_engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(imports, "IMPORTS_PER_DAY", 2)
    with Session(writer(accounts_engine)) as session, session.begin():
        accounts.add_user(session, "quinn", "editor", "a long enough password here")
    quinn = TestClient(accounts_app, headers=token_for(accounts_engine, "quinn"))
    assert [upload(quinn, SWEEP, **CONTEXT).status_code for _ in range(2)] == [201, 201]
    refused = upload(quinn, SWEEP, **CONTEXT)
    assert refused.status_code == 429
    assert "2 result files in the last 24 hours" in refused.json()["detail"]
    assert 0 < int(refused.headers["retry-after"]) <= 86_400
    # Another editor's quota is their own.
    eddie = TestClient(accounts_app, headers=token_for(accounts_engine, "eddie"))
    assert upload(eddie, SWEEP, **CONTEXT).status_code == 201
    # A day later the oldest upload no longer counts.
    with Session(writer(accounts_engine)) as session, session.begin():
        user_id = accounts.get_user(session, "quinn").id  # type: ignore[union-attr]
        mine = select(ImportBatch).where(ImportBatch.user_id == user_id)
        oldest = session.exec(mine.order_by(col(ImportBatch.id))).first()
        assert oldest is not None
        oldest.created_at = dt.datetime.now(dt.UTC) - dt.timedelta(days=1, minutes=1)
    assert upload(quinn, SWEEP, **CONTEXT).status_code == 201
