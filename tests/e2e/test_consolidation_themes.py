"""Themes through ``Memory`` on both backends: a speaker's turns on one topic scattered
over sessions become one summary of one whole sentence per turn, ranked among the
memories (the only summaries that are), and the turns it states give way to the
turns it does not (lifecycle/themes.py, recall/conversation/stated.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from cognimem import Memory
from cognimem.lifecycle.themes import sentences
from cognimem.models import ItemKind, ItemStatus, MemoryItem, Message, Scope
from cognimem.store.types import ItemFilter

T0 = datetime(2023, 5, 8, 13, 0, tzinfo=UTC)
# a day each, a week apart: the painting turns are scattered, one or two a session
SESSIONS = [
    [
        ("Claire", "I painted a sunset over the lake with watercolours."),
        ("Priya", "My kids started swimming lessons at the pool this week."),
        ("Claire", "The support group meets every Tuesday evening now."),
    ],
    [
        ("Priya", "We took the kids to a puppet show downtown."),
        ("Claire", "I painted a lake at dawn with watercolours again."),
        ("Priya", "I painted a sunrise with oils, my first since the autumn."),
    ],
    [
        ("Claire", "I painted the lake in autumn colours with watercolours."),
        ("Priya", "I baked rye bread for the neighbours on Saturday."),
        ("Claire", "My counseling application went in on Friday."),
    ],
]
PAINTED = {"D1:1", "D2:2", "D3:1"}


async def write(memory: Memory, sessions: list[list[tuple[str, str]]], first: int = 0) -> None:
    for s, turns in enumerate(sessions, first):
        await memory.write_batch(
            [
                Message(
                    content=text,
                    name=name,
                    occurred_at=T0 + timedelta(days=7 * s, minutes=i),
                    external_id=f"D{s + 1}:{i + 1}",
                )
                for i, (name, text) in enumerate(turns)
            ],
            user_id="u",
        )


async def themes(memory: Memory) -> list[MemoryItem]:
    flt = ItemFilter(scope=Scope(user_id="u"), kinds=(ItemKind.SUMMARY,))
    found = await memory.store.get_items("default", await memory.store.list_item_ids(flt, 100))
    return [s for s in found if s.key.startswith("theme:")]


async def test_scattered_turns_on_one_topic_become_a_theme_one_claim_per_turn(
    memory: Memory,
) -> None:
    await write(memory, SESSIONS)
    await memory.consolidate(user_id="u")
    [theme] = await themes(memory)
    assert theme.key.startswith("theme:Claire:")
    assert set(theme.external_ids) == PAINTED
    claims = theme.metadata["consolidation"]["claims"]
    assert len(claims) == len(PAINTED)
    for claim in claims:
        # each claim states exactly its turn, a whole sentence of what the turn said
        [event] = await memory.get_events(claim["event_ids"])
        assert claim["external_ids"] == [event.external_id]
        assert claim["text"].split(": ", 1)[1] in sentences(event.content)
    assert theme.text.startswith("Claire: 8 May 2023: I painted a sunset")
    assert sorted({e for c in claims for e in c["event_ids"]}) == sorted(theme.source_event_ids)
    # a second pass with nothing new changes nothing
    again = await memory.consolidate(user_id="u")
    assert (again.written, again.replaced) == (0, 0)
    assert [t.id for t in await themes(memory)] == [theme.id]


async def test_a_new_session_extends_the_theme_replacing_its_summary(memory: Memory) -> None:
    await write(memory, SESSIONS)
    await memory.consolidate(user_id="u")
    [before] = await themes(memory)
    await write(memory, [[("Claire", "I painted the frozen lake with watercolours.")]], first=3)
    await memory.consolidate(user_id="u")
    [after] = await themes(memory)
    assert after.key == before.key
    assert set(after.external_ids) == PAINTED | {"D4:1"}
    [old] = await memory.store.get_items("default", [before.id])
    assert old.status is ItemStatus.ARCHIVED


async def test_a_read_ranks_the_theme_and_the_turns_it_states_give_way(memory: Memory) -> None:
    await write(memory, SESSIONS)
    await memory.consolidate(user_id="u")
    [theme] = await themes(memory)
    packet = await memory.read(
        "did Claire paint a sunset, a lake at dawn and autumn colours?",
        user_id="u",
        reference_time=T0 + timedelta(days=30),
    )
    ranked = [i.id for i in packet.items]
    assert theme.id in ranked
    summaries = [i for i in packet.items if i.kind is ItemKind.SUMMARY]
    # the only summary ranked among the memories is the theme (gists stay in their section)
    assert [s.id for s in summaries] == [theme.id]
    [shown] = summaries
    assert {e for c in shown.claims for e in c.external_ids} == PAINTED
    # below the theme, every turn it states comes after every turn it does not
    below = packet.items[ranked.index(theme.id) + 1 :]
    stated = [set(i.external_ids) <= PAINTED for i in below]
    assert stated == sorted(stated)
    assert any(stated)
    assert not all(stated)
    # cut short, what gave way is what is cut: the packet keeps the theme and the turns
    # it does not state
    kept = ranked.index(theme.id) + 1 + stated.count(False)
    short = await memory.read(
        "did Claire paint a sunset, a lake at dawn and autumn colours?",
        user_id="u",
        reference_time=T0 + timedelta(days=30),
        limit=kept,
    )
    assert [i.id for i in short.items] == ranked[:kept]
    assert not any(set(i.external_ids) <= PAINTED for i in short.items if i.id != theme.id)


async def test_a_forgotten_turn_shifts_the_theme_which_replaces_its_earlier_run(
    memory: Memory,
) -> None:
    await write(memory, SESSIONS)
    await memory.consolidate(user_id="u")
    [before] = await themes(memory)
    first = before.metadata["consolidation"]["covers"][0]
    await memory.forget(ids=[first], user_id="u")
    await write(memory, [[("Claire", "I painted the frozen lake with watercolours.")]], first=3)
    await memory.consolidate(user_id="u")
    # one live theme, under its new first turn, no longer stating the forgotten one
    [after] = await themes(memory)
    assert after.key != before.key
    assert set(after.external_ids) == PAINTED - {"D1:1"} | {"D4:1"}
    [old] = await memory.store.get_items("default", [before.id])
    assert old.status is ItemStatus.ARCHIVED
    assert old.superseded_by == after.id
