"""Heuristics over the conversation itself, not over one memory: what the recent turns
are about (``focus``, ``topic``), which turn answers which question (``pairs``), what the
user stated (``stated``), what links across sessions (``cross``) and whether a memory
holds the query's own words (``evidence``)."""
