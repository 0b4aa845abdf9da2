"""``ingest/references.py``: the rule extractor's reading, with every reference it
resolved on each message's extraction, a fact read from it or not."""

from __future__ import annotations

from datetime import UTC, datetime

from cognimem.ingest.extract.rules import RuleExtractor
from cognimem.ingest.references import LinkingRules
from cognimem.models.extraction import ExtractionInput

AT = datetime(2024, 6, 15, 12, tzinfo=UTC)


def said(text: str, *window: str) -> ExtractionInput:
    return ExtractionInput(text=text, occurred_at=AT, context=window)


async def test_a_sentence_with_no_fact_keeps_its_reference() -> None:
    [read] = await LinkingRules().extract(
        [said("Her clinic is in Brooklyn.", "My sister Maya is a vet.")]
    )
    assert read.facts == []
    [link] = read.coreference
    assert (link.said, link.name, link.sentence) == ("Her", "Maya", "Her clinic is in Brooklyn.")
    assert "my sister" in link.evidence


async def test_it_reads_what_the_rules_read_and_the_window_adds_no_links() -> None:
    window = ("My friend Luis moved here.", "He's a doctor.")  # "He" in the window: its own
    batch = [
        said("He swims every morning. My sister Ana is a nurse.", *window),
        said("She lives in Leeds and he lives in York."),
        said("I had pasta for lunch."),
    ]
    ours, theirs = await LinkingRules().extract(batch), await RuleExtractor().extract(batch)
    assert [x.model_copy(update={"coreference": []}) for x in ours] == theirs
    assert [[(k.said, k.name) for k in x.coreference] for x in ours] == [
        [("He", "Luis")],
        [("She", "Ana"), ("he", "Luis")],
        [],
    ]


def test_one_message_read_alone_keeps_its_references_too() -> None:
    read = LinkingRules().extract_one(said("We call her Lizzie.", "My daughter Elizabeth is ten."))
    assert [(k.said, k.name) for k in read.coreference] == [("her", "Elizabeth")]
    assert RuleExtractor().extract_one(said("We call her Lizzie.")).coreference == []
