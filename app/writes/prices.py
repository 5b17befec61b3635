"""Hardware prices: editors set what one GPU of a hardware entry costs an hour.

Each change is recorded in the history (entity `hardware_price`, keyed by the entry's slug)
in the transaction that makes it, like every team write.
"""

import datetime as dt

from pydantic import BaseModel, ConfigDict, Field
from sqlmodel import Session, select

from app.accounts.identity import SignedIn
from app.data_version.version import bump_data_version
from app.models import Hardware, HardwarePrice
from app.writes.revisions import record

ENTITY = "hardware_price"


class PriceIn(BaseModel):
    """What an editor sends: the price and where it comes from."""

    model_config = ConfigDict(extra="forbid")

    usd_per_gpu_hour: float = Field(gt=0, le=10_000, description="US dollars per GPU per hour")
    basis: str = Field(
        min_length=3,
        max_length=300,
        description="where the price comes from: provider, on-demand or reserved, date",
    )


class PriceOut(BaseModel):
    hardware: str
    usd_per_gpu_hour: float
    basis: str
    updated_at: dt.datetime


def set_price(session: Session, who: SignedIn, slug: str, price: PriceIn) -> PriceOut | None:
    """Set (or change) the price of entry `slug`; None when there is no such entry."""
    entry = session.exec(select(Hardware).where(Hardware.slug == slug)).first()
    if entry is None or entry.withdrawn:
        return None
    row = session.get(HardwarePrice, slug)
    before = _doc(row) if row else None
    if row is None:
        row = HardwarePrice(hardware=slug, usd_per_gpu_hour=0, basis="", updated_at=_now())
    row.usd_per_gpu_hour, row.basis = price.usd_per_gpu_hour, price.basis.strip()
    row.user_id, row.updated_at = who.user_id, _now()
    session.add(row)
    record(
        session,
        actor=who.name,
        user_id=who.user_id,
        entity=ENTITY,
        key=slug,
        action="update" if before else "create",
        before=before,
        after=_doc(row),
    )
    bump_data_version(session)
    return PriceOut(
        hardware=slug,
        usd_per_gpu_hour=row.usd_per_gpu_hour,
        basis=row.basis,
        updated_at=row.updated_at,
    )


def prices(session: Session) -> dict[str, HardwarePrice]:
    """Every set price, by hardware slug."""
    return {row.hardware: row for row in session.exec(select(HardwarePrice))}


def _doc(row: HardwarePrice) -> dict[str, object]:
    return {"hardware": row.hardware, "usd_per_gpu_hour": row.usd_per_gpu_hour, "basis": row.basis}


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)
