"""SQLite's per-scope lexical index: loaded from ``items_fts``, kept fresh by
``scopes.ScopeCache``, searched by the shared ``store/lexical_index.py``.

Ranking a query in SQLite's FTS5 costs a B-tree lookup and a ``bm25()`` call for every
matching row — a fifth of a 10k-item scope for an ordinary question: the lexical step of
a 10k-item read took 9.3 / 19.4 ms p50 / p95 (``benchmarks/read_latency.py``; 4.7 / 8.0
ms with the index in process). ``items_fts`` stays the durable copy of each item's
search text; FTS5 still tokenizes it with its ``porter unicode61`` (migration 1), but
nothing searches that: the index is built from the text in the forms of
``text/stems.py``, as PostgreSQL's is.
"""

from __future__ import annotations

import sqlite3
from operator import itemgetter

from cognimem.store.cache_budget import CacheBudget
from cognimem.store.lexical_index import ScopeTerms, batch_postings
from cognimem.store.sqlite.scopes import OWN, ROW_COLUMNS, Columns, Counters, ScopeCache, ScopeRef


def load(
    conn: sqlite3.Connection, scope: ScopeRef, after_rowid: int, version: Counters
) -> ScopeTerms:
    select = (
        f"SELECT {ROW_COLUMNS}, f.search_text FROM items i JOIN items_fts f ON f.rowid = i.rowid"
    )
    # in the index's order, sorted here: SQLite would copy every row with its text into
    # a temporary B-tree to sort them
    rows = scope.cursor(conn, select, after_rowid, ordered=False).fetchall()
    rows.sort(key=itemgetter(0))
    lengths, postings = batch_postings([r[OWN] or "" for r in rows])
    return ScopeTerms(
        version=version[0],
        mutations=version[1],
        max_rowid=int(rows[-1][0]) if rows else after_rowid,
        cols=Columns.of(rows),
        lengths=lengths,
        postings=postings,
    )


def cache(budget: CacheBudget, max_scopes: int = 32) -> ScopeCache[ScopeTerms]:
    return ScopeCache(load, budget.section("sqlite_lexical", max_scopes))
