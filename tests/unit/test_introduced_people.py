"""A person introduced with no fact is a pronoun's antecedent, and the school and base
forms said of the speaker or of a resolved person (issue 32, round 11)."""

from __future__ import annotations

from datetime import UTC, datetime

from cognimem.ingest.extract import ExtractionInput, RuleExtractor
from cognimem.ingest.extract.coref import introduced

WHEN = datetime(2024, 6, 15, 12, 0, tzinfo=UTC)


def read(text: str, *window: str) -> list[tuple[str, str, str, str]]:
    message = ExtractionInput(text=text, occurred_at=WHEN, context=window)
    found = RuleExtractor().extract_one(message).facts
    return [(f.subject, f.category.value, f.predicate, f.value) for f in found]


def test_a_person_named_in_a_turn_read_for_nothing_is_an_antecedent() -> None:
    # the first turn writes no fact, only the people a pronoun may be grow
    assert read("My buddy Quintus is a genuinely wonderful guy.") == []
    facts = read("He works as an electrician.", "My buddy Quintus is a genuinely wonderful guy.")
    assert ("Quintus", "occupation", "job", "electrician") in facts
    facts = read("She works at a pharmacy.", "Marisela is such a generous person.")
    assert ("Marisela", "occupation", "employer", "pharmacy") in facts


def test_what_introduces_a_person_and_what_does_not() -> None:
    assert [n for n, _, _ in introduced("My bestie Dorian, honestly, is a riot.")] == ["Dorian"]
    assert introduced("My cousin Ysolde is a great cook.")[0][:2] == ("Ysolde", "cousin")
    assert [n for n, _, _ in introduced("Ferdinand is a great listener.")] == ["Ferdinand"]
    # a first name the shipped lists hold, said to be "so ..."
    assert [n for n, _, _ in introduced("Winifred is so thoughtful.")] == ["Winifred"]
    # a name alone with no person's noun, or a place: no one
    assert introduced("Tarragona is a lovely city.") == []
    assert introduced("Quillon is so cheap these days.") == []
    assert introduced("Paris is so lovely in spring.") == []
    # nothing introduced leaves the pronoun unresolved: no guess
    assert read("He works as an electrician.", "Tarragona is a lovely city.") == []


def test_a_school_got_into_or_gone_to_when_the_window_talks_of_school() -> None:
    assert ("user", "occupation", "school", "Dartmouth") in read(
        "My applications paid off. I got into Dartmouth!"
    )
    facts = read("He's going to Tulane in the fall.", "My son Ansgar graduates next week.")
    assert ("Ansgar", "occupation", "school", "Tulane") in facts
    assert ("user", "occupation", "school", "Ithaca College") in read(
        "I'm going to Ithaca College in the fall."
    )
    facts = read("He got into Vassar.", "My nephew Osric studied so hard this year.")
    assert ("Osric", "occupation", "school", "Vassar") in facts
    # "starting at" a school, not an employer, when the window talks of school
    facts = read("She's starting at Bowdoin in September.", "My niece Ebba graduated last week.")
    assert ("Ebba", "occupation", "school", "Bowdoin") in facts
    assert not [f for f in facts if f[2] == "employer"]
    # ... but starting at a job is still an employer
    facts = read("After graduating I'm starting at Fabrikam as an analyst.")
    assert ("user", "occupation", "employer", "Fabrikam") in facts


def test_what_is_got_into_or_gone_to_that_is_no_school() -> None:
    # a liking, a game, a trip, a city: no school
    assert not [f for f in read("I got into pottery last year.") if f[2] == "school"]
    assert not [f for f in read("I got into Wordle last month.") if f[2] == "school"]
    assert not [f for f in read("I'm going to Lisbon in the fall.") if f[2] == "school"]
    facts = read("I got into Denver at midnight.", "My college roommate flew out with me.")
    assert not [f for f in facts if f[2] == "school"]


def test_based_out_of_a_city_is_where_one_lives() -> None:
    assert ("user", "location", "city", "Denver") in read("I'm based out of Denver these days.")
    facts = read("She's based out of Phoenix.", "My manager Ilsabet is always traveling.")
    assert ("Ilsabet", "location", "city", "Phoenix") in facts


def test_a_job_the_list_lacks_by_its_person_noun() -> None:
    assert ("user", "occupation", "job", "long-distance courier") in read(
        "Lately I work as a long-distance courier."
    )
    facts = read("He works as a gondolier now.", "My uncle Thaddeus is never around.")
    assert ("Thaddeus", "occupation", "job", "gondolier") in facts
    # a head noun that is no person first of all: no job
    assert not [f for f in read("I work as a team with my sister.") if f[2] == "job"]
    assert not [f for f in read("I work as a side gig on weekends.") if f[2] == "job"]


def test_a_pet_the_list_lacks_by_its_animal_noun() -> None:
    assert ("user", "relationship", "pet", "an axolotl") in read("I have a pet axolotl.")
    facts = read("She has a pet hedgehog.", "My neighbor Rosamund is a bit eccentric.")
    assert ("Rosamund", "relationship", "pet", "a hedgehog") in facts
    # a pet peeve, a pet project: no animal
    assert not [f for f in read("I have a pet peeve about loud chewing.") if f[2] == "pet"]
    assert not [f for f in read("I have a pet project at work.") if f[2] == "pet"]


def test_a_habit_the_speaker_form_reads_reads_for_an_introduced_person() -> None:
    assert read("My buddy Leofric is a seriously fit guy.") == []
    window = "My buddy Leofric is a seriously fit guy."  # no fact: only an antecedent
    for said, mine in (
        ("He swims every evening.", "I swim every evening."),
        ("He plays chess most weekends.", "I play chess most weekends."),
        ("He jogs every day.", "I jog every day."),
    ):
        speaker = {f[1:] for f in read(mine) if f[0] == "user"}
        assert speaker, mine
        assert {f[1:] for f in read(said, window) if f[0] == "Leofric"} == speaker, said
