"""An approximate nearest-neighbour (HNSW) index over a large SQLite scope's vectors.

Below ``min_rows`` embedded rows a scope is searched exactly (``vectors.py``: one
product over its cached float32 matrix; ~0.18 ms per 1,000 rows). From there on the
exact scan is most of a read's CPU beyond its embedding (25 ms at 100k rows) and of a
write's near-duplicate search, so a search asks an HNSW graph (usearch, inner product
over int8 copies of the unit vectors, M 16, expansion 128) for candidates and scores
them exactly against the float32 matrix: scores, ties and order are the exact search's
over the candidates; only which rows become candidates is approximate (recall against
the exact scan in ``benchmarks/results/ann_index.md``).

- **In step with the matrix.** Each index is keyed by SQLite ``rowid`` and remembers the
  scope counters (``scope_versions``) of the matrix it last caught up with. A search
  brings it up to the matrix it is handed: rows appended since (same ``row_changes``) are
  added; after a row change (a row deleted, a vector changed; another process's change
  too, which the matrix's own check found) the keys are compared with the matrix's rows,
  gone rows removed, new ones added, and rows whose stored int8 copy no longer matches
  the matrix's vector (quantized alike, more than ``_SAME_UNITS`` apart) re-added. A
  status change (forgetting, silencing) changes no vector: the filters, applied to the
  candidates, keep them out.
- **Filters after the index, with oversampling.** A search takes ``limit × 2 × rows /
  allowed rows`` candidates (at least ``_MIN_TAKE``) and keeps the allowed ones; when
  fewer than ``limit`` pass, it asks again for four times as many, and past a quarter of
  the scope scans exactly. A filter that allows at most ``_EXACT_ALLOWED`` rows (or half
  the threshold, if less: one kind, a session, a time window) is scanned exactly over
  those rows.
- **Not persisted; built in the background.** The first search of a scope past the
  threshold starts a build on a thread of its own and is answered exactly, as is every
  search until the build is done (~30 s of CPU per 100k rows); an index that fell
  more than ``INLINE_ROWS`` behind is caught up the same way. No file beside the
  database: it would hold a copy of vectors that erasure must find and rewrite, and a
  usearch file keeps the bytes of removed rows.
- **Memory.** Each index is an entry of the store's :class:`CacheBudget` (section
  ``sqlite_vector_index``, weighed again as it grows): ~0.8 KiB a row beside the
  matrix's 1.5 KiB, evicted least recently used with the other copies.
- **Unavailable, then tried again.** Without usearch, or when a build or update fails,
  the scope is scanned exactly (the same answers, more slowly), a WARNING says why
  (once per distinct reason), :meth:`VectorIndexes.status` says ``degraded``
  (``cognimem_vector_index_degraded`` in metrics) and every search of the scope says so
  (:meth:`VectorIndexes.failure`: the read's ``degraded``). The scope's index is built
  again on a search ``retry_s`` after the failure (doubled after each further failure
  of the scope, up to an hour); ``degraded`` lasts until a build succeeds.
"""

from __future__ import annotations

import logging
import math
import threading
import weakref
from collections import Counter
from collections.abc import Hashable
from dataclasses import dataclass
from time import monotonic
from typing import Any, Protocol

import numpy as np

from cognimem.blas import single_threaded
from cognimem.store.cache_budget import BudgetSection, CacheBudget

log = logging.getLogger(__name__)

# scopes of fewer embedded rows are searched exactly (COGNIMEM_VECTOR_INDEX_MIN_ROWS)
DEFAULT_MIN_ROWS = 20_000
# a filter allowing at most this many rows is scanned exactly over them (~1.5 ms)
_EXACT_ALLOWED = 8_192
# candidates a search takes at least (recall@10 0.99 at 100k rows, ann_index.md)
_MIN_TAKE = 40
# a row whose int8 copy in the index differs from the matrix's vector quantized the same
# way (x 127, rounded) by more than this in any dimension changed (usearch's own
# rounding differs from numpy's by at most 1); rows compared a block at a time
_SCALE = 127
_SAME_UNITS = 2
_BLOCK = 8192
# a search adds at most this many rows written since the index last caught up (~0.3 ms
# a row at 100k rows); past it (an import, another process's writes) the index is caught
# up in the background and the scope is scanned exactly meanwhile, so no read waits seconds
INLINE_ROWS = 4_096
# HNSW parameters (measured in benchmarks/ann_candidates.py)
CONNECTIVITY = 16
EXPANSION_ADD = 128
EXPANSION_SEARCH = 128
# a scope whose index failed is built again this long after (COGNIMEM_VECTOR_INDEX_RETRY_S),
# the wait doubled after each further failure of the scope up to _MAX_RETRY_S
DEFAULT_RETRY_S = 300.0
_MAX_RETRY_S = 3600.0


class Rows(Protocol):
    """What an index is kept in step with: a scope's matrix (``vectors.ScopeMatrix``)."""

    row_changes: int
    max_rowid: int
    matrix: np.ndarray
    rowids: np.ndarray


@dataclass
class _State:
    row_changes: int
    max_rowid: int


@dataclass(frozen=True)
class _Failure:
    problem: str
    retry_at: float  # ``monotonic()`` from which a search may build the index again
    failures: int  # in a row, for the back-off


class ScopeIndex:
    """One scope's HNSW index, keyed by rowid; every use under its lock."""

    def __init__(self, index: Any, state: _State) -> None:
        self._index = index
        self._state = state
        self.lock = threading.Lock()
        self.dim = int(index.ndim)
        # usearch's own count (3.6 ms at 100k rows: not on every use), kept up by an
        # estimate per row added (the int8 vector and its level-0 links)
        self.nbytes = int(index.memory_usage)
        self._row_bytes = self.dim + 2 * CONNECTIVITY * 4 + 16

    def __len__(self) -> int:
        return len(self._index)

    def covers(self, m: Rows) -> bool:
        """Whether the index holds every row of ``m`` (nothing to catch up)."""
        s = self._state
        return (m.row_changes, m.max_rowid) <= (s.row_changes, s.max_rowid)

    def behind(self, m: Rows) -> int:
        """How many rows of ``m`` were appended after the last row the index holds."""
        return len(m.rowids) - int(np.searchsorted(m.rowids, self._state.max_rowid, "right"))

    def catch_up(self, m: Rows) -> None:
        """Bring the index up to ``m`` (an older matrix than the last one: nothing)."""
        s = self._state
        if m.row_changes < s.row_changes or (
            m.row_changes == s.row_changes and m.max_rowid <= s.max_rowid
        ):
            return
        if m.row_changes == s.row_changes:  # rows appended since
            start = int(np.searchsorted(m.rowids, s.max_rowid, side="right"))
            self._add(m.rowids[start:], m.matrix[start:])
        else:
            self._reconcile(m)
        self._state = _State(m.row_changes, m.max_rowid)

    def _add(self, keys: np.ndarray, vectors: np.ndarray) -> None:
        if len(keys):
            self._index.add(keys, vectors, threads=1)
            self.nbytes += len(keys) * self._row_bytes

    def _reconcile(self, m: Rows) -> None:
        held = np.asarray(self._index.keys[:], dtype=np.int64)
        gone = ~np.isin(held, m.rowids)
        kept = np.flatnonzero(~gone)
        pos = np.searchsorted(m.rowids, held[kept])
        for start in range(0, len(kept), _BLOCK):  # a block at a time: stays in cache
            block = kept[start : start + _BLOCK]
            copies = np.vstack(self._index.get(held[block])).astype(np.int16)
            rows = m.matrix[pos[start : start + _BLOCK]]
            now = np.clip(np.rint(rows * _SCALE), -_SCALE, _SCALE).astype(np.int16)
            gone[block[np.abs(copies - now).max(axis=1) > _SAME_UNITS]] = True
        if gone.any():
            self._index.remove(held[gone])
        missing = ~np.isin(m.rowids, held[~gone])
        self._add(m.rowids[missing], m.matrix[missing])

    def candidates(self, query: np.ndarray, take: int) -> np.ndarray:
        """Rowids of up to ``take`` rows near each row of ``query`` (2-D), -1 padded."""
        take = min(take, len(self._index))
        if take <= 0:
            return np.full((len(query), 0), -1, dtype=np.int64)
        found = self._index.search(query, take, threads=1)
        if not hasattr(found, "counts"):  # one query: the matches found, unpadded
            keys = np.full((1, take), -1, dtype=np.int64)
            got = np.asarray(found.keys, dtype=np.int64)
            keys[0, : len(got)] = got
            return keys
        keys = np.asarray(found.keys, dtype=np.int64).reshape(len(query), -1)
        counts = np.asarray(found.counts).reshape(-1)
        keys[np.arange(keys.shape[1])[None, :] >= counts[:, None]] = -1
        return keys


def new_index(dim: int) -> Any:
    """An empty usearch index for vectors of ``dim`` dimensions (a module attribute, so
    a test can put a failing factory in its place)."""
    from usearch.index import Index  # imported on first use: the matrix needs none

    return Index(
        ndim=dim,
        metric="ip",
        dtype="i8",
        connectivity=CONNECTIVITY,
        expansion_add=EXPANSION_ADD,
        expansion_search=EXPANSION_SEARCH,
    )


def build(m: Rows) -> ScopeIndex:
    """An index of every row of ``m`` (one thread)."""
    index = new_index(int(m.matrix.shape[1]))
    if len(m.rowids):  # usearch's own kernels: no BLAS to keep to one thread
        index.add(m.rowids, m.matrix, threads=1)
    return ScopeIndex(index, _State(m.row_changes, m.max_rowid))


def _caught_up(index: ScopeIndex, m: Rows) -> ScopeIndex:
    """``index`` brought up to ``m`` (off the search path: nothing else holds it)."""
    with index.lock, single_threaded():
        index.catch_up(m)
    return index


def positions(rowids: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """The row number in ``rowids`` (sorted) of each key; -1 for a key not there (a row
    the matrix does not hold: added after it, or a padding -1)."""
    if not len(rowids):
        return np.full(keys.shape, -1, dtype=np.int64)
    pos = np.minimum(np.searchsorted(rowids, keys), len(rowids) - 1)
    return np.where(rowids[pos] == keys, pos, -1)


def take_for(limit: int, rows: int, allowed: int) -> int:
    """Candidates to ask for so that ~2 × ``limit`` of them pass a filter allowing
    ``allowed`` of ``rows`` rows."""
    return max(_MIN_TAKE, math.ceil(limit * 2 * rows / max(allowed, 1)))


class VectorIndexes:
    """The HNSW indexes of a store's large scopes (``min_rows`` None: none, every scope
    is scanned exactly), in a section of the store's :class:`CacheBudget`; a scope whose
    index failed is built again ``retry_s`` after (doubled per further failure)."""

    def __init__(
        self,
        budget: CacheBudget,
        min_rows: int | None,
        *,
        max_scopes: int = 32,
        retry_s: float = DEFAULT_RETRY_S,
    ) -> None:
        self.min_rows = min_rows
        self.retry_s = retry_s
        # a filter allowing at most this many rows is scanned exactly
        self.exact_allowed = min(_EXACT_ALLOWED, (min_rows or 0) // 2)
        self._entries: BudgetSection[ScopeIndex] = budget.section(
            "sqlite_vector_index", max_scopes, lambda ix: ix.nbytes
        )
        self._lock = threading.Lock()
        # the indexes put in the budget (a lookup here does not count as a use)
        self._made: weakref.WeakValueDictionary[Hashable, ScopeIndex] = (
            weakref.WeakValueDictionary()
        )
        self._building: dict[Hashable, threading.Thread] = {}
        self._generation = 0  # bumped by clear: a build started before it is not kept
        # scopes whose index alone was larger than the whole cap (the budget warned):
        # not built again, every search of them is exact, until the indexes are cleared
        self._too_large: set[Hashable] = set()
        self.searches: Counter[str] = Counter()  # by method, for metrics and tests
        # scopes whose index failed and was not built since; kept through ``clear`` (the
        # back-off holds), left with a dropped tenant
        self._failed: dict[Hashable, _Failure] = {}
        # the last failure's reason while a scope is failed (degraded), else None
        self.problem: str | None = None

    def status(self) -> dict[str, object]:
        """Searches by method, the indexes held (and their rows), the builds running,
        the scopes whose index failed and is not built again yet (``failed``) and
        ``degraded``: the last failure's reason while there are any, or None."""
        with self._lock:
            searches = dict(self.searches)
            building = len(self._building)
            failed = len(self._failed)
            problem = self.problem
        keys = list(self._entries.keys())  # a BudgetSection is not iterable
        held = [self._made.get(key) for key in keys]
        return {
            "min_rows": self.min_rows,
            "searches": searches,
            "indexes": len(held),
            "rows": sum(len(ix) for ix in held if ix is not None),
            "building": building,
            "failed": failed,
            "degraded": problem,
        }

    def failure(self, key: Hashable) -> str | None:
        """Why scope ``key``'s index is unavailable (its build or update failed and no
        build has succeeded since), or None: a search of it scanned exactly says so."""
        with self._lock:
            found = self._failed.get(key)
        return None if found is None else found.problem

    def exact_is_cheaper(self, allowed: int, rows: int, take: int) -> bool:
        """Whether scanning the allowed rows beats asking the index: few rows allowed,
        or a take past a quarter of the scope."""
        return allowed <= self.exact_allowed or take * 4 > rows

    def count(self, method: str, n: int = 1) -> None:
        with self._lock:
            self.searches[method] += n

    def clear(self) -> None:
        with self._lock:
            self._generation += 1
            self._too_large.clear()
        self._entries.clear()

    def drop_where(self, predicate: Any) -> None:
        with self._lock:
            self._generation += 1
            self._too_large = {k for k in self._too_large if not predicate(k)}
            self._failed = {k: f for k, f in self._failed.items() if not predicate(k)}
            self._settle()
        self._entries.drop_where(predicate)

    def wait(self, timeout: float | None = None) -> None:
        """Wait for the builds running now (tests, benchmarks)."""
        with self._lock:
            running = list(self._building.values())
        for thread in running:
            thread.join(timeout)

    def caught_up(self, key: Hashable, m: Rows) -> bool:
        """Whether scope ``key`` has an index already in step with ``m``."""
        found = self._made.get(key)
        return found is not None and key in self._entries and found.covers(m)

    def index_for(self, key: Hashable, m: Rows) -> ScopeIndex | None:
        """The index of scope ``key`` caught up with ``m``, locked by the caller's
        ``with``; None when ``m`` is searched exactly (small, building, unavailable)."""
        if self.min_rows is None or len(m.rowids) < self.min_rows or not m.matrix.size:
            return None
        found = self._entries.get(key)
        if found is not None and found.dim != m.matrix.shape[1]:  # another model's
            self._entries.pop(key)
            found = None
        if found is not None and found.behind(m) > INLINE_ROWS:
            self._entries.pop(key)  # caught up off the search path: adds only the new rows
            self._start(key, m, found)
            return None
        if found is None:
            self._start(key, m)
            return None
        try:
            with found.lock, single_threaded():
                found.catch_up(m)
        except Exception as exc:  # a broken index: scanned exactly, and said so
            self._entries.pop(key)
            self._fail(key, f"updating a scope's vector index failed: {exc!r}")
            return None
        return found

    def _start(self, key: Hashable, m: Rows, behind: ScopeIndex | None = None) -> None:
        """Build scope ``key``'s index from ``m`` on a thread of its own, or bring the
        ``behind`` one up to ``m`` there (a bulk import appends rows faster than a
        build of the whole scope ends: rebuilding each time never caught up)."""
        with self._lock:
            if key in self._building or key in self._too_large:
                return
            failed = self._failed.get(key)
            if failed is not None and monotonic() < failed.retry_at:
                return  # backing off
            generation = self._generation
            thread = threading.Thread(
                target=self._build, args=(key, m, generation, behind), daemon=True,
                name="cognimem-vector-index",
            )  # fmt: skip
            self._building[key] = thread
        thread.start()

    def _build(self, key: Hashable, m: Rows, generation: int, behind: ScopeIndex | None) -> None:
        try:
            made = build(m) if behind is None else _caught_up(behind, m)
        except ImportError as exc:
            problem = f"usearch cannot be imported ({exc}): install it (pip install usearch)"
            self._fail(key, problem)
            made = None
        except Exception as exc:
            self._fail(key, f"building a scope's vector index failed: {exc!r}")
            made = None
        with self._lock:
            del self._building[key]
            keep = made is not None and generation == self._generation
            if made is not None and self._failed.pop(key, None) is not None:
                self._settle()
        if not keep or made is None:
            return
        if self._entries.put(key, made, made.nbytes):
            self._made[key] = made
        else:  # larger than the whole cap: building it again would not help
            with self._lock:
                self._too_large.add(key)

    def _fail(self, key: Hashable, problem: str) -> None:
        """Scope ``key``'s index failed: scanned exactly, built again after a back-off."""
        with self._lock:
            before = self._failed.get(key)
            failures = 1 if before is None else before.failures + 1
            wait = min(self.retry_s * 2 ** (failures - 1), max(self.retry_s, _MAX_RETRY_S))
            self._failed[key] = _Failure(problem, monotonic() + wait, failures)
            new = problem != self.problem
            self.problem = problem
        (log.warning if new else log.debug)(
            "%s; the scope is scanned exactly (degraded), its index built again in %.0f s",
            problem,
            wait,
        )

    def _settle(self) -> None:
        """After a failed scope left (built, dropped): not degraded once none is left.
        Under ``_lock``."""
        if not self._failed and self.problem is not None:
            self.problem = None
            log.info("vector indexes available again: large scopes use them")
