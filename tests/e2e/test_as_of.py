"""As-of reads (bi-temporal, issue 31 item 5): a scripted life of 32 moves and changes
(home, job, diet, partner), written through ``Memory.write`` with the times they were
said, and read back by valid time ("where did I live in March 2023?", ``as_of``) and by
recorded time (``as_of_recorded``), on both backends."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest

from cognimem import Memory
from cognimem.config import Settings
from cognimem.errors import InvalidInput
from cognimem.models import ContextPacket
from cognimem.providers.fakes import HashingEmbedder

USER = "ana"
START = datetime(2023, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class Topic:
    key: str
    day: int  # the day of the month its changes are said on
    question: str  # "... in <month year>?"
    now_question: str  # the same question for an as-of read
    says: tuple[tuple[str, str], ...]  # (what is said, the value it states), in order


TOPICS = (
    Topic(
        "user:location:city",
        5,
        "Where did I live in {}?",
        "Where do I live?",
        (
            ("I live in Seattle.", "Seattle"),
            ("I moved to Portland.", "Portland"),
            ("I moved to Denver.", "Denver"),
            ("I live in Austin now.", "Austin"),
            ("I moved to Boston.", "Boston"),
            ("I moved to Chicago.", "Chicago"),
            ("I live in Miami now.", "Miami"),
            ("I moved to Phoenix.", "Phoenix"),
        ),
    ),
    Topic(
        "user:occupation:job",
        12,
        "What was my job in {}?",
        "What is my job?",
        (
            ("I work as a nurse.", "nurse"),
            ("I work as a teacher now.", "teacher"),
            ("I work as a chef now.", "chef"),
            ("I work as a pilot now.", "pilot"),
            ("I work as a lawyer now.", "lawyer"),
            ("I work as a plumber now.", "plumber"),
            ("I work as an architect now.", "architect"),
            ("I work as a dentist now.", "dentist"),
        ),
    ),
    Topic(
        "user:value:diet",
        19,
        "What was my diet in {}?",
        "What is my diet?",
        (
            ("I'm vegetarian.", "vegetarian"),
            ("I'm vegan now.", "vegan"),
            ("I eat meat again.", "eats meat"),
            ("I'm a pescatarian.", "pescatarian"),
            ("I'm vegetarian again.", "vegetarian"),
            ("I'm vegan now.", "vegan"),
            ("I'm a pescatarian now.", "pescatarian"),
            ("I eat meat again.", "eats meat"),
        ),
    ),
    Topic(
        "user:relationship:partner",
        26,
        "Who was my partner in {}?",
        "Who is my partner?",
        (
            ("I'm engaged to Sam.", "Sam"),
            ("I'm married to Lee.", "Lee"),
            ("I'm engaged to Robin.", "Robin"),
            ("I'm married to Kim.", "Kim"),
            ("I'm engaged to Noor.", "Noor"),
            ("I'm married to Ravi.", "Ravi"),
            ("I'm engaged to Jo.", "Jo"),
            ("I'm married to Mia.", "Mia"),
        ),
    ),
)
CHANGES = sum(len(t.says) for t in TOPICS)
PERIOD = len(TOPICS)  # each topic changes every four months


def month(n: int) -> datetime:
    """The first of the ``n``-th month of the script (0: January 2023)."""
    return datetime(START.year + n // 12, n % 12 + 1, 1, tzinfo=UTC)


def said_at(topic: int, k: int) -> datetime:
    """When topic ``topic``'s ``k``-th change is said: month 4k + topic."""
    return month(PERIOD * k + topic).replace(day=TOPICS[topic].day, hour=9)


def script() -> list[tuple[datetime, str]]:
    return sorted(
        (said_at(t, k), s) for t, topic in enumerate(TOPICS) for k, (s, _) in enumerate(topic.says)
    )


def held_months(topic: int, k: int) -> list[int]:
    """The whole months in which the ``k``-th value of ``topic`` alone held."""
    return [PERIOD * k + topic + 1, PERIOD * k + topic + 2, PERIOD * k + topic + 3]


def month_name(n: int) -> str:
    return f"{month(n):%B %Y}"


def values(packet: ContextPacket, key: str) -> set[str]:
    """The values the packet's fact and constraint sections give under ``key``."""
    return {e.value for e in packet.sections.entries() if e.key == key}


class Clock:
    """The memory's clock: set to when each message is said, so recorded time follows
    the script (an as_of_recorded read then has a past to look at)."""

    def __init__(self) -> None:
        self.at = START

    def __call__(self) -> datetime:
        return self.at


@pytest.fixture
async def life(memory_url: str) -> AsyncIterator[tuple[Memory, Clock]]:
    clock = Clock()
    async with Memory.open(
        memory_url, settings=Settings(), embedder=HashingEmbedder(), clock=clock
    ) as mem:
        for at, text in script():
            clock.at = at
            await mem.write({"content": text, "role": "user", "occurred_at": at}, user_id=USER)
        clock.at = month(40)
        yield mem, clock


async def test_every_change_is_stored_with_its_valid_time(life: tuple[Memory, Clock]) -> None:
    assert CHANGES >= 30
    mem, _ = life
    for t, topic in enumerate(TOPICS):
        facts = await mem.facts(user_id=USER, key=topic.key, include_history=True)
        timeline = sorted(facts, key=lambda f: f.valid_from or START)
        assert [f.value for f in timeline] == [v for _, v in topic.says]
        for k, f in enumerate(timeline):
            assert f.valid_from == said_at(t, k)
            end = said_at(t, k + 1) if k + 1 < len(topic.says) else None
            assert f.valid_to == end


async def test_questions_in_a_month_answer_by_valid_time(life: tuple[Memory, Clock]) -> None:
    mem, _ = life
    wrong = []
    sources = set()
    for t, topic in enumerate(TOPICS):
        for k, (_, value) in enumerate(topic.says):
            for m in held_months(t, k):
                query = topic.question.format(month_name(m))
                packet = await mem.read(query, user_id=USER)
                if values(packet, topic.key) != {value}:
                    wrong.append((query, value, values(packet, topic.key)))
                sources.add(packet.meta.get("time_filter", {}).get("valid_source"))
    assert wrong == []
    assert sources == {"question"}


async def test_as_of_reads_answer_by_valid_time(life: tuple[Memory, Clock]) -> None:
    mem, _ = life
    wrong = []
    for t, topic in enumerate(TOPICS):
        for k, (_, value) in enumerate(topic.says):
            for m in held_months(t, k):
                at = month(m) + timedelta(days=14)
                packet = await mem.read(topic.now_question, user_id=USER, as_of=at)
                if values(packet, topic.key) != {value}:
                    wrong.append((topic.now_question, at, value, values(packet, topic.key)))
                assert packet.meta["time_filter"]["valid_source"] == "as_of"
    assert wrong == []


async def test_without_a_time_a_read_answers_what_holds_now(life: tuple[Memory, Clock]) -> None:
    mem, _ = life
    for topic in TOPICS:
        packet = await mem.read(topic.now_question, user_id=USER)
        assert values(packet, topic.key) == {topic.says[-1][1]}
        assert "time_filter" not in packet.meta


async def test_before_the_first_statement_nothing_held(life: tuple[Memory, Clock]) -> None:
    mem, _ = life
    packet = await mem.read("Where do I live?", user_id=USER, as_of=START - timedelta(days=30))
    assert values(packet, "user:location:city") == set()


async def test_as_of_recorded_answers_what_the_memory_knew(life: tuple[Memory, Clock]) -> None:
    mem, _ = life
    for t, topic in enumerate(TOPICS):
        for k, (_, value) in enumerate(topic.says):
            # after the k-th change was said, before the next one was
            known = said_at(t, k) + timedelta(days=20)
            packet = await mem.read(topic.now_question, user_id=USER, as_of_recorded=known)
            assert values(packet, topic.key) == {value}, (topic.key, known)
            assert packet.meta["time_filter"] == {"recorded_by": known.isoformat()}


async def test_a_late_statement_changes_valid_time_not_what_was_known(memory_url: str) -> None:
    """Said in July: "I moved to Portland in March". As of April the user lived in
    Portland; what the memory knew in May was still Seattle."""
    clock = Clock()
    async with Memory.open(
        memory_url, settings=Settings(), embedder=HashingEmbedder(), clock=clock
    ) as mem:
        for at, text in [
            (datetime(2025, 1, 10, 9, tzinfo=UTC), "I live in Seattle."),
            (datetime(2025, 7, 10, 9, tzinfo=UTC), "I moved to Portland in March."),
        ]:
            clock.at = at
            await mem.write({"content": text, "role": "user", "occurred_at": at}, user_id=USER)
        april = datetime(2025, 4, 15, tzinfo=UTC)
        may = datetime(2025, 5, 1, tzinfo=UTC)
        key = "user:location:city"
        valid = await mem.read("Where do I live?", user_id=USER, as_of=april)
        assert values(valid, key) == {"Portland"}
        known = await mem.read("Where do I live?", user_id=USER, as_of=april, as_of_recorded=may)
        assert values(known, key) == {"Seattle"}
        assert known.meta["time_filter"]["recorded_by"] == may.isoformat()
        explained = await mem.read(
            "Where do I live?", user_id=USER, as_of=april, as_of_recorded=may, explain=True
        )
        reasons = {e.reason for e in explained.explain or [] if e.type == "fact"}
        assert reasons == {
            f"valid at {april.isoformat()} (as_of); "
            f"as recorded by {may.isoformat()} (as_of_recorded)"
        }
        asked = await mem.read("Where did I live in February 2025?", user_id=USER)
        assert values(asked, key) == {"Seattle"}


async def test_as_of_reads_items_by_event_period(memory_url: str) -> None:
    async with Memory.open(memory_url, settings=Settings(), embedder=HashingEmbedder()) as mem:
        for at, text in [
            (datetime(2025, 1, 10, tzinfo=UTC), "I adopted a puppy named Toby."),
            (datetime(2025, 6, 10, tzinfo=UTC), "I adopted a kitten named Luna."),
        ]:
            await mem.write({"content": text, "role": "user", "occurred_at": at}, user_id=USER)
        packet = await mem.read(
            "Which pet did I adopt?", user_id=USER, as_of=datetime(2025, 3, 1, tzinfo=UTC)
        )
        texts = [i.text for i in packet.items]
        assert any("Toby" in t for t in texts)
        assert not any("Luna" in t for t in texts)


@pytest.mark.parametrize("field", ["as_of", "as_of_recorded"])
async def test_a_time_without_an_offset_is_refused(memory: Memory, field: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        await mem_read(memory, **{field: datetime(2025, 3, 1)})
    assert caught.value.field == field


async def mem_read(memory: Memory, **times: datetime) -> ContextPacket:
    return await memory.read("Where do I live?", user_id=USER, **times)  # type: ignore[arg-type]
