"""What re-embedding a database with another model asks of the store (the
``ReembedStore`` role): the texts its vectors embed, and the switch of every vector to
the new model's in one transaction.

The new model's vectors wait in the embedding cache (``embedding_cache``, keyed by
model and text hash) until the switch: reads keep using the old vectors meanwhile, a
run killed midway leaves the database as it was (and its vectors for the next run),
and the switch takes them from there.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from cognimem.models.ids import content_hash
from cognimem.store.transfer import embedded_text

VectorTable = Literal["items", "facts"]
VECTOR_TABLES: tuple[VectorTable, ...] = ("items", "facts")
"""The tables whose rows carry a vector (``embedding``) and its model (``embedding_model``)."""
AUTHOR_SQL: dict[VectorTable, str] = {"items": "author", "facts": "NULL"}
"""What a table's rows read as the author of their text (facts have none)."""

MODEL_META = "embedding_model"
DIM_META = "embedding_dim"
"""The ``meta`` keys of the model the database is built with and its dimension."""


@dataclass(frozen=True)
class VectorText:
    """A row that has a vector, and the text its vector embeds."""

    id: str
    text: str


def vector_text(table: VectorTable, row_id: str, author: str | None, text: str) -> VectorText:
    """What the write path embedded for this row: an item's text with its author's
    name, a fact's text."""
    return VectorText(row_id, embedded_text(author, text) if table == "items" else text)


def cache_keys(rows: Iterable[VectorText]) -> list[tuple[VectorText, str]]:
    """Each row with the embedding cache's key of its text."""
    return [(row, content_hash(row.text)) for row in rows]


@dataclass(frozen=True)
class Switch:
    """What a switch did: the rows whose vectors it replaced, or (when some text has no
    vector of the new model yet, so nothing changed) those texts."""

    items: int = 0
    facts: int = 0
    missing: tuple[str, ...] = ()


class ReembedStore(Protocol):
    """Re-embedding every vector with another model."""

    async def count_vectors(self) -> int:
        """How many items and facts (every tenant, every status) have a vector."""

    async def vector_texts(
        self, table: VectorTable, after_id: str, limit: int
    ) -> Sequence[VectorText]:
        """The rows of ``table`` that have a vector, by id after ``after_id``, at most
        ``limit``, with the text each vector embeds."""

    async def switch_vectors(self, model: str, dim: int) -> Switch:
        """In ONE transaction, holding off writers (readers go on with the old vectors
        until it commits): give every item and fact that has a vector the embedding
        cache's ``dim``-long vector of ``model`` for its text, stamp ``model`` on it, and
        record ``model`` and ``dim`` as the database's (on PostgreSQL the HNSW index
        follows a new dimension); every process's cached copies of vectors go stale.
        When some text has no such vector, change nothing and return those texts."""
