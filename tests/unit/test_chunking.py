"""Sentence splitting and token-bounded chunking."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cognimem.errors import UsageError
from cognimem.ingest.chunking import chunk_text
from cognimem.text.sentences import inner_stops, split_sentences


def words(text: str) -> int:
    return len(text.split())


def non_space(text: str) -> str:
    return "".join(text.split())


# ----------------------------------------------------------------------- sentences


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Hello there. How are you?", ["Hello there.", "How are you?"]),
        ("Stop! Really?! Yes.", ["Stop!", "Really?!", "Yes."]),
        ("I waited… Then it came.", ["I waited…", "Then it came."]),
        ("It was late... Nobody came.", ["It was late...", "Nobody came."]),
        ('He said "Stop!" Then he left.', ['He said "Stop!"', "Then he left."]),
        ("She smiled. (It was over.) We left.", ["She smiled.", "(It was over.)", "We left."]),
        ("‘Fine.’ She shrugged.", ["‘Fine.’", "She shrugged."]),
        ("No trailing stop", ["No trailing stop"]),
    ],
)
def test_splits_on_terminators(text: str, expected: list[str]) -> None:
    assert split_sentences(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Mr. Smith met Mrs. Jones and Ms. Lee.",
        "Dr. Patel lives on St. Mark's Place.",
        "Bring snacks, e.g. apples, i.e. something healthy.",
        "Pens, paper, etc. are in the drawer.",
        "It was Lakers vs. Celtics last night.",
        "I wake up at 6 a.m. and sleep at 10 p.m. every day.",
        "She moved to the U.S. in 2019.",
        "Pi is about 3.14 and e is about 2.718.",
        "Write to jane.doe@example.com for details.",
        "See https://example.com/docs/v1.2/index.html for more.",
        "Upgrade to v1.2.3 before Friday.",
        "Open report.final.pdf and check it.",
        "It costs $1,200.50 in total.",
        "Wait... what did you say?",
    ],
)
def test_does_not_split_inside_a_sentence(text: str) -> None:
    assert split_sentences(text) == [text]


def test_initials_keep_their_text() -> None:
    sentences = split_sentences("J. R. R. Tolkien wrote it. I loved it.")
    assert " ".join(sentences) == "J. R. R. Tolkien wrote it. I loved it."
    assert sentences[-1] == "I loved it."


def test_boundary_after_an_address_at_the_end_of_a_sentence() -> None:
    text = "Email me at bob@example.com. Or visit example.org. Thanks!"
    assert split_sentences(text) == [
        "Email me at bob@example.com.",
        "Or visit example.org.",
        "Thanks!",
    ]


def test_newlines_separate_lines_and_paragraphs() -> None:
    text = "First line\nsecond line\n\n  New paragraph. Two sentences.\r\n- a bullet"
    assert split_sentences(text) == [
        "First line",
        "second line",
        "New paragraph.",
        "Two sentences.",
        "- a bullet",
    ]


def test_numbered_list_markers_stay_with_their_item() -> None:
    assert split_sentences("1. Buy milk\n2. Call mom") == ["1. Buy milk", "2. Call mom"]


@pytest.mark.parametrize("text", ["", "   ", "\n\n\t"])
def test_blank_text_has_no_sentences(text: str) -> None:
    assert split_sentences(text) == []


# -------------------------------------------------------------------------- chunks


def test_fitting_text_is_one_chunk_stripped() -> None:
    text = "  Hello there.\nHow are you?  "
    assert chunk_text(text, 100, words) == ["Hello there.\nHow are you?"]


@pytest.mark.parametrize("text", ["", "  \n "])
def test_blank_text_has_no_chunks(text: str) -> None:
    assert chunk_text(text, 10, words) == []


def test_packs_consecutive_sentences() -> None:
    text = "One two three. Four five. Six seven eight nine. Ten."
    assert chunk_text(text, 5, words) == [
        "One two three. Four five.",
        "Six seven eight nine. Ten.",
    ]


def test_multi_paragraph_text_keeps_newlines_inside_chunks() -> None:
    text = "Para one has words.\n\nPara two too.\n\nThird paragraph is here now."
    assert chunk_text(text, 8, words) == [
        "Para one has words.\n\nPara two too.",
        "Third paragraph is here now.",
    ]


def test_long_sentence_is_split_at_whitespace() -> None:
    text = "a b c d e f g h i j"
    assert chunk_text(text, 4, words) == ["a b c d", "e f g h", "i j"]


def test_long_word_is_hard_split_on_characters() -> None:
    assert chunk_text("abcdefghij xy", 4, len) == ["abcd", "efgh", "ij", "xy"]


def test_abbreviations_are_not_chunk_boundaries() -> None:
    text = "Dr. Smith arrived at 9 a.m. today. He left."
    assert chunk_text(text, 7, words) == ["Dr. Smith arrived at 9 a.m. today.", "He left."]


def test_rejects_a_non_positive_limit() -> None:
    with pytest.raises(UsageError):
        chunk_text("hello", 0, words)


def test_rejects_a_limit_below_one_character() -> None:
    with pytest.raises(UsageError, match="chunk_tokens"):
        chunk_text("hello world", 1, lambda s: 2 * len(s))


# ---------------------------------------------------------------------- properties

_alphabet = st.sampled_from(
    [*list("abcXYZ019"), " ", "  ", "\n", "\n\n", "\t", ".", "!", "?", "…", '"', ")", "Mr.", "3.14"]
)
texts = st.lists(_alphabet, max_size=80).map("".join)
limits = st.integers(min_value=1, max_value=12)


@given(texts, limits)
def test_no_chunk_exceeds_the_limit(text: str, limit: int) -> None:
    assert all(words(chunk) <= limit for chunk in chunk_text(text, limit, words))


@given(texts, limits)
def test_words_are_preserved_in_order(text: str, limit: int) -> None:
    chunks = chunk_text(text, limit, words)
    assert " ".join(chunks).split() == text.split()


@given(texts, limits)
def test_chunks_are_never_empty_nor_padded(text: str, limit: int) -> None:
    for chunk in chunk_text(text, limit, words):
        assert chunk
        assert chunk == chunk.strip()


@given(texts, limits)
def test_character_counter_keeps_every_character(text: str, limit: int) -> None:
    chunks = chunk_text(text, limit, len)
    assert all(len(chunk) <= limit for chunk in chunks)
    assert non_space("".join(chunks)) == non_space(text)


@given(texts)
def test_fitting_text_is_returned_whole(text: str) -> None:
    limit = max(1, words(text))
    expected = [text.strip()] if text.strip() else []
    assert chunk_text(text, limit, words) == expected


@given(texts, limits)
def test_chunking_a_chunk_returns_it(text: str, limit: int) -> None:
    for chunk in chunk_text(text, limit, words):
        assert chunk_text(chunk, limit, words) == [chunk]


@given(texts)
def test_sentences_keep_every_character(text: str) -> None:
    sentences = split_sentences(text)
    assert all(s and s == s.strip() for s in sentences)
    assert non_space("".join(sentences)) == non_space(text)


@pytest.mark.parametrize(
    ("sentence", "marked"),
    [
        ("Since I met J. K. Rowling I love writing.", "Since I met J# K# Rowling I love writing."),
        ("J.K. Rowling wrote it.", "J#K# Rowling wrote it."),
        ("I work with Dr. Lee at St. Mary's.", "I work with Dr# Lee at St# Mary's."),
        ("It is 3.5 km, or $1,500.50.", "It is 3#5 km, or $1,500#50."),
        ("Walk, e.g. at 6 a.m. on Feb. 3rd.", "Walk, e#g# at 6 a#m# on Feb# 3rd."),
        ("I live in the U.S.", "I live in the U#S."),
        # none: "I", a number's last stop, the sentence's own last stop
        ("So did I. Then", "So did I. Then"),
        ("Version 2. 3 more", "Version 2. 3 more"),
        ("My brother is called T. J.", "My brother is called T# J."),
        ('I met Dr."', 'I met Dr."'),
    ],
)
def test_inner_stops_are_the_full_stops_inside_names_numbers_and_abbreviations(
    sentence: str, marked: str
) -> None:
    stops = inner_stops(sentence)
    assert "".join("#" if at in stops else ch for at, ch in enumerate(sentence)) == marked


def test_an_abbreviated_month_ends_no_sentence() -> None:
    assert split_sentences("I moved on Feb. 3rd. It was cold.") == [
        "I moved on Feb. 3rd.",
        "It was cold.",
    ]


def test_a_full_stop_after_a_whole_word_ends_a_sentence_typed_in_lower_case() -> None:
    text = "ok so budget chat. rent's gone up again. approx. five quid left"
    assert split_sentences(text) == [
        "ok so budget chat.",
        "rent's gone up again.",
        "approx. five quid left",
    ]
