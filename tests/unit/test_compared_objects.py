"""Stances whose objects used to be cut or lost (issue 29, item 1): a choice compared by
"than" keeps a verb's own "to" ("talk to a person at the desk"), a habit said of
everything but one thing is against that thing, a generic "you" inside a relative
clause no longer drops the stance, a wish closed by "please" is a request for now, "Y
is the only X I buy" is a choice of Y only, "X means the most to me" is a value, and a
rule keeps the condition its sentence opens with. Sentences written for these tests."""

from __future__ import annotations

import re

import pytest

from cognimem.ingest.extract.choice_objects import all_but, compared_at, polite_request
from cognimem.models.knowledge import FactCategory
from tests.unit.test_choice_extraction import constraints

POLICY = FactCategory.POLICY
COMPARED = re.compile(r"\s+(?:than|over|to)\s+.*$")


@pytest.mark.parametrize(
    ("text", "value", "polarity"),
    [
        ("I'd rather speak to a nurse than call a helpline.", "speak to a nurse", True),
        ("I'd rather walk to the market than drive to a mall.", "walk to the market", True),
        ("I'll drink pretty much anything except sweet cider.", "drink sweet cider", False),
        ("I read anything except self-help books.", "read self-help books", False),
        ("I don't like cafés where you can't sit long.", "cafés where you can't sit long", False),
        ("I would sooner cycle than take a packed tram.", "cycle", True),
    ],
)  # fmt: skip
def test_the_stance_keeps_its_whole_object(text: str, value: str, polarity: bool) -> None:
    assert (POLICY, value, polarity) in constraints(text)


@pytest.mark.parametrize(
    "text",
    [
        "I'd prefer the red mug, please.",
        "We'd rather sit by the window, thanks.",
        "I ate everything except the crusts.",
        "I don't like your plan.",
    ],
)
def test_the_look_alikes_state_no_constraint(text: str) -> None:
    assert [c for c in constraints(text) if c[0] is POLICY] == []


def test_a_preposition_after_a_verb_is_not_the_alternative() -> None:
    found = compared_at("talk to a clerk than use an app", COMPARED)
    assert found is not None
    assert found.group().strip() == "than use an app"
    plain = compared_at("tea to the coffee here", COMPARED)
    assert plain is not None
    assert plain.group().strip() == "to the coffee here"
    assert compared_at("tea with milk", COMPARED) is None
    assert all_but("I'll watch anything but quiz shows") == "watch quiz shows"
    assert all_but("I won't watch anything but quiz shows") is None
    assert polite_request("I'd prefer an aisle seat, please.")
    assert not polite_request("I'd prefer an aisle seat on long flights.")


def test_an_only_one_said_object_first_is_exclusive() -> None:
    found = constraints("Rye is the only bread we buy.")
    assert (FactCategory.VALUE, "only buy Rye for bread", True) in found
    assert constraints("My son's is the only bike he rides.") == []


def test_what_means_the_most_is_a_value() -> None:
    found = constraints("Slow Sunday mornings mean the most to me.")
    assert [c[0] for c in found] == [FactCategory.VALUE]


def test_a_rule_keeps_the_condition_its_sentence_opens_with() -> None:
    found = constraints("After supper I never check work email.")
    assert (POLICY, "never check work email after supper", True) in found
    found = constraints("After nine at night I don't eat big meals.")
    assert (POLICY, "no big meals after nine at night", True) in found
    assert (POLICY, "no big meals", True) in constraints("I don't eat big meals.")
