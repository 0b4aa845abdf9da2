"""The shipped WordNet verb table (issue 29): each verb's broad classes, most frequent
sense first, and its kin, read by the same reader as the noun tables; third-person and
irregular forms found under their verb; phrasal verbs as one verb."""

from __future__ import annotations

from cognimem.text.noun_tables import entry
from cognimem.text.verb_senses import phrase_heads, verb_senses


def test_a_verb_of_feeling_is_filed_under_emotion_first() -> None:
    cherish = verb_senses("cherish")
    assert cherish is not None
    assert cherish.first_class == "emotion"
    assert "love" in cherish.kin  # its hypernym


def test_kin_are_the_first_senses_synonyms_then_hypernyms() -> None:
    detest = verb_senses("detest")
    assert detest is not None
    assert detest.kin[:2] == ("hate", "dislike")


def test_third_person_and_irregular_forms_find_their_verb() -> None:
    for form, verb in (("horrifies", "horrify"), ("dreads", "dread"), ("Shuns", "shun")):
        found = verb_senses(form)
        assert found is not None
        assert found.verb == verb
    ate = verb_senses("ate")  # verb.exc
    assert ate is not None
    assert ate.verb == "eat"
    assert ate.first_class == "consumption"


def test_a_phrasal_verb_is_one_verb() -> None:
    shy = verb_senses("shy  away from")
    assert shy is not None
    assert shy.verb == "shy away from"
    assert "avoid" in shy.kin
    assert "shy" in phrase_heads()


def test_a_word_wordnet_lacks_has_no_senses() -> None:
    assert verb_senses("qwzlrb") is None
    assert entry("verb_senses", "qwzlrb") is None


def test_the_noun_reader_still_finds_plurals() -> None:
    from cognimem.text.noun_senses import first_class

    assert first_class("puppies") == "animal"
    assert first_class("feet") == "body"
