"""The vector search's query: a question about one named person without the name
(``recall/conversation/topic.py``)."""

from __future__ import annotations

import pytest

from cognimem.recall.conversation.topic import dense_query, subject_span


@pytest.mark.parametrize(
    ("query", "embedded"),
    [
        ("What activities does Melanie partake in?", "What activities does partake in?"),
        ("What has Melanie painted?", "What has painted?"),
        ("Would Melanie go on another roadtrip soon?", "Would go on another roadtrip soon?"),
        ("How many children does Melanie have?", "How many children does have?"),
        ("What kind of art does Caroline make?", "What kind of art does make?"),
        ("What is Caroline's relationship status?", "What is relationship status?"),
        ("What is Caroline\u2019s job?", "What is job?"),
        ("Why did Gina decide to open a store?", "Why did decide to open a store?"),
        ("Which US cities does John like?", "Which US cities does like?"),
        # a name that is not the subject is what the question is about: it stays
        ("What did Jon take a trip to Rome for?", "What did take a trip to Rome for?"),
        (
            "What book did Melanie read from Caroline's suggestion?",
            "What book did read from Caroline's suggestion?",
        ),
    ],
)
def test_the_subjects_name_is_left_out(query: str, embedded: str) -> None:
    assert dense_query(query) == embedded


@pytest.mark.parametrize(
    "query",
    [
        "When did Melanie go camping?",  # "when": the focus is off, the dated signal ranks
        "What year did Jon start dancing?",
        "Did Jon and Gina both dance?",  # two people: each one's ranking in turn
        "Which city have both Jean and John visited?",
        "What does Ana like?",  # nothing but function words would be left
        "What did I say about Paris?",  # "I" is no name; Paris is not the subject
        "What should I do Friday night?",  # a day is no name, a pronoun is no phrase
        "What did you tell Ana?",
        "Tell me about Paris.",
        "What are some changes Caroline has faced?",  # no auxiliary before the name
        "is it raining?",
        "",
    ],
)
def test_a_question_without_one_named_subject_is_embedded_whole(query: str) -> None:
    assert dense_query(query) == query


def test_the_preset_can_keep_the_question_whole() -> None:
    assert dense_query("What has Melanie painted?", without_subject=False) == (
        "What has Melanie painted?"
    )


def test_the_subject_span_is_the_name_alone() -> None:
    query = "Would Melanie's kids like the beach?"
    span = subject_span(query)
    assert span is not None
    assert query[span[0] : span[1]] == "Melanie"
    assert subject_span("Do Jon and Gina dance?") is None
