"""The vector search's query: a question about one named person without the name
(``recall/conversation/topic.py``)."""

from __future__ import annotations

import pytest

from cognimem.recall.conversation.topic import dense_query, subject_span


@pytest.mark.parametrize(
    ("query", "embedded"),
    [
        ("What sports does Priya take up in winter?", "What sports does take up in winter?"),
        ("What has Priya painted?", "What has painted?"),
        ("Would Priya book another ski trip soon?", "Would book another ski trip soon?"),
        ("How many cousins does Priya have?", "How many cousins does have?"),
        ("What kind of bread does Claire bake?", "What kind of bread does bake?"),
        ("What is Claire's relationship status?", "What is relationship status?"),
        ("What is Claire\u2019s job?", "What is job?"),
        ("Why did Rosa decide to open a store?", "Why did decide to open a store?"),
        ("Which US cities does Felix like?", "Which US cities does like?"),
        # a name that is not the subject is what the question is about: it stays
        ("What did Omar take a train to Lisbon for?", "What did take a train to Lisbon for?"),
        (
            "What film did Priya watch on Claire's advice?",
            "What film did watch on Claire's advice?",
        ),
    ],
)
def test_the_subjects_name_is_left_out(query: str, embedded: str) -> None:
    assert dense_query(query) == embedded


@pytest.mark.parametrize(
    "query",
    [
        "When did Priya go camping?",  # "when": the focus is off, the dated signal ranks
        "What year did Omar start dancing?",
        "Did Omar and Rosa both dance?",  # two people: each one's ranking in turn
        "Which towns have Jean and Felix both toured?",
        "What does Ana like?",  # nothing but function words would be left
        "What did I say about Paris?",  # "I" is no name; Paris is not the subject
        "What should I do Friday night?",  # a day is no name, a pronoun is no phrase
        "What did you tell Ana?",
        "Tell me about Paris.",
        "What are some setbacks Claire has met?",  # no auxiliary before the name
        "is it raining?",
        "",
    ],
)
def test_a_question_without_one_named_subject_is_embedded_whole(query: str) -> None:
    assert dense_query(query) == query


def test_the_preset_can_keep_the_question_whole() -> None:
    assert dense_query("What has Priya painted?", without_subject=False) == (
        "What has Priya painted?"
    )


def test_the_subject_span_is_the_name_alone() -> None:
    query = "Would Priya's kids like the beach?"
    span = subject_span(query)
    assert span is not None
    assert query[span[0] : span[1]] == "Priya"
    assert subject_span("Do Omar and Rosa dance?") is None
