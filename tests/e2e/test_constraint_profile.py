"""The standing constraint profile (``recall/profile.py``), on both backends: a user's
live constraints consolidated — paraphrases merged with their provenance the union, a
newer stance superseding the old one (kept in history), stale states decayed out — and
carried by decision-like requests only, inside the profile's own token cap."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from cognimem import Memory, Settings
from cognimem.config import RecallSettings
from cognimem.models import ContextPacket
from cognimem.models.knowledge import FactStatus
from cognimem.providers.fakes import HashingEmbedder
from cognimem.recall.profile_items import LEFT_OUT, UNWEIGHED

T0 = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
DAY = timedelta(days=1)


def constraint_texts(packet: ContextPacket) -> list[str]:
    return [e.text for e in (*packet.sections.must_follow, *packet.sections.consider)]


def profile_step(packet: ContextPacket) -> int | None:
    """How many profile entries bore on the request; None: no profile step ran."""
    return next((s.results for s in packet.steps if s.name == "profile"), None)


async def said_then_asked(memory_url: str, lines: list[str], request: str) -> ContextPacket:
    """``lines`` said four minutes apart by one user (MiniLM), then ``request`` a week
    on, read with explain."""
    settings = Settings(embedding={"model": "onnx:minilm"})
    async with Memory.open(memory_url, settings=settings) as mem:
        for i, text in enumerate(lines):
            await mem.write(text, user_id="u", occurred_at=T0 + i * timedelta(minutes=4))
        return await mem.read(request, user_id="u", reference_time=T0 + 7 * DAY, explain=True)


async def test_paraphrases_show_once_with_the_provenance_of_both(memory: Memory) -> None:
    first = await memory.write("I stay away from red meat.", user_id="u", occurred_at=T0)
    again = await memory.write("I don't eat any red meat.", user_id="u", occurred_at=T0 + 9 * DAY)
    packet = await memory.read(
        "Recommend a place for dinner with red meat off the menu",
        user_id="u",
        reference_time=T0 + 10 * DAY,
        explain=True,
    )
    shown = [t for t in constraint_texts(packet) if "red meat" in t]
    assert shown == ["I don't eat any red meat."]  # the newest statement, once
    [entry] = [
        e for e in (*packet.sections.must_follow, *packet.sections.consider) if "red meat" in e.text
    ]
    assert set(entry.source_event_ids) == {first.event_ids[0], again.event_ids[0]}
    # both facts stay stored; explain says where the older one went
    assert len([f for f in await memory.facts(user_id="u") if "red meat" in f.text]) == 2
    outcomes = [e.outcome for e in packet.explain if e.type == "fact"]
    assert any("its newest statement" in o for o in outcomes)


async def test_a_newer_stance_supersedes_the_old_one_which_stays_stored(memory: Memory) -> None:
    await memory.write("I'm trying to save money.", user_id="u", occurred_at=T0)
    await memory.write("I've stopped saving money.", user_id="u", occurred_at=T0 + 30 * DAY)
    packet = await memory.read(
        "Should I book the expensive hotel for our trip?",
        user_id="u",
        reference_time=T0 + 31 * DAY,
        explain=True,
    )
    texts = constraint_texts(packet)
    assert "I've stopped saving money." in texts
    assert "I'm trying to save money." not in texts
    older = [f for f in await memory.facts(user_id="u") if f.text == "I'm trying to save money."]
    assert [f.status for f in older] == [FactStatus.ACTIVE]  # history: nothing erased
    outcomes = [e.outcome for e in packet.explain if e.type == "fact"]
    assert any("the newer stance that supersedes it" in o for o in outcomes)


async def test_a_stale_state_decays_out_of_the_profile(memory: Memory) -> None:
    await memory.write("My knee hurts.", user_id="u", occurred_at=T0)
    request = "Should I go running with my knee this weekend?"
    fresh = await memory.read(request, user_id="u", reference_time=T0 + 3 * DAY)
    assert profile_step(fresh) == 1
    assert "My knee hurts." in constraint_texts(fresh)
    # a state halves every 30 days: 200 days on it needs validation, not the profile
    stale = await memory.read(request, user_id="u", reference_time=T0 + 200 * DAY)
    assert profile_step(stale) == 0
    assert "My knee hurts." not in constraint_texts(stale)


async def test_a_lasting_condition_stays_where_a_passing_state_decays(memory: Memory) -> None:
    # both are state facts; what each says of its time sets how fast it fades
    # (models/state_span.py): a condition had as a bare noun lasts, "for now" passes
    await memory.write("I have asthma, cold air sets it off.", user_id="u", occurred_at=T0)
    await memory.write("My bike is broken for now.", user_id="u", occurred_at=T0)
    facts = {f.text: f for f in await memory.facts(user_id="u")}
    assert facts["I have asthma, cold air sets it off."].category.value == "state"
    assert facts["My bike is broken for now."].category.value == "state"
    request = "Should I go on a long bike ride in the cold this weekend?"
    fresh = await memory.read(request, user_id="u", reference_time=T0 + 3 * DAY)
    assert "My bike is broken for now." in constraint_texts(fresh)
    assert "I have asthma, cold air sets it off." in constraint_texts(fresh)
    stale = await memory.read(request, user_id="u", reference_time=T0 + 200 * DAY)
    assert "My bike is broken for now." not in constraint_texts(stale)
    assert "I have asthma, cold air sets it off." in constraint_texts(stale)


async def test_only_a_decision_gets_a_profile_inside_its_own_cap(memory_url: str) -> None:
    foods = ("pork", "shellfish", "peanuts", "mushrooms", "olives", "garlic", "onions", "eggs")
    rules = [f"I never eat {food}." for food in foods]
    rules += ["I'm strictly vegetarian.", "I avoid anything with gluten in it."]
    for i, text in enumerate(rules):
        settings = Settings(recall=RecallSettings(profile_tokens=10))
        async with Memory.open(memory_url, settings=settings, embedder=HashingEmbedder()) as mem:
            await mem.write(text, user_id="u", occurred_at=T0 + i * DAY)
    request = "Recommend a restaurant for a food lover like me"
    async with Memory.open(memory_url, settings=settings, embedder=HashingEmbedder()) as mem:
        capped = await mem.read(request, user_id="u", reference_time=T0 + 9 * DAY, explain=True)
        small_talk = await mem.read(
            "The restaurant by the river was lovely", user_id="u", reference_time=T0 + 9 * DAY
        )
    profiled = [e for e in capped.explain if e.steps == ["profile"]]
    shown = [e for e in profiled if e.outcome.startswith("section:")]
    placed = {e.id: e for e in (*capped.sections.must_follow, *capped.sections.consider)}
    assert shown
    assert sum(placed[e.id].token_count for e in shown) <= 10
    assert any(e.outcome == "dropped: over the must_follow budget" for e in profiled)
    assert all(e.reason and e.reason.startswith("standing profile:") for e in profiled)
    assert profile_step(small_talk) is None  # not a decision: no profile
    async with Memory.open(
        memory_url, settings=Settings(recall=RecallSettings(profile_tokens=0)),
        embedder=HashingEmbedder(),
    ) as mem:  # fmt: skip
        off = await mem.read(request, user_id="u", reference_time=T0 + 9 * DAY)
    assert profile_step(off) is None


async def test_a_decision_shows_at_most_four_constraints_the_step_best_first(
    memory: Memory,
) -> None:
    foods = ("pork", "shellfish", "peanuts", "mushrooms", "olives", "garlic", "onions", "eggs")
    for i, food in enumerate(foods):
        await memory.write(f"I never eat {food}.", user_id="u", occurred_at=T0 + i * DAY)
    packet = await memory.read(
        "Recommend a restaurant for a food lover like me",
        user_id="u",
        reference_time=T0 + 9 * DAY,
        explain=True,
    )
    shown = [*packet.sections.must_follow, *packet.sections.consider]
    assert 1 < len(shown) <= 5  # ProfileConfig.max_entries, and one tied with the fourth
    if len(shown) == 5:  # ProfileConfig.tie: eight rules alike, the ranking may not tell
        assert shown[3].score - shown[4].score <= 0.005
    assert not shown[0].signals.get("profile")  # the constraint step's best pick
    assert all(e.signals.get("profile") for e in shown[1:])  # then the profile's ranking
    assert packet.explain is not None
    outcomes = {e.outcome for e in packet.explain if e.type == "fact"}
    assert outcomes & {
        "dropped: the standing profile ranks a decision's constraints",
        "dropped: the constraint sections hold 4 entries",
    }


@pytest.mark.onnx
async def test_a_few_unrelated_constraints_stay_out_of_an_unrelated_decision(
    memory_url: str,
) -> None:
    """Seven constraints, none bearing on the request: each is within the relative floor
    of the best (a scope this small has no far-off entries), and before the profile
    carried some of them; now an entry must score above the user's constraints' mean."""
    rules = [
        "I never eat pork.",
        "I don't drive after dark.",
        "I go to bed before ten.",
        "I'm allergic to cats.",
        "I never lend money to friends.",
        "I refuse to fly.",
        "I volunteer at the shelter every Saturday.",
    ]
    settings = Settings(embedding={"model": "onnx:minilm"})
    async with Memory.open(memory_url, settings=settings) as mem:
        for i, text in enumerate(rules):
            await mem.write(text, user_id="u", occurred_at=T0 + i * DAY)
        at = T0 + 9 * DAY
        phone = await mem.read("Which phone plan should I choose?", user_id="u", reference_time=at)
        tablet = await mem.read("Recommend a tablet for drawing.", user_id="u", reference_time=at)
    assert profile_step(phone) is not None  # a decision: the profile step ran
    assert constraint_texts(phone) == []
    assert len(constraint_texts(tablet)) <= 1  # three before


@pytest.mark.onnx
async def test_a_request_for_several_things_reaches_each_parts_constraints(
    memory_url: str,
) -> None:
    """Scored as one text, "a dinner and a flight" sat nearest the flight rule, and the
    profile's crowding correction ranked the two food constraints (near each other)
    below it: the packet showed the flight rule alone. Each part is ranked on its own."""
    rules = ["I'm allergic to peanuts.", "I'm vegetarian.", "I never fly on Sundays."]
    settings = Settings(embedding={"model": "onnx:minilm"})
    async with Memory.open(memory_url, settings=settings) as mem:
        for i, text in enumerate(rules):
            await mem.write(text, user_id="u", occurred_at=T0 + i * DAY)
        at = T0 + 9 * DAY
        both = await mem.read(
            "Can you book me a dinner and a flight?", user_id="u", reference_time=at, explain=True
        )
        one = await mem.read("Can you book me a flight?", user_id="u", reference_time=at)
    assert sorted(constraint_texts(both)) == sorted(rules)
    assert both.explain is not None
    outcomes = {e.outcome for e in both.explain if e.type == "fact"}
    assert outcomes == {"section:must_follow"}  # none held back for ranking below the rule
    # a request for one thing is not split: its food constraints stay out
    assert constraint_texts(one) == ["I never fly on Sundays."]


@pytest.mark.onnx
async def test_two_close_constraints_that_both_bear_on_a_decision_both_show(
    memory_url: str,
) -> None:
    """The README's tour: "I'm vegetarian." and "I am allergic to shellfish." sit close to
    each other, and both bear on dinner. With two constraints the mean of their scores
    kept only the closer one; an entry that shares the request's scope tag and decision
    area is carried within the margin without having to stand out."""
    lines = [
        "I adopted a tabby kitten called Noodle.",
        "I am allergic to shellfish.",
        "We are moving to Lisbon in June.",
        "I'm vegetarian.",
    ]
    settings = Settings(embedding={"model": "onnx:minilm"})
    async with Memory.open(memory_url, settings=settings) as mem:
        for i, text in enumerate(lines):
            await mem.write(text, user_id="ada", name="Ada", occurred_at=T0 + i * DAY)
        at = T0 + 9 * DAY
        dinner = await mem.read("Any ideas for dinner tonight?", user_id="ada", reference_time=at)
        phone = await mem.read(
            "Which phone plan should I choose?", user_id="ada", reference_time=at
        )
    assert sorted(constraint_texts(dinner)) == ["I am allergic to shellfish.", "I'm vegetarian."]
    assert constraint_texts(phone) == []  # nothing of the food rules for an unrelated choice


@pytest.mark.onnx
async def test_among_ten_preferences_a_choice_carries_fewer_of_the_others(
    memory_url: str,
) -> None:
    """Ten preferences on ten topics, each a message of its own: for a choice about one
    topic the profile carried its best entry and every other above the mean of the ten
    (four rules for a Saturday in the garden, three for a pet); after the best an entry
    must stand out by its score or its closeness (``ProfileConfig.then_stand_out``).
    MiniLM still finds the reading rule close to many requests."""
    prefs = [
        "I can't stand the taste of coriander.",
        "Jazz puts me to sleep.",
        "I'm not a cat person.",
        "I never do yoga classes.",
        "I don't lend money to anyone.",
        "I refuse to answer emails after six.",
        "I only read paper books.",
        "I don't use pesticides on my roses.",
        "I won't buy anything from Apple.",
        "I get airsick on small planes.",
    ]
    settings = Settings(embedding={"model": "onnx:minilm"})
    async with Memory.open(memory_url, settings=settings) as mem:
        for i, text in enumerate(prefs):
            await mem.write(text, user_id="u", occurred_at=T0 + i * timedelta(minutes=5))
        at = T0 + 7 * DAY
        garden = await mem.read("Plan my Saturday in the garden.", user_id="u", reference_time=at)
        pet = await mem.read("Which pet should we adopt?", user_id="u", reference_time=at)
        dessert = await mem.read(
            "Suggest a dessert for Sunday lunch.", user_id="u", reference_time=at
        )
    assert "I don't use pesticides on my roses." in constraint_texts(garden)
    assert len(constraint_texts(garden)) <= 3
    assert len(constraint_texts(pet)) <= 2
    assert constraint_texts(dessert) == ["I can't stand the taste of coriander."]


@pytest.mark.onnx
async def test_a_left_out_constraint_does_not_come_back_as_a_plain_item(
    memory_url: str,
) -> None:
    """Ten preferences on ten topics: the profile carries what bears on the request, and
    the messages of the ones it left out came back among the items on a cosine just over
    the evidence floor. Now such a message needs evidence of its own (a shared word, among
    the two nearest, or as near as what the profile carried)."""
    lines = [
        "I'd rather not spend more than twenty minutes cooking.",
        "A free breakfast matters to me at hotels.",
        "We like short getaways near home.",
        "I never take overnight flights.",
        "I dislike loud neon colours.",
        "I avoid crowded gyms.",
        "I don't watch horror films.",
        "I prefer paper books to e-readers.",
        "I avoid caffeine after noon.",
        "I keep my phone on silent at dinner.",
    ]
    packet = await said_then_asked(memory_url, lines, "Plan a day trip for Saturday.")
    assert packet.explain is not None
    left_out = [e for e in packet.explain if e.outcome == LEFT_OUT]
    assert left_out  # each was over the floor: the plain rule would have returned it
    assert all(e.signals["raw_vector"] >= 0.2 for e in left_out)
    returned = {i.id for i in packet.items}
    assert returned
    assert not returned & {e.id for e in left_out}
    assert constraint_texts(packet)  # what the profile carried is still shown


@pytest.mark.onnx
async def test_small_talk_no_constraint_was_drawn_from_does_not_pad_a_decision(
    memory_url: str,
) -> None:
    """One constraint among travel chat the write path draws no constraint from: beside
    the profile's choice, a chatty message over the evidence floor but neither among the
    four memories nearest the request nor as near as the constraint's own message, with
    no word shared, is not an item (``ProfileConfig.unstated_near``)."""
    lines = [
        "I never take overnight flights.",
        "My cousin sent a postcard from Lisbon.",
        "The airport coffee was awful last time.",
        "Our luggage got lost in Denver once.",
        "We drove to the coast in May.",
        "My passport photo is terrible.",
        "The hotel pool was freezing.",
        "I collect snow globes from every city.",
        "My brother lives in Boston now.",
        "Haha, what a week it has been.",
    ]
    packet = await said_then_asked(memory_url, lines, "Book me a flight to Chicago.")
    assert packet.explain is not None
    unweighed = [e for e in packet.explain if e.outcome == UNWEIGHED]
    assert unweighed  # each was over the floor: the plain rule would have returned it
    assert all(e.signals["raw_vector"] >= 0.2 for e in unweighed)
    returned = {i.id for i in packet.items}
    assert len(returned) >= 4  # the nearest memories keep their places
    assert not returned & {e.id for e in unweighed}
    assert constraint_texts(packet) == ["I never take overnight flights."]
