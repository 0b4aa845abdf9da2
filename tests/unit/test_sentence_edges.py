"""Edge cases of the sentence helpers around their shortcuts: a full stop at or next to
a sentence's end (``inner_stops`` skips sentences with no full stop before their last
character), and repeated splits of one text (the spans are kept for the next caller)."""

from __future__ import annotations

import pytest

from cognimem.text.sentences import forget_spans, inner_stops, sentence_spans, split_sentences

STOPS = [
    ("Dr. Lee", [2]),
    ("It cost 3.5", [9]),
    ("It cost 3.5.", [9]),
    ('He paid "3.5"', [10]),
    ("1.5)", [1]),
    ("J.K.", [1]),
    ("J. K. Rowling wrote it.", [1, 4]),
    ("at 7 a.m.", [6]),
    ("e.g. ", [1]),
    ("e.g. this", [1, 3]),
    ("U.S.A.", [1, 3]),
    ("ok.", []),
    (".", []),
    ('."', []),
    ("", []),
    ("  ", []),
    ("x.y", []),
]


@pytest.mark.parametrize(("sentence", "expected"), STOPS)
def test_inner_stops_near_the_end(sentence: str, expected: list[int]) -> None:
    assert inner_stops(sentence) == expected


def test_a_split_is_the_same_each_time_and_never_shared() -> None:
    text = "Hi. I'm Dr. Lee.\nNew line! Yes?"
    first = split_sentences(text)
    assert first == ["Hi.", "I'm Dr. Lee.", "New line!", "Yes?"]
    first.append("changed by a caller")
    spans = sentence_spans(text)
    spans.clear()
    assert split_sentences(text) == ["Hi.", "I'm Dr. Lee.", "New line!", "Yes?"]
    assert sentence_spans(text) == [(0, 3), (4, 16), (17, 26), (27, 31)]


def test_a_long_text_splits_like_its_parts() -> None:
    """A document longer than the texts whose spans are kept is split the same way."""
    part = "Dr. Lee moved to St. Louis in 2019. She paid $3.50 for it! Did she? "
    text = part * 80
    assert len(text) > 4096
    assert split_sentences(text) == split_sentences(part) * 80
    assert split_sentences(text) == split_sentences(part) * 80


def test_forgotten_spans_are_found_again() -> None:
    text = "One. Two? Three!"
    assert split_sentences(text) == ["One.", "Two?", "Three!"]
    forget_spans()
    assert split_sentences(text) == ["One.", "Two?", "Three!"]
