"""The conversation the told-before and told-after tests share the shape of: a
three-turn exchange (the teller, the other speaker, the teller again), then, days later,
the teller's chatter on the same topic that tells of no time."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from cognimem import Memory, Message

# the occasions the chatter is formatted with, one message per (occasion, template)
OCCASIONS = ("rainy evenings", "long weekends", "cold mornings", "quiet Sundays", "busy Mondays")


async def tell(
    memory: Memory,
    *,
    user: str,
    speakers: tuple[str, str],
    exchange: tuple[str, str, str],
    chatter: Sequence[str],
    at: datetime,
) -> None:
    """Write ``exchange`` at ``at`` (teller, other, teller, a second apart), then each
    ``chatter`` template formatted with every occasion, by the teller, three days on."""
    teller, other = speakers
    names = (teller, other, teller)
    turns = [
        Message(content=text, name=name, occurred_at=at + timedelta(seconds=n))
        for n, (text, name) in enumerate(zip(exchange, names, strict=True))
    ]
    later = at + timedelta(days=3)
    pairs = [(template, occasion) for occasion in OCCASIONS for template in chatter]
    said = [
        Message(content=t.format(o), name=teller, occurred_at=later + timedelta(minutes=n))
        for n, (t, o) in enumerate(pairs)
    ]
    await memory.write_batch(turns, user_id=user)
    await memory.write_batch(said, user_id=user)
