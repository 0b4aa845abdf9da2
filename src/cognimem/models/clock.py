"""Time helpers: every datetime inside cognimem is timezone-aware UTC."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)


def to_utc(value: datetime) -> datetime:
    """Aware datetimes are converted to UTC; naive ones are taken to be UTC already."""
    if value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    return value.astimezone(UTC)


def to_micros(value: datetime) -> int:
    return int(to_utc(value).timestamp() * 1_000_000)


def from_micros(value: int) -> datetime:
    return datetime.fromtimestamp(value / 1_000_000, tz=UTC)
