"""PostgreSQL schema version 26: keep a row's vector in the row (``toast_tuple_target``).

An item's row is ~2.4 kB with a 384-dimension vector (1,544 bytes), over the 2 kB at
which PostgreSQL starts TOASTing: every insert tried to compress the row's text and
JSON, then moved the vector out of line into ``items``' TOAST table (a second heap
insert and an index insert per row), and every vector search detoasted each candidate's
vector again to score it. Facts carry a vector too and crossed the same line. With the
target at its maximum (8,160 bytes) a row is TOASTed only when it would not fit a page
anyway (a vector of more than ~1,800 dimensions with its texts), so nothing else
changes: the same values, read the same way. Measured on a bulk ingest (400 messages,
``benchmarks/results/ingest_ratio.md``): the server's CPU per write down by ~12 %.

A storage parameter is a catalogue change: rows written before keep their TOASTed
vectors until they are next updated. SQLite has no TOAST and no counterpart.
"""

SQL = """
ALTER TABLE items SET (toast_tuple_target = 8160);
ALTER TABLE facts SET (toast_tuple_target = 8160);
"""
