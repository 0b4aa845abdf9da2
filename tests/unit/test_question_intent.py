"""The rules' reading of questions about time and of requests for a decision
(``recall.analyze.classify``): a question about someone's act, past or planned, asks to
recall it, whatever words of choosing it holds; a request of the user's own asks for a
decision, whatever time words it holds."""

from __future__ import annotations

import pytest

from cognimem.recall.analyze import Intent, classify


@pytest.mark.parametrize(
    "query",
    [
        "When did Olek plan to fly to Riga?",
        "When does Petra plan to sell the flat?",
        "How long did it take Olek to build the shed?",
        "How long did Petra plan to stay at the farm?",
        "What day did we book the ferry?",
        "When was Olek supposed to order the tiles?",
    ],
)
def test_a_time_question_about_an_act_is_temporal_and_asks_no_decision(query: str) -> None:
    reading = classify(query)
    assert reading.intent is Intent.TEMPORAL
    assert not reading.decision


@pytest.mark.parametrize(
    "query",
    [
        "Why did Petra choose the blue tiles?",
        "What book is Olek reading these days?",
        "What advice does Petra give about sourdough?",
        "Which hotel did Olek recommend to his sister?",
    ],
)
def test_a_question_about_what_someone_chose_or_advised_asks_no_decision(query: str) -> None:
    assert not classify(query).decision


@pytest.mark.parametrize(
    ("query", "intents"),
    [
        ("Which should I buy, the grey sofa or the green one?", {Intent.DECISION}),
        ("Where should we eat on Friday?", {Intent.DECISION}),
        ("What should I do Friday night?", {Intent.DECISION}),
        ("When should I book the train to Vienna?", {Intent.CONSTRAINT_CHECK}),
        ("How long should I rest my ankle?", {Intent.CONSTRAINT_CHECK}),
        ("Can you book me a table for two?", {Intent.DECISION}),
        ("Book a table at the noodle bar for Saturday.", {Intent.DECISION}),
        ("What options do I have for getting to the airport?", {Intent.DECISION}),
        ("I was ill last week. What should I cook tonight?", {Intent.DECISION}),
    ],
)
def test_a_request_of_the_users_own_asks_for_a_decision(query: str, intents: set[Intent]) -> None:
    reading = classify(query)
    assert reading.decision
    assert reading.intent in intents


@pytest.mark.parametrize(
    "query",
    [
        "Which came first, Olek's promotion or his move?",
        "Did Petra move before she started the new job?",
        "How long after the wedding did they go away?",
        "How long has Olek been learning the violin?",
    ],
)
def test_questions_that_place_events_or_span_time_are_temporal(query: str) -> None:
    assert classify(query).intent is Intent.TEMPORAL
