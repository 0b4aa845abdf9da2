"""The rule extractor returns every reference it resolved while reading a message on
that message's extraction (``Extraction.coreference``), a fact read from it or not."""

from __future__ import annotations

from datetime import UTC, datetime

from cognimem.ingest.extract.rules import RuleExtractor
from cognimem.models.extraction import ExtractionInput

AT = datetime(2024, 6, 15, 12, tzinfo=UTC)


def said(text: str, *window: str) -> ExtractionInput:
    return ExtractionInput(text=text, occurred_at=AT, context=window)


async def test_a_sentence_with_no_fact_keeps_its_reference() -> None:
    [read] = await RuleExtractor().extract(
        [said("Her clinic is in Brooklyn.", "My sister Maya is a vet.")]
    )
    assert read.facts == []
    [link] = read.coreference
    assert (link.said, link.name, link.sentence) == ("Her", "Maya", "Her clinic is in Brooklyn.")
    assert "my sister" in link.evidence


async def test_each_message_keeps_its_own_links_and_the_window_adds_none() -> None:
    window = ("My friend Luis moved here.", "He's a doctor.")  # "He" in the window: its own
    batch = [
        said("He swims every morning. My sister Ana is a nurse.", *window),
        said("She lives in Leeds and he lives in York."),
        said("I had pasta for lunch."),
    ]
    read = await RuleExtractor().extract(batch)
    assert [[(k.said, k.name) for k in x.coreference] for x in read] == [
        [("He", "Luis")],
        [("She", "Ana"), ("he", "Luis")],
        [],
    ]
    # the facts read are those each message gives: the links add nothing to them
    assert any(f.subject == "Luis" for f in read[0].facts)


def test_one_message_read_alone_keeps_its_references_too() -> None:
    read = RuleExtractor().extract_one(said("We call her Lizzie.", "My daughter Elizabeth is ten."))
    assert [(k.said, k.name) for k in read.coreference] == [("her", "Elizabeth")]
    assert RuleExtractor().extract_one(said("We call her Lizzie.")).coreference == []
