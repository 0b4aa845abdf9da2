"""Stances said in turns of phrase (issue 29, item 1; `ingest/extract/stance_turns.py`):
the thing and the speaker as a pair that does not get on, what the thing never was or
now is to the speaker, what beats what for them, a pick of one over another, standing
orders about what to suggest, limits, a verdict after a story; and beside each what is
no standing stance of the speaker's: someone else's, a question, a one-off request,
reported speech, a past event. Sentences written for these tests."""

from __future__ import annotations

import pytest

from cognimem.models.knowledge import FactCategory
from tests.unit.test_choice_extraction import constraints

POLICY = FactCategory.POLICY
VALUE = FactCategory.VALUE


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Olives and I have never got along.", "Olives"),
        ("Crosswords and me will never be friends.", "Crosswords"),
        ("Podcasts and I just don't click.", "Podcasts"),
        ("Karaoke has never been my scene.", "Karaoke"),
        ("Long meetings are beyond my patience.", "Long meetings"),
        ("Fast food is off my list for good.", "Fast food"),
        ("Spicy sauces just don't agree with my stomach.", "Spicy sauces"),
        ("Escape rooms and I parted ways years ago.", "Escape rooms"),
        ("Open-plan offices and I are not friends.", "Open-plan offices"),
        (
            "Board games with long rulebooks have never done it for me.",
            "Board games with long rulebooks",
        ),
        ("Cruise holidays have never appealed to me.", "Cruise holidays"),
        ("Tiny homes are something I've never warmed to.", "Tiny homes"),
        ("Expensive gym memberships are wasted on me.", "Expensive gym memberships"),
        ("Designer handbags are out of my league.", "Designer handbags"),
        ("Hot yoga is a nope for me.", "Hot yoga"),
        ("Weekend conferences are a step too far for me.", "Weekend conferences"),
        ("Sourdough starters are more faff than they're worth.", "Sourdough starters"),
        (
            "Dinner parties on a Monday just aren't happening in my house.",
            "Dinner parties on a Monday",
        ),
        (
            "Evening classes that run past ten don't fit my life.",
            "Evening classes that run past ten",
        ),
        (
            "Films that run over three hours aren't something I'll sit through.",
            "Films that run over three hours",
        ),
    ],
)
def test_a_thing_said_first_then_what_it_is_to_the_speaker_is_refused(
    text: str, value: str
) -> None:
    assert constraints(text) == [(POLICY, value, False)]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I'd take a quiet campsite over a busy hotel any day.", "quiet campsite"),
        ("I'd pick a paperback over an e-reader every time.", "paperback"),
        ("Handwritten cards beat text messages for me.", "Handwritten cards"),
        ("A long walk wins over a gym session every time for me.", "long walk"),
        ("Tea over coffee for me.", "Tea"),
        ("I'll always go with a one-pot stew over anything fiddly.", "one-pot stew"),
        ("A seat by the window is what I'm after every time.", "seat by the window"),
        ("Max one glass of wine on a weeknight for me.", "max one glass of wine on a weeknight"),
        ("Slow mornings in bed are my happy place.", "Slow mornings in bed"),
    ],
)
def test_what_the_speaker_picks_over_another_is_chosen(text: str, value: str) -> None:
    assert constraints(text) == [(POLICY, value, True)]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Please keep pubs out of any plan you make for me.", "pubs"),
        ("Leave anything with horses off any list you make for me.", "anything with horses"),
        ("Please stop suggesting spicy curries to me.", "spicy curries"),
        (
            "Please leave me off any trip that needs a night flight.",
            "trip that needs a night flight",
        ),
        ("Don't ever put me down for a karaoke slot.", "karaoke slot"),
        ("No more than one coffee after lunch.", "more than one coffee after lunch"),
        ("Anything longer than a weekend, I won't book.", "Anything longer than a weekend"),
        ("Tried paddleboarding once and honestly it's not for me.", "paddleboarding"),
        ("Went on a cruise once, and once was enough.", "cruise"),
        ("Don't bother suggesting anything with mint in it.", "anything with mint in it"),
        ("Please spare me any films with talking animals.", "films with talking animals"),
        ("Skip anything with olives when you plan meals for me.", "anything with olives"),
        (
            "Nothing over two hours in the car when we visit my parents.",
            "over two hours in the car when we visit my parents",
        ),
        ("Gave hot pot a go in the spring, and never again.", "hot pot"),
        ("Bought a linen suit once and that was the end of linen for me.", "linen"),
    ],
)
def test_a_standing_order_a_limit_or_a_verdict_after_a_story_is_a_refusal(
    text: str, value: str
) -> None:
    assert constraints(text) == [(POLICY, value, False)]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I'm not a big drinker, so craft beers have never appealed to me.", "craft beers"),
        ("To be honest, theme parks have never done it for me.", "theme parks"),
        ("I love my job but late shifts just don't fit my life.", "late shifts"),
    ],
)
def test_a_thing_said_first_may_follow_a_hedge_or_a_conjunction(text: str, value: str) -> None:
    assert (POLICY, value, False) in constraints(text)


def test_a_limit_keeps_the_condition_it_is_said_under() -> None:
    assert constraints("When I visit my parents, nothing more than one night away.") == [
        (POLICY, "more than one night away when I visit my parents", False)
    ]


def test_a_limit_kept_at_a_number_is_chosen() -> None:
    assert constraints("I keep the fridge at 4 degrees.") == [(POLICY, "fridge at 4 degrees", True)]


def test_the_one_way_the_speaker_will_do_a_thing_is_exclusive() -> None:
    assert constraints("The only way I'll take a ferry is in a cabin.") == [
        (VALUE, "only take a ferry in a cabin", True)
    ]


@pytest.mark.parametrize(
    "text",
    [
        "My brother and I have never got along.",
        "Sam and I don't get along.",
        "Mum and I aren't friends anymore.",
        "Don't bother suggesting a pudding tonight, we're full.",
        "Please spare me the details, I'm eating.",
        "Skip the intro, I've seen it.",
        "A blue one is what I'm after.",
        "My aunt would take a quiet campsite over a busy hotel any day.",
        "Would you take a paperback over an e-reader?",
        "Do handwritten cards really beat text messages?",
        "My sister tried paddleboarding once and says it's not for her.",
        "Keep the starter small today, I'm not that hungry.",
        "Please leave me off the email about Friday's lunch.",
        "Our coach says no more than one coffee after lunch.",
        "I kept the receipt at home.",
        "If the garden were bigger I'd take the shed over the greenhouse.",
        "Board games were everything to me as a kid.",
    ],
)
def test_no_standing_stance_of_the_speakers_gives_no_constraint(text: str) -> None:
    assert constraints(text) == []
