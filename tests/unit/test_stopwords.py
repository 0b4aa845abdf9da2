"""One list of stop words, in ``cognimem.text``: the read path drops them from a query's
terms, and restatement reads past them (and "never") to what a fact's value is about."""

from __future__ import annotations

import pytest

from cognimem.ingest.restatement import about
from cognimem.recall.analyze import STOP_WORDS as READ_PATH_STOP_WORDS
from cognimem.recall.analyze import query_terms
from cognimem.text.stopwords import STOP_WORDS


def test_the_read_path_uses_the_one_list() -> None:
    assert READ_PATH_STOP_WORDS is STOP_WORDS
    assert query_terms("what does my knee do") == ["knee"]


@pytest.mark.parametrize("opener", sorted(STOP_WORDS | {"never"}))
def test_a_value_is_about_its_first_word_that_is_no_stop_word(opener: str) -> None:
    assert about(f"{opener} knee's been killing me") == "knee"


def test_a_value_of_stop_words_alone_is_about_nothing() -> None:
    assert about("not at all") is None
