"""Likings and dislikings said in idioms and judging words (issue 29, item 1): "I'm keen
on X", "I thrive on X", "I resent X", "X are so tiring", "X is one of life's joys", a
past "I never tired of X", "I delight in X" become a constraint with its polarity and
whole object; a one-off, someone else's stance, a question or a description of how
things are gives none. Sentences written for these tests."""

from __future__ import annotations

import pytest

from cognimem.ingest.extract.taste_idioms import idiom_stance
from cognimem.models.knowledge import FactCategory
from tests.unit.test_choice_extraction import constraints

POLICY = FactCategory.POLICY


@pytest.mark.parametrize(
    ("text", "value", "polarity"),
    [
        ("I'm keen on quiet campsites by a river.", "quiet campsites by a river", True),
        ("I'm really fond of salty liquorice.", "salty liquorice", True),
        ("I'm partial to a slice of lemon drizzle cake.", "slice of lemon drizzle cake", True),
        ("I'm besotted with old Italian scooters.", "old Italian scooters", True),
        ("I thrive on busy Saturday shifts.", "busy Saturday shifts", True),
        ("I get a real kick out of fixing old radios.", "fixing old radios", True),
        ("I've always had a soft spot for brass bands.", "brass bands", True),
        ("I delight in slow breakfasts on the balcony.", "slow breakfasts on the balcony", True),
        ("I never tired of sailing on the lake.", "sailing on the lake", True),
        ("Foggy harbour walks are one of life's simple joys.", "Foggy harbour walks", True),
        ("A big leather armchair suits me down to the ground.", "big leather armchair", True),
        ("I resent queueing for cash machines.", "queueing for cash machines", False),
        ("I resent being kept on hold for ages.", "being kept on hold for ages", False),
        ("I've lost patience with loyalty card schemes.", "loyalty card schemes", False),
        ("I've got no time for reality dating shows.", "reality dating shows", False),
        ("I can't see the appeal of cruise holidays.", "cruise holidays", False),
        ("Motorway service stations are so depressing.", "Motorway service stations", False),
        ("Long conference calls are mind-numbing for me.", "Long conference calls", False),
        ("Scratchy wool scarves are just grating.", "Scratchy wool scarves", False),
        ("Plastic patio furniture is such an eyesore.", "Plastic patio furniture", False),
        ("Loyalty apps strike me as pointless.", "Loyalty apps", False),
        ("Hotel breakfast buffets feel so tiring to me.", "Hotel breakfast buffets", False),
        ("Pop-up adverts are a total turn-off.", "Pop-up adverts", False),
        ("Clowns give me the creeps.", "Clowns", False),
        ("Tracksuits were never my thing.", "Tracksuits", False),
    ],
)
def test_an_idiom_or_judging_word_is_a_stance(text: str, value: str, polarity: bool) -> None:
    assert (POLICY, value, polarity) in constraints(text)


@pytest.mark.parametrize(
    "text",
    [
        "That support act last night was grating.",  # a one-off
        "Today's meeting was mind-numbing.",
        "This queue is so tiring.",
        "My brother thrives on busy Saturday shifts.",  # someone else's
        "My aunt is fond of brass bands.",
        "Are you keen on quiet campsites?",  # a question
        "Startups are chaotic.",  # how things are, said of no one's taste
        "Weather is bad.",
        "I'm fond of you.",  # a person
        "I'm keen on it.",
    ],
)
def test_a_one_off_another_voice_or_a_description_is_none(text: str) -> None:
    assert constraints(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm not partial to tinned peaches", ("tinned peaches", False)),
        ("Bright rugs make a hallway feel so tacky to me", None),  # the subject holds a verb
        ("Rainy Mondays are one of my pet hates", ("Rainy Mondays", False)),  # by "hates"
        ("Horror films are scary", None),  # no degree, tail or noun: not the speaker's
        ("Horror films are scary to me", ("Horror films", False)),
    ],
)
def test_the_reader_tells_form_and_polarity(text: str, expected: tuple[str, bool] | None) -> None:
    assert idiom_stance(text) == expected
