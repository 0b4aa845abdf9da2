"""What a message does: asks, makes small talk, or states something (text/speech.py)."""

from __future__ import annotations

import random
import re

import pytest

from cognimem.text.speech import PHATIC_WORDS, asks, filler, is_phatic, states_then_asks


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


@pytest.mark.parametrize(
    "text",
    [
        "We sang at the harbour festival on Sunday, did you hear us?",
        "I finally fixed the old radio, right?",
        "My sister moved to Oslo in May, did I tell you?",
        "Our team won the quiz, you know?",
    ],
)
def test_a_statement_of_ones_own_doings_with_a_tag_states(text: str) -> None:
    assert asks(text)  # it hands the turn back
    assert states_then_asks(text)
    assert filler(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "Did you go to the fair, or did you stay home?",
        "Remember the blue kayak we rented at the lake?",
        "That sounds fun, have you been?",  # a reaction: nothing of the speaker's own
        "Wow, really?",
        "So cool, did you paint it?",
        "Ok, did you?",
    ],
)
def test_a_question_or_a_reaction_with_a_tag_only_asks(text: str) -> None:
    assert not states_then_asks(text)
    assert filler(text) == "question"


def test_a_text_is_phatic_exactly_when_every_word_is() -> None:
    """The first word decides a text that does not open phatic; the others are read
    only after it: the answer is every word's, on texts built of both kinds."""
    rng = random.Random(35)
    words = [*sorted(PHATIC_WORDS)[:40], "Dog", "went", "I'm", "lake", "x1", "'s"]
    for _ in range(5_000):
        text = " ".join(rng.choice(words) for _ in range(rng.randint(0, 5)))
        text += rng.choice(["", "!", "?", " 🙂", ", ok"])
        every = all(w.lower() in PHATIC_WORDS for w in re.findall(r"[A-Za-z0-9']+", text))
        assert is_phatic(text) is every, text
