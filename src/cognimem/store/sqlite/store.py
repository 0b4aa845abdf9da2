"""The embedded default store: one SQLite file (WAL, FTS5, exact vector search),
every role of ``Store`` (each in its own module) over one :class:`SQLiteDatabase`."""

from __future__ import annotations

from cognimem.store.sqlite.edits import SQLiteEdits
from cognimem.store.sqlite.embeddings import SQLiteEmbeddings
from cognimem.store.sqlite.items import SQLiteItems
from cognimem.store.sqlite.jobs import SQLiteJobs
from cognimem.store.sqlite.keys import SQLiteKeys
from cognimem.store.sqlite.knowledge import SQLiteKnowledge
from cognimem.store.sqlite.lifecycle import SQLiteLifecycle
from cognimem.store.sqlite.listing import SQLiteListing
from cognimem.store.sqlite.procedures import SQLiteProcedures
from cognimem.store.sqlite.recall_fetch import SQLiteRecallFetch
from cognimem.store.sqlite.reembedding import SQLiteReembedding
from cognimem.store.sqlite.retention import SQLiteRetention
from cognimem.store.sqlite.sessions import SQLiteSessions
from cognimem.store.sqlite.transfer import SQLiteTransfer
from cognimem.store.sqlite.usage import SQLiteUsage


class SQLiteStore(
    SQLiteItems,
    SQLiteRecallFetch,
    SQLiteKnowledge,
    SQLiteEdits,
    SQLiteTransfer,
    SQLiteEmbeddings,
    SQLiteSessions,
    SQLiteKeys,
    SQLiteJobs,
    SQLiteLifecycle,
    SQLiteProcedures,
    SQLiteListing,
    SQLiteUsage,
    SQLiteRetention,
    SQLiteReembedding,
):
    """``Store`` on a SQLite file. Safe for several processes sharing the file."""

    # a read's store calls answer on the calling thread or through a thread pool's
    # future, never under a timeout or cancel scope of the calling task: the read may
    # run them at once up to their first wait (``recall/eager.py``)
    reads_inline = True
