"""The rule extractor: what a chat message states, typed so that keys, supersession and
constraint retrieval work; small talk yields nothing."""

from __future__ import annotations

import importlib.util
import json
import sys
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType

import pytest

from cognimem.ingest.extract import (
    SCOPE_TAGS,
    ExtractedFact,
    Extraction,
    ExtractionInput,
    RuleExtractor,
)
from cognimem.models.knowledge import EntityType, FactCategory
from cognimem.text.scope_tags import scope_tags

ROOT = Path(__file__).resolve().parents[2]
WHEN = datetime(2024, 6, 15, 12, 0, tzinfo=UTC)
EXTRACTOR = RuleExtractor()


def read(text: str, *, when: datetime = WHEN, role: str = "user") -> Extraction:
    return EXTRACTOR.extract_one(ExtractionInput(text=text, occurred_at=when, role=role))


def facts(text: str) -> list[ExtractedFact]:
    return read(text).facts


def only(text: str) -> ExtractedFact:
    found = facts(text)
    assert len(found) == 1, [f"{f.category}/{f.predicate}={f.value}" for f in found]
    return found[0]


def at(year: int, month: int, day: int) -> datetime:
    return datetime(year, month, day, tzinfo=UTC)


# ------------------------------------------------------------------ the brief's scenarios


def test_name() -> None:
    fact = only("My name is Alice.")
    assert (fact.subject, fact.category, fact.predicate, fact.value) == (
        "user",
        FactCategory.IDENTITY,
        "name",
        "Alice",
    )
    assert fact.multi_valued is False
    assert fact.evidence == "My name is Alice."
    assert read("My name is Alice.").importance is not None
    assert (read("My name is Alice.").importance or 0) >= 0.8


def test_the_same_adjective_in_two_domains_gives_two_predicates() -> None:
    food, music = only("I love Italian food."), only("I love Italian music.")
    assert (food.category, food.predicate, food.value) == (
        FactCategory.PREFERENCE,
        "cuisine",
        "Italian",
    )
    assert (music.category, music.predicate, music.value) == (
        FactCategory.PREFERENCE,
        "music",
        "Italian",
    )
    assert food.multi_valued
    assert music.multi_valued


def test_a_diet_and_its_correction_share_category_and_predicate() -> None:
    before, after = only("I'm vegetarian."), only("Actually I eat fish now.")
    for fact in (before, after):
        assert (fact.category, fact.predicate, fact.multi_valued) == (
            FactCategory.VALUE,
            "diet",
            False,
        )
        assert {"food", "diet"} <= set(fact.scope_tags)
    assert (before.value, after.value) == ("vegetarian", "eats fish")
    assert only("I don't eat meat anymore.").value == "no meat"
    assert only("I'm vegan.").value == "vegan"


def test_a_plain_liking() -> None:
    fact = only("I like tea.")
    assert (fact.category, fact.predicate, fact.value, fact.polarity, fact.holds) == (
        FactCategory.PREFERENCE,
        "drink",
        "tea",
        True,
        True,
    )
    assert fact.multi_valued


def test_an_old_city_and_a_move_last_year() -> None:
    result = read("I used to live in Paris. I moved to Berlin last year.")
    by_value = {f.value: f for f in result.facts}
    assert set(by_value) == {"Paris", "Berlin"}
    paris, berlin = by_value["Paris"], by_value["Berlin"]
    for fact in (paris, berlin):
        assert (fact.category, fact.predicate, fact.multi_valued) == (
            FactCategory.LOCATION,
            "city",
            False,
        )
        assert fact.object_type is EntityType.PLACE
    assert paris.holds is False
    assert berlin.holds is True
    assert berlin.valid_from == at(2023, 1, 1)
    # Paris ended when Berlin began
    assert paris.valid_to == at(2023, 1, 1)
    assert paris.evidence == "I used to live in Paris."
    assert berlin.evidence == "I moved to Berlin last year."
    assert result.event_time == at(2023, 1, 1)


def test_a_deadly_allergy_is_a_policy_with_food_and_health_scope() -> None:
    fact = only("I'm deathly allergic to peanuts.")
    assert (fact.category, fact.predicate, fact.value) == (
        FactCategory.POLICY,
        "allergy",
        "peanuts",
    )
    assert {"food", "allergy", "health"} <= set(fact.scope_tags)
    assert fact.multi_valued
    assert fact.confidence >= 0.9
    assert (read("I'm deathly allergic to peanuts.").importance or 0) >= 0.9


def test_saving_money_is_a_finance_goal() -> None:
    fact = only("I want to save money")
    assert (fact.category, fact.predicate, fact.value) == (
        FactCategory.GOAL,
        "finance",
        "save money",
    )
    assert "finance" in fact.scope_tags
    assert fact.multi_valued


# ------------------------------------------------------------------ constraints


@pytest.mark.parametrize(
    ("text", "category", "predicate", "value", "tags"),
    [
        (
            "I never eat shellfish due to allergy.",
            "policy",
            "allergy",
            "shellfish",
            {"food", "allergy", "health"},
        ),
        ("I'm allergic to cats.", "policy", "allergy", "cats", {"allergy", "health", "pets"}),
        (
            "Never schedule meetings before 10am.",
            "policy",
            "schedule",
            "Never schedule meetings before 10am",
            {"schedule", "work"},
        ),
        (
            "Don't ever share my address with anyone.",
            "policy",
            "privacy",
            "Don't ever share my address with anyone",
            {"privacy"},
        ),
        ("I can't fly.", "policy", "travel", "can't fly", {"travel"}),
        ("I don't eat pork.", "policy", "food", "no pork", {"food", "diet"}),
        ("I keep kosher.", "value", "diet", "kosher", {"food", "diet", "religion"}),
        (
            "I care a lot about the environment.",
            "value",
            "environment",
            "environment",
            {"environment"},
        ),
        (
            "I only buy ethical brands.",
            "value",
            "shopping",
            "only buy ethical brands",
            {"shopping"},
        ),
        ("I'm training for a marathon.", "goal", "fitness", "marathon", {"fitness"}),
        (
            "I'm trying to lose weight.",
            "goal",
            "health",
            "lose weight",
            {"health", "fitness", "diet"},
        ),
        ("My goal is to learn Spanish.", "goal", "education", "learn Spanish", {"education"}),
        ("I'm pregnant.", "state", "health", "pregnant", {"health", "medical"}),
        ("I broke my leg.", "state", "health", "broke my leg", {"health", "medical"}),
        (
            "I'm recovering from surgery.",
            "state",
            "health",
            "recovering from surgery",
            {"health", "medical"},
        ),
        ("I'm really stressed at work.", "state", "work", "stressed at work", {"work", "health"}),
        (
            "Back pain keeps me from sitting for long.",
            "causal",
            "health",
            "Back pain keeps me from sitting for long",
            {"health"},
        ),
        (
            "Coffee gives me migraines.",
            "causal",
            "health",
            "Coffee gives me migraines",
            {"food", "health"},
        ),
    ],
)
def test_constraints(text: str, category: str, predicate: str, value: str, tags: set[str]) -> None:
    fact = only(text)
    assert (fact.category.value, fact.predicate, fact.value) == (category, predicate, value)
    assert tags <= set(fact.scope_tags)
    assert set(fact.scope_tags) <= set(SCOPE_TAGS)
    assert fact.subject == "user"


def test_a_state_for_this_month_is_valid_for_this_month() -> None:
    fact = only("I'm on a tight budget this month.")
    assert (fact.category, fact.predicate) == (FactCategory.STATE, "finance")
    assert {"finance", "budget"} <= set(fact.scope_tags)
    assert (fact.valid_from, fact.valid_to) == (at(2024, 6, 1), at(2024, 7, 1))


def test_constraints_are_important_and_preferences_middling() -> None:
    assert (read("I'm vegetarian.").importance or 0) >= 0.8
    assert 0.4 <= (read("I like tea.").importance or 0) < 0.8
    assert 0.4 <= (read("I visited Rome last summer.").importance or 0) < 0.8


# ------------------------------------------------------------------ small talk


@pytest.mark.parametrize(
    "text",
    [
        "I'm so happy for you!",
        "I'm excited about it.",
        "I'm glad you liked it.",
        "I'm thinking about it.",
        "I think that's a great idea!",
        "Wow, that sounds amazing! How did it go?",
        "Thanks so much, that means a lot.",
        "What a beautiful day it is today.",
        "It's been raining all week here.",
        "I love that!",
        "I love your painting, the colors are gorgeous.",
        "I'm tired today.",
        "I want to see it!",
        "Don't worry about it.",
        "That makes me so happy!",
        "I'm a big fan of your work.",
        "I really like that idea.",
        "I'd love to hear how that turned out.",
        "I'm sorry to hear that.",
        "Never mind, I figured it out.",
    ],
)
def test_small_talk_yields_nothing(text: str) -> None:
    result = read(text)
    assert result.facts == []
    assert result.importance is None


@pytest.mark.parametrize(
    "text",
    [
        "Do you like tea?",
        "Are you vegetarian?",
        "If I were vegetarian, I'd miss bacon.",
        "Imagine if I lived in Hawaii!",
        "She said she's moving to Denver.",
        "I wish I lived in Paris.",
    ],
)
def test_questions_hypotheticals_and_reported_speech_yield_nothing(text: str) -> None:
    assert facts(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "No, that's wrong. I never lived in Seattle.",
        "I was never a teacher.",
        "Nope, I never said I was training for anything.",
        "That's not true, I've never owned a dog.",
        "Apparently I'm allergic to Mondays.",
        "I'm a vegetarian, just kidding.",
    ],
)
def test_denials_hearsay_and_jokes_taken_back_yield_nothing(text: str) -> None:
    assert facts(text) == []


def test_laughter_keeps_lasting_facts_and_drops_constraints() -> None:
    assert [(f.predicate, f.value) for f in facts("I have two dogs lol")] == [("pet", "two dogs")]
    assert facts("I'm allergic to exercise, lol.") == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I never eat pork.", "no pork"),  # a habit is a rule, not a denial
        ("I've never liked olives.", "olives"),  # an experience in the perfect
    ],
)
def test_never_in_the_present_or_perfect_still_states(text: str, value: str) -> None:
    assert value in [f.value for f in facts(text)]


@pytest.mark.parametrize(
    "text", ["My knee still hurts.", "My knee's been killing me.", "My knee is still sore."]
)
def test_a_body_part_state_said_again_is_read(text: str) -> None:
    [state] = facts(text)
    assert (state.category.value, state.predicate) == ("state", "health")
    assert "knee" in state.value


def test_assistant_messages_state_nothing_about_the_user() -> None:
    assert read("I'm vegetarian and I live in Berlin.", role="assistant").facts == []


# ------------------------------------------------------------------ negation and hedging


def test_a_dislike_is_a_constraint_against_its_object() -> None:
    fact = only("I don't like coffee.")
    assert (fact.category, fact.predicate, fact.value, fact.polarity) == (
        FactCategory.POLICY,
        "food",
        "coffee",
        False,
    )
    hate = only("I hate horror movies.")
    assert (hate.category, hate.value, hate.polarity) == (
        FactCategory.POLICY,
        "horror movies",
        False,
    )


def test_hedging_lowers_confidence() -> None:
    sure, hedged = only("I'm allergic to cats."), only("I think I'm allergic to cats.")
    assert (hedged.predicate, hedged.value) == (sure.predicate, sure.value)
    assert hedged.confidence == pytest.approx(sure.confidence * 0.6)
    kind_of = only("I kind of like jazz.")
    assert (kind_of.predicate, kind_of.value) == ("music", "jazz")
    assert kind_of.confidence < only("I like jazz.").confidence


def test_the_past_does_not_hold_any_more() -> None:
    job = only("I used to work at Google.")
    assert (job.category, job.predicate, job.value, job.holds) == (
        FactCategory.OCCUPATION,
        "employer",
        "Google",
        False,
    )
    city = only("I don't live in Chicago anymore.")
    assert (city.predicate, city.value, city.holds) == ("city", "Chicago", False)
    movies = only("I used to love horror movies.")
    assert (movies.predicate, movies.holds, movies.polarity) == ("movie", False, True)
    car = only("I sold my car last year.")
    assert (car.predicate, car.value, car.holds, car.valid_to) == (
        "owns",
        "car",
        False,
        at(2023, 1, 1),
    )


# ------------------------------------------------------------------ people, places, events


def test_identity_forms() -> None:
    assert (only("I'm 34 years old.").predicate, only("I'm 34 years old.").value) == (
        "age",
        "34",
    )
    assert only("Call me Al, everyone does.").predicate == "nickname"
    assert only("My pronouns are they/them.").value == "they/them"
    assert only("Hi, I'm Priya, nice to meet you!").value == "Priya"
    assert facts("I'm tired.") == []


def test_a_named_sister_and_where_she_lives() -> None:
    result = read("My sister Sarah lives in Boston.")
    sister = next(f for f in result.facts if f.category is FactCategory.RELATIONSHIP)
    assert (sister.subject, sister.predicate, sister.value, sister.multi_valued) == (
        "user",
        "sister",
        "Sarah",
        True,
    )
    assert (sister.object_entity, sister.object_type) == ("Sarah", EntityType.PERSON)
    city = next(f for f in result.facts if f.category is FactCategory.LOCATION)
    assert (city.subject, city.predicate, city.value) == ("Sarah", "city", "Boston")
    # the fact is the edge Sarah -city-> Boston: no second relation for the same words
    assert (city.object_entity, city.object_type) == ("Boston", EntityType.PLACE)
    assert result.relations == []
    entities = {e.name: e.type for e in result.entities}
    assert entities == {"Sarah": EntityType.PERSON, "Boston": EntityType.PLACE}


def test_pets_named_and_unnamed() -> None:
    max_ = only("I have a dog named Max.")
    assert (max_.predicate, max_.value, max_.object_type) == ("pet", "Max", EntityType.PET)
    assert "pets" in max_.scope_tags
    dog = only("I have a dog.")
    assert (dog.predicate, dog.value, dog.object_entity) == ("pet", "a dog", None)
    husband, hobby = facts("My husband, Mark, loves to cook.")
    assert (husband.predicate, husband.value, husband.multi_valued) == ("husband", "Mark", False)
    # what he loves is read as his (``third_person.py``)
    assert (hobby.subject, hobby.predicate, hobby.value) == ("Mark", "hobby", "cooking")


def test_a_third_party_employer_is_one_fact_and_no_second_relation() -> None:
    result = read("Sarah works at Acme.")
    (fact,) = result.facts
    assert (fact.subject, fact.predicate, fact.value) == ("Sarah", "employer", "Acme")
    assert (fact.object_entity, fact.object_type) == ("Acme", EntityType.ORGANIZATION)
    assert result.relations == []


def test_work() -> None:
    job = only("I'm a software engineer.")
    assert (job.category, job.predicate, job.value, job.multi_valued) == (
        FactCategory.OCCUPATION,
        "job",
        "software engineer",
        False,
    )
    employer = only("I work at Acme.")
    assert (employer.predicate, employer.value, employer.object_type) == (
        "employer",
        "Acme",
        EntityType.ORGANIZATION,
    )


def test_an_event_yesterday() -> None:
    result = read("I went to a book club yesterday and it was lovely.")
    assert len(result.facts) == 1
    fact = result.facts[0]
    assert (fact.category, fact.predicate, fact.value) == (
        FactCategory.EVENT,
        "went_to",
        "book club",
    )
    assert fact.valid_from == at(2024, 6, 14)
    assert result.event_time == at(2024, 6, 14)


def test_a_purchase_and_a_hometown() -> None:
    tesla = only("I bought a Tesla last month.")
    assert (tesla.category, tesla.predicate, tesla.value, tesla.valid_from) == (
        FactCategory.POSSESSION,
        "owns",
        "Tesla",
        at(2024, 5, 1),
    )
    lyon = only("I'm from Lyon.")
    assert (lyon.predicate, lyon.value) == ("hometown", "Lyon")


def test_a_pet_named_in_the_next_sentence() -> None:
    result = read("We adopted a kitten last week. Her name is Mochi!")
    pairs = {(f.category.value, f.predicate, f.value) for f in result.facts}
    assert pairs == {("event", "adopted", "kitten"), ("relationship", "pet", "Mochi")}


def test_names_are_entities_even_without_a_fact() -> None:
    result = read("I had a great time in Rome with Jake! Thanks, Claire.")
    assert result.facts == []
    assert {(e.name, e.type) for e in result.entities} == {
        ("Rome", EntityType.PLACE),
        ("Jake", EntityType.PERSON),
        ("Claire", EntityType.PERSON),
    }
    # the fact's typing wins: an employer is an organisation, not a place "at"
    employer = read("I work at Google.").entities
    assert [(e.name, e.type) for e in employer] == [("Google", EntityType.ORGANIZATION)]
    assert read("I talked to Sarah about it in English.").entities[0].name == "Sarah"
    # a mentioned person's whole name, initials and title included, and nothing more
    people = {
        (e.name, e.type) for e in read("I talked to Sarah Jones and met J.K. Rowling.").entities
    }
    assert people == {("Sarah Jones", EntityType.PERSON), ("J.K. Rowling", EntityType.PERSON)}
    assert [e.name for e in read("I work with Acme Corp.").entities] == ["Acme Corp"]


def test_every_fact_carries_its_sentence_as_evidence() -> None:
    text = "Hey! My name is Tomás. I'm a nurse and I live in Madrid. How are you?"
    result = read(text)
    evidence = {f.predicate: f.evidence for f in result.facts}
    assert evidence == {
        "name": "My name is Tomás.",
        "job": "I'm a nurse and I live in Madrid.",
        "city": "I'm a nurse and I live in Madrid.",
    }


def test_a_sentence_with_initials_or_a_quoted_title_is_one_piece_of_evidence() -> None:
    # the extractor reads the sentences the chunker cuts (text/sentences.py): initials
    # and a full stop inside closing quotes do not end a sentence there
    initials = read("Since I met J. K. Rowling I love writing. Cool!")
    assert {f.evidence for f in initials.facts} == {"Since I met J. K. Rowling I love writing."}
    quoted = read('We danced to "Let It Go." I love dancing.')
    assert [f.evidence for f in quoted.facts] == ["I love dancing."]


def test_full_stops_inside_names_numbers_and_abbreviations_end_no_value() -> None:
    # values are read up to a full stop; a name's or a number's own do not end them
    author = only("My favorite author is J. K. Rowling.")
    assert (author.predicate, author.value) == ("favorite_author", "J. K. Rowling")
    met = only("I met J.K. Rowling yesterday.")
    assert (met.value, met.object_entity) == ("J.K. Rowling", "J.K. Rowling")
    assert only("I live in St. Louis.").value == "St. Louis"
    # the sentence's own last full stop is not kept
    assert only("My brother's name is T. J.").value == "T. J"
    # nor does a decimal point end a number
    assert only("My goal is to run 3.5 miles a day.").value == "run 3.5 miles a day"
    # ("by June" is still read as a time, and left out of the value)
    assert only("My goal is to save $1,500.50 by June.").value == "save $1,500.50"
    # an abbreviation's: "e.g." gives an example, "Feb." a date
    assert [f.value for f in facts("I'm allergic to penicillin, e.g. amoxicillin.")] == [
        "penicillin",
        "amoxicillin",
    ]
    moved = only("I moved to Paris on Feb. 3rd.")
    assert (moved.value, moved.valid_from) == ("Paris", at(2024, 2, 3))


def test_working_with_a_titled_person_is_a_colleague_not_an_employer() -> None:
    colleague = read("I work with Dr. Smith.")
    assert colleague.facts == []
    assert [(e.name, e.type) for e in colleague.entities] == [("Dr. Smith", EntityType.PERSON)]
    # for a titled person, or with an organisation, it stays an employer
    boss = only("I work for Dr. Smith.")
    assert (boss.value, boss.object_type) == ("Dr. Smith", EntityType.PERSON)
    assert only("I work with Google on their cloud.").value == "Google"


async def test_extract_reads_a_batch_in_order() -> None:
    messages = [
        ExtractionInput(text=t, occurred_at=WHEN) for t in ("I like tea.", "Hi!", "I'm vegan.")
    ]
    results = await EXTRACTOR.extract(messages)
    assert [r.facts[0].value if r.facts else None for r in results] == ["tea", None, "vegan"]
    assert RuleExtractor.name == "rules"


def test_scope_tags_share_the_llm_extractors_vocabulary() -> None:
    from cognimem.ingest.extract.llm import SCOPE_TAGS as LLM_SCOPE_TAGS

    assert SCOPE_TAGS is LLM_SCOPE_TAGS  # one definition, in models.extraction
    assert scope_tags("Recommend a restaurant for dinner") == ["food"]


# ------------------------------------------------------------------ the labelled set


def _benchmark() -> ModuleType:
    path = ROOT / "benchmarks" / "extraction_quality.py"
    spec = importlib.util.spec_from_file_location("extraction_quality", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("extraction_quality", module)
    spec.loader.exec_module(module)
    return module


def test_the_labelled_set_is_big_enough_and_well_formed() -> None:
    text = (ROOT / "tests/fixtures/extraction_labelled.jsonl").read_text(encoding="utf-8")
    rows = [json.loads(line) for line in text.splitlines() if line.strip()]
    assert len(rows) >= 170
    assert sum(1 for r in rows if not r["facts"]) >= 40
    categories = {c.value for c in FactCategory}
    for row in rows:
        assert row["split"] in {"dev", "heldout", "fresh"}
        for fact in row["facts"]:
            assert fact["category"] in categories
            assert set(fact["tags"]) <= set(SCOPE_TAGS)


# Thresholds sit just below what benchmarks/extraction_quality.py measured (see
# benchmarks/results/extraction_quality.txt). `dev` was developed against, `heldout`
# partly; `fresh` was never used to change the extractor, so its bar is the honest one.
THRESHOLDS = {
    # split: (precision, recall); on every split no small-talk sentence may yield a fact
    "dev": (0.97, 0.97),
    "heldout": (0.95, 0.93),
    "fresh": (0.90, 0.64),
}


@pytest.mark.parametrize("split", sorted(THRESHOLDS))
def test_precision_and_recall_on_the_labelled_set(split: str) -> None:
    bench = _benchmark()
    rows = [r for r in bench.load() if r.split == split]
    score = bench.score(rows, EXTRACTOR)
    precision, recall = THRESHOLDS[split]
    assert score.precision >= precision, score.false_positives
    assert score.recall >= recall, score.misses
    assert score.empty_with_facts == 0
    if score.constraint_found:
        assert score.constraint_right_type / score.constraint_found >= 0.95


def test_a_job_about_to_start_names_the_employer() -> None:
    joining = only("I'm joining Fabrikam as an engineer in March.")
    assert (joining.predicate, joining.value, joining.holds) == ("employer", "Fabrikam", True)
    assert only("I'm starting at Contoso next week.").value == "Contoso"
    # joining a person is company, not a job
    assert not [f for f in facts("I'm joining Priya for dinner.") if f.predicate == "employer"]


def test_joining_an_organisation_is_a_job_only_when_the_text_says_work() -> None:
    # a club, a gym, a programme: joined, but nobody's employer
    assert not [
        f for f in facts("I'm joining Northwind Runners next month.") if f.predicate == "employer"
    ]
    assert only("I'm joining Northwind's sales team next month.").value == "Northwind"


def test_a_thing_no_longer_at_hand_is_no_rule_or_state() -> None:
    assert facts("I don't have the charger anymore, I left it on the train.") == []
    assert facts("I no longer have that letter.") == []
    # a rule said with "anymore" is still a rule, and a possession given up still read
    assert only("I don't eat meat anymore.").value == "no meat"
    assert only("I don't have a car anymore.").predicate == "owns"


def test_training_to_be_something_that_is_no_occupation_is_no_goal() -> None:
    assert facts("I'm training to be a professional napper.") == []
    career = only("I'm training to become a paramedic.")
    assert (career.category, career.predicate) == (FactCategory.GOAL, "work")
    race = only("I'm training for a half marathon.")
    assert (race.category, race.predicate) == (FactCategory.GOAL, "fitness")


def test_a_symptom_blamed_on_allergies_names_no_allergen() -> None:
    assert not [f for f in facts("My nose is runny from allergies.") if f.predicate == "allergy"]
    assert only("My cashew allergy is serious.").value == "cashew"


def test_joining_an_organisation_after_a_window_naming_a_work_relation_is_work() -> None:
    message = ExtractionInput(
        text="He's joining Accenture there.",
        occurred_at=WHEN,
        context=("My manager Paul Brennan is moving to Galway.",),
    )
    found = [(f.subject, f.predicate, f.value) for f in EXTRACTOR.extract_one(message).facts]
    assert found == [("Paul Brennan", "employer", "Accenture")]
    # a friend's club is no work
    message = ExtractionInput(
        text="He's joining Northwind Runners.",
        occurred_at=WHEN,
        context=("My friend Paul Brennan is moving to Galway.",),
    )
    assert not [f for f in EXTRACTOR.extract_one(message).facts if f.predicate == "employer"]


def test_a_preposition_or_adverb_after_study_names_no_field() -> None:
    for text in ("I study with music on all night.", "I study best in the early morning."):
        assert not [f for f in facts(text) if f.predicate == "studies"], text
    assert [f.value for f in facts("I study law.") if f.predicate == "studies"] == ["law"]
    assert [f.value for f in facts("I'm studying to become a nurse.")] == ["to become a nurse"]


@pytest.mark.parametrize(
    ("text", "named"),
    [
        (
            "I have three kids: Noah, Ella and Finn.",
            [("child", "Noah"), ("child", "Ella"), ("child", "Finn")],
        ),
        ("I have two dogs: Rufus and Bean.", [("pet", "Rufus"), ("pet", "Bean")]),
        ("I have two sisters, Maya and Ruth.", [("sister", "Maya"), ("sister", "Ruth")]),
    ],
)
def test_relatives_counted_then_named_are_recorded_by_name(
    text: str, named: list[tuple[str, str]]
) -> None:
    assert [(f.predicate, f.value) for f in facts(text)] == named


def test_relatives_counted_and_not_named_stay_counted() -> None:
    assert [
        (f.predicate, f.value) for f in facts("I have two kids: honestly they never sleep.")
    ] == [("child", "two kids")]


def test_a_thing_bought_by_make_and_kind_is_one_possession() -> None:
    assert [(f.predicate, f.value) for f in facts("I bought a Fender guitar last year.")] == [
        ("owns", "Fender guitar")
    ]
    assert [(f.predicate, f.value) for f in facts("I drive a Toyota.")] == [("owns", "Toyota")]


@pytest.mark.parametrize(
    ("text", "city"),
    [
        ("For now I'm renting a room in Leicester.", "Leicester"),
        ("We're sharing a flat with two friends in Leeds.", "Leeds"),
        ("I only recently moved to Lisbon, about two months ago.", "Lisbon"),
    ],
)
def test_a_home_rented_now_or_a_recent_move_is_the_city(text: str, city: str) -> None:
    assert [(f.predicate, f.value) for f in facts(text)] == [("city", city)]


def test_a_thing_rented_is_no_home() -> None:
    assert facts("I'm renting a car in Denver.") == []
