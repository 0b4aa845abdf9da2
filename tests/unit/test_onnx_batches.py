"""How the local models group texts into inference batches (``length_batches``) and
run them on several threads (``LazySession.run_batches``)."""

from __future__ import annotations

import random
import threading

import pytest

from cognimem.errors import UsageError
from cognimem.providers.onnx_batches import (
    MAX_BATCH_TOKENS,
    MAX_LENGTH_SPREAD,
    length_batches,
    spread,
)
from cognimem.providers.onnx_models import (
    MINILM,
    LazySession,
)


def test_every_text_runs_once_shortest_first() -> None:
    lengths = [40, 7, 12, 103, 9, 33, 12, 64]
    batches = length_batches(lengths, batch_size=64)
    flat = [i for b in batches for i in b]
    assert sorted(flat) == list(range(len(lengths)))
    assert [lengths[i] for i in flat] == sorted(lengths)


def test_short_fact_texts_are_not_padded_to_long_turns() -> None:
    # a session's turns (30-60 tokens) and the facts read from them (6-9 tokens)
    turns, facts = [30, 41, 52, 60, 35, 48], [6, 8, 9, 7]
    lengths = turns + facts
    batches = length_batches(lengths, batch_size=64)
    fact_rows = set(range(len(turns), len(lengths)))
    for batch in batches:
        assert set(batch) <= fact_rows or not set(batch) & fact_rows, batch


def test_a_batch_keeps_its_spread_rows_and_padded_tokens() -> None:
    rng = random.Random(7)
    lengths = [rng.randint(3, 128) for _ in range(500)]
    for batch_size in (1, 4, 64):
        batches = length_batches(lengths, batch_size)
        assert sum(len(b) for b in batches) == len(lengths)
        for batch in batches:
            longest, shortest = max(lengths[i] for i in batch), min(lengths[i] for i in batch)
            assert len(batch) <= batch_size
            assert longest <= MAX_LENGTH_SPREAD * shortest
            assert len(batch) == 1 or len(batch) * longest <= MAX_BATCH_TOKENS


def test_texts_of_one_length_fill_whole_batches() -> None:
    assert [len(b) for b in length_batches([10] * 150, batch_size=64)] == [64, 64, 22]
    assert length_batches([], batch_size=8) == []


# -- running batches on several threads (LazySession.run_batches) --------------------


def test_spread_splits_the_largest_batches_until_every_thread_has_one() -> None:
    assert spread([[0, 1, 2, 3, 4, 5, 6, 7]], 2) == [[0, 1, 2, 3], [4, 5, 6, 7]]
    assert spread([[0], [1, 2, 3]], 4) == [[0], [1], [2], [3]]
    # a single row cannot be split: a lone query runs as one batch
    assert spread([[0]], 4) == [[0]]
    assert spread([[0, 1], [2, 3]], 2) == [[0, 1], [2, 3]]
    assert spread([], 2) == []


def test_run_batches_returns_every_batch_with_its_own_result() -> None:
    session = LazySession(MINILM, threads=2)
    batches = [[0, 1, 2], [3], [4, 5], [6, 7, 8, 9]]
    found = session.run_batches(batches, lambda rows: [r * 10 for r in rows])
    assert sorted(i for batch, _ in found for i in batch) == list(range(10))
    for batch, result in found:
        assert result == [r * 10 for r in batch]
    session.drop()


def test_run_batches_runs_batches_at_the_same_time_on_two_threads() -> None:
    # each batch waits at a barrier for the other: run one after the other, the first
    # would wait out the barrier's timeout and break it
    meet = threading.Barrier(2, timeout=30)
    names: set[str] = set()

    def run(rows: list[int]) -> int:
        names.add(threading.current_thread().name)
        meet.wait()
        return len(rows)

    session = LazySession(MINILM, threads=2)
    found = session.run_batches([[0, 1], [2, 3]], run)
    assert sorted(r for _, r in found) == [2, 2]
    assert len(names) == 2
    session.drop()


def test_one_thread_runs_every_batch_on_the_callers_thread() -> None:
    names: set[str] = set()

    def run(rows: list[int]) -> int:
        names.add(threading.current_thread().name)
        return len(rows)

    session = LazySession(MINILM, threads=1)
    assert [r for _, r in session.run_batches([[0, 1], [2], [3, 4, 5]], run)] == [2, 1, 3]
    assert names == {threading.current_thread().name}


def test_a_failing_batch_is_raised_after_the_other_threads_stop() -> None:
    def run(rows: list[int]) -> int:
        if rows == [3]:
            raise ValueError("batch 3 failed")
        return rows[0]

    session = LazySession(MINILM, threads=2)
    with pytest.raises(ValueError, match="batch 3 failed"):
        session.run_batches([[0], [1], [2], [3], [4]], run)
    session.drop()


def test_threads_must_be_positive() -> None:
    with pytest.raises(UsageError, match="threads"):
        LazySession(MINILM, threads=0)
