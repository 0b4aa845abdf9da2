"""One byte cap over the per-scope copies a store keeps in process.

A read searches copies of a scope's rows held in the process: SQLite's vector matrix
(``sqlite/vectors.py``) and lexical postings (``sqlite/lexical.py``), PostgreSQL's
lexical postings (``postgres/lexical.py``), and on both backends a user's decoded facts
and graph edges (``fact_copies.py``). They grow with the scope (~2.4 KiB an item on
SQLite), so a count of scopes does not bound them: one 1M-item scope is gigabytes.
A :class:`CacheBudget` holds every such entry of one store, each with its size in bytes
(an estimate from its arrays, :func:`array_bytes`, or from a sample of its objects,
:func:`sampled_bytes`), in one least-recently-used order across the sections: putting
an entry evicts the least recently used ones, of any section, until the total is within
``max_bytes`` (``COGNIMEM_CACHE_MAX_MB``). A section whose entries grow after they are
kept (a fact copy builds its postings on first use) weighs an entry again each time it
is taken, and evicts others if it grew past the cap. An
entry larger than the whole cap is not kept at all: the read that loaded it still uses
it, and the next read of that scope loads it again (correct, slower; a WARNING names the
scope once, and ``cognimem_scope_cache_evictions_total`` counts every time). Each section also
keeps at most its own number of entries, as before.

Every method takes one lock, held only for dictionary work (never while loading), so
reader threads and the event loop share a budget safely; a value taken out stays valid
for whoever holds it (entries are never changed in place, only replaced).
"""

from __future__ import annotations

import dataclasses
import enum
import logging
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator, Sequence
from typing import Any, Generic, TypeVar

import numpy as np

V = TypeVar("V")

# room for one 1M-item SQLite scope (~2.4 KiB an item: ~2.3 GiB) and then some; a
# 1M-item PostgreSQL scope's postings are ~0.7 GiB
DEFAULT_MAX_MB = 4096
_SAMPLE = 64  # object-array elements measured at each end to estimate the rest
_WARNED_MAX = 1_000  # scopes remembered as warned of (then warned of again)

log = logging.getLogger(__name__)


def array_bytes(a: np.ndarray | None) -> int:
    """Bytes an array holds: its buffer, and for an object array an estimate of its
    elements (the mean size of a few at each end, times its length)."""
    if a is None:
        return 0
    size = int(a.nbytes)
    if a.dtype == object and a.size:
        flat = a.reshape(-1)
        sample = [*flat[:_SAMPLE], *flat[-_SAMPLE:]] if flat.size > 2 * _SAMPLE else list(flat)
        held = [sys.getsizeof(x) for x in sample if x is not None]
        if held:
            size += int(sum(held) / len(sample) * flat.size)
    return size


_ARRAY_HEADER = sys.getsizeof(np.empty(0))


def deep_bytes(obj: object, seen: set[int] | None = None) -> int:
    """Bytes ``obj`` holds with what it refers to: containers, dataclass and pydantic
    fields, arrays (and the bytes an array view reads), each object once (``seen``:
    objects already counted). Classes and enum members are shared, so count nothing."""
    seen = set() if seen is None else seen
    stack: list[object] = [obj]
    total = 0
    while stack:
        o = stack.pop()
        if id(o) in seen or isinstance(o, type | enum.Enum):
            continue
        seen.add(id(o))
        if isinstance(o, np.ndarray):
            total += array_bytes(o) + _ARRAY_HEADER if o.base is None else _ARRAY_HEADER
            if o.base is not None:
                stack.append(o.base)  # a view keeps its buffer alive
            continue
        total += sys.getsizeof(o)
        if isinstance(o, dict):
            stack += [*o.keys(), *o.values()]
        elif isinstance(o, list | tuple | set | frozenset):
            stack += list(o)
        elif dataclasses.is_dataclass(o) or hasattr(o, "__pydantic_fields_set__"):
            stack += _fields(o)
    return total


def _fields(o: object) -> list[object]:
    """The values an instance holds: its ``__dict__`` and its slots."""
    found: list[object] = []
    if hasattr(o, "__dict__"):
        found.append(o.__dict__)
    for cls in type(o).__mro__:
        for name in getattr(cls, "__slots__", ()):
            if name != "__dict__" and hasattr(o, name):
                found.append(getattr(o, name))
    return found


def sampled_bytes(items: Sequence[Any]) -> int:
    """Bytes a list of similar objects holds: its own, and the mean :func:`deep_bytes`
    of up to ``2 * _SAMPLE`` of them, spread along it, times its length."""
    size = sys.getsizeof(items)
    if not items:
        return size
    step = max(1, len(items) // (2 * _SAMPLE))
    sample = items[::step]
    seen: set[int] = set()
    held = sum(deep_bytes(x, seen) for x in sample)
    return size + int(held / len(sample) * len(items))


class CacheBudget:
    """The entries of one store's in-process copies, capped in bytes (None: no cap)."""

    def __init__(self, max_bytes: int | None = DEFAULT_MAX_MB << 20) -> None:
        if max_bytes is not None and max_bytes < 0:
            raise ValueError("max_bytes must be >= 0 (None: no cap)")
        self.max_bytes = max_bytes
        self._lock = threading.Lock()
        # (section, key) -> (value, bytes), least recently used first
        self._entries: OrderedDict[tuple[str, Hashable], tuple[object, int]] = OrderedDict()
        self._held = 0
        self._evictions = 0
        self._too_large: set[tuple[str, Hashable]] = set()  # warned of once each

    @property
    def held_bytes(self) -> int:
        """The estimated bytes of the entries held now."""
        with self._lock:  # never the moment within a put before its evictions
            return self._held

    @property
    def evictions(self) -> int:
        """Entries dropped, or not kept, to stay within the cap or a section's count."""
        return self._evictions

    def section(
        self, name: str, max_entries: int, weigh: Callable[[V], int] | None = None
    ) -> BudgetSection[V]:
        """A view of the entries named ``name``, at most ``max_entries`` of them; with
        ``weigh`` (cheap: it runs under the lock), an entry is weighed again each time
        it is taken, for entries that grow after they are kept."""
        return BudgetSection(self, name, max_entries, weigh)

    def held(self) -> list[tuple[str, Hashable, int]]:
        """(section, key, estimated bytes) of every entry held, least recently used
        first."""
        with self._lock:
            return [(name, key, size) for (name, key), (_, size) in self._entries.items()]

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._held = 0

    def _drop(self, full: tuple[str, Hashable]) -> None:
        _, size = self._entries.pop(full)
        self._held -= size

    def _reweigh(self, full: tuple[str, Hashable], size: int) -> None:
        """Under the lock: ``full``'s entry now holds ``size`` bytes; evict the least
        recently used others (and, past the cap alone, it) to stay within the cap."""
        value, old = self._entries[full]
        if size == old:
            return
        self._entries[full] = (value, size)
        self._held += size - old
        while self.max_bytes is not None and self._held > self.max_bytes:
            self._drop(next(iter(self._entries)))  # ``full`` is the most recent: last
            self._evictions += 1

    def _put(self, full: tuple[str, Hashable], value: object, size: int, count: int) -> bool:
        with self._lock:
            if full in self._entries:
                self._drop(full)
            if self.max_bytes is not None and size > self.max_bytes:
                self._evictions += 1
                if full not in self._too_large:  # once per scope: every read of it loads it
                    if len(self._too_large) >= _WARNED_MAX:
                        self._too_large.clear()
                    self._too_large.add(full)
                    log.warning(
                        "a %s copy of %r holds %.1f MiB, more than the whole cap"
                        " (COGNIMEM_CACHE_MAX_MB = %.1f): it is not kept, so every read of"
                        " that scope loads it again; raise the cap",
                        full[0],
                        full[1],
                        size / 2**20,
                        self.max_bytes / 2**20,
                    )
                return False
            self._entries[full] = (value, size)
            self._held += size
            mine = [k for k in self._entries if k[0] == full[0]]
            for old in mine[: max(0, len(mine) - count)]:
                self._drop(old)
                self._evictions += 1
            while self.max_bytes is not None and self._held > self.max_bytes:
                self._drop(next(iter(self._entries)))  # never the one just put: it fits
                self._evictions += 1
            return True


class BudgetSection(Generic[V]):
    """One kind of entry in a :class:`CacheBudget` (a vector matrix, a lexical index)."""

    def __init__(
        self,
        budget: CacheBudget,
        name: str,
        max_entries: int,
        weigh: Callable[[V], int] | None = None,
    ) -> None:
        self._budget = budget
        self._name = name
        self._max = max_entries
        self._weigh = weigh

    def get(self, key: Hashable) -> V | None:
        """The entry of ``key``, now the most recently used; None when none is held."""
        b = self._budget
        full = (self._name, key)
        with b._lock:
            found = b._entries.get(full)
            if found is None:
                return None
            b._entries.move_to_end(full)
            value: V = found[0]  # type: ignore[assignment]
            if self._weigh is not None:
                b._reweigh(full, self._weigh(value))
            return value

    def put(self, key: Hashable, value: V, size: int) -> bool:
        """Hold ``value`` (``size`` bytes) under ``key``, evicting what the cap and the
        section's count require; False when it alone is larger than the cap (not kept)."""
        return self._budget._put((self._name, key), value, size, self._max)

    def pop(self, key: Hashable) -> None:
        with self._budget._lock:
            if (self._name, key) in self._budget._entries:
                self._budget._drop((self._name, key))

    def drop_where(self, predicate: Callable[[Hashable], bool]) -> None:
        """Forget every entry whose key ``predicate`` accepts."""
        b = self._budget
        with b._lock:
            for full in [k for k in b._entries if k[0] == self._name and predicate(k[1])]:
                b._drop(full)

    def drop_tenant(self, tenant_id: str) -> None:
        """Forget every entry of a tenant, in a section keyed by tuples that start with
        the tenant id (after an erasure: none may linger in memory)."""
        self.drop_where(lambda key: key[0] == tenant_id)  # type: ignore[index]

    def clear(self) -> None:
        self.drop_where(lambda _: True)

    def __contains__(self, key: Hashable) -> bool:
        with self._budget._lock:
            return (self._name, key) in self._budget._entries

    def keys(self) -> Iterator[Hashable]:
        with self._budget._lock:
            found = [k[1] for k in self._budget._entries if k[0] == self._name]
        return iter(found)
