"""Sentences that exaggerate by a size no one means are kept whole as no constraint,
and a hope about what others do is no goal (issues 29 and 32); what a detector reads
from an overstated sentence, the same numbers said literally, and a hope of the
speaker's own, still give theirs. The sentences are new, not from any probe set."""

from __future__ import annotations

import pytest

from cognimem.ingest.extract.overstatement import overstates
from tests.unit.test_figures_of_speech import assert_reads, read


@pytest.mark.parametrize(
    "text",
    [
        "I've been on hold with the bank since the Stone Age.",
        "I've been stuck on this level since the Stone Age.",
        "My neighbor hasn't mowed his lawn since the last ice age.",
        "I could sleep for a thousand years after this week.",
        "I've baked enough cookies to feed an army this week.",
        "I've made enough lasagna this week to feed Rome.",
        "I hope the bus is on time tomorrow.",
        "I'm hoping my cousin gets the apartment.",
    ],
)
def test_an_overstatement_or_a_hope_about_others_gives_nothing(text: str) -> None:
    assert read(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm hoping to run a half marathon in the spring.", ("goal", None, "half marathon")),
        ("I hope to learn Portuguese this year.", ("goal", None, "Portuguese")),
        ("I've lived in Denver since the fall.", ("location", None, "Denver")),
        ("I've been a vegetarian for like a million years.", ("value", "diet", "vegetarian")),
    ],
)
def test_a_hope_of_ones_own_or_a_literal_number_is_still_read(
    text: str, expected: tuple[str, str | None, str]
) -> None:
    assert_reads(text, expected)


@pytest.mark.parametrize(
    ("text", "meant"),
    [
        ("I've told him a hundred times.", False),
        ("Our farmhouse is a hundred years old.", True),
        ("I have a thousand followers on my channel.", True),
        ("We raised a million dollars for the shelter.", True),
        ("I've been to Rome five times.", True),
        ("I made enough soup to feed the family for a week.", True),
        ("I cooked enough chili to feed Texas.", False),
        ("I've loved jazz since forever.", False),
    ],
)
def test_only_a_size_no_one_means_is_an_overstatement(text: str, meant: bool) -> None:
    assert overstates(text) is not meant
