"""The ``Store`` protocol: what every backend (SQLite, PostgreSQL) provides.

Stores return candidates with raw scores; ranking is done by pure functions in
``cognimem.recall``. Every scope, kind, status and time filter is applied inside the
store's query, never after it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

import numpy as np

from cognimem.models import Event, ItemKind, ItemStatus, MemoryItem, MessageResult, Scope


@dataclass(frozen=True)
class ItemFilter:
    """Which items a search may see. ``None`` means "any" for optional fields."""

    scope: Scope
    kinds: tuple[ItemKind, ...] | None = None
    statuses: tuple[ItemStatus, ...] = (ItemStatus.ACTIVE,)
    since: datetime | None = None
    until: datetime | None = None


@dataclass(frozen=True)
class Candidate:
    """An item id with the raw score one retrieval method gave it (higher is better)."""

    item_id: str
    score: float


@dataclass
class PendingItem:
    """An item ready to be committed (already chunked, gated and embedded)."""

    item: MemoryItem
    embedding: np.ndarray | None
    embed_text: str  # what is embedded
    search_text: str  # what the lexical index holds (may include conversational context)


@dataclass
class PendingMessage:
    """One message's event and the items derived from it, committed together."""

    event: Event
    items: list[PendingItem] = field(default_factory=list)
    skipped_chunks: int = 0
    redactions: dict[str, int] = field(default_factory=dict)


class Store(Protocol):
    """A storage backend. All methods are coroutines; none block the event loop."""

    async def open(self) -> None:
        """Connect and run pending migrations."""

    async def close(self) -> None: ...

    async def get_meta(self, key: str) -> str | None: ...

    async def set_meta(self, key: str, value: str) -> None: ...

    async def find_duplicates(
        self, messages: Sequence[Event], dedupe_window_s: float
    ) -> dict[int, MessageResult]:
        """Which of these (not yet stored) events are already stored, by index.

        A message is a duplicate when its idempotency key was used before in the tenant,
        or when the same scope already holds an event with the same role and content hash
        whose ``occurred_at`` is within ``dedupe_window_s``. A reused idempotency key
        with other content raises ``Conflict``.
        """

    async def commit(
        self, messages: Sequence[PendingMessage], dedupe_window_s: float
    ) -> list[MessageResult]:
        """Write events and their items in one transaction.

        Duplicates (rechecked inside the transaction, also within the batch) are not
        written; their result carries the original ids. Either everything new is
        written or nothing is.
        """

    async def previous_event(
        self, scope: Scope, before: datetime, *, exclude: Sequence[str] = ()
    ) -> Event | None:
        """The latest event of exactly this scope with ``occurred_at <= before``, other
        than the ``exclude`` ids."""

    async def add_items(self, items: Sequence[PendingItem]) -> list[str]:
        """Attach items to raw events that are already stored (async ingestion).

        In one transaction; items whose source event already has items are skipped, so
        a job applied twice changes nothing. Returns the ids inserted.
        """

    async def get_items(self, tenant_id: str, ids: Sequence[str]) -> list[MemoryItem]:
        """Items by id within a tenant, in the order asked; missing ids are left out."""

    async def get_events(self, tenant_id: str, ids: Sequence[str]) -> list[Event]: ...

    async def delete_items(self, tenant_id: str, ids: Sequence[str]) -> int:
        """Remove items (and their index entries); returns how many existed."""

    async def count_items(self, flt: ItemFilter) -> int: ...

    async def lexical_search(
        self, flt: ItemFilter, terms: Sequence[str], limit: int
    ) -> list[Candidate]:
        """BM25 over item text for any of ``terms``; best first."""

    async def vector_search(
        self, flt: ItemFilter, vector: np.ndarray, limit: int
    ) -> list[Candidate]:
        """Exact cosine similarity (vectors are L2-normalised); best first."""

    async def record_access(self, tenant_id: str, ids: Sequence[str], at: datetime) -> None:
        """Bulk: access_count + 1, loaded_count + 1, last_accessed_at = at."""

    async def get_embeddings(self, model: str, hashes: Sequence[str]) -> dict[str, np.ndarray]:
        """Embedding cache lookup, one query for the whole batch."""

    async def put_embeddings(self, model: str, vectors: Mapping[str, np.ndarray]) -> None: ...
