"""Failed sign-ins are limited per account name and per address.

The counts live in the database (`sign_in_failure`), so every app process serving the
instance sees the same ones. Only failures are stored; rows older than the window are
pruned whenever a failure is recorded.
"""

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func
from sqlmodel import Session, col, select

from app.accounts.models import SignInFailure

WINDOW = timedelta(minutes=15)
PER_ACCOUNT = 5
# An office or a VPN puts many people behind one address: allow more there.
PER_ADDRESS = 20


@dataclass(frozen=True)
class Blocked:
    """Sign-in is refused for now; `retry_after` seconds until the oldest failure expires."""

    scope: str  # "account" or "address"
    retry_after: int

    @property
    def message(self) -> str:
        whose = "for this account" if self.scope == "account" else "from your address"
        minutes = max(1, math.ceil(self.retry_after / 60))
        wait = f"{minutes} minute{'s' if minutes != 1 else ''}"
        return f"Too many failed sign-ins {whose}. Try again in {wait}."


def blocked(session: Session, name: str, address: str, now: datetime) -> Blocked | None:
    """Whether a sign-in for `name` from `address` must be refused without checking it."""
    since = now - WINDOW
    for scope, column, value, limit in (
        ("account", SignInFailure.name, name, PER_ACCOUNT),
        ("address", SignInFailure.address, address, PER_ADDRESS),
    ):
        count = session.exec(
            select(func.count()).where(column == value, SignInFailure.at > since)
        ).one()
        if count < limit:
            continue
        # The limit lifts when the count falls below it: when the (count - limit + 1)th
        # oldest failure leaves the window.
        lifts_with = session.exec(
            select(SignInFailure.at)
            .where(column == value, SignInFailure.at > since)
            .order_by(col(SignInFailure.at))
            .offset(count - limit)
            .limit(1)
        ).one()
        retry = (lifts_with + WINDOW - now).total_seconds()
        return Blocked(scope, max(1, math.ceil(retry)))
    return None
