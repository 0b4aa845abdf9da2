"""More voices of a stance (issue 29): a refusal said as what the speaker would never
do, kept up or cut back; the subject left out; a dislike held for long; a judgement of
the thing ("I find X exhausting", "X is my idea of hell", "X isn't me"); a "no" said
for the speaker with no verb; a request against what the listener suggests; a real
"if" condition; an object-first stance after a reason or a conjunction; a stance said
before a question, a hypothetical or someone's opinion of it, or with a laugh. Each
keeps its whole object and its polarity; the look-alikes state nothing. Sentences
written for these tests."""

from __future__ import annotations

import pytest

from cognimem.models.knowledge import FactCategory
from tests.unit.test_choice_extraction import constraints

POLICY = FactCategory.POLICY


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I'd never buy a used car.", "buy a used car"),
        ("I would never stay in a hostel.", "stay in a hostel"),
        ("I've been avoiding caffeine.", "caffeine"),
        ("I'm cutting down on red meat.", "red meat"),
        ("I've cut back on takeaway coffee.", "takeaway coffee"),
        ("I'm no fan of long queues.", "long queues"),
        ("I'm sick of superhero sequels.", "superhero sequels"),
        ("I'm fed up with crowded trains.", "crowded trains"),
        ("I don't really go in for team sports.", "team sports"),
        ("I just don't get on with audiobooks.", "audiobooks"),
        ("I tend not to buy anything made of polyester.", "buy anything made of polyester"),
        ("I make a point of never checking email on weekends.", "checking email on weekends"),
        ("I don't want to manage people.", "manage people"),
        ("I draw the line at matching outfits.", "matching outfits"),
    ],
)
def test_a_refusal_in_more_verbs_is_against_its_whole_object(text: str, value: str) -> None:
    assert constraints(text) == [(POLICY, value, False)]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Not a fan of cilantro.", "cilantro"),
        ("Not really into sci-fi.", "sci-fi"),
        ("Can't stand country music.", "country music"),
        ("Really dislike crowded beaches.", "crowded beaches"),
    ],
)
def test_a_stance_with_its_subject_left_out(text: str, value: str) -> None:
    assert constraints(text) == [(POLICY, value, False)]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I've never cared for open-plan offices.", "open-plan offices"),
        ("I've always hated flying.", "flying"),
        ("I find video games boring.", "video games"),
        ("I find open-plan offices really distracting.", "open-plan offices"),
        ("Audiobooks just don't do it for me.", "Audiobooks"),
        ("Board games do nothing for me.", "Board games"),
        ("Loud bars are really not my scene.", "Loud bars"),
        ("Cruises are my idea of hell.", "Cruises"),
        ("Open-plan offices are a nightmare.", "Open-plan offices"),
        ("Clubbing isn't me.", "Clubbing"),
        ("Group holidays just aren't worth the hassle.", "Group holidays"),
        ("Anything with sequins, no thank you.", "Anything with sequins"),
        ("I'd prefer if we didn't do sleepovers.", "do sleepovers"),
    ],
)
def test_a_judgement_of_the_thing_is_against_it(text: str, value: str) -> None:
    assert constraints(text) == [(POLICY, value, False)]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("No horror movies for me, thanks.", "horror movies"),
        ("Nothing too spicy for me.", "anything too spicy"),
        ("Please avoid recommending chain restaurants.", "chain restaurants"),
    ],
)
def test_a_no_for_the_speaker_or_a_request_against_suggestions(text: str, value: str) -> None:
    assert constraints(text) == [(POLICY, value, False)]


@pytest.mark.parametrize(
    ("text", "value", "polarity"),
    [
        ("If I'm cooking for the kids I skip the chilli.", "chilli if I'm cooking for the kids",
         False),
        ("If it's raining, I never cycle to work.", "cycle to work if it's raining", False),
        ("If I'm travelling for work I always take the train.",
         "take the train if I'm travelling for work", True),
    ],
)  # fmt: skip
def test_a_real_if_condition_frames_the_stance(text: str, value: str, polarity: bool) -> None:
    assert constraints(text) == [(POLICY, value, polarity)]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Because of my bad back, long drives are out of the question.", "long drives"),
        ("I'm not a big drinker so pubs aren't really my thing.", "pubs"),
        ("I'm a total homebody, big parties are not my thing.", "big parties"),
    ],
)
def test_an_object_first_stance_after_a_reason_or_a_conjunction(text: str, value: str) -> None:
    assert (POLICY, value, False) in constraints(text)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I can't stand crowded pubs, I'd go mad.", "crowded pubs"),
        ("I hate camping, what's the point?", "camping"),
        ("I hate shopping centres, people say I'm antisocial.", "shopping centres"),
        ("I hate camping lol", "camping"),
        ("I can't stand board games lol, they drag on forever.", "board games"),
    ],
)
def test_a_stance_before_a_question_an_aside_or_a_laugh_stands(text: str, value: str) -> None:
    assert constraints(text) == [(POLICY, value, False)]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (
            "I avoid anything with a lot of added sugar, artificial sweeteners, palm oil or "
            "those weird preservatives in it.",
            "anything with a lot of added sugar, artificial sweeteners, palm oil or those weird "
            "preservatives in it",
        ),
        (
            "I can't sleep with any light at all in the room, even a standby LED keeps me up.",
            "sleep with any light at all in the room",
        ),
        ("I avoid sugar, especially fizzy drinks.", "sugar"),
    ],
)
def test_a_long_list_stays_whole_and_a_new_clause_ends_the_object(text: str, value: str) -> None:
    assert constraints(text) == [(POLICY, value, False)]


@pytest.mark.parametrize(
    "text",
    [
        "If I won the lottery I'd never work again.",
        "If I had a dog I'd never go on holiday.",
        "If it rains tomorrow I won't go.",
        "I'd never been to Paris before.",
        "I'd never have guessed that.",
        "I'm allergic to exercise, lol.",
        "I hate running, just kidding.",
        "My coworker is a snake.",
        "My boss is a nightmare.",
        "Skip the intro.",
        "No worries for me.",
        "I don't want to bother you.",
        "I find it hard to sleep.",
    ],
)
def test_look_alikes_state_no_constraint(text: str) -> None:
    assert constraints(text) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I favour small local shops.", "small local shops"),
        ("I usually choose the train over the plane.", "train"),
        ("I'm all for walking everywhere.", "walking everywhere"),
        ("I'm a big believer in buying quality once.", "buying quality once"),
        ("I have to stick to decaf these days.", "decaf"),
    ],
)
def test_a_choice_in_more_verbs_is_for_its_object(text: str, value: str) -> None:
    assert constraints(text) == [(POLICY, value, True)]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Due to my work schedule I can only train in the evenings.", "only train in the evenings"),
        ("Nothing but black coffee for me.", "only black coffee"),
    ],
)
def test_an_exclusive_said_with_can_or_nothing_but(text: str, value: str) -> None:
    assert (FactCategory.VALUE, value, True) in constraints(text)


def test_a_reason_clause_is_not_read_as_the_rule_it_explains() -> None:
    assert "work shifts" not in {
        v for _, v, _ in constraints("I can only do weekends because I work shifts.")
    }


def test_a_stance_with_its_own_reason_keeps_the_reason_as_a_cause() -> None:
    text = "I avoid the motorway because it stresses me out."
    assert constraints(text) == [
        (POLICY, "motorway", False),
        (FactCategory.CAUSAL, "I avoid the motorway because it stresses me out", True),
    ]
    # a reason given for another clause is no reason for the stance
    narrated = "I usually play chess, but I tried poker this time since my friends play it a lot."
    assert FactCategory.CAUSAL not in {c for c, _, _ in constraints(narrated)}


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I'm not one for small talk.", "small talk"),
        ("Camping isn't something I enjoy.", "Camping"),
        ("Loud music gets on my nerves.", "Loud music"),
        ("Open-plan offices do my head in.", "Open-plan offices"),
        ("I've had enough of group chats.", "group chats"),
        ("Cruises? No thanks.", "Cruises"),
        ("I'm packing for the trip. Cruises? Never again.", "Cruises"),
    ],
)
def test_a_refusal_by_idiom_or_after_the_thing_named_as_a_question(text: str, value: str) -> None:
    assert constraints(text) == [(POLICY, value, False)]


@pytest.mark.parametrize(
    "text",
    ["Want some tea? No thanks.", "Some tea? No thanks.", "My brother gets on my nerves."],
)
def test_an_offer_refused_or_a_person_is_no_stance(text: str) -> None:
    assert constraints(text) == []


@pytest.mark.parametrize(
    ("text", "value", "polarity"),
    [
        ("Rollercoasters aren't my favourite.", "Rollercoasters", False),
        ("Gym memberships are a waste of money.", "Gym memberships", False),
        ("I can live without social media.", "social media", False),
        ("I tend to give theme parks a miss.", "theme parks", False),
        ("I give chain restaurants a wide berth.", "chain restaurants", False),
        ("I can't live without my morning run.", "morning run", True),
    ],
)
def test_a_stance_said_by_a_set_phrase(text: str, value: str, polarity: bool) -> None:
    assert constraints(text) == [(POLICY, value, polarity)]


@pytest.mark.parametrize(
    "text", ["I'll give it a miss.", "That was a waste of time.", "My favourite colour is green."]
)
def test_a_set_phrase_about_one_occasion_or_a_favourite_is_no_stance(text: str) -> None:
    assert [c for c in constraints(text) if c[0] is POLICY] == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("My friends think I'm mad but I hate board games.", "board games"),
        (
            "My wife says I'm fussy, but I just don't like hotels without a bath.",
            "hotels without a bath",
        ),
    ],
)
def test_a_stance_said_after_someone_elses_word_on_it(text: str, value: str) -> None:
    assert constraints(text) == [(POLICY, value, False)]


def test_only_the_stance_is_read_after_someone_elses_word() -> None:
    assert constraints("People say I'm picky, but I'm vegetarian.") == []
