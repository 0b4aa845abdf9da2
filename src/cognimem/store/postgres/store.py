"""The scale-out store: PostgreSQL with pgvector (HNSW) and tsvector, through asyncpg,
every role of ``Store`` (each in its own module) over one :class:`PostgresDatabase`.
Semantics match ``SQLiteStore`` exactly; how they are reached is said in each role's
module (concurrency in ``items.py`` and ``knowledge_writes.py``)."""

from __future__ import annotations

from cognimem.store.postgres.edits import PostgresEdits
from cognimem.store.postgres.embeddings import PostgresEmbeddings
from cognimem.store.postgres.items import PostgresItems
from cognimem.store.postgres.jobs import PostgresJobs
from cognimem.store.postgres.keys import PostgresKeys
from cognimem.store.postgres.knowledge import PostgresKnowledge
from cognimem.store.postgres.lifecycle import PostgresLifecycle
from cognimem.store.postgres.listing import PostgresListing
from cognimem.store.postgres.procedures import PostgresProcedures
from cognimem.store.postgres.recall_fetch import PostgresRecallFetch
from cognimem.store.postgres.reembedding import PostgresReembedding
from cognimem.store.postgres.retention import PostgresRetention
from cognimem.store.postgres.sessions import PostgresSessions
from cognimem.store.postgres.transfer import PostgresTransfer
from cognimem.store.postgres.usage import PostgresUsage


class PostgresStore(
    PostgresItems,
    PostgresKnowledge,
    PostgresRecallFetch,
    PostgresEdits,
    PostgresTransfer,
    PostgresEmbeddings,
    PostgresSessions,
    PostgresKeys,
    PostgresJobs,
    PostgresLifecycle,
    PostgresProcedures,
    PostgresListing,
    PostgresUsage,
    PostgresRetention,
    PostgresReembedding,
):
    """``Store`` on PostgreSQL + pgvector. Any number of processes may share a database."""
