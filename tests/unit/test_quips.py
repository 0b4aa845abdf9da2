"""Self-descriptions no one means give no fact and no constraint (issues 29 and 32):
an "allergy" to a time, an act or people, the speaker called a being of fiction, a job
done for one's pets or plants, a claim placed in a dream or put in someone else's word,
a quip about study; real allergies, jobs and studies in the same words are still read.
The sentences are new, not from any probe set."""

from __future__ import annotations

import pytest

from cognimem.ingest.extract.quips import is_quip
from tests.unit.test_figures_of_speech import assert_reads, read


@pytest.mark.parametrize(
    "text",
    [
        "I'm allergic to anything after 10pm.",
        "I'm allergic to anything involving paperwork.",
        "I'm allergic to doing laundry.",
        "I'm a zombie until my second coffee.",
        "I'm a babysitter to my four houseplants.",
        "I'm a lifeguard in my dreams.",
        "I'm a terrible cook, according to my husband.",
        "I'm studying to become a professional couch tester.",
    ],
)
def test_a_self_description_no_one_means_gives_nothing(text: str) -> None:
    assert read(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm allergic to ragweed.", ("policy", "allergy", "ragweed")),
        ("I'm a babysitter for a family in Leeds.", ("occupation", "job", "babysitter")),
        ("I'm a lifeguard at the city pool.", ("occupation", "job", "lifeguard")),
        ("I'm studying to become a dental hygienist.", ("occupation", "studies", "hygienist")),
    ],
)
def test_the_same_words_meant_are_still_read(
    text: str, expected: tuple[str, str | None, str]
) -> None:
    assert_reads(text, expected)


def test_only_an_allergy_with_an_object_or_a_being_of_fiction_is_a_quip() -> None:
    assert is_quip("I'm allergic to anything before noon.")
    assert is_quip("I'm a zombie until noon.")
    assert not is_quip("From a distance, since I'm allergic.")
    assert not is_quip("I'm a nurse, I never work weekends.")
