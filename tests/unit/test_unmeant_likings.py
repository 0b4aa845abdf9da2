"""Sarcasm said with no marker (a strong liking of what no one wants to undergo), a claim
reversed at its own end, a liking marked by an eye-roll, first-person words in a
quotation, a momentary urge said with "I could", and an "allergy" said in rated words
give no fact (issue 32); earnest likings in the same words keep theirs. The sentences
are new, not from any probe set."""

from __future__ import annotations

import pytest

from cognimem.ingest.extract.ordeals import likes_an_ordeal
from cognimem.text.noun_roots import is_ordeal
from cognimem.text.valence import valence
from tests.unit.test_figures_of_speech import read


@pytest.mark.parametrize(
    "text",
    [
        # a strong liking of an ordeal: a delay, a wait, an illness (WordNet)
        "I'm a huge fan of airport delays.",
        "I just love waiting for the plumber all day.",
        "I'm a big fan of migraines.",
        "I'm a big fan of jet lag.",
        # a claim reversed at its own end
        "I'm a huge fan of dental cleanings... not.",
        "I'm a big fan of wasabi, yeah right.",
        # a liking marked by an eye-roll
        "I love camping 🙄",
        # first-person words that are a sign's, a garment's, someone else's
        'The sign at the bakery says "I\'m gluten free."',
        'Her hoodie says "I live in Brooklyn."',
        "My nephew keeps quoting \"I'm a vegetarian, I don't eat chicken.\"",
        # a momentary urge
        "I could eat a whole pizza right now.",
        "I could drink a gallon of coffee right now.",
        # an "allergy" said in words a sentiment lexicon rates
        "I'm allergic to bad energy.",
    ],
)
def test_a_liking_or_claim_not_meant_gives_nothing(text: str) -> None:
    assert read(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a grim word before what is liked only describes it
        ("I'm a huge fan of horror podcasts.", ("", None, "horror podcasts")),
        ("I love sad country songs.", ("preference", None, "sad country songs")),
        ("I'm a huge fan of true crime.", ("policy", None, "true crime")),
        ("I'm a huge fan of thunderstorms.", ("", None, "thunderstorms")),
        # a name is no ordeal; a wait chosen is no ordeal
        ("I'm a big fan of Sting.", ("policy", None, "Sting")),
        ("I'm a big fan of waiting until the last minute to book flights.", ("policy", None, "")),
        # "not" and a reversal word that do not end the sentence
        ("I'm a vegan, not a vegetarian.", ("value", "diet", "vegan")),
        ("I'm a huge fan of the Lakers, not gonna lie.", ("policy", None, "Lakers")),
        # an allergen said in a rated word is still one
        ("I'm allergic to poison oak.", ("policy", "allergy", "poison oak")),
        ("I enjoy hiking with my dog.", ("preference", None, "hiking")),
        # a title in quotation marks is no one's words
        ('My favorite song is "I Will Survive".', ("preference", None, "I Will Survive")),
        ('"My Way" is my favorite song.', ("preference", None, "My Way")),
    ],
)
def test_the_same_words_meant_keep_their_fact(
    text: str, expected: tuple[str, str | None, str]
) -> None:
    category, predicate, value = expected
    facts = read(text)
    assert any(category in c and predicate in (None, p) and value in v for c, p, v in facts), facts


@pytest.mark.parametrize(
    "text",
    [
        "I love it when my train gets cancelled.",  # a clause after "it when"
        "I just love having migraines.",  # what a light verb acts on
        "Oh, I really enjoy paying income tax.",  # a light verb's object
        "I'm such a fan of toothaches.",
        'I "enjoy" running.',  # the verb in scare quotes
    ],
)
def test_a_strong_liking_of_an_ordeal_is_sarcasm(text: str) -> None:
    assert likes_an_ordeal(text)


@pytest.mark.parametrize(
    "text",
    [
        "I love getting lost in old movies.",  # lost in a work of words or pictures
        "I love getting lost in a good book.",
        "I love treating migraines with acupuncture.",  # a verb that acts on the ordeal
        "I love it when my kids laugh.",
        "I love when it snows.",
        "I love a good challenge.",
        "I love solving problems.",
        "I don't love waiting in line.",  # no liking said
        # a state said of the speaker, however VADER rates it
        "I love being alone.",
        "I love getting lost.",
        # a liking explained; the X of Y; a noun the verb qualifies
        "I love doing my own taxes, it's like a puzzle.",
        "I love waiting rooms because I get to read.",
        "I love the pain of a hard workout.",
    ],
)
def test_an_earnest_liking_is_no_sarcasm(text: str) -> None:
    assert not likes_an_ordeal(text)


def test_the_ordeal_table_and_the_valence_table() -> None:
    for noun in ("hangover", "flu", "delays", "waiting", "taxes", "jet lag"):
        assert is_ordeal(noun), noun
    # a play as often as a misfortune, a name, an act of one's choosing
    for noun in ("tragedy", "hiking", "jazz", "challenge", "traffic"):
        assert not is_ordeal(noun), noun
    assert valence("stuck") < 0 < valence("good")
    assert valence("ignored") < 0
    assert valence("qwertyuiop") == 0.0
