"""The exact scan's selection (``vectors.top_rows``) is a full sort by score, highest
first, ties to the earlier position, on either floor (block maxima, or the
``limit``-th score), with NaN scores last."""

from __future__ import annotations

import numpy as np
import pytest

from cognimem.store.sqlite.vectors import top_rows


def _full_sort(scores: np.ndarray, limit: int) -> np.ndarray:
    return np.lexsort((np.arange(scores.size), -scores))[: max(limit, 0)]


@pytest.mark.parametrize("n", [0, 1, 7, 99, 100, 101, 450, 4_003, 10_002])
@pytest.mark.parametrize("limit", [0, 1, 3, 10, 100])
def test_top_rows_is_a_full_sort_with_ties_to_the_earlier_position(n: int, limit: int) -> None:
    rng = np.random.default_rng(n * 1000 + limit)
    # few distinct values: many ties, at the cut too
    scores = rng.integers(0, 40, n).astype(np.float32) / 40
    assert top_rows(scores, limit).tolist() == _full_sort(scores, limit).tolist()
    spread = rng.standard_normal(n).astype(np.float32)
    assert top_rows(spread, limit).tolist() == _full_sort(spread, limit).tolist()


def test_top_rows_puts_nan_scores_last() -> None:
    scores = np.linspace(0, 1, 5_000, dtype=np.float32)
    scores[[3, 4_999, 2_500]] = np.nan  # one in the last block: its maximum is NaN
    top = top_rows(scores, 10)
    assert top.tolist() == _full_sort(scores, 10).tolist()
    assert not np.isnan(scores[top]).any()
    assert top_rows(scores, 5_000)[-3:].tolist() == [3, 2_500, 4_999]
