"""The int8 copy of a scope's matrix (``store/sqlite/quantized.py``) picks the rows an
exact scan returns: the top rows it gives, scored exactly, are the whole float32
product's to the bit (ids, scores, order, ties to the earlier row), for filters, limits,
rows appended after the copy and a last partial group, while scoring far fewer rows."""

from __future__ import annotations

import numpy as np
import pytest

from cognimem.blas import single_threaded
from cognimem.store.sqlite import quantized
from cognimem.store.sqlite.vectors import top_rows

DIM = 384


def _matrix(rows: int, seed: int) -> np.ndarray:
    """Unit rows around a few dozen centres (close scores, as embeddings of related
    texts give), some rows repeated exactly (tied scores), one column all zero."""
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((40, DIM))
    m = centres[rng.integers(0, 40, rows)] + 0.6 * rng.standard_normal((rows, DIM))
    m[:, 7] = 0.0
    m[1::97] = m[0]  # ties
    m /= np.linalg.norm(m, axis=1, keepdims=True)
    return m.astype(np.float32)


def _whole(
    m: np.ndarray, idx: np.ndarray, v: np.ndarray, limit: int
) -> tuple[list[int], list[float]]:
    scores = (m @ v)[idx]
    top = top_rows(scores, limit)
    return idx[top].tolist(), scores[top].tolist()


def _picked(
    m: np.ndarray, q: quantized.Quantized, idx: np.ndarray, v: np.ndarray, limit: int
) -> tuple[list[int], list[float], int]:
    found = q.scores(v)
    assert found is not None
    rows = quantized.candidates(q, *found, idx, limit)
    scores = quantized.exact(m, rows, v, q.group)
    top = top_rows(scores, limit)
    return rows[top].tolist(), scores[top].tolist(), rows.size


@pytest.mark.parametrize("rows", [5003, 6000])
def test_the_copys_candidates_give_the_whole_products_top_rows_to_the_bit(rows: int) -> None:
    m = _matrix(rows, seed=rows)
    copied = rows - 700  # the last 700 rows were appended after the copy was made
    q = quantized.build(m[:copied])
    assert q is not None
    assert q.rows == copied
    rng = np.random.default_rng(1)
    scored = []
    with single_threaded():
        for n in range(60):
            v = m[rng.integers(rows)] + 0.3 * rng.standard_normal(DIM).astype(np.float32)
            if n % 5 == 0:
                v = m[0].copy()  # its tied rows score exactly alike
            share = (1.0, 0.97, 0.6, 0.2)[n % 4]
            idx = np.flatnonzero(rng.random(rows) < share)
            limit = (1, 10, 100, 300)[n % 4]
            ids, scores, count = _picked(m, q, idx, v, limit)
            assert (ids, scores) == _whole(m, idx, v, limit)
            scored.append(count / idx.size)
    # most rows are never scored exactly (the copy's point)
    assert float(np.median(scored)) < 0.25


def test_a_query_on_the_tied_rows_keeps_the_earlier_rows() -> None:
    m = _matrix(5000, seed=3)
    q = quantized.build(m)
    assert q is not None
    idx = np.arange(5000)
    ids, scores, _ = _picked(m, q, idx, m[0].copy(), 20)
    assert ids[:3] == [0, 1, 98]
    assert scores[0] == scores[1] == scores[2]
    assert (ids, scores) == _whole(m, idx, m[0].copy(), 20)


def test_no_copy_below_its_rows_or_of_values_not_finite() -> None:
    assert quantized.build(_matrix(quantized.MIN_ROWS - 1, seed=4)) is None
    m = _matrix(quantized.MIN_ROWS, seed=4)
    m[5, 3] = np.nan
    assert quantized.build(m) is None


def test_a_query_not_finite_gets_no_estimate() -> None:
    q = quantized.build(_matrix(quantized.MIN_ROWS, seed=5))
    assert q is not None
    v = np.zeros(DIM, dtype=np.float32)
    v[0] = np.inf
    assert q.scores(v) is None


def test_few_allowed_rows_are_all_candidates() -> None:
    m = _matrix(quantized.MIN_ROWS, seed=6)
    q = quantized.build(m)
    assert q is not None
    found = q.scores(m[3])
    assert found is not None
    idx = np.array([2, 3, 900, 4000])
    assert quantized.candidates(q, *found, idx, 10).tolist() == idx.tolist()


def test_rows_scored_apart_get_the_whole_products_bits() -> None:
    rng = np.random.default_rng(7)
    for rows in (quantized.MIN_ROWS + 5, 5003):
        m = _matrix(rows, seed=rows + 1)
        q = quantized.build(m)
        assert q is not None
        with single_threaded():
            for n in range(40):
                v = rng.standard_normal(DIM).astype(np.float32)
                picked = np.unique(rng.integers(0, rows, 1 + n * 7))
                if n % 3 == 0:  # and rows of the last partial group
                    picked = np.unique(np.concatenate([picked, [rows - 1, rows - 3]]))
                got = quantized.exact(m, picked, v, q.group)
                assert np.array_equal(got, (m @ v)[picked])
