"""A fact's row as the read's fact steps score it, shared by both backends: the columns
a backend reads (``SCORED_FACT_COLUMNS`` and the embedding), read in order or by name
(``scored_columns``), decoded into ``FactRowParts``: its tags parsed, the words of its
text, value and predicate found, its vector read."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

import numpy as np

from cognimem.store.records import Row
from cognimem.store.types import FactRowParts, FactRows

_WORD = re.compile(r"[a-z0-9']+")

SCORED_FACT_COLUMNS = "id, category, scope_tags, text, value, predicate"
"""The columns a read scores a fact by (``fact_row_parts``), its vector aside."""
# SCORED_FACT_COLUMNS' values, then the embedding (a blob or an array)
FactColumns = tuple[str, str, str, str, str, str, bytes | np.ndarray | None]


def scored_columns(row: Row, vector: bytes | np.ndarray | None) -> FactColumns:
    """A fact's ``FactColumns`` from a row read by column name, with its ``vector``."""
    return (
        row["id"], row["category"], row["scope_tags"], row["text"], row["value"],
        row["predicate"], vector,
    )  # fmt: skip


def fact_rows(rows: Sequence[FactColumns]) -> FactRows:
    """``FactRows`` from each fact's ``FactColumns``."""
    return FactRows.of([fact_row_parts(r) for r in rows])


def fact_row_parts(row: FactColumns) -> FactRowParts:
    """One fact's columns decoded: its tags parsed, its words (of its text, value and
    predicate) found, its vector read."""
    fact_id, category, tags, text, value, predicate, embedding = row
    if isinstance(embedding, bytes):
        embedding = np.frombuffer(embedding, dtype=np.float32)
    words = f"{text} {value} {predicate}".lower()
    return fact_id, category, json.loads(tags), frozenset(_WORD.findall(words)), embedding
