"""Mock enthusiasm (an interjection of assent, an intensified liking, no reason) gives
no fact and no constraint (issues 29 and 32); a liking with no interjection or no
intensifier, or one the sentence explains, is still read. The sentences are new, not
from any probe set."""

from __future__ import annotations

import pytest

from cognimem.ingest.extract.mock_praise import mocks
from tests.unit.test_figures_of_speech import read


@pytest.mark.parametrize(
    "text",
    [
        "Oh yeah, I'm a huge fan of Tuesday deadlines.",
        "Oh sure, I'm a big fan of cold showers in January.",
        "Oh yes, I just adore queueing at the bank.",
        "Ah yes, I absolutely love spreadsheets at midnight.",
    ],
)
def test_mock_enthusiasm_gives_nothing(text: str) -> None:
    assert read(text) == []


@pytest.mark.parametrize(
    ("text", "meant"),
    [
        ("Oh yeah, I'm a huge fan of Tuesday deadlines.", False),
        ("Oh yeah, I love sailing.", True),  # no intensifier
        ("I'm a huge fan of Tuesday deadlines.", True),  # no interjection
        ("Oh yeah, I'm a huge fan of sailing, it's so relaxing.", True),  # praised
        ("Oh yes, I just adore sailing because it clears my head.", True),  # a reason
    ],
)
def test_only_unexplained_assent_and_intensifier_is_mock(text: str, meant: bool) -> None:
    assert mocks(text) is not meant


def test_an_earnest_liking_with_assent_is_still_read() -> None:
    assert any(c == "preference" and "sailing" in v for c, _, v in read("Oh yeah, I love sailing."))


@pytest.mark.parametrize(
    "text",
    [
        "Nothing makes me happier than a flat tyre on the way to work.",
        "Nothing I love more than a dentist appointment on my birthday.",
    ],
)
def test_a_superlative_liking_is_no_cause_and_no_rule(text: str) -> None:
    assert read(text) == []


def test_a_rule_said_as_nothing_with_a_time_is_still_read() -> None:
    assert read("Nothing salty after nine.") != []
