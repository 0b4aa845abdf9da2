"""What is no longer true stops being recalled as true, through ``Memory`` on a real
database (SQLite and PostgreSQL): the episodes that state a superseded or invalidated
fact are marked (``superseded_by``, with history), ranked below what holds, and shown
with "no longer true (since ...)"; a read ``as_of`` a time inside the old value's
period still sees them unmarked."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from cognimem import Memory, Message
from cognimem.models import ContextPacket
from cognimem.models.knowledge import FactStatus

T0 = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)
MOVED = T0 + timedelta(days=60)
QUESTION = "Where do I live?"


def _line(packet: ContextPacket, item_id: str) -> str:
    [item] = [i for i in packet.items if i.id == item_id]
    return next(line for line in packet.to_markdown().splitlines() if item.text in line)


async def _item_of(memory: Memory, text: str) -> str:
    result = await memory.write(Message(content=text, occurred_at=T0), user_id="u")
    return result.messages[0].item_ids[0]


async def test_a_denied_fact_s_episode_is_marked_and_ranked_down(memory: Memory) -> None:
    seattle = await _item_of(memory, "I live in Seattle.")
    [fact] = await memory.facts(key="user:location:city", user_id="u")
    before = await memory.read(QUESTION, user_id="u", reference_time=T0 + timedelta(hours=1))
    [plain] = [i for i in before.items if i.id == seattle]
    assert plain.no_longer_true_since is None
    denied_at = T0 + timedelta(days=1)
    await memory.turn(
        Message(content="No, that's wrong. I never lived in Seattle.", occurred_at=denied_at),
        user_id="u",
    )
    item = await memory.get(seattle)
    assert item.superseded_by == fact.id
    assert [h.action for h in await memory.history(seattle)][-1] == "no_longer_true"

    after = await memory.read(
        QUESTION, user_id="u", reference_time=T0 + timedelta(days=2), explain=True
    )
    [marked] = [i for i in after.items if i.id == seattle]
    assert marked.no_longer_true_since == denied_at
    assert marked.score < plain.score
    assert "no longer true (since 2024-03-02)" in _line(after, seattle)
    [why] = [e for e in after.explain if e.id == seattle]
    assert why.signals["no_longer_true"] == 1.0
    assert why.reason is not None
    assert "no longer true (since 2024-03-02)" in why.reason


async def test_a_superseded_fact_s_episode_ranks_below_the_new_one(memory: Memory) -> None:
    seattle = await _item_of(memory, "I live in Seattle.")
    moved = await memory.write(
        Message(content="I moved to Portland, I live in Portland now.", occurred_at=MOVED),
        user_id="u",
    )
    portland = moved.messages[0].item_ids[0]
    facts = await memory.facts(key="user:location:city", include_history=True, user_id="u")
    assert sorted((f.value, f.status) for f in facts) == [
        ("Portland", FactStatus.ACTIVE),
        ("Seattle", FactStatus.SUPERSEDED),
    ]
    [new] = [f for f in facts if f.value == "Portland"]
    assert (await memory.get(seattle)).superseded_by == new.id

    later = await memory.read(QUESTION, user_id="u", reference_time=MOVED + timedelta(days=1))
    ids = [i.id for i in later.items]
    assert ids.index(seattle) > ids.index(portland)
    assert f"no longer true (since {MOVED:%Y-%m-%d})" in _line(later, seattle)

    # inside the Seattle period it held: found, first, and without the note or penalty
    then = await memory.read(QUESTION, user_id="u", as_of=T0 + timedelta(days=10), explain=True)
    assert then.items[0].id == seattle
    assert then.items[0].no_longer_true_since is None
    assert "no longer true" not in then.to_markdown()
    [why] = [e for e in then.explain if e.id == seattle]
    assert "no_longer_true" not in why.signals


async def test_a_conflict_s_losing_value_s_episode_is_marked_when_resolved_by_hand(
    memory: Memory,
) -> None:
    written = await memory.write_batch(
        [
            Message(content="I live in Paris", occurred_at=T0),
            Message(content="I live in Rome", occurred_at=T0),
        ],
        user_id="u",
    )
    paris_item, rome_item = (m.item_ids[0] for m in written.messages)
    [conflict] = await memory.conflicts(user_id="u")
    facts = await memory.facts(key="user:location:city", user_id="u")
    [paris] = [f for f in facts if f.value == "Paris"]
    assert (await memory.get(rome_item)).superseded_by is None  # open: both still hold

    await memory.resolve_conflict(conflict.id, winner_fact_id=paris.id)
    rome = await memory.get(rome_item)
    assert rome.superseded_by == paris.id
    assert rome.metadata["no_longer_true"]["reason"] == "superseded"
    [entry] = [h for h in await memory.history(rome_item) if h.action == "no_longer_true"]
    assert entry.actor == "api"
    assert (await memory.get(paris_item)).superseded_by is None

    later = await memory.read(QUESTION, user_id="u", reference_time=T0 + timedelta(days=1))
    ids = [i.id for i in later.items]
    assert ids.index(rome_item) > ids.index(paris_item)
    assert f"no longer true (since {T0:%Y-%m-%d})" in _line(later, rome_item)
