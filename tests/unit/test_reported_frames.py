"""Sentences that gave a false fact (issue 32): a quote said with "was like" or "goes"
is someone's words, a question the speaker asks or is unsure of states nothing, and a
statement followed by someone's opinion of it ("..., though people think ...") keeps
the speaker's own fact. Sentences written for these tests."""

from __future__ import annotations

import pytest

from cognimem.ingest.extract.clauses import is_statement
from cognimem.models.extraction import ExtractionInput
from tests.unit.test_choice_extraction import EXTRACTOR, WHEN


def _facts(text: str) -> list[tuple[str, str, str, str]]:
    read = EXTRACTOR.extract_one(ExtractionInput(text=text, occurred_at=WHEN)).facts
    return [(f.subject, f.category.value, f.predicate, f.value) for f in read]


@pytest.mark.parametrize(
    "text",
    [
        "My cousin was like, I'm moving to Lisbon in spring.",
        "And he was like, I'm vegan now, get used to it.",
        "She goes, I hate my commute.",
        "I asked the pharmacist whether I'm allergic to aspirin.",
        "I wanted to ask my doctor if I have asthma.",
        "I'm not sure if I'm lactose intolerant.",
    ],
)
def test_no_fact_from_a_quote_or_a_question_asked(text: str) -> None:
    assert not is_statement(text)
    assert _facts(text) == []


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        (
            "I live in Galway, though my cousins think I'm still in Cork.",
            ("user", "location", "city", "Galway"),
        ),
        (
            "I work as a midwife, although my friends assume I'm an accountant.",
            ("user", "occupation", "job", "midwife"),
        ),
        (
            "I'm from Porto, though people take me for Spanish.",
            ("user", "location", "hometown", "Porto"),
        ),
    ],
)
def test_a_statement_keeps_its_fact_before_an_opinion(
    text: str, fact: tuple[str, str, str, str]
) -> None:
    read = _facts(text)
    assert fact in read
    assert not [f for f in read if f[3] in {"Cork", "accountant", "Spanish"}]


@pytest.mark.parametrize(
    "text",
    ["He was like a brother to me.", "I'm diabetic.", "I asked for a window seat."],
)
def test_still_a_statement(text: str) -> None:
    assert is_statement(text)


@pytest.mark.parametrize(
    ("text", "owner"),
    [
        ("My friend Priya owns a terrier named Bolt.", "Priya"),
        ("My aunt Rosa keeps a parrot called Lemon.", "Rosa"),
        ("My neighbour has a cat named Smudge.", None),
    ],
)
def test_someone_elses_pet_is_not_the_speakers(text: str, owner: str | None) -> None:
    pets = [f for f in _facts(text) if f[2] == "pet"]
    assert not [f for f in pets if f[0] == "user"]
    if owner is not None:
        assert [f[0] for f in pets] == [owner]


@pytest.mark.parametrize(
    "text",
    [
        "A neighbour assumed I was a vet.",
        "The new intern thinks I'm from Manila.",
        "The waiter said I looked like a chef.",
        "Our landlord thinks I work at Nokia.",
        "The tour guide was sure I lived in Oslo.",
    ],
)
def test_no_fact_from_any_reporters_word_on_the_speaker(text: str) -> None:
    assert not is_statement(text)
    assert _facts(text) == []


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        # a doctor's word is a finding, whatever opens the reporter
        ("The doctor said I have asthma.", ("user", "state", "health", "asthma")),
        # a request, nobody's word on anyone
        (
            "The clerk asked for my address, and I live in Galway.",
            ("user", "location", "city", "Galway"),
        ),
        # a reporter's word on something else, after the speaker's own statement
        ("I live in Rome and the guide says it's lovely.", ("user", "location", "city", "Rome")),
    ],
)
def test_a_reporter_with_an_article_leaves_the_speakers_fact(
    text: str, fact: tuple[str, str, str, str]
) -> None:
    assert fact in _facts(text)
