"""The rule path's coreference (``ingest/extract/coref.py``) and entity typing by
evidence (``ingest/extract/kinds.py``), as pure functions."""

from __future__ import annotations

from cognimem.ingest.extract.coref import Discourse
from cognimem.ingest.extract.kinds import kind_of
from cognimem.models.knowledge import EntityType


def test_she_and_his_go_to_the_latest_matching_person() -> None:
    d = Discourse()
    d.note("Sarah Jones", role="sister")
    d.next_sentence()
    d.note("Tom", role="husband")
    d.next_sentence()
    text, links = d.resolve("She called his boss.")
    assert text == "Sarah Jones called Tom's boss."
    assert [(x.said, x.name) for x in links] == [("She", "Sarah Jones"), ("his", "Tom")]


def test_no_guess_when_the_pronoun_is_unknown_or_two_match() -> None:
    d = Discourse()
    d.note("Sarah")
    d.next_sentence()
    d.note("Alex")  # a name given to anyone: nothing tells their pronoun
    d.next_sentence()
    assert d.resolve("She left.") == ("She left.", [])
    two = Discourse()
    two.note("Sarah", position=0)
    two.note("Emma", position=10)
    two.next_sentence()
    assert two.resolve("She left.") == ("She left.", [])
    assert two.resolve("They left.") == ("They left.", [])


def test_the_speaker_is_never_the_antecedent() -> None:
    d = Discourse(speakers=("Maria",))
    d.note("Maria")
    d.next_sentence()
    assert d.resolve("She left.") == ("She left.", [])


def test_a_role_goes_to_the_one_person_given_it() -> None:
    d = Discourse()
    d.note("Robert", role="boss")
    d.next_sentence()
    assert d.resolve("My boss quit.")[0] == "Robert quit."
    d.note("Linda", role="boss")
    assert d.resolve("My boss quit.")[0] == "My boss quit."  # two bosses: no guess


def test_types_need_evidence_not_position() -> None:
    assert kind_of("Google", "place") is EntityType.OTHER
    assert kind_of("Google", "work") is EntityType.ORGANIZATION
    assert kind_of("Seattle", "place") is EntityType.PLACE
    assert kind_of("Japan") is EntityType.PLACE
    assert kind_of("Acme Corp", "place") is EntityType.ORGANIZATION
    assert kind_of("Web Summit", "place") is EntityType.EVENT
    assert kind_of("Dr. Lee", "work") is EntityType.PERSON
    assert kind_of("Sarah", "work") is EntityType.PERSON
    assert kind_of("Charlotte", "place") is EntityType.PLACE  # a city after "in"
    assert kind_of("Kindle", "product") is EntityType.THING
