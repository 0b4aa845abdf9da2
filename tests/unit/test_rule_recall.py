"""Statements the rules missed (issue 32, tuned on the knowledge set's tune half; the
sentences here are new): a promotion's new job, working "for" an employer with another
verb, a move about to happen, a person named by where they are from, a third party's
relative, and tiredness as a health state."""

from __future__ import annotations

from datetime import UTC, datetime

from cognimem.ingest.extract.rules import RuleExtractor
from cognimem.models.extraction import ExtractionInput


def facts(*turns: str) -> list[tuple[str, str, str, str]]:
    """What the last turn states, the earlier turns as its conversation window."""
    message = ExtractionInput(
        text=turns[-1], occurred_at=datetime(2025, 2, 3, tzinfo=UTC), context=turns[:-1]
    )
    return [(f.subject, f.category.value, f.predicate, f.value)
            for f in RuleExtractor().extract_one(message).facts]  # fmt: skip


def test_a_promotion_names_the_new_job() -> None:
    assert ("user", "occupation", "job", "senior editor") in facts(
        "I was promoted to senior editor last month."
    )
    assert ("Dev Patel", "occupation", "job", "charge nurse") in facts(
        "My brother Dev Patel is a nurse.", "He just got promoted to charge nurse."
    )


def test_a_promotion_to_a_named_job_is_the_job_alone() -> None:
    # the new job says it: no "got_promoted" event beside it
    assert facts("I got promoted to shift supervisor.") == [
        ("user", "occupation", "job", "shift supervisor")
    ]
    assert facts("My cousin Mira is a chef.", "She just got promoted to sous chef.") == [
        ("Mira", "occupation", "job", "sous chef")
    ]
    # with no job named, the promotion is the event
    assert facts("I finally got promoted!") == [("user", "event", "got_promoted", "promoted")]


def test_working_for_an_employer_with_another_verb() -> None:
    assert facts("I drive for Lyft.") == [("user", "occupation", "employer", "Lyft")]
    assert ("Omar", "occupation", "employer", "Emirates") in facts(
        "My husband Omar is a pilot.", "He flies for Emirates."
    )
    assert facts("I write for fun.") == []


def test_a_move_about_to_happen_names_the_city() -> None:
    assert ("user", "location", "city", "Calgary") in facts("We're moving to Calgary.")
    assert ("Priya", "location", "city", "Leeds") in facts(
        "Priya from marketing is leaving.", "She's moving to Leeds."
    )


def test_a_friend_s_wife_is_his_and_her_pronoun_is_known() -> None:
    said = "My friend Tariq and his wife Leila are staying with us."
    assert ("Tariq", "relationship", "wife", "Leila") in facts(said)
    assert ("user", "relationship", "wife", "Leila") not in facts(said)
    assert ("Leila", "occupation", "job", "dentist") in facts(said, "She's a dentist.")
    # "my wife" is not the friend's wife
    assert not [f for f in facts(said, "My wife is a dentist.") if f[0] == "Leila"]


def test_tiredness_is_a_health_state() -> None:
    [(subject, category, predicate, _)] = facts("I'm exhausted all the time lately.")
    assert (subject, category, predicate) == ("user", "state", "health")


def test_an_activity_done_often_and_a_workplace_run() -> None:
    assert facts("I cycle most weekends.") == [("user", "preference", "activity", "cycle")]
    assert ("Mina", "preference", "activity", "swim") in facts(
        "My wife Mina is a teacher.", "She swims every morning."
    )
    assert facts("I work every day.") == []
    assert ("user", "occupation", "job", "run a bakery") in facts("I run a small bakery.")


def test_a_place_whose_name_opens_with_a_common_word() -> None:
    assert facts("We moved to New Orleans in 2019.") == [
        ("user", "location", "city", "New Orleans")
    ]
    assert ("user", "location", "city", "Berlin") in facts("I've been in Berlin since 2019.")
    assert facts("I've been in London for a conference.") == []


def test_pets_named_after_a_comma_or_by_is_called() -> None:
    assert facts("We have three cats, Miso, Tofu and Udon.") == [
        ("user", "relationship", "pet", "Miso"),
        ("user", "relationship", "pet", "Tofu"),
        ("user", "relationship", "pet", "Udon"),
    ]
    assert facts("My dog is called Captain Biscuit.") == [
        ("user", "relationship", "pet", "Captain Biscuit")
    ]


def test_a_body_part_that_hurts() -> None:
    assert facts("My feet hurt after the run.")[0][1:3] == ("state", "health")
    assert facts("Climbing stairs still hurts my knee.")[0][1:3] == ("state", "health")
    assert facts("He hurts my feelings.") == []


def test_a_pastime_played_or_a_drink_drunk_as_a_habit() -> None:
    assert facts("I play poker on Fridays.") == [("user", "preference", "hobby", "poker")]
    assert facts("I do a lot of hiking.") == [("user", "preference", "activity", "hiking")]
    assert facts("I drink a lot of green tea.") == [("user", "preference", "drink", "green tea")]
    assert not [f for f in facts("I don't drink green tea.") if f[1] == "preference"]
    assert facts("I play it by ear.") == []


def test_a_birthday_told_in_words() -> None:
    assert ("Oskar", "identity", "age", "seven") in facts("My nephew Oskar just turned seven.")
    assert facts("The road turned two corners later.") == []


def test_joining_is_a_job_when_the_window_talked_of_work() -> None:
    assert ("Ruth Okafor", "occupation", "employer", "Contoso") in facts(
        "My mentor Ruth Okafor is leaving her job.", "She's joining Contoso in April."
    )
    assert not [
        f
        for f in facts("My friend Aditi loves board games.", "She's joining Toastmasters in March.")
        if f[2] == "employer"
    ]


def test_someone_met_by_what_they_are_called_and_kin_visited_somewhere() -> None:
    assert ("user", "event", "met", "Tomasz") in facts("I met a guy named Tomasz at the gym.")
    assert ("user", "event", "visited", "aunt") in facts("I visited my aunt in Porto.")


def test_an_action_is_no_allergen_and_a_denied_move_no_rule() -> None:
    assert facts("I'm allergic to waking up early.") == []
    assert facts("I'm allergic to penicillin.") == [("user", "policy", "allergy", "penicillin")]
    assert facts("We never actually moved to Denver.") == []
    assert ("user", "policy", "food", "I never really eat pork") in facts(
        "I never really eat pork."
    )


def test_an_unnamed_relative_is_a_relationship_and_the_subject_of_their_facts() -> None:
    assert ("brother", "location", "city", "Oslo") in facts("My brother lives in Oslo.")
    assert ("user", "relationship", "husband", "husband") in facts("My husband is Italian.")
    assert ("father", "occupation", "employer", "Siemens") in facts("My dad works at Siemens.")
    # where a relative is says nothing of them as a relative
    assert ("user", "relationship", "mother", "mom") not in facts("My mom is in the hospital.")


def test_a_visitor_lives_where_they_visit_from() -> None:
    assert ("Ines", "location", "city", "Lisbon") in facts(
        "My cousin Ines is visiting from Lisbon."
    )


def test_an_unnamed_workplace_before_the_job_is_no_employer() -> None:
    assert facts("I work for a charity as a nurse.") == [("user", "occupation", "job", "nurse")]
    assert ("Yusuf", "occupation", "employer", "startup") not in facts(
        "My brother Yusuf works for a startup as a designer."
    )
    # no job read: the workplace is all that is said of the work
    assert facts("I work at a hospital.") == [("user", "occupation", "employer", "hospital")]
    # a named one is the employer beside the job
    assert ("user", "occupation", "employer", "Shopify") in facts(
        "I work for Shopify as a designer."
    )
