"""Reading a question and its answer together (``lifecycle.group_facts``): the question
turned into the answerer's statement, and only what the answer alone does not state."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from cognimem.ingest.extract import RuleExtractor
from cognimem.lifecycle.group_facts import answer_of, pairs, read_pair, statement
from cognimem.models import MemoryItem, Scope

T0 = datetime(2024, 5, 8, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("question", "answer", "said"),
    [
        ("Where do you live now?", "Berlin.", "I live in Berlin now."),
        ("What's your favorite food?", "Sushi.", "My favorite food is Sushi."),
        ("Are you allergic to anything?", "Shellfish.", "I am allergic to Shellfish."),
        ("Where did you grow up?", "In Paris.", "I grew up in Paris."),
        ("Do you have any pets?", "A dog named Max.", "I have a dog named Max."),
        ("Are you vegetarian?", "Yes!", "I am vegetarian."),
        ("Are you vegetarian?", "No, not anymore.", "I am not vegetarian."),
        ("Do you eat meat?", "No.", "I do not eat meat."),
        ("When did you move to Berlin?", "Last year.", "I moved to Berlin last year."),
        ("Which city do you live in?", "Porto.", "I live in Porto."),
        ("How was your weekend?", "Great.", None),  # not a form it reads
        # an explanation, or thanks, fills no gap
        ("What do you enjoy most about sailing?", "It's a way to switch off.", None),
        ("What do you enjoy most about your job?", "Thanks!", None),
        # a yes said to someone is still a yes
        ("Do you enjoy reading books as well?", "Yep, Felix!", "I enjoy reading books as well."),
    ],
)
def test_a_question_becomes_the_answerers_statement(
    question: str, answer: str, said: str | None
) -> None:
    assert statement(question, answer) == said


def test_an_answer_that_speaks_for_itself_is_not_rewritten() -> None:
    assert answer_of("I moved to Berlin last year, and I love it there.") is None
    assert answer_of("What about you?") is None
    assert answer_of("Berlin. It's lovely.") == "Berlin."


def item(n: int, author: str, text: str) -> MemoryItem:
    return MemoryItem(
        id=f"mem{n}",
        scope=Scope(user_id="u"),
        text=text,
        author=author,
        occurred_at=T0,
        recorded_at=T0,
    )


def test_only_new_answers_by_another_speaker_pair_with_the_turn_before() -> None:
    turns = [item(0, "A", "Where do you live?"), item(1, "B", "Rome."), item(2, "B", "Yes.")]
    turns += [item(3, "A", "I like Rome."), item(4, "B", "Me too.")]
    assert pairs(turns, {"mem1", "mem2", "mem4"}) == [(turns[0], turns[1])]
    assert pairs(turns, {"mem2"}) == []


def test_a_pair_yields_the_facts_only_it_states_in_the_extractors_categories() -> None:
    rules = RuleExtractor()
    read = read_pair(
        item(0, "A", "Good to see you. Are you allergic to anything?"),
        item(1, "B", "Peanuts, badly."),
        T0,
        "user",
        rules,
    )
    assert read is not None
    [fact] = read.facts
    assert (fact.category.value, fact.predicate, fact.value) == ("policy", "allergy", "Peanuts")
    assert "health" in fact.scope_tags
    assert fact.evidence == "Are you allergic to anything? Peanuts, badly."
    # an answer that states its fact itself needs no question
    whole = item(1, "B", "I live in Rome.")
    assert read_pair(item(0, "A", "Where do you live?"), whole, T0, "user", rules) is None
    # the assistant's answers are not facts about the user
    assert read_pair(item(0, "A", "Where do you live?"), item(1, "B", "Rome."), T0,
                     "assistant", rules) is None  # fmt: skip
