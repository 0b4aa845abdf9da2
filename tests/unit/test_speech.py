"""What a message does: asks, makes small talk, or states something (text/speech.py)."""

from __future__ import annotations

import pytest

from cognimem.text.speech import asks, filler, is_phatic


@pytest.mark.parametrize(
    "text",
    [
        "Any ideas for dinner tonight?",
        "Hey Ingrid, how are you keeping these days? Anything new?",
        "Oh? Will you ask them along?",
        "Hi! How are you doing today?",
        "Really?!",
    ],
)
def test_a_message_that_only_asks_is_a_question(text: str) -> None:
    assert filler(text) == "question"


@pytest.mark.parametrize(
    "text", ["Hi there!", "Thanks, that's great!", "haha yeah", "Ok cool", "Talk soon!", "🙂"]
)
def test_greetings_thanks_and_laughter_are_small_talk(text: str) -> None:
    assert filler(text) == "small talk"
    assert is_phatic(text)


@pytest.mark.parametrize(
    "text",
    [
        "I'm vegetarian.",
        "Thanks! I'm vegetarian, by the way.",
        "Thanks, Pri!",  # a name is what a later question may ask about
        "Went hiking with my sister. What did you do?",
        "My cat is called Miso",
        "",
    ],
)
def test_a_message_that_states_anything_is_not_filler(text: str) -> None:
    assert filler(text) is None


def test_asking_is_ending_in_a_question() -> None:
    assert asks("Is it cheaper on Tuesdays? ")
    assert asks('She said "really?"')
    assert not asks("I wonder why.")
