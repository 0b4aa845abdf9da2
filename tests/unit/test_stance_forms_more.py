"""Stances in more forms of English (issue 29, item 1): refusals said by idiom ("I've
sworn off X", "I'm so over X", "Count me out of X", "X leave me cold"), choices said by
idiom ("I'm partial to X", "Give me X any day", "Nothing beats X"), exclusive choices
("The only X I buy is Y", "X only for me", "anything except X"), conditions said with
no subordinator or with "unless" / "if I can", a rule said after its reason ("Being
vegan, I have to ...", kept whole as a cause), an object named again by a pronoun; and
what is no stance of the speaker's: someone else's, a habit of the past, one thing done
once, a request or a wish for one occasion. Sentences written for these tests."""

from __future__ import annotations

import pytest

from cognimem.models.knowledge import FactCategory
from tests.unit.test_choice_extraction import constraints

POLICY = FactCategory.POLICY
VALUE = FactCategory.VALUE


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I've sworn off energy drinks for good.", "energy drinks"),
        ("I've gone right off reality shows.", "reality shows"),
        ("I'm trying to eat less red meat.", "red meat"),
        ("I try to keep screen time to a minimum.", "screen time"),
        ("I'm wary of apps that want my location.", "apps that want my location"),
        ("I can't be doing with long voice notes.", "long voice notes"),
        ("I'm not a morning run person.", "morning run"),
        ("I'm so over group chats.", "group chats"),
        ("I'm trying to wean myself off fizzy drinks.", "fizzy drinks"),
        ("I'm off dairy for now.", "dairy"),
        ("I'm against zoos.", "zoos"),
        ("I'm opposed to tipping apps.", "tipping apps"),
        ("I'm put off by anything with glitter.", "anything with glitter"),
        ("I'm not the type to queue overnight for a phone.", "queue overnight for a phone"),
        ("Count me out of any hike over ten miles.", "hike over ten miles"),
        ("You won't catch me in a karaoke bar.", "karaoke bar"),
        ("I'll pass on anything with raisins.", "anything with raisins"),
        ("I'd rather die than wear socks with sandals.", "wear socks with sandals"),
        ("I gave up smoking years ago.", "smoking"),
        ("My doctor told me to avoid liquorice.", "liquorice"),
        ("I never feed the dog from the table.", "feed the dog from the table"),
    ],
)
def test_a_refusal_by_verb_or_idiom_is_against_its_whole_object(text: str, value: str) -> None:
    assert constraints(text) == [(POLICY, value, False)]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Hot tubs leave me cold.", "Hot tubs"),
        ("Cruise holidays are a definite no.", "Cruise holidays"),
        ("Heavy metal is out for me.", "Heavy metal"),
        ("Skinny ties are just not me.", "Skinny ties"),
        # the "I" of a relative clause is not the stance's subject
        (
            "Big weddings where I don't know anyone aren't really my scene.",
            "Big weddings where I don't know anyone",
        ),
        # the object named again by a pronoun
        ("Escape rooms are the worst, I avoid them whenever I can.", "Escape rooms"),
        ("Anything made of acrylic makes me itch, so I avoid it.", "Anything made of acrylic"),
    ],
)
def test_a_stance_with_its_object_first_is_against_it(text: str, value: str) -> None:
    assert (POLICY, value, False) in constraints(text)


def test_a_refusal_of_anything_with_a_thing_after_its_reason() -> None:
    text = "Because my daughter is allergic, we can't have anything with sesame."
    assert (POLICY, "anything with sesame", False) in constraints(text)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I'm partial to a strong cheddar.", "strong cheddar"),
        ("Give me a window seat any day.", "window seat"),
        ("Nothing beats a long soak in the bath.", "long soak in the bath"),
        ("Board games all the way for me.", "Board games"),
        ("Trains are the way to go for me.", "Trains"),
        ("I have a soft spot for old films.", "old films"),
        ("I'm loyal to my local bakery.", "local bakery"),
        ("I can't resist second-hand bookshops.", "second-hand bookshops"),
        ("I'd sooner cycle than drive.", "cycle"),
        ("I'm more of a tea person than a coffee person.", "tea"),
        ("I learn best with diagrams.", "learn best with diagrams"),
        ("I keep the heating low to save money.", "keep the heating low to save money"),
        ("I buy local wherever I can.", "buy local"),
    ],
)
def test_a_choice_said_by_idiom_is_for_its_object(text: str, value: str) -> None:
    assert constraints(text) == [(POLICY, value, True)]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("The only tea I drink is green tea.", "only drink green tea"),
        ("The only bread we buy is rye.", "only buy rye for bread"),
        ("Only cotton sheets for me.", "only cotton sheets"),
        ("Cash only for me at the market.", "only Cash"),
        ("I won't wear anything except cotton.", "only wear cotton"),
    ],
)
def test_an_exclusive_choice_in_more_forms(text: str, value: str) -> None:
    assert constraints(text) == [(VALUE, value, True)]


@pytest.mark.parametrize(
    ("text", "value", "polarity"),
    [
        # "hundred" is no past form: the condition is real
        (
            "If it's over a hundred quid I always sleep on it first.",
            "sleep on it first if it's over a hundred quid",
            True,
        ),
        ("For anything under a mile I walk.", "walk for anything under a mile", True),
        ("If I can, I cycle to work.", "cycle to work if I can", True),
        ("Unless it's a birthday, I don't have cake.", "cake unless it's a birthday", False),
        ("Weeknights I stay in.", "stay in weeknights", True),
        (
            "On a rainy day I want something cosy to read.",
            "want something cosy to read on a rainy day",
            True,
        ),
    ],
)
def test_a_habit_under_its_condition_or_reason_is_a_rule(
    text: str, value: str, polarity: bool
) -> None:
    assert constraints(text) == [(POLICY, value, polarity)]


@pytest.mark.parametrize(
    "text",
    [
        # someone else's stance: theirs, not the speaker's
        "Jess never answers her phone.",
        "My friend Dan only invests in gold.",
        "My parents refuse to fly anywhere these days.",
        "My kids only eat plain pasta at the moment.",
        # a habit of the past, one thing done once
        "Back in school I only did the bare minimum.",
        "I returned the wool jumper because it was itchy.",
        # look-alikes of the new forms
        "I'm over the moon with my new bike.",
        "I'm off to the shops.",
        "I'll pass on the message to her.",
        "The answer is a definite no.",
        "My sister has stood by me all the way.",
        "I quit my job last year.",
        "Please avoid the toll roads on this trip.",
    ],
)
def test_no_stance_of_the_speakers_own(text: str) -> None:
    assert constraints(text) == []


@pytest.mark.parametrize(
    "text",
    [
        # "have been" is no obligation; one Monday is no condition that recurs
        "Since we last spoke, I've been thinking about schools.",
        "On Monday I want to finish the report.",
    ],
)
def test_no_rule_from_a_lead_that_is_no_frame(text: str) -> None:
    assert [c for c in constraints(text) if c[0] in {POLICY, VALUE}] == []


def test_a_duty_said_after_being_something_is_kept_whole_as_a_cause() -> None:
    text = "Being vegan, I have to check every label."
    assert constraints(text) == [(FactCategory.CAUSAL, text.rstrip("."), True)]


def test_a_cause_that_goes_on_is_still_read() -> None:
    text = "I stopped the tablets because they made me dizzy."
    assert FactCategory.CAUSAL in {c for c, _, _ in constraints(text)}


@pytest.mark.parametrize(
    "text",
    [
        "Please skip the olives in this recipe.",
        "No chilli in tonight's curry please.",
        "For this visit, please avoid the hotel bar.",
        "I'd rather not cook tonight, I'm shattered.",
    ],
)
def test_a_request_or_wish_for_one_occasion_is_no_standing_stance(text: str) -> None:
    assert constraints(text) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I'm never in the mood for karaoke.", "karaoke"),
        ("Please leave out olives in any recipe.", "olives in any recipe"),
    ],
)
def test_a_standing_refusal_beside_its_one_occasion_look_alike(text: str, value: str) -> None:
    assert constraints(text) == [(POLICY, value, False)]


@pytest.mark.parametrize(
    ("text", "value", "polarity"),
    [
        ("I've been trying to cut back on takeaway coffee.", "takeaway coffee", False),
        # the choice taken when offered, said after its "if" with no comma
        ("If there's a front-row seat I'll always take that.", "front-row seat", True),
    ],
)
def test_a_stance_after_a_hedge_or_an_if_of_what_is_offered(
    text: str, value: str, polarity: bool
) -> None:
    assert constraints(text) == [(POLICY, value, polarity)]
