"""What a restatement must share with the fact it renews (``ingest/restatement.py``):
what each value is about is a word of the other."""

from __future__ import annotations

from cognimem.ingest.restatement import same_topic


def test_a_value_said_the_other_way_round_is_about_the_same_thing() -> None:
    assert same_topic("wrist hurts when I type", "hurts my wrist")
    assert same_topic("knee hurts", "knee's been killing me")


def test_a_shared_word_is_not_the_same_thing() -> None:
    assert not same_topic("back hurts", "knee hurts")
    assert not same_topic("hurts my back", "knee hurts")
    assert not same_topic("no shellfish", "no pork")


def test_the_same_body_part_or_condition_in_other_words_is_the_same_thing() -> None:
    assert same_topic("ankle is swollen", "swelling in my ankle")
    assert same_topic("sore throat", "throat is killing me")
    assert same_topic("exhausted", "tired")


def test_another_body_part_or_condition_is_not_the_same_thing() -> None:
    assert not same_topic("back pain", "knee pain")
    assert not same_topic("cold", "headache")
    assert not same_topic("exhausted", "fever")


def test_a_word_in_another_of_its_forms_is_the_same_thing() -> None:
    assert same_topic("worried about money", "money worries")
    assert same_topic("bloated", "bloating after meals")


def test_a_workload_in_other_words_is_the_same_condition() -> None:
    assert same_topic("slammed at work", "work is hectic")
    assert not same_topic("slammed at work", "fever")
