"""Sentences that state nothing to record: a state denied or ended, a job or a home
denied, a thing not done, a joke marked by laughter, hyperbole or a metaphor said as
what the speaker is, a habit that only looks like a condition, and working beside
someone (issue 32). The rules read no fact from any of them, and still read the
sentences of the same shape that do state something."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from cognimem.ingest.extract import ExtractionInput, RuleExtractor
from cognimem.models.knowledge import FactCategory

WHEN = datetime(2024, 6, 15, 12, 0, tzinfo=UTC)


def read(text: str) -> list[tuple[FactCategory, str, bool]]:
    found = RuleExtractor().extract_one(ExtractionInput(text=text, occurred_at=WHEN)).facts
    return [(f.category, f.value, f.polarity) for f in found]


@pytest.mark.parametrize(
    "text",
    [
        # a state ended or denied is no new state
        "I'm not sick anymore.",
        "My back doesn't hurt anymore.",
        "My ankle doesn't hurt these days.",
        "My shoulder isn't inflamed anymore.",
        "I'm not on call this week.",
        "I'm not on social media anymore.",
        # ... nor a rule of conduct
        "I don't have a cold anymore.",
        "We don't live there anymore.",
        # a job denied or ended is no rule
        "I don't work for Amazon.",
        "I don't work at the bank anymore.",
        "I'm not working at the cafe anymore.",
        # a thing not done is no state
        "I didn't call my mom this week.",
        "I haven't texted my sister lately.",
        # a habit is no condition
        "I have a cold brew every morning.",
        # working beside someone is no goal
        "I'm working with Sarah on the project.",
    ],
)
def test_a_denied_or_ended_state_reads_nothing(text: str) -> None:
    assert read(text) == []


@pytest.mark.parametrize(
    "text",
    [
        # laughter in more spellings than "lol" and "haha"
        "I'm on call for my cat these days, hahah.",
        "I'm on call for my cat these days lolol",
        "I'm on call for my cat these days \U0001f602",
        "I'm on call for my cat these days, ha.",
        "I'm on call for my cat these days :P",
        # hyperbole
        "I'm practically living at the office these days.",
        "My work laptop is so old it runs on steam.",
        "My inbox has more energy than I do these days.",
        # a metaphor said as what the speaker, or their thing, is
        "I'm a professional procrastinator these days.",
        "My desk is my second home these days.",
    ],
)
def test_a_joke_reads_nothing(text: str) -> None:
    assert read(text) == []


@pytest.mark.parametrize(
    ("text", "category", "value"),
    [
        ("I have a cold right now.", FactCategory.STATE, "cold"),
        ("I'm on nights right now.", FactCategory.STATE, "I'm on nights right now"),
        (
            "We don't have a car at the moment.",
            FactCategory.STATE,
            "We don't have a car at the moment",
        ),
        (
            "I'm the only driver in the house right now.",
            FactCategory.STATE,
            "I'm the only driver in the house right now",
        ),
        (
            "I'm working with a coach to get faster.",
            FactCategory.GOAL,
            "I'm working with a coach to get faster",
        ),
        ("I don't work on weekends.", FactCategory.POLICY, "don't work on weekends"),
        ("I never work for free.", FactCategory.POLICY, "never work for free"),
        (
            "I haven't been able to sleep properly lately.",
            FactCategory.STATE,
            "I haven't been able to sleep properly lately",
        ),
    ],
)
def test_the_same_shapes_still_state_something(
    text: str, category: FactCategory, value: str
) -> None:
    assert (category, value, True) in read(text)
