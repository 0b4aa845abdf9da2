"""BM25 over a per-scope inverted index held in process, shared by both backends.

Each store keeps, per (tenant, namespace, user), the scope's postings as numpy arrays
(term -> row positions and counts) beside the columns a filter names
(``scope_columns.Columns``); SQLite loads them from ``items_fts``
(``store/sqlite/lexical.py``) and PostgreSQL from ``items.search_text``
(``store/postgres/lexical.py``), each kept fresh by its own scope versions. A search then
costs a few array operations per query term, on either backend, and both rank alike.

Tokens are split as FTS5's ``unicode61`` tokenizer splits them: case folded, diacritics
removed, split on anything that is not a letter or a digit; each word is then indexed
under its form of ``text/stems.py`` (Snowball English stems, and a noun's *-ship* /
*-hood* derivative as the noun: "mentorship" meets "mentored"). The index is built from
each item's stored search text when a process first searches a scope, so a change of
that form needs no migration. Scores are FTS5's BM25 (k1 = 1.2, b = 0.75; an idf that would be
negative counts as 1e-6) with the statistics of the rows the filter lets through.

Scoring is vectorised: the row count, average length and each row's length norm for a
filter are computed once per entry and filter (``ScopeTerms.view``); each query term's
contributions are one array expression over its postings; the per-row sums are one
``bincount``; the top ``limit`` come from a partition, and only they (with any ties at
the cut) are sorted.
"""

from __future__ import annotations

import math
import threading
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from cognimem.errors import UsageError
from cognimem.store.cache_budget import array_bytes
from cognimem.store.scope_columns import GONE, Columns
from cognimem.store.types import ItemFilter
from cognimem.text.stems import index_stems

K1 = 1.2
B = 0.75
_MIN_IDF = 1e-6
_ROW = "\x01"  # separates rows when a batch of texts is tokenized as one string
# rows tokenized in one pass: at 100k rows one pass held ~550 MiB of word strings at once
_CHUNK_ROWS = 20_000
# ASCII that is not a letter or a digit -> space (the row separator stays)
_ASCII = {i: " " for i in range(128) if not chr(i).isalnum() and chr(i) != _ROW}


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


def _folded_row(text: str) -> str:
    """:func:`_folded` of one row's text (the same string: it folds each character
    alone, and a row's ends are those of a string)."""
    if text.isascii():
        return text.lower().translate(_ASCII)
    return _folded(text)


def tokens(text: str) -> list[str]:
    """The index terms of ``text``, in order, repeats kept."""
    words = _folded(text.replace(_ROW, " ")).split()
    memo = index_stems(words)
    return [memo[w] for w in words]


@dataclass(frozen=True)
class FilterView:
    """What BM25 needs of the rows one filter lets through, computed once per entry."""

    allowed: np.ndarray | None  # bool (n,); None: every row
    count: int
    norm: np.ndarray  # float64 (n,): k1 * (1 - b + b * length / average length)
    least_norm: float  # the smallest norm of an allowed row
    # a large term -> how many allowed rows hold it (counted once per view)
    frequencies: dict[str, int] = field(default_factory=dict)


_VIEWS_MAX = 4  # filters remembered per entry (a norm array is 8 bytes a row)
# a posting's objects beyond its arrays' data: the term, two array headers, the tuple,
# its dict slot and its ``peaks`` entry (sys.getsizeof, CPython 3.11: ~430 bytes)
_TERM_BYTES = 450
_VIEWS_LOCK = threading.Lock()


@dataclass
class ScopeTerms:
    version: int
    mutations: int
    max_rowid: int  # the highest row number loaded (SQLite's rowid, PostgreSQL's change_seq)
    cols: Columns
    lengths: np.ndarray  # float64 (n,): tokens per row
    postings: dict[str, tuple[np.ndarray, np.ndarray]]  # term -> (rows int64, counts float64)
    # int64 (n,): ties rank the row lower here first (None: the row loaded first)
    order: np.ndarray | None = None
    peaks: dict[str, float] = field(default_factory=dict, repr=False)  # term -> max count
    views: dict[tuple[object, ...], FilterView] = field(default_factory=dict, repr=False)

    @property
    def rows(self) -> int:
        return len(self.cols)

    @property
    def nbytes(self) -> int:
        """Estimated bytes held: the arrays, each posting's objects, and room for the
        filter views a search adds later (``_VIEWS_MAX`` of 9 bytes a row)."""
        postings = sum(int(a.nbytes) + int(c.nbytes) for a, c in self.postings.values())
        return (
            self.cols.nbytes
            + int(self.lengths.nbytes)
            + array_bytes(self.order)
            + postings
            + len(self.postings) * _TERM_BYTES
            + _VIEWS_MAX * 9 * len(self.cols)
        )

    def append(self, other: ScopeTerms) -> ScopeTerms:
        if len(other.cols) == 0:
            return replace(
                self, version=other.version, mutations=other.mutations, views=dict(self.views)
            )
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
            max_rowid=max(self.max_rowid, other.max_rowid),
            cols=self.cols.append(other.cols),
            lengths=np.concatenate([self.lengths, other.lengths]),
            postings=postings,
            order=(
                None
                if self.order is None or other.order is None
                else np.concatenate([self.order, other.order])
            ),
        )

    def without(self, rows: np.ndarray) -> ScopeTerms:
        """This entry with the rows at positions ``rows`` taken out of every search (a
        newer copy of them is appended after); the entry itself is left as it was."""
        if rows.size == 0:
            return self
        status = self.cols.status.copy()
        status[rows] = GONE
        return replace(self, cols=replace(self.cols, status=status), views={})

    def gone(self) -> int:
        """How many rows ``without`` took out."""
        return int(np.count_nonzero(self.cols.status == GONE))

    def view(self, flt: ItemFilter) -> FilterView:
        s = flt.scope
        # every field :meth:`Columns.allowed` reads (the entry is one user's, or no user's)
        key = (
            flt.statuses, s.user_id is None, s.agent_id, s.session_id, flt.kinds, flt.since,
            flt.until, flt.period, flt.shared_only, flt.level_only, flt.own_of_no_agent,
        )  # fmt: skip
        found = self.views.get(key)
        if found is not None:
            return found
        allowed = self.cols.allowed(flt)
        count = int(np.count_nonzero(allowed))
        whole = count == len(self.cols)
        lengths = self.lengths if whole else self.lengths[allowed]
        average = (float(lengths.mean()) if count else 0.0) or 1.0
        norm = K1 * (1 - B + B * self.lengths / average)
        view = FilterView(
            allowed=None if whole else allowed,
            count=count,
            norm=norm,
            least_norm=float((norm if whole else norm[allowed]).min()) if count else 0.0,
        )
        with _VIEWS_LOCK:  # searches of one entry may run in several threads
            while len(self.views) >= _VIEWS_MAX:
                self.views.pop(next(iter(self.views)))
            self.views[key] = view
        return view


Postings = dict[str, tuple[np.ndarray, np.ndarray]]


def batch_postings(texts: Sequence[str]) -> tuple[np.ndarray, Postings]:
    """Row lengths and term -> (rows ascending, counts), from each row's text.

    The texts are folded and split :data:`_CHUNK_ROWS` rows at a time (row separators in
    between): making the word strings is most of the cost, and one pass over many rows
    makes them fastest; but every word of a pass is a string alive at once, so a scope's
    first load is cut in chunks and their postings joined (the same arrays as one pass).
    """
    if len(texts) <= _CHUNK_ROWS:
        return _chunk_postings(texts)
    lengths: list[np.ndarray] = []
    parts: dict[str, list[tuple[np.ndarray, np.ndarray]]] = {}
    for start in range(0, len(texts), _CHUNK_ROWS):
        chunk_lengths, chunk = _chunk_postings(texts[start : start + _CHUNK_ROWS])
        lengths.append(chunk_lengths)
        for term, (rows, counts) in chunk.items():
            parts.setdefault(term, []).append((rows + start, counts))
    postings = {
        term: (np.concatenate([r for r, _ in got]), np.concatenate([c for _, c in got]))
        for term, got in parts.items()
    }
    return np.concatenate(lengths), postings


def _chunk_postings(texts: Sequence[str]) -> tuple[np.ndarray, Postings]:
    n = len(texts)
    # each row folded alone: an ASCII row (most) through str.translate's ASCII path,
    # ~7x faster than the whole chunk as one string once it holds any other character
    joined = f" {_ROW} ".join([_folded_row(t) for t in texts])
    if n and joined.count(_ROW) != n - 1:  # a text holds the separator itself
        joined = f" {_ROW} ".join([_folded_row(t.replace(_ROW, " ")) for t in texts])
    flat = joined.split()
    distinct = set(flat)
    memo = index_stems(distinct)
    term_ids: dict[str, int] = {}
    word_ids = {w: term_ids.setdefault(memo[w], len(term_ids)) for w in distinct if w != _ROW}
    word_ids[_ROW] = -1
    coded = np.fromiter(map(word_ids.__getitem__, flat), dtype=np.int64, count=len(flat))
    words = coded >= 0
    # each word's row: how many separators come before it
    row_of = np.cumsum(~words)[words]
    lengths = np.bincount(row_of, minlength=n).astype(np.float64)
    if not words.any():
        return lengths, {}
    keys, counts = term_rows(coded[words], row_of, n, len(term_ids))
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


def term_rows(
    terms: np.ndarray, rows: np.ndarray, n: int, distinct: int
) -> tuple[np.ndarray, np.ndarray]:
    """Each distinct (term, row) of the words, as ``term * n + row`` ascending, and how
    many words it was: ``np.unique(terms * n + rows, return_counts=True)``, by a stable
    sort of the term ids alone (a radix sort when they fit in 16 bits), which leaves
    each term's rows ascending as the words came: 0.17-0.20 -> 0.06-0.09 s for a chunk
    of 20,000 rows."""
    small = terms.astype(np.uint16) if distinct <= 1 << 16 else terms
    keys = (terms * max(n, 1) + rows)[np.argsort(small, kind="stable")]
    first = np.flatnonzero(np.diff(keys, prepend=-1))
    return keys[first], np.diff(first, append=keys.size)


def query_tokens(terms: Sequence[str]) -> list[str]:
    """Index terms of the query's words, each once."""
    return list(dict.fromkeys(tok for term in terms for tok in tokens(term)))


def search(
    m: ScopeTerms, flt: ItemFilter, terms: Sequence[str], limit: int
) -> list[tuple[str, float]]:
    """BM25 top-``limit`` among the rows of ``m`` that pass ``flt`` and hold any term,
    best first; ties: the older row first.

    The statistics (rows, average length, rows holding a term) are those of the rows
    the filter lets through, so one user's or agent's words never weigh on another's.

    A common term is costly to score and weighs little: the rows holding the weightier
    terms are scored first, in full (``rare_first_scores``); when the other terms
    together cannot lift any other row to the ``limit``-th score found, those rows are
    the answer. Otherwise every row holding any term is scored. Either way the scores
    are the same numbers, summed in the same order.
    """
    if flt.consolidated is not None:
        raise UsageError("lexical search does not filter on consolidated")
    if len(m.cols) == 0 or limit <= 0:
        return []
    found = [(t, *m.postings[t]) for t in query_tokens(terms) if t in m.postings]
    if not found:
        return []
    view = m.view(flt)
    if view.count == 0:
        return []
    held = _held_terms(m, view, found)
    if not held:
        return []
    picked = rare_first_scores(m, view, held, limit)
    if picked is None:
        picked = _all_scores(m, view, held)
    idx, scores = picked
    if scores.size > limit:
        cut = scores.size - limit
        kth = np.partition(scores, cut)[cut]  # the limit-th best score
        near = np.flatnonzero(scores >= kth)  # with every row tied with it
        idx, scores = idx[near], scores[near]
    top = np.lexsort((idx if m.order is None else m.order[idx], -scores))[:limit]
    return list(zip(m.cols.ids[idx[top]].tolist(), scores[top].tolist(), strict=True))


def _held_terms(
    m: ScopeTerms, view: FilterView, found: Sequence[tuple[str, np.ndarray, np.ndarray]]
) -> list[HeldTerm]:
    """The query terms some row of the view holds, with their rows, counts and idf."""
    large = _large(len(m.cols))
    held: list[HeldTerm] = []
    for term, at, counts in found:
        if at.size > large:  # counted once per view; its rows filtered only where needed
            df = view.frequencies.get(term)
            if df is None:
                df = at.size if view.allowed is None else int(np.count_nonzero(view.allowed[at]))
                view.frequencies[term] = df
            common = True
        else:
            if view.allowed is not None:
                keep = view.allowed[at]
                at, counts = at[keep], counts[keep]
            df, common = at.size, False
        if df:
            idf = max(math.log((view.count - df + 0.5) / (df + 0.5)), _MIN_IDF)
            held.append(HeldTerm(term, at, counts, idf, common))
    return held


def _all_scores(
    m: ScopeTerms, view: FilterView, held: Sequence[HeldTerm]
) -> tuple[np.ndarray, np.ndarray]:
    """The score of every row of the view that holds any of the terms."""
    rows: list[np.ndarray] = []
    gains: list[np.ndarray] = []
    for t in held:
        at, counts = t.at, t.counts
        if t.common and view.allowed is not None:
            keep = view.allowed[at]
            at, counts = at[keep], counts[keep]
        rows.append(at)
        gains.append(t.idf * counts * (K1 + 1) / (counts + view.norm[at]))
    return _sums(rows, gains, len(m.cols))


_LARGE_MIN = 4096  # a term held by more rows than this and than 1/64 of the entry is large
_LARGE_SHARE = 64


def _large(n: int) -> int:
    return max(_LARGE_MIN, n // _LARGE_SHARE)


@dataclass(frozen=True)
class HeldTerm:
    term: str
    at: np.ndarray  # rows holding it (a common term's: not yet filtered)
    counts: np.ndarray
    idf: float
    common: bool


def rare_first_scores(
    m: ScopeTerms, view: FilterView, held: list[HeldTerm], limit: int
) -> tuple[np.ndarray, np.ndarray] | None:
    """The rows holding the weightiest terms, with their full scores, when no row
    holding only the other terms can reach their ``limit``-th score; None when none
    such set is small enough to be worth it.

    Terms are taken by their ceiling (the most they give a row), highest first; after
    each, the rows holding any taken term are scored in full (every term's gain looked
    up for them) and kept if the untaken terms' ceilings together stay below the
    ``limit``-th of those scores: any other row scores at most that sum.
    """
    if len(held) < 2:
        return None  # one term: scoring its rows is the whole search
    ceilings = [_ceiling(m, view, t) for t in held]
    by_weight = sorted(range(len(held)), key=lambda i: -ceilings[i])
    most = max(limit, len(m.cols) // 4)  # beyond this, scoring every row costs less
    marked: np.ndarray | None = None  # the rows holding a taken term (from the second)
    idx = np.zeros(0, dtype=np.int64)
    for count, i in enumerate(by_weight[:-1], 1):
        t = held[i]
        at = t.at if not t.common or view.allowed is None else t.at[view.allowed[t.at]]
        if count == 1:
            idx = at
        else:
            if marked is None:
                marked = np.zeros(len(m.cols), dtype=bool)
                marked[idx] = True
            marked[at] = True
            idx = np.flatnonzero(marked)
        if idx.size > most:
            return None
        if idx.size < limit:
            continue
        scores = full_scores(idx, held, view)
        kth = np.partition(scores, idx.size - limit)[idx.size - limit]
        rest = sum(ceilings[j] for j in by_weight[count:])
        # a margin for rounding: the bound must hold for the computed numbers too
        if rest * (1 + 1e-9) + 1e-12 < kth:
            return idx, scores
    return None


def full_scores(idx: np.ndarray, held: list[HeldTerm], view: FilterView) -> np.ndarray:
    """Full scores of the allowed rows ``idx`` (ascending): every term's gain looked up
    in its postings, added in query order (the sums the full search makes). The shorter
    of the two sorted lists is looked up in the longer (a rare term's few rows among
    ``idx``, ``idx`` among a common term's), and a gain is added to the rows holding the
    term alone (the others would add 0.0 to a sum of non-negative gains: the same)."""
    scores = np.zeros(idx.size, dtype=np.float64)
    for t in held:
        if t.at.size < idx.size:  # the term's rows found among ``idx``
            pos = np.minimum(np.searchsorted(idx, t.at), idx.size - 1)
            found = np.flatnonzero(idx[pos] == t.at)
            hit, counts = pos[found], t.counts[found]
        else:  # ``idx``'s rows found among the term's
            pos = np.minimum(np.searchsorted(t.at, idx), t.at.size - 1)
            hit = np.flatnonzero(t.at[pos] == idx)
            counts = t.counts[pos[hit]]
        if hit.size == 0:
            continue
        scores[hit] += t.idf * counts * (K1 + 1) / (counts + view.norm[idx[hit]])
    return scores


def _ceiling(m: ScopeTerms, view: FilterView, t: HeldTerm) -> float:
    """An upper bound of the term's gain in any allowed row: its highest count in the
    entry over the least length norm (the gain grows with the count, falls with the
    norm)."""
    peak = m.peaks.get(t.term)
    if peak is None:
        peak = m.peaks[t.term] = float(m.postings[t.term][1].max())
    return t.idf * peak * (K1 + 1) / (peak + view.least_norm)


def _sums(rows: list[np.ndarray], gains: list[np.ndarray], n: int) -> tuple[np.ndarray, np.ndarray]:
    """The rows that gained (ascending) and each one's gains summed in term order."""
    if len(rows) == 1:
        return rows[0], gains[0]
    at = np.concatenate(rows)
    gain = np.concatenate(gains)
    if at.size * 16 < n:  # few hits: sort them rather than touch every row
        idx, inverse = np.unique(at, return_inverse=True)
        return idx, np.bincount(inverse, weights=gain, minlength=idx.size)
    total = np.bincount(at, weights=gain, minlength=n)
    idx = np.flatnonzero(np.bincount(at, minlength=n))
    return idx, total[idx]
