"""The rule path's coreference (``ingest/extract/coref.py``) and entity typing by
evidence (``ingest/extract/kinds.py``), as pure functions."""

from __future__ import annotations

from cognimem.ingest.extract.coref import Discourse
from cognimem.ingest.extract.kinds import kind_of, works_for_person
from cognimem.models.knowledge import EntityType
from cognimem.text.gazetteer import first_name_gender, is_first_name


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


def test_she_s_is_spelled_out_so_it_reads_as_the_person_and_a_verb() -> None:
    d = Discourse()
    d.note("Priya", role="cousin")
    d.note("Priya", role="sister")
    d.next_sentence()
    assert d.resolve("She's a dentist.")[0] == "Priya is a dentist."
    assert d.resolve("She's been unwell.")[0] == "Priya has been unwell."


def _facts(*turns: str) -> list[tuple[str, str, str, str]]:
    from datetime import UTC, datetime

    from cognimem.ingest.extract.rules import RuleExtractor
    from cognimem.models.extraction import ExtractionInput

    at = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)
    said = ExtractionInput(text=turns[-1], occurred_at=at, context=turns[:-1])
    facts = RuleExtractor().extract_one(said).facts
    return [(f.subject, f.category.value, f.predicate, f.value) for f in facts]


def test_a_named_person_s_statement_is_read_as_theirs() -> None:
    # what the detectors read in the speaker's words, they read about a named person
    assert ("Priya", "policy", "allergy", "peanuts") in _facts(
        "My sister Priya moved back home.", "She is allergic to peanuts."
    )
    assert ("Priya", "identity", "age", "41") in _facts(
        "My sister Priya moved back home.", "She's 41 now."
    )
    assert ("Omar", "value", "diet", "vegan") in _facts("My neighbour Omar is vegan.")


def test_what_a_person_says_or_wants_is_not_a_fact_about_them() -> None:
    context = ("My sister Priya moved back home.",)
    for said in ("She said she is allergic to peanuts.", "She wants to be vegan.",
                 "She thinks I'm allergic to peanuts."):  # fmt: skip
        assert not [f for f in _facts(*context, said) if f[0] == "Priya"], said
    # a stranger's name alone is no evidence of a person
    assert _facts("Vega is vegan.") == []


def _read(*turns: str) -> tuple[list[tuple[str, str, str, str]], dict[str, list[str]]]:
    from datetime import UTC, datetime

    from cognimem.ingest.extract.rules import RuleExtractor
    from cognimem.models.extraction import ExtractionInput

    at = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)
    said = ExtractionInput(text=turns[-1], occurred_at=at, context=turns[:-1])
    x = RuleExtractor().extract_one(said)
    facts = [(f.subject, f.category.value, f.predicate, f.value) for f in x.facts]
    return facts, {e.name: e.aliases for e in x.entities}


def test_what_others_call_a_person_is_an_alias_of_them_not_a_fact() -> None:
    cases = [
        (("My cousin Robert Hale is a pilot.", "He goes by Rob."), "Robert Hale", "Rob"),
        (("My brother William lives in Perth.", "Everyone calls him Billy."), "William", "Billy"),
        (("My aunt Margaret lives in Cork.", "Her friends call her Peggy."), "Margaret", "Peggy"),
        (("My sister Victoria is a dentist.", "Her nickname is Vicky."), "Victoria", "Vicky"),
        (("My friend Alexander Grant is kind.", "Alex is short for Alexander."), "Alexander",
         "Alex"),
    ]  # fmt: skip
    for turns, who, nickname in cases:
        facts, aliases = _read(*turns)
        assert facts == [], turns
        assert aliases.get(who) == [nickname], turns
    # the speaker's own nickname is a fact about them
    facts, _ = _read("Call me Al, everyone does.")
    assert facts == [("user", "identity", "nickname", "Al")]
    # "called him" on the phone names nobody
    facts, aliases = _read("I met Tom at the gym.", "I called him Bob yesterday.")
    assert all(not names for names in aliases.values())


def test_my_partner_is_a_full_name() -> None:
    facts, _ = _read("My partner is Christopher Lee, no, not the actor.")
    assert facts == [("user", "relationship", "partner", "Christopher Lee")]
    # a nationality is no name: an unnamed wife (labelling guide: by the relation word)
    assert _read("My wife is Japanese.")[0] == [("user", "relationship", "wife", "wife")]


def test_a_census_first_name_tells_the_pronoun_and_a_name_given_to_anyone_none() -> None:
    d = Discourse()
    d.note("Bernadette")  # not in the hand-written list: the census list's
    d.next_sentence()
    assert d.resolve("She left.")[0] == "Bernadette left."
    assert is_first_name("Alex")
    assert first_name_gender("Alex") is None  # given to anyone: the hand-written list says


def test_one_works_at_a_workplace_and_for_a_person() -> None:
    assert not works_for_person("Jack Henry", "I work at ")
    assert kind_of("Jack Henry", "workplace") is EntityType.ORGANIZATION
    assert works_for_person("Sarah", "I work for ")
    assert works_for_person("Dr. Lee", "I work at ")


def _facts(*turns: str) -> list[tuple[str, str, str, str]]:
    from datetime import UTC, datetime

    from cognimem.ingest.extract import ExtractionInput, RuleExtractor

    message = ExtractionInput(
        text=turns[-1], occurred_at=datetime(2024, 6, 15, tzinfo=UTC), context=turns[:-1]
    )
    return [
        (f.subject, f.category.value, f.predicate, f.value)
        for f in RuleExtractor().extract_one(message).facts
    ]


def test_a_pronoun_with_no_one_before_it_names_nobody() -> None:
    # "He is a vegan" once made "He" a person and gave "He" a diet
    assert _facts("He is a vegan.") == []
    assert _facts("She is a nurse.") == []
    assert _facts("My friend Tom is kind.", "He is a vegan.") == [("Tom", "value", "diet", "vegan")]


def test_a_person_noun_before_a_name_introduces_a_person() -> None:
    assert ("Olusegun", "location", "hometown", "Ibadan") in _facts(
        "My mentor Olusegun teaches at Stanford.", "He grew up in Ibadan."
    )
    said = _facts("My trainer Kwabena lives in Accra.")
    assert said == [("Kwabena", "location", "city", "Accra")]
    # a thing's noun before a name is no person
    assert _facts("My flight London is late.") == []


def test_a_person_noun_introduces_only_a_name() -> None:
    from cognimem.ingest.extract.coref import introduced

    assert introduced("When I lived with my parents I liked going to bed early.") == []
    assert introduced("I asked my regular GP.") == []
    assert introduced("My mentor, Dr. Alan Reyes, teaches at Stanford.") == [
        ("Alan Reyes", "mentor", 15)
    ]
