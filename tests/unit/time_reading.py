"""What the time parser's tests share: a reference Wednesday, one mention read from a
text, its span as dates, and an event told before as ``find_times`` takes it."""

from __future__ import annotations

from datetime import UTC, date, datetime

from cognimem.text.calendar import utc_at
from cognimem.text.temporal import TimeMention, find_times

# a Wednesday, mid-afternoon
WED = datetime(2024, 6, 12, 15, 0, tzinfo=UTC)


def one(text: str, reference: datetime = WED, **options: object) -> TimeMention:
    """The one time ``text`` names, read at ``reference``; fails unless there is one."""
    found = find_times(text, reference, **options)  # type: ignore[arg-type]
    assert len(found) == 1, found
    return found[0]


def days(mention: TimeMention) -> tuple[date, date]:
    return mention.start.date(), mention.end.date()


def told(first: date, end: date) -> dict[str, object]:
    """The event told before, as ``find_times`` takes it."""
    return {"after": (utc_at(first), utc_at(end))}
