"""Consolidation through ``Memory`` on both backends: summaries per session window with
provenance per claim, idempotent passes, a dry run that changes nothing, a window that
new episodes continue replaced (history kept), constraints that survive the gist (the
seeds' "lossy consolidation"), the LLM's gist validated and degraded visibly, and
reads that use the summaries."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from cognimem import Memory
from cognimem.config import Settings
from cognimem.errors import InvalidInput, ProviderUnavailable
from cognimem.models import ItemKind, ItemStatus, MemoryItem, Message, Scope
from cognimem.models.knowledge import FactCategory
from cognimem.providers.fakes import HashingEmbedder
from cognimem.providers.llm.fakes import ScriptedLLM
from cognimem.providers.tokens import count_tokens
from cognimem.store.types import ItemFilter

T0 = datetime(2024, 5, 8, 13, 0, tzinfo=UTC)
SESSION_ONE = [
    ("Claire", "I sat in on the support group yesterday and it really moved me."),
    ("Priya", "That sounds great. What did you talk about there?"),
    ("Claire", "We shared our stories about coming out and finding acceptance."),
    ("Priya", "I painted a sunrise over the lake last weekend."),
    ("Claire", "I am thinking about studying counseling next year."),
    ("Priya", "You would be a wonderful counselor, honestly."),
    ("Claire", "Thanks! The support group really helped me decide."),
]
SESSION_TWO = [
    ("Priya", "We took the kids camping in the mountains this weekend."),
    ("Claire", "Camping sounds fun, did the kids enjoy the mountains?"),
    ("Priya", "They loved roasting marshmallows by the campfire."),
    ("Claire", "I applied to a counseling program today."),
]


async def write_session(
    memory: Memory, turns: list[tuple[str, str]], start: datetime, user: str = "u"
) -> None:
    await memory.write_batch(
        [
            Message(content=text, name=name, occurred_at=start + timedelta(minutes=i))
            for i, (name, text) in enumerate(turns)
        ],
        user_id=user,
    )


async def items_of(memory: Memory, user: str, kind: ItemKind, statuses=None) -> list[MemoryItem]:
    flt = ItemFilter(
        scope=Scope(user_id=user),
        kinds=(kind,),
        statuses=statuses or (ItemStatus.ACTIVE,),
    )
    ids = await memory.store.list_item_ids(flt, 1000)
    return await memory.store.get_items("default", ids)


async def live_profiles(memory: Memory, user: str = "u") -> list[MemoryItem]:
    summaries = await items_of(memory, user, ItemKind.SUMMARY)
    return [s for s in summaries if s.key.startswith("profile:")]


async def refreshed(memory: Memory, profiles: list[MemoryItem]) -> int:
    """How many of ``profiles`` a pass replaced (archived, a new one under its key)."""
    now = {s.key: s.id for s in await live_profiles(memory)}
    return sum(1 for p in profiles if now.get(p.key) not in (None, p.id))


async def assert_claims_state_their_events(memory: Memory, summary: MemoryItem) -> None:
    claims = summary.metadata["consolidation"]["claims"]
    assert claims
    stated = [e for c in claims for e in c["event_ids"]]
    # the summary's provenance is exactly what its sentences state, nothing more
    assert sorted(set(stated)) == sorted(summary.source_event_ids)
    for claim in claims:
        assert claim["event_ids"], claim
        assert claim["text"] in summary.text
        events = await memory.get_events(claim["event_ids"])
        if summary.key and summary.key.startswith("profile:") and " said: " not in claim["text"]:
            # a profile states facts, each dated by when it held (its valid_from, else
            # when it was said), never by when this process stored it
            assert f"{events[-1].occurred_at:%B %Y})" in claim["text"]
            continue
        # an extractive sentence quotes (the start of) what was said, under its speaker
        said = events[0].content.split(". ")[0].rstrip(".")
        assert said[:40] in claim["text"]
        assert f"{events[0].name} said" in claim["text"]


async def test_windows_become_summaries_with_provenance_per_claim(memory: Memory) -> None:
    await write_session(memory, SESSION_ONE, T0)
    await write_session(memory, SESSION_TWO, T0 + timedelta(days=3))
    result = await memory.consolidate(user_id="u", dry_run=False)
    assert result.episodes == len(SESSION_ONE) + len(SESSION_TWO)
    assert result.consolidated == result.episodes
    summaries = await items_of(memory, "u", ItemKind.SUMMARY)
    windows = [s for s in summaries if s.key and s.key.startswith("window:")]
    assert len(windows) == 2
    assert result.written == len(summaries)
    first = min(windows, key=lambda s: s.occurred_at)
    assert "8 May 2024" in first.text
    assert "Claire" in first.text
    for summary in summaries:
        await assert_claims_state_their_events(memory, summary)
    # sources marked consolidated, never deleted or copied
    episodes = await items_of(memory, "u", ItemKind.EPISODE)
    assert len(episodes) == result.episodes
    assert all(e.consolidated for e in episodes)
    [created] = await memory.history(first.id)
    assert (created.action, created.actor) == ("consolidated", "consolidation")


async def test_a_second_pass_changes_nothing(memory: Memory) -> None:
    await write_session(memory, SESSION_ONE, T0)
    first = await memory.consolidate(user_id="u")
    before = await items_of(memory, "u", ItemKind.SUMMARY)
    again = await memory.consolidate(user_id="u")
    assert (again.episodes, again.written, again.replaced, again.consolidated) == (0, 0, 0, 0)
    after = await items_of(memory, "u", ItemKind.SUMMARY)
    assert sorted(s.id for s in after) == sorted(s.id for s in before)
    assert first.written == len(before) >= 1


async def test_a_dry_run_says_what_would_change_and_writes_nothing(memory: Memory) -> None:
    await write_session(memory, SESSION_ONE, T0)
    seen: list[float] = []
    dry = await memory.consolidate(user_id="u", dry_run=True, progress=seen.append)
    assert dry.dry_run
    assert dry.written >= 1
    assert dry.consolidated == len(SESSION_ONE)
    assert seen[-1] == 1.0
    assert await items_of(memory, "u", ItemKind.SUMMARY) == []
    assert not any(e.consolidated for e in await items_of(memory, "u", ItemKind.EPISODE))
    real = await memory.consolidate(user_id="u")
    assert (real.written, real.consolidated, real.groups) == (
        dry.written,
        dry.consolidated,
        dry.groups,
    )


async def test_new_episodes_continuing_a_window_replace_its_summary(memory: Memory) -> None:
    await write_session(memory, SESSION_ONE[:4], T0)
    await memory.consolidate(user_id="u")
    [old] = [
        s for s in await items_of(memory, "u", ItemKind.SUMMARY) if s.key.startswith("window:")
    ]
    # the same conversation goes on twenty minutes later
    await write_session(memory, SESSION_ONE[4:], T0 + timedelta(minutes=20))
    profiles = await live_profiles(memory)
    result = await memory.consolidate(user_id="u")
    # the window, and the profiles its new turns mention (refreshed with them)
    assert result.replaced == 1 + await refreshed(memory, profiles)
    assert result.consolidated == len(SESSION_ONE) - 4
    live = [s for s in await items_of(memory, "u", ItemKind.SUMMARY) if s.key == old.key]
    assert len(live) == 1
    assert live[0].id != old.id
    # the new summary covers the whole window: old members and new
    assert len(live[0].metadata["consolidation"]["covers"]) == len(SESSION_ONE)
    archived = await memory.get(old.id)
    assert archived.status is ItemStatus.ARCHIVED
    assert archived.superseded_by == live[0].id
    assert [h.action for h in await memory.history(old.id)][-1] == "superseded"
    assert (await memory.consolidate(user_id="u")).replaced == 0


async def test_lossy_consolidation_keeps_the_constraint(memory: Memory) -> None:
    """The seeds' scenario: an allergy among chatter must stay a constraint (a policy
    fact with its scope tags) and be stated verbatim, tagged, by the summary."""
    chatter = [
        ("Sam", "I went to a seafood restaurant last week with friends."),
        ("Sam", "The view over the harbour was lovely."),
        ("Sam", "I'm allergic to shellfish, I can never eat it."),
        ("Sam", "My doctor confirmed it again at my checkup."),
        ("Sam", "Anyway the dessert there was excellent."),
    ]
    await write_session(memory, chatter, T0)
    before = [f for f in await memory.facts(user_id="u") if f.is_constraint]
    assert before, "the write path should have extracted the allergy"
    result = await memory.consolidate(user_id="u")
    assert result.written >= 1
    after = {f.id: f for f in await memory.facts(user_id="u") if f.is_constraint}
    for fact in before:
        kept = after[fact.id]
        assert (kept.category, kept.scope_tags, kept.status) == (
            fact.category,
            fact.scope_tags,
            fact.status,
        )
    [window] = [
        s for s in await items_of(memory, "u", ItemKind.SUMMARY) if s.key.startswith("window:")
    ]
    tagged = [c for c in window.metadata["consolidation"]["claims"] if "constraint" in c]
    assert any("allergic to shellfish, I can never eat it" in c["text"] for c in tagged)
    categories = {c["constraint"]["category"] for c in tagged}
    assert categories <= {c.value for c in FactCategory}
    assert categories & {f.category.value for f in before}
    packet = await memory.read(
        "Should I order the lobster tonight?", user_id="u", reference_time=T0 + timedelta(days=2)
    )
    constraints = packet.sections.must_follow + packet.sections.consider
    assert any("shellfish" in c.text for c in constraints)


def _gist_answer(sentences: list[tuple[str, list[int]]]) -> str:
    return json.dumps({"sentences": [{"text": t, "sources": s} for t, s in sentences]})


async def test_the_llm_gist_cites_its_sources_and_never_drops_a_constraint(
    memory_url: str, memory: Memory
) -> None:
    turns = [
        ("Sam", "I'm allergic to shellfish, I can never eat it."),
        ("Sam", "We had a lovely dinner by the harbour."),
        ("Sam", "The dessert was excellent."),
    ]
    await write_session(memory, turns, T0)
    episodes = sorted(await items_of(memory, "u", ItemKind.EPISODE), key=lambda e: e.occurred_at)
    # a paraphrase that weakens the allergy into a taste, then an invalid answer's retry
    llm = ScriptedLLM(
        _gist_answer([("Sam enjoys dinners by the harbour, not shellfish.", [0, 1]), ("x", [7])]),
        _gist_answer([("Sam enjoys dinners by the harbour, not shellfish.", [0, 1])]),
        responder=lambda messages: _gist_answer([("Sam liked it.", [0])]),
    )
    async with Memory.open(
        memory_url, settings=Settings(), embedder=HashingEmbedder(), llm=llm
    ) as with_llm:
        result = await with_llm.consolidate(user_id="u")
    assert result.mode == "llm"
    assert result.degraded == []
    assert llm.calls[0].schema_name == "consolidation_gist"
    [window] = [
        s for s in await items_of(memory, "u", ItemKind.SUMMARY) if s.key.startswith("window:")
    ]
    claims = window.metadata["consolidation"]["claims"]
    assert claims[0]["text"] == "Sam enjoys dinners by the harbour, not shellfish."
    assert claims[0]["item_ids"] == [episodes[0].id, episodes[1].id]
    assert claims[0]["event_ids"] == episodes[0].source_event_ids + episodes[1].source_event_ids
    # the allergy stays stated in its own words, tagged as the constraint it is
    verbatim = [c for c in claims if "constraint" in c]
    assert verbatim
    assert "I can never eat it" in verbatim[0]["text"]
    assert episodes[2].source_event_ids[0] not in window.source_event_ids  # never claimed


async def test_a_failing_llm_degrades_visibly_to_an_extractive_gist(
    memory_url: str, memory: Memory
) -> None:
    await write_session(memory, SESSION_ONE, T0)
    llm = ScriptedLLM(
        responder=lambda messages: (_ for _ in ()).throw(
            ProviderUnavailable("down", provider="llm", model="scripted")
        )
    )
    async with Memory.open(
        memory_url, settings=Settings(), embedder=HashingEmbedder(), llm=llm
    ) as with_llm:
        result = await with_llm.consolidate(user_id="u")
    assert result.degraded
    assert "down" in result.degraded[0]
    assert result.summary()["degraded"] == len(result.degraded)
    for summary in await items_of(memory, "u", ItemKind.SUMMARY):
        await assert_claims_state_their_events(memory, summary)


async def test_profiles_summarise_what_is_known_about_a_subject(memory: Memory) -> None:
    await write_session(
        memory,
        [
            ("Sam", "I'm allergic to shellfish."),
            ("Sam", "I live in Lisbon."),
            ("Sam", "I work as a nurse."),
            ("Sam", "I love hiking."),
        ],
        T0,
    )
    facts = await memory.facts(user_id="u")
    assert len(facts) >= 2
    result = await memory.consolidate(user_id="u")
    assert result.profiles >= 1
    profiles = [
        s for s in await items_of(memory, "u", ItemKind.SUMMARY) if s.key.startswith("profile:")
    ]
    assert profiles
    fact_text = {f.text.rstrip(".") for f in facts}
    for claim in profiles[0].metadata["consolidation"]["claims"]:
        assert any(t in claim["text"] for t in fact_text)
        assert claim["event_ids"]
    # unchanged facts: the profile is not written again
    assert (await memory.consolidate(user_id="u")).profiles == 0


async def test_reads_return_summaries_in_their_section(memory: Memory) -> None:
    await write_session(memory, SESSION_ONE, T0)
    await write_session(memory, SESSION_TWO, T0 + timedelta(days=3))
    await memory.consolidate(user_id="u")
    packet = await memory.read(
        "what has Claire been up to lately?",
        user_id="u",
        reference_time=T0 + timedelta(days=5),
    )
    assert packet.sections.summaries
    assert all(s.kind is ItemKind.SUMMARY for s in packet.sections.summaries)
    # read through their section, not ranked among the turns they state
    assert packet.items
    assert all(i.kind is not ItemKind.SUMMARY for i in packet.items)
    listed = await memory.read("Claire", user_id="u", kinds=["summary"])
    assert listed.items
    assert {i.kind for i in listed.items} == {ItemKind.SUMMARY}
    # within the section's share of the budget (2000 tokens by default, a tenth of it)
    assert sum(count_tokens(s.text) for s in packet.sections.summaries) <= 200


async def test_consolidation_needs_a_user_or_a_level(memory: Memory) -> None:
    # no user and no agent is not the organisation: that level is said explicitly
    with pytest.raises(InvalidInput) as caught:
        await memory.consolidate()
    assert caught.value.field == "scope.level"


async def test_facts_the_llm_reads_from_a_group_keep_their_category_and_tags(
    memory_url: str, memory: Memory
) -> None:
    turns = [
        ("Sam", "We had a lovely dinner by the harbour."),
        ("Sam", "I'm training to run a marathon in October."),
        ("Sam", "The dessert was excellent."),
    ]
    await write_session(memory, turns, T0)
    episodes = sorted(await items_of(memory, "u", ItemKind.EPISODE), key=lambda e: e.occurred_at)
    goal = {
        "subject": "user",
        "category": "goal",
        "predicate": "race",
        "value": "run the October marathon",
        "scope_tags": ["fitness"],
    }
    answer = json.dumps(
        {
            "sentences": [{"text": "Sam trains for an October marathon.", "sources": [1]}],
            "facts": [{"fact": goal, "sources": [1]}],
        }
    )
    before = {f.id for f in await memory.facts(user_id="u")}
    llm = ScriptedLLM(responder=lambda messages: answer)
    async with Memory.open(
        memory_url, settings=Settings(), embedder=HashingEmbedder(), llm=llm
    ) as with_llm:
        dry = await with_llm.consolidate(user_id="u", dry_run=True)
        assert dry.facts_created == 1
        assert {f.id for f in await with_llm.facts(user_id="u")} == before
        result = await with_llm.consolidate(user_id="u")
    assert result.facts_created == 1
    [learned] = [f for f in await memory.facts(user_id="u") if f.id not in before]
    assert (learned.category, learned.scope_tags, learned.subject) == (
        FactCategory.GOAL,
        ["fitness"],
        "user",
    )
    assert learned.evidence_item_ids == [episodes[1].id]
    assert learned.evidence_event_ids == episodes[1].source_event_ids


async def test_an_episode_bridging_two_windows_merges_their_summaries(memory: Memory) -> None:
    await write_session(memory, SESSION_ONE[:2], T0)
    await write_session(memory, SESSION_ONE[2:4], T0 + timedelta(hours=10))
    await memory.consolidate(user_id="u")
    summaries = await items_of(memory, "u", ItemKind.SUMMARY)
    before = [s for s in summaries if s.key.startswith("window:")]
    assert len(before) == 2
    # five hours after the first window and before the second: within the gap of both
    await write_session(memory, SESSION_ONE[4:5], T0 + timedelta(hours=5))
    profiles = await live_profiles(memory)
    result = await memory.consolidate(user_id="u")
    # one window replaces both, and the profiles the new turn mentions are refreshed
    assert result.replaced == 1 + await refreshed(memory, profiles)
    [window] = [
        s for s in await items_of(memory, "u", ItemKind.SUMMARY) if s.key.startswith("window:")
    ]
    assert len(window.metadata["consolidation"]["covers"]) == 5
    for old in before:
        archived = await memory.get(old.id)
        assert archived.status is ItemStatus.ARCHIVED
        assert archived.superseded_by == window.id


async def test_a_packets_summaries_carry_their_claims_and_explain_shows_them(
    memory: Memory,
) -> None:
    await memory.write_batch(
        [
            Message(
                content=text,
                name=name,
                occurred_at=T0 + timedelta(minutes=i),
                external_id=f"D1:{i + 1}",
            )
            for i, (name, text) in enumerate(SESSION_ONE)
        ],
        user_id="u",
    )
    await memory.consolidate(user_id="u")
    packet = await memory.read(
        "what did Claire say about the support group?",
        user_id="u",
        reference_time=T0 + timedelta(days=2),
        explain=True,
    )
    windows = [
        (s, stored)
        for s in packet.sections.summaries
        if (stored := await memory.get(s.id)).key.startswith("window:")
    ]
    [(summary, stored)] = windows
    # each sentence with exactly the events it states, as the stored summary keeps them
    assert [(c.text, c.source_event_ids) for c in summary.claims] == [
        (c["text"], c["event_ids"]) for c in stored.metadata["consolidation"]["claims"]
    ]
    assert sorted({e for c in summary.claims for e in c.source_event_ids}) == sorted(
        summary.source_event_ids
    )
    for claim in summary.claims:
        [event] = await memory.get_events(claim.source_event_ids)
        assert claim.external_ids == [event.external_id]
        assert claim.item_ids
        # the prompt line cites each sentence's sources, as an episode's line does
        assert f"{claim.text} ({event.external_id})" in packet.to_markdown()
    assert packet.explain is not None
    [explained] = [e for e in packet.explain if e.id == summary.id]
    assert explained.outcome == "section:summaries"
    assert explained.claims == summary.claims
    # an episode carries no claims
    assert all(not i.claims for i in packet.items)


async def test_a_fact_split_across_two_turns_is_read_from_the_group(memory: Memory) -> None:
    await write_session(memory, [("Claire", "I'm allergic to shellfish.")], T0)
    await write_session(
        memory,
        [
            ("Priya", "Let's cook together next week! Are you allergic to anything?"),
            ("Claire", "Shellfish, sadly."),
            ("Priya", "Noted. Where do you live now?"),
            ("Claire", "Lisbon."),
        ],
        T0 + timedelta(days=2),
    )
    before = {f.key: f for f in await memory.facts(user_id="u")}
    # read turn by turn, neither answer states a fact
    assert not any("lisbon" in k for k in before)
    [allergy] = [f for f in before.values() if f.predicate == "allergy"]
    assert allergy.reinforcement_count == 1
    turns = sorted(await items_of(memory, "u", ItemKind.EPISODE), key=lambda e: e.occurred_at)

    dry = await memory.consolidate(user_id="u", dry_run=True)
    assert (dry.facts_created, dry.facts_reinforced) == (1, 1)
    assert {f.key: f.revision for f in await memory.facts(user_id="u")} == {
        k: f.revision for k, f in before.items()
    }

    result = await memory.consolidate(user_id="u")
    assert (result.facts_created, result.facts_reinforced) == (1, 1)
    after = {f.key: f for f in await memory.facts(user_id="u")}
    [lives] = [f for k, f in after.items() if k not in before]
    assert (lives.category, lives.value, lives.subject) == (
        FactCategory.LOCATION,
        "Lisbon",
        allergy.subject,
    )
    # its evidence is both turns, said by the answer
    assert lives.evidence_item_ids == [turns[3].id, turns[4].id]
    assert lives.evidence_event_ids == turns[4].source_event_ids
    assert lives.text == "Noted. Where do you live now? Lisbon."[7:]
    # a restated constraint is reinforced, never duplicated, and stays a constraint
    restated = after[allergy.key]
    assert restated.id == allergy.id
    assert restated.reinforcement_count == 2
    assert (restated.category, restated.scope_tags) == (allergy.category, allergy.scope_tags)
    assert turns[2].id in restated.evidence_item_ids

    again = await memory.consolidate(user_id="u")
    assert (again.facts_created, again.facts_reinforced) == (0, 0)
    assert {f.key: f.revision for f in await memory.facts(user_id="u")} == {
        k: f.revision for k, f in after.items()
    }


ANNA = [
    ("Sam", "My sister Anna lives in Porto."),
    ("Sam", "Anna works as a teacher."),
    ("Sam", "I had lunch with Anna yesterday, she looked happy."),
    ("Sam", "I bought a new bike."),
]


async def profile_of(memory: Memory, name: str) -> MemoryItem:
    [entity] = [e for e, _ in await memory.entities(user_id="u") if e.name == name]
    [profile] = [
        s for s in await items_of(memory, "u", ItemKind.SUMMARY) if s.key == f"profile:{entity.id}"
    ]
    assert profile.entities == [entity.id]
    return profile


async def test_a_profile_states_the_episodes_that_mention_its_entity(memory: Memory) -> None:
    called = ("Sam", "Anna called me, she sounded tired.")
    for i, (name, text) in enumerate([*ANNA, called]):  # a day apart: a window each
        await write_session(memory, [(name, text)], T0 + timedelta(days=i))
    await memory.consolidate(user_id="u")
    anna = await profile_of(memory, "Anna")
    text = anna.text
    assert text.startswith("What is known about Anna:")
    # her facts (the job said of her is one), then the turns that mention her, dated and
    # with the speaker, in time order
    assert "My sister Anna lives in Porto (as of 8 May 2024)." in text
    assert "Anna works as a teacher (as of 9 May 2024)." in text
    assert "On 10 May 2024, Sam said: I had lunch with Anna yesterday" in text
    assert "On 12 May 2024, Sam said: Anna called me" in text
    assert text.index("10 May 2024, Sam") < text.index("12 May 2024, Sam")
    # the bike turn's search text carries the lunch turn before it: not a mention
    assert "bike" not in text
    await assert_claims_state_their_events(memory, anna)

    # a new turn about her refreshes the profile: replaced, the old one kept archived
    await write_session(memory, [("Sam", "Anna moved to Lisbon last month.")], T0 + timedelta(5))
    result = await memory.consolidate(user_id="u")
    assert result.replaced >= 1
    refreshed = await profile_of(memory, "Anna")
    assert refreshed.id != anna.id
    assert "Lisbon" in refreshed.text
    old = await memory.get(anna.id)
    assert old.status is ItemStatus.ARCHIVED
    assert [h.action for h in await memory.history(anna.id)][-1] == "superseded"
    # nothing new: nothing rewritten
    again = await memory.consolidate(user_id="u")
    assert (again.written, again.replaced) == (0, 0)


def _profile_or_gist(messages: list) -> str:
    shown = json.loads(messages[1].content)  # (a retry's correction comes after it)
    if "sources" in shown:  # a profile: one sentence citing every source
        sources = [s["index"] for s in shown["sources"]]
        return _gist_answer([("Anna teaches and lives in Porto.", sources)])
    return _gist_answer([("Sam talked.", [0])])


async def test_with_an_llm_a_profile_is_one_validated_call_degraded_visibly(
    memory_url: str, memory: Memory
) -> None:
    for i, (name, text) in enumerate(ANNA):
        await write_session(memory, [(name, text)], T0 + timedelta(days=i))
    llm = ScriptedLLM(responder=_profile_or_gist)
    async with Memory.open(
        memory_url, settings=Settings(), embedder=HashingEmbedder(), llm=llm
    ) as with_llm:
        result = await with_llm.consolidate(user_id="u")
    assert result.degraded == []
    asked = [c for c in llm.calls if "sources" in json.loads(c.messages[1].content)]
    assert {c.schema_name for c in asked} == {"consolidation_gist"}
    assert len(asked) == result.profiles
    anna = await profile_of(memory, "Anna")
    [claim] = anna.metadata["consolidation"]["claims"]
    assert claim["text"] == "Anna teaches and lives in Porto."
    # the sentence states its sources' events: her fact's and the turns mentioning her
    episodes = {e.text: e for e in await items_of(memory, "u", ItemKind.EPISODE)}
    assert set(claim["event_ids"]) == {e for _, t in ANNA[:3] for e in episodes[t].source_event_ids}

    # an answer citing a source not shown, twice: the profile is written extractively
    # and the result names it
    bad = _gist_answer([("Anna is a pilot.", [99])])
    failing = ScriptedLLM(
        responder=lambda m: bad if "sources" in json.loads(m[1].content) else _profile_or_gist(m)
    )
    await write_session(memory, [("Sam", "Anna moved to Lisbon last month.")], T0 + timedelta(5))
    async with Memory.open(
        memory_url, settings=Settings(), embedder=HashingEmbedder(), llm=failing
    ) as with_llm:
        result = await with_llm.consolidate(user_id="u")
    refreshed = await profile_of(memory, "Anna")
    assert any(d.startswith(refreshed.key) for d in result.degraded)
    assert "pilot" not in refreshed.text
    assert refreshed.text.startswith("What is known about Anna:")
    asked = [c for c in failing.calls if "sources" in json.loads(c.messages[1].content)]
    assert len(asked) == 2 * sum(1 for d in result.degraded if d.startswith("profile:"))
