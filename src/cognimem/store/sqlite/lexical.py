"""BM25 over a cached per-scope inverted index, in process.

Ranking a query in SQLite's FTS5 costs a B-tree lookup and a ``bm25()`` call for every
matching row — a fifth of a 10k-item scope for an ordinary question: the lexical step of
a 10k-item read took 9.3 / 19.4 ms p50 / p95 (``benchmarks/read_latency.py``; 4.7 / 8.0
ms with this index). The index holds each scope's postings as numpy arrays next to the
same filter columns as the vector matrix, so a query costs a few array operations per
query term. ``items_fts`` stays the durable copy of each item's
search text; the index is built from it and kept fresh by ``scopes.ScopeCache``.

Tokens match FTS5's ``porter unicode61`` tokenizer: case folded, diacritics removed,
split on anything that is not a letter or a digit, then Porter-stemmed when three or
more characters long. Scores are FTS5's BM25 (k1 = 1.2, b = 0.75; an idf that would be
negative counts as 1e-6) with the statistics of the rows the filter lets through.
"""

from __future__ import annotations

import math
import sqlite3
import threading
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

import numpy as np
import Stemmer

from cognimem.store.base import ItemFilter
from cognimem.store.sqlite.scopes import OWN, ROW_COLUMNS, Columns, ScopeCache, ScopeRef

K1 = 1.2
B = 0.75
_MIN_IDF = 1e-6
_ROW = "\x01"  # separates rows when a batch of texts is tokenized as one string
# ASCII that is not a letter or a digit -> space (the row separator stays)
_ASCII = {i: " " for i in range(128) if not chr(i).isalnum() and chr(i) != _ROW}
_STEM_MIN, _STEM_MAX = 3, 64  # FTS5's porter leaves shorter and longer tokens alone
_STEM_MEMO_MAX = 200_000

_local = threading.local()  # a Stemmer object is not safe to share between threads
_memo: dict[str, str] = {}  # word -> stem, shared by all threads


def _stems(words: Iterable[str]) -> dict[str, str]:
    """Each distinct word of ``words`` -> its stem (FTS5 stems words of 3 to 64 letters)."""
    out: dict[str, str] = {}
    for word in set(words):
        stem = _memo.get(word)
        if stem is None:
            stem = word
            if _STEM_MIN <= len(word) <= _STEM_MAX:
                stemmer = getattr(_local, "stemmer", None)
                if stemmer is None:
                    stemmer = _local.stemmer = Stemmer.Stemmer("porter")
                stem = stemmer.stemWord(word)
            if len(_memo) < _STEM_MEMO_MAX:  # full: stem the rest each time
                _memo[word] = stem
        out[word] = stem
    return out


def _folded(text: str) -> str:
    """``text`` lower-cased, without diacritics, with every character that is not a
    letter or a digit (and not the row separator) turned into a space."""
    low = text.lower()
    if low.isascii():
        return low.translate(_ASCII)
    low = unicodedata.normalize("NFKD", low)
    table: dict[int, str | None] = dict(_ASCII)
    for c in set(low):
        if not c.isascii():
            if unicodedata.combining(c):
                table[ord(c)] = None
            elif not c.isalnum():
                table[ord(c)] = " "
    return low.translate(table)


def tokens(text: str) -> list[str]:
    """The index terms of ``text``, in order, repeats kept."""
    words = _folded(text.replace(_ROW, " ")).split()
    memo = _stems(words)
    return [memo[w] for w in words]


@dataclass
class ScopeTerms:
    version: int
    mutations: int
    max_rowid: int
    cols: Columns
    lengths: np.ndarray  # float64 (n,): tokens per row
    postings: dict[str, tuple[np.ndarray, np.ndarray]]  # term -> (rows int64, counts float64)

    def append(self, other: ScopeTerms) -> ScopeTerms:
        if len(other.cols) == 0:
            return replace(self, version=other.version, mutations=other.mutations)
        offset = len(self.cols)
        postings = dict(self.postings)  # the cached entry is shared: never change it
        for term, (at, counts) in other.postings.items():
            old = postings.get(term)
            shifted = at + offset
            postings[term] = (
                (shifted, counts)
                if old is None
                else (np.concatenate([old[0], shifted]), np.concatenate([old[1], counts]))
            )
        return ScopeTerms(
            version=other.version,
            mutations=other.mutations,
            max_rowid=other.max_rowid,
            cols=self.cols.append(other.cols),
            lengths=np.concatenate([self.lengths, other.lengths]),
            postings=postings,
        )


def batch_postings(
    texts: Sequence[str],
) -> tuple[np.ndarray, dict[str, tuple[np.ndarray, np.ndarray]]]:
    """Row lengths and term -> (rows ascending, counts), from each row's text.

    The texts are folded and split as one string (row separators in between): making
    the word strings is most of the cost, and one pass makes them fastest.
    """
    n = len(texts)
    joined = f" {_ROW} ".join(texts)
    if n and joined.count(_ROW) != n - 1:  # a text holds the separator itself
        joined = f" {_ROW} ".join(t.replace(_ROW, " ") for t in texts)
    flat = _folded(joined).split()
    memo = _stems(flat)
    term_ids: dict[str, int] = {}
    word_ids = {w: term_ids.setdefault(memo[w], len(term_ids)) for w in set(flat) if w != _ROW}
    word_ids[_ROW] = -1
    coded = np.fromiter(map(word_ids.__getitem__, flat), dtype=np.int64, count=len(flat))
    words = coded >= 0
    # each word's row: how many separators come before it
    row_of = np.cumsum(~words)[words]
    lengths = np.bincount(row_of, minlength=n).astype(np.float64)
    if not words.any():
        return lengths, {}
    keys, counts = np.unique(coded[words] * max(n, 1) + row_of, return_counts=True)
    terms, rows = np.divmod(keys, max(n, 1))
    bounds = np.flatnonzero(np.diff(terms)) + 1
    names = list(term_ids)
    postings = {
        names[int(t[0])]: (r, c.astype(np.float64))
        for t, r, c in zip(
            np.split(terms, bounds), np.split(rows, bounds), np.split(counts, bounds), strict=True
        )
    }
    return lengths, postings


def load(
    conn: sqlite3.Connection, scope: ScopeRef, after_rowid: int, version: tuple[int, int]
) -> ScopeTerms:
    select = (
        f"SELECT {ROW_COLUMNS}, f.search_text FROM items i JOIN items_fts f ON f.rowid = i.rowid"
    )
    rows = scope.rows(conn, select, after_rowid)
    lengths, postings = batch_postings([r[OWN] or "" for r in rows])
    return ScopeTerms(
        version=version[0],
        mutations=version[1],
        max_rowid=int(rows[-1][0]) if rows else after_rowid,
        cols=Columns.of(rows),
        lengths=lengths,
        postings=postings,
    )


def cache(max_scopes: int = 32) -> ScopeCache[ScopeTerms]:
    return ScopeCache(load, max_scopes)


def query_tokens(terms: Sequence[str]) -> list[str]:
    """Index terms of the query's words, each once."""
    return list(dict.fromkeys(tok for term in terms for tok in tokens(term)))


def search(
    m: ScopeTerms, flt: ItemFilter, terms: Sequence[str], limit: int
) -> list[tuple[str, float]]:
    """BM25 top-``limit`` among the rows of ``m`` that pass ``flt`` and hold any term.

    The statistics (rows, average length, rows holding a term) are those of the rows
    the filter lets through, as in the PostgreSQL store, so both backends rank alike.
    """
    if len(m.cols) == 0 or limit <= 0:
        return []
    found = [m.postings[t] for t in query_tokens(terms) if t in m.postings]
    if not found:
        return []
    allowed = m.cols.allowed(flt)
    n = int(allowed.sum())
    if n == 0:
        return []
    average = float(m.lengths[allowed].mean()) or 1.0
    scores = np.zeros(len(m.cols), dtype=np.float64)
    hit = np.zeros(len(m.cols), dtype=bool)
    for at, counts in found:
        keep = allowed[at]
        at, counts = at[keep], counts[keep]
        if at.size == 0:
            continue
        idf = max(math.log((n - at.size + 0.5) / (at.size + 0.5)), _MIN_IDF)
        norm = K1 * (1 - B + B * m.lengths[at] / average)
        scores[at] += idf * counts * (K1 + 1) / (counts + norm)
        hit[at] = True
    idx = np.flatnonzero(hit)
    if idx.size == 0:
        return []
    picked = scores[idx]
    top = np.lexsort((idx, -picked))[:limit]  # best first; ties: the older row first
    return [(str(m.cols.ids[idx[i]]), float(picked[i])) for i in top]
