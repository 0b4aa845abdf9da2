"""How the local models group texts into inference batches (``length_batches``)."""

from __future__ import annotations

import random

from cognimem.providers.onnx_models import MAX_BATCH_TOKENS, MAX_LENGTH_SPREAD, length_batches


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
