"""Which ranked memories have evidence for the query (recall/conversation/evidence.py), and how a
packet with nothing relevant reads."""

from __future__ import annotations

from datetime import UTC, datetime

from cognimem.models import ContextPacket, ItemKind, MemoryItem, PacketItem, Scope
from cognimem.models.packets import PacketSections
from cognimem.recall.analyze import query_terms
from cognimem.recall.conversation.evidence import (
    HAS_EVIDENCE,
    NO_EVIDENCE,
    ONLY_ASKS,
    SMALL_TALK,
    EvidenceCheck,
    quick_filler,
)
from cognimem.recall.rerank import Ranked
from cognimem.store.types import Candidate
from cognimem.text.speech import filler

T = datetime(2024, 5, 1, tzinfo=UTC)
QUERY = "what is my cat called?"


def ranked(
    text: str,
    raw: dict[str, float],
    author: str | None = None,
    answers: str | None = None,
    **signals: float,
) -> Ranked:
    item = MemoryItem(
        id=text[:8], scope=Scope(), text=text, occurred_at=T, recorded_at=T, author=author
    )
    return Ranked(item, 1.0, signals, raw, ("lexical",), frozenset(), answers)


def check(vector: list[Candidate] | None, **kw: bool) -> EvidenceCheck:
    return EvidenceCheck.of(QUERY, query_terms(QUERY), vector, 0.3, **kw)


def test_own_words_or_meaning_are_evidence_a_neighbours_words_are_not() -> None:
    listed = [Candidate("a", 0.6), Candidate("b", 0.1)]
    answer = ranked("My cat is called Miso", {"lexical": 2.0, "vector": 0.6})
    filler = ranked("That's great! How is it going?", {"lexical": 2.5, "vector": 0.1})
    near = ranked("She is a tabby who sleeps all day", {"vector": 0.45})
    kept, dropped = check(listed).split([filler, answer, near])
    assert [r for r, _ in kept] == [answer, near]
    assert [r for r, _ in dropped] == [filler]


def test_a_word_sharing_its_first_five_letters_counts() -> None:
    ask = "What does Ada research?"
    research = EvidenceCheck.of(ask, query_terms(ask), [Candidate("a", 0)], 0.3)
    assert research.holds(ranked("Researching adoption agencies", {"vector": 0.0}))
    assert not research.holds(ranked("Resting at home", {"vector": 0.0}))


def test_a_shared_domain_alone_is_not_evidence_a_shown_entrys_source_is() -> None:
    ask = "Can you recommend a restaurant?"
    allergy = ranked("I'm allergic to shellfish", {"vector": 0.09})
    coffee = ranked("Morning! The coffee machine is finally working again.", {"vector": 0.09})
    food = EvidenceCheck.of(ask, query_terms(ask), [Candidate("a", 0.0)], 0.3)
    assert not food.holds(coffee)  # food, as the restaurant is: the tags are broad
    assert not food.holds(allergy)
    shown = EvidenceCheck.of(
        ask, query_terms(ask), [Candidate("a", 0.0)], 0.3, behind=[allergy.item.id]
    )
    assert shown.evidence(allergy) == "the evidence of an entry the packet's sections show"
    assert not shown.holds(coffee)


def test_function_words_are_not_a_shared_word() -> None:
    ask = "Find us a nice hike for every Sunday"
    hike = EvidenceCheck.of(ask, query_terms(ask), [Candidate("a", 0.0)], 0.3)
    assert not hike.holds(ranked("The cinema near us is closing", {"vector": 0.05}))
    assert not hike.holds(ranked("I lost every round of cards", {"vector": 0.05}))
    assert hike.holds(ranked("The hike last Sunday was muddy", {"vector": 0.05}))


def test_fact_and_graph_hits_are_evidence() -> None:
    listed = [Candidate("a", 0.0)]
    assert check(listed).holds(ranked("Noodle knocked it over", {"vector": 0.0}, graph=0.2))
    assert check(listed).holds(ranked("Noodle knocked it over", {"vector": 0.0}, fact=1.0))
    assert not check(listed).holds(ranked("Noodle knocked it over", {"vector": 0.0}))


def test_the_own_messages_of_the_person_the_dense_query_left_out_are_evidence() -> None:
    ask = "What has Vivian been up to lately?"
    listed = [Candidate("a", 0.0)]
    left_out = EvidenceCheck.of(ask, query_terms(ask), listed, 0.3, author="Vivian")
    own = ranked("We took the kids to the beach", {"vector": 0.05}, "vivian")  # normalised
    reply = ranked("Sounds like a fun trip!", {"vector": 0.05}, "Rosa")
    assert left_out.holds(own)
    assert not left_out.holds(reply)
    # with the name in the dense query, its cosine is the evidence, as for anyone
    whole = EvidenceCheck.of(ask, query_terms(ask), listed, 0.3)
    assert not whole.holds(own)


def test_beyond_the_vector_depth_a_memory_is_as_close_as_the_last_one_returned() -> None:
    lexical_only = ranked("That's great! How is it going?", {"lexical": 3.0})
    assert check([Candidate("a", 0.5), Candidate("b", 0.35)]).holds(lexical_only)
    assert not check([Candidate("a", 0.5), Candidate("b", 0.2)]).holds(lexical_only)


def test_without_a_vector_list_or_for_a_named_period_nothing_is_dropped() -> None:
    filler = ranked("That's great! How is it going?", {"lexical": 3.0})
    assert check(None).holds(filler)  # lexical preset, fast's skip, a failed step
    assert check([Candidate("a", 0.1)], period=True).holds(filler)


def test_questions_and_small_talk_have_no_evidence_of_their_own() -> None:
    listed = [Candidate("a", 0.6)]
    asked = ranked("What should I call my cat?", {"lexical": 2.0, "vector": 0.6})
    thanks = ranked("Thanks, that's great!", {"vector": 0.5})
    told = ranked("My cat is called Miso", {"lexical": 1.0, "vector": 0.4})
    strict = EvidenceCheck.of(QUERY, query_terms(QUERY), listed, 0.3, drop_filler=True)
    kept, dropped = strict.split([asked, thanks, told])
    assert kept == [(told, "shares the word 'cat' with the query")]
    assert dropped == [(asked, ONLY_ASKS), (thanks, SMALL_TALK)]
    # the plain baselines judge them as any memory
    kept_all = check(listed).split([asked, thanks, told])[0]
    assert [r for r, _ in kept_all] == [asked, thanks, told]
    # a query about what was asked looks for the questions
    about = "what did I ask about my cat?"
    asking = EvidenceCheck.of(about, query_terms(about), listed, 0.3, drop_filler=True)
    assert [r for r, _ in asking.split([asked, told])[0]] == [asked, told]


def test_a_reply_has_evidence_through_the_question_it_answers() -> None:
    listed = [Candidate("a", 0.0)]
    ask = "what did I do last weekend?"
    strict = EvidenceCheck.of(ask, query_terms(ask), listed, 0.3, drop_filler=True)
    question = ranked("What did you do last weekend?", {"lexical": 2.0, "vector": 0.6})
    reply = ranked("Went hiking with my sister", {"vector": 0.05}, answers=question.item.id)
    alone = ranked("Went hiking with my sister", {"vector": 0.05})
    kept, dropped = strict.split([question, reply])
    assert kept == [(reply, "replies to a question that bears on the query")]
    assert dropped == [(question, ONLY_ASKS)]
    # without its question among the candidates, or when that one has no evidence
    assert strict.split([alone])[1] == [(alone, NO_EVIDENCE)]
    unrelated = ranked("Is it raining?", {"vector": 0.0})
    orphan = ranked("Went hiking with my sister", {"vector": 0.05}, answers=unrelated.item.id)
    assert strict.split([unrelated, orphan])[1] == [(unrelated, ONLY_ASKS), (orphan, NO_EVIDENCE)]


def test_a_question_brought_in_before_a_dated_reply_is_kept() -> None:
    listed = [Candidate("a", 0.6)]
    when = "when did I get the rocking chair?"
    strict = EvidenceCheck.of(when, query_terms(when), listed, 0.3, drop_filler=True)
    named = "Remember the rocking chair at the fair?"
    brought = ranked(named, {"lexical": 2.0}, told_before=0.9)
    alone = ranked(named, {"lexical": 2.0})
    assert strict.split([brought])[0] == [
        (brought, 'the turn before the best-ranked item of a "when" question')
    ]
    assert strict.split([alone])[1] == [(alone, ONLY_ASKS)]
    # small talk stays out, whatever brought it
    hello = ranked("Hi there!", {"lexical": 2.0}, told_before=0.9)
    assert strict.split([hello])[1] == [(hello, SMALL_TALK)]


def test_each_kind_of_evidence_says_what_it_is() -> None:
    listed = [Candidate("a", 0.0)]
    ask = "Can you recommend a restaurant for my cat?"
    why = EvidenceCheck.of(ask, query_terms(ask), listed, 0.3).evidence
    assert why(ranked("Noodle knocked it over", {}, fact=1.0)) == (
        "the evidence of a fact the key lookup found"
    )
    assert why(ranked("The vet is nearby", {"vector": 0.42})) == (
        "close in meaning (cosine 0.42, floor 0.30)"
    )
    assert why(ranked("I'm allergic to shellfish", {"vector": 0.0})) is None
    assert why(ranked("My sister plays the cello", {"vector": 0.0})) is None


def test_a_packet_with_nothing_relevant_says_so_after_the_mandates() -> None:
    empty = ContextPacket(
        query="q", items=[], token_count=3, max_tokens=100, reference_time=T, preset="p"
    )
    assert empty.nothing_relevant
    assert empty.model_dump()["nothing_relevant"] is True
    assert empty.to_markdown() == "## Memory\n\n_No relevant memories._\n"

    mandate = PacketItem(
        id="m", text="Answer in French.", kind=ItemKind.MANDATE, score=1.0, occurred_at=T
    )
    only_mandates = empty.model_copy(
        update={"sections": PacketSections(mandates=[mandate]), "degraded": ["vector: down"]}
    )
    assert only_mandates.nothing_relevant
    assert only_mandates.to_markdown() == (
        "## Memory\n\n### Always\n- Answer in French.\n\n_No relevant memories._\n"
        "\n_Degraded: vector: down_\n"
    )
    found = empty.model_copy(update={"items": [mandate.model_copy(update={"kind": "episode"})]})
    assert not found.nothing_relevant
    assert "No relevant" not in found.to_markdown()


FILLER_TEXTS = [
    "Thanks, that's great!",
    "Hi there!\nSee you later.",
    "Thanks! I'm vegetarian, by the way.",
    "Any ideas for dinner tonight?",
    "Wow. Really?! Okay.",
    "  \n\t ",
    "",
    "Ok ok. Lol",
    "Thanks, Mel!",
    "He said 'hi.' Then left",
    "Great!' Sure",
    "ok\u2028thanks",
    "Nice… what a day",
    "3.14 is pi. ok",
    "ok? sure",
    "'''",
    "😀",
]


def test_the_quick_filler_test_answers_as_the_sentence_splitting_one() -> None:
    for text in FILLER_TEXTS:
        assert quick_filler(text) == filler(text), text
    assert quick_filler("Thanks, that's great!") == "small talk"  # not vacuous
    assert quick_filler("Any ideas for dinner tonight?") == "question"
    assert quick_filler("Thanks! I'm vegetarian, by the way.") is None


def test_a_read_without_reasons_keeps_and_drops_the_same_memories() -> None:
    listed = [Candidate("a", 0.6), Candidate("b", 0.25)]
    memories = [
        ranked("My cat is called Miso", {"lexical": 2.0, "vector": 0.6}),
        ranked("That's great! How is it going?", {"lexical": 2.5, "vector": 0.1}),
        ranked("She is a tabby who sleeps all day", {"vector": 0.45}),
        ranked("Resting at home", {"vector": 0.1}),
        ranked("The cats were fed", {"vector": 0.05}),
        ranked("Nothing shared here", {"lexical": 1.0}),  # beyond the list: 0.25
        ranked("Told by Ada", {"vector": 0.0}, author="Ada"),
        ranked("Graph reached", {"vector": 0.0}, graph=0.5),
        ranked("Key found", {"vector": 0.0}, fact=1.0),
        ranked("Thanks a lot!", {"vector": 0.9}),
        ranked("Unrelated words", {"vector": 0.1}, answers="My cat i"),
    ]
    checks = [
        check(listed),
        check(listed, drop_filler=True),
        check(None),
        EvidenceCheck.of(QUERY, query_terms(QUERY), listed, 0.3, author="Ada"),
        EvidenceCheck.of(QUERY, query_terms(QUERY), listed, 0.3, behind=["Resting "]),
        EvidenceCheck.of(QUERY, query_terms(QUERY), listed, 0.3, period=True),
    ]
    for c in checks:
        kept, dropped = c.split(memories)
        quick_kept, quick_dropped = c.split(memories, reasons=False)
        assert [r for r, _ in quick_kept] == [r for r, _ in kept]
        assert quick_dropped == dropped  # the same reasons for what is dropped
        assert all(why == HAS_EVIDENCE for r, why in quick_kept if c.holds(r))
        assert [c.holds(r) for r in memories] == [c.evidence(r) is not None for r in memories]
    kept, dropped = checks[1].split(memories, reasons=False)
    assert 0 < len(kept) < len(memories)  # both sides are exercised
    assert dropped
