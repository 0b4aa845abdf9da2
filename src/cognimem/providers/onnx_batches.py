"""Inference batches for the local ONNX models: which texts run together (similar
lengths, a bound on padded tokens), their padded feeds, and batches split across
threads."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

MAX_LENGTH_SPREAD = 1.25
"""A batch's longest text is at most this many times its shortest (in tokens)."""
MAX_BATCH_TOKENS = 1024
"""A batch's rows times its padded width, at most (one longer text still runs alone)."""


def length_batches(lengths: Sequence[int], batch_size: int) -> list[list[int]]:
    """The indexes of ``lengths`` grouped into inference batches, shortest texts first.

    Every row of a batch is padded to its longest, and on this model size the padding
    costs as much as real tokens, so a batch holds texts of similar length only: at
    most ``batch_size`` rows, a longest row at most ``MAX_LENGTH_SPREAD`` times the
    shortest, and at most ``MAX_BATCH_TOKENS`` padded tokens (a 64-row batch of long
    turns ran slower per text than 16-row ones). Measured on one LoCoMo conversation's
    ingest (515 texts of 7-103 tokens): 3.4x faster than batches of 64 by length order;
    a row's output does not depend on the rows beside it (masked attention).
    """
    order = sorted(range(len(lengths)), key=lambda i: lengths[i])
    batches: list[list[int]] = []
    batch: list[int] = []
    for i in order:
        if batch and (
            len(batch) >= batch_size
            or lengths[i] > MAX_LENGTH_SPREAD * lengths[batch[0]]
            or (len(batch) + 1) * lengths[i] > MAX_BATCH_TOKENS
        ):
            batches.append(batch)
            batch = []
        batch.append(i)
    if batch:
        batches.append(batch)
    return batches


def batch_feeds(
    encodings: list[Any], input_names: frozenset[str]
) -> dict[str, np.ndarray[Any, np.dtype[np.int64]]]:
    """The padded ``input_ids``/``attention_mask`` (and ``token_type_ids`` when the graph
    takes them) of a batch of tokenizer encodings."""
    width = max(len(e.ids) for e in encodings)
    ids = np.zeros((len(encodings), width), dtype=np.int64)
    mask = np.zeros_like(ids)
    types = np.zeros_like(ids)
    for row, e in enumerate(encodings):
        ids[row, : len(e.ids)] = e.ids
        mask[row, : len(e.ids)] = 1
        types[row, : len(e.ids)] = e.type_ids
    feeds = {"input_ids": ids, "attention_mask": mask}
    if "token_type_ids" in input_names:
        feeds["token_type_ids"] = types
    return feeds


def spread(batches: list[list[int]], threads: int) -> list[list[int]]:
    """``batches``, with the largest split in halves until there are ``threads`` of them
    or none has two rows left."""
    batches = list(batches)
    while batches and len(batches) < threads:
        largest = max(range(len(batches)), key=lambda i: len(batches[i]))
        rows = batches[largest]
        if len(rows) < 2:
            break
        half = len(rows) // 2
        batches[largest : largest + 1] = [rows[:half], rows[half:]]
    return batches
