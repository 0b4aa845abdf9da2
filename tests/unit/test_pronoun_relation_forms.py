"""What a pronoun turn says of a person reaches a fact of theirs (issue 32, item 2): the
one person a pronoun can fit, a pronoun after a fronted time or a discourse marker,
"her new job at ...", "she and her husband ...", and the work forms the rewrite relies
on ("got hired at", "starts at", "got accepted to", "left <employer>")."""

from __future__ import annotations

from datetime import UTC, datetime

from cognimem.ingest.extract import ExtractionInput, RuleExtractor
from cognimem.ingest.extract.coref import Discourse

WHEN = datetime(2024, 6, 15, 12, 0, tzinfo=UTC)


def read(text: str, *window: str) -> list[tuple[str, str, str, str, bool]]:
    message = ExtractionInput(text=text, occurred_at=WHEN, context=window)
    found = RuleExtractor().extract_one(message).facts
    return [(f.subject, f.category.value, f.predicate, f.value, f.holds) for f in found]


def test_a_pronoun_goes_to_the_only_person_it_can_fit() -> None:
    d = Discourse()
    d.note("Zephyrin", role="friend")  # no list knows the name: nothing tells the pronoun
    d.next_sentence()
    text, links = d.resolve("He moved away.")
    assert text == "Zephyrin moved away."
    assert "only person" in links[0].evidence
    # ... and the pronoun tells theirs from then on
    assert d.resolve("She moved away.") == ("She moved away.", [])
    # someone of the other pronoun leaves them the only fit
    d = Discourse()
    d.note("Zephyrin")
    d.next_sentence()
    d.note("Maria", role="sister")
    d.next_sentence()
    assert d.resolve("He moved away.")[0] == "Zephyrin moved away."
    # two who may fit: no guess
    d.note("Quillon")
    d.next_sentence()
    assert d.resolve("He moved away.") == ("He moved away.", [])


def test_a_pronoun_after_a_fronted_time_or_a_marker_is_resolved() -> None:
    window = ("My cousin Ingrid is doing well.",)
    assert ("Ingrid", "location", "city", "Leeds", True) in read(
        "After college she moved to Leeds.", *window
    )
    assert ("Ingrid", "value", "diet", "vegan", True) in read("Oh and she's vegan.", *window)
    assert ("Ingrid", "occupation", "employer", "Contoso", True) in read(
        "She currently works for Contoso.", *window
    )


def test_her_new_job_names_her_employer_or_job() -> None:
    window = ("My sister Olga sounds happier.",)
    assert ("Olga", "occupation", "employer", "Fabrikam", True) in read(
        "Her new job at Fabrikam starts soon.", *window
    )
    assert ("Olga", "occupation", "job", "accountant", True) in read(
        "Her new job as an accountant pays well.", *window
    )
    assert not [f for f in read("Her dog is sick.", *window) if f[0] == "Olga"]


def test_she_and_her_husband_state_what_holds_of_her() -> None:
    said = read("She and her husband live in Galway now.", "My friend Ines is visiting.")
    assert ("Ines", "location", "city", "Galway", True) in said


def test_a_pet_named_after_a_person_has_it_is_theirs() -> None:
    said = read("My brother Rory has a cat named Pip.")
    assert ("Rory", "relationship", "pet", "Pip", True) in said
    assert ("user", "relationship", "pet", "Pip", True) not in said
    assert ("user", "relationship", "pet", "Pip", True) in read("I have a cat named Pip.")


def test_work_forms_the_rewrite_relies_on() -> None:
    assert ("user", "occupation", "employer", "Contoso", True) in read("I got hired at Contoso.")
    assert ("user", "occupation", "employer", "Contoso", True) in read(
        "I start at Contoso on Monday."
    )
    assert ("user", "occupation", "school", "Leeds University", True) in read(
        "I got accepted to Leeds University."
    )
    assert ("user", "occupation", "job", "nurse", True) in read("I became a nurse.")
    # a job left (when the conversation talks of work), lost, or only looked for
    assert ("user", "occupation", "employer", "Contoso", False) in read(
        "I needed a new job. I left Contoso in March."
    )
    assert not [f for f in read("I needed a new job. I left Lisbon in March.")
                if f[1] == "occupation"]  # fmt: skip
    assert not [f for f in read("I left Contoso in March.") if f[1] == "occupation"]
    assert ("user", "occupation", "employer", "Contoso", False) in read("I lost my job at Contoso.")
    assert not [f for f in read("I'm looking for my first job as a nurse.") if f[1] == "occupation"]


def test_the_relatives_a_person_has_are_theirs() -> None:
    said = read("She has two sons.", "My friend Ingrid is always busy.")
    assert ("Ingrid", "relationship", "son", "two sons", True) in said
    assert not [f for f in said if f[0] == "user" and f[2] == "son"]


def test_living_near_a_city_is_its_area() -> None:
    assert ("user", "location", "city", "Leeds", True) in read("I live just outside Leeds.")
    assert ("Ingrid", "location", "city", "Leeds", True) in read(
        "She lives near Leeds now.", "My cousin Ingrid is doing well."
    )
    assert not [f for f in read("I live near the park.") if f[1] == "location"]
