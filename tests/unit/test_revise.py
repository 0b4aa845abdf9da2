"""Revision decisions (``lifecycle/revise.py``): pure functions, no I/O."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from cognimem.ingest.extract.rules import RuleExtractor
from cognimem.lifecycle.revise import Reply, Verdict, judge, revise, statements
from cognimem.models import Scope
from cognimem.models.extraction import ExtractionInput
from cognimem.models.knowledge import Fact, FactCategory, FactStatus

T0 = datetime(2024, 1, 1, tzinfo=UTC)
SCOPE = Scope(user_id="u")


def stored(key: str, value: str, category: FactCategory, **kw: object) -> Fact:
    return Fact.model_validate(
        {
            "id": f"fct_{value}",
            "scope": SCOPE,
            "key": key,
            "subject": "user",
            "predicate": key.split(":")[2],
            "category": category,
            "value": value,
            "text": value,
            "last_validated_at": T0,
            "recorded_at": T0,
            "evidence_item_ids": ["itm_1"],
            "evidence_event_ids": ["evt_0"],
            "confidence_factors": {"extraction": 0.7},
            **kw,
        }
    )


BERLIN = stored("user:location:city", "Berlin", FactCategory.LOCATION)
VEGETARIAN = stored("user:value:diet", "vegetarian", FactCategory.VALUE)


def reply(text: str, days: int = 1, event_id: str = "evt_1") -> Reply:
    at = T0 + timedelta(days=days)
    x = RuleExtractor().extract_one(ExtractionInput(text=text, occurred_at=at, role="user"))
    return Reply(event_id, text, at, statements(x))


@pytest.mark.parametrize(
    ("text", "fact", "verdict", "by_statement"),
    [
        ("I live in Berlin.", BERLIN, Verdict.CONFIRMED, True),
        ("Yes, that's right, still Berlin.", BERLIN, Verdict.CONFIRMED, False),
        ("Exactly. Vegetarian, as always.", VEGETARIAN, Verdict.CONFIRMED, False),
        ("I live in Munich now.", BERLIN, Verdict.CONTRADICTED, True),
        ("I don't live in Berlin anymore.", BERLIN, Verdict.CONTRADICTED, True),
        ("I'm not vegetarian any more.", VEGETARIAN, Verdict.CONTRADICTED, True),
        ("That's not true, I'm not vegetarian.", VEGETARIAN, Verdict.CORRECTED, True),
        ("No, I never lived in Berlin.", BERLIN, Verdict.CORRECTED, False),
        ("You got it wrong: Berlin was my sister.", BERLIN, Verdict.CORRECTED, False),
    ],
)
def test_what_a_message_says_about_a_retrieved_fact(
    text: str, fact: Fact, verdict: Verdict, by_statement: bool
) -> None:
    judgement = judge(fact, reply(text))
    assert judgement is not None
    assert (judgement.verdict, judgement.by_statement) == (verdict, by_statement)


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("Yes, is Berlin nice in May?", BERLIN),  # a question
        ("Yes, but not vegetarian food tonight.", VEGETARIAN),  # negated mention
        ("Yes, let's go.", BERLIN),  # the value is not named
        ("Berlin has great museums.", BERLIN),  # named, neither affirmed nor corrected
        ("I love hiking.", VEGETARIAN),
    ],
)
def test_what_says_nothing_about_a_fact(text: str, fact: Fact) -> None:
    assert judge(fact, reply(text)) is None


def test_an_affirmation_reinforces_once_per_message() -> None:
    turn = (reply("Yes, still vegetarian."), [VEGETARIAN.id])
    out, _ = revise([VEGETARIAN], [turn], T0)
    after = out.fact_updates[VEGETARIAN.id]
    assert after.expected_revision == 1
    assert after.fact.reinforcement_count == 2
    assert after.fact.revision == 2
    assert after.fact.evidence_event_ids == ["evt_0", "evt_1"]
    assert after.fact.last_validated_at == T0 + timedelta(days=1)
    assert after.fact.confidence > VEGETARIAN.confidence
    assert [h.actor for h in out.history] == ["revision"]
    # the same message again (a second run): its event is already evidence
    again, _ = revise([after.fact], [turn], T0)
    assert again.is_empty()


def test_restatements_and_contradictions_are_left_to_the_write_path() -> None:
    turns = [(reply("I live in Berlin."), [BERLIN.id]), (reply("I live in Paris.", 2), [BERLIN.id])]
    out, seen = revise([BERLIN], turns, T0)
    assert out.is_empty()
    assert seen[BERLIN.id].verdict is Verdict.CONTRADICTED


def test_a_correction_invalidates_a_live_or_just_superseded_fact() -> None:
    r = reply("No, that's wrong, I'm not vegetarian.", days=2)
    out, _ = revise([VEGETARIAN], [(r, [VEGETARIAN.id])], T0)
    wrong = out.fact_updates[VEGETARIAN.id].fact
    assert wrong.status is FactStatus.INVALIDATED
    assert wrong.valid_to is None
    assert out.silence_items == ["itm_1"]  # a constraint's evidence
    # superseded by the correcting statement itself (the write path ran first)
    ended = VEGETARIAN.model_copy(
        update={"status": FactStatus.SUPERSEDED, "valid_to": r.said_at, "revision": 2}
    )
    out, _ = revise([ended], [(r, [VEGETARIAN.id])], T0)
    assert out.fact_updates[VEGETARIAN.id].fact.status is FactStatus.INVALIDATED
    assert out.fact_updates[VEGETARIAN.id].expected_revision == 2
    assert out.silence_items == []  # the write path silenced them with the supersession
    # superseded long before the correction: history, left alone
    old = ended.model_copy(update={"valid_to": T0})
    assert revise([old], [(r, [VEGETARIAN.id])], T0)[0].is_empty()


def test_only_the_facts_each_read_retrieved_are_revised() -> None:
    out, _ = revise([BERLIN, VEGETARIAN], [(reply("Yes, still vegetarian."), [BERLIN.id])], T0)
    assert out.is_empty()
