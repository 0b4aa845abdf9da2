"""What a per-scope in-process search filters on: one entry per cached item row.

Both backends keep per-scope copies of a scope's items in process (SQLite's vector
matrix and lexical index, PostgreSQL's lexical index); :class:`Columns` holds the
columns their filters name, as numpy arrays, and :meth:`Columns.allowed` applies an
``ItemFilter`` to them.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cognimem.models import ItemKind, ItemStatus
from cognimem.models.clock import to_micros
from cognimem.store.cache_budget import array_bytes
from cognimem.store.types import ItemFilter

# small-integer codes make the kind/status masks numeric (object-array compares are slow)
KIND_CODES = {kind.value: code for code, kind in enumerate(ItemKind)}
STATUS_CODES = {status.value: code for code, status in enumerate(ItemStatus)}

# a row a newer copy replaced (PostgreSQL's catch-up): no filter lets it through
GONE = -1
# an item with no event period: a start after and an end before every period
_NO_START = np.iinfo(np.int64).max
_NO_END = np.iinfo(np.int64).min
# room the columns keep for rows appended later, as a share of their rows (as the
# matrix's: ``sqlite/vectors.py``)
_ROOM = 0.25
_NAMES = ("ids", "agent", "session", "kind", "status", "occurred", "event_start", "event_end")


class _Room:
    """The arrays a scope's columns are the first rows of, with room after them.

    ``filled[name]``: how many rows of ``arrays[name]`` some entry's column covers. An
    append writes into the room only when the column it extends ends there (under the
    lock, which claims the rows): no entry's column then covers the rows it writes, so
    two entries appending from the same rows, or an older entry after a newer one, never
    write under each other (the later one copies)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.arrays: dict[str, np.ndarray] = {}
        self.filled: dict[str, int] = {}

    def extend(self, name: str, old: np.ndarray, new: np.ndarray) -> np.ndarray:
        """``old`` followed by ``new``: written after ``old`` in its room when it ends
        there, else copied into a new array with room."""
        n, k = len(old), len(new)
        with self.lock:
            held = self.arrays.get(name)
            claimed = (
                held is not None
                and old.base is held
                and self.filled[name] == n
                and len(held) >= n + k
            )
            if not claimed:
                held = np.empty(n + k + int((n + k) * _ROOM), dtype=old.dtype)
                held[:n] = old
                self.arrays[name] = held
            assert held is not None
            self.filled[name] = n + k
        held[n : n + k] = new
        return held[: n + k]


@dataclass(frozen=True)
class Columns:
    """What a search filters on, one entry per cached row."""

    ids: np.ndarray  # object (str)
    agent: np.ndarray  # object
    session: np.ndarray  # object
    kind: np.ndarray  # int8 codes (KIND_CODES)
    status: np.ndarray  # int8 codes (STATUS_CODES)
    occurred: np.ndarray  # int64 microseconds
    event_start: np.ndarray  # int64 microseconds (_NO_START: the item names no time)
    event_end: np.ndarray  # int64 microseconds (_NO_END)
    # where appended rows go without copying the columns (None: no room yet)
    room: _Room | None = field(default=None, compare=False, repr=False)

    @classmethod
    def of(cls, rows: Sequence[Sequence[Any]]) -> Columns:
        """From rows that start with :data:`ROW_COLUMNS`."""

        def column(i: int) -> np.ndarray:
            return np.array([r[i] for r in rows], dtype=object)

        return cls(
            ids=column(1),
            agent=column(2),
            session=column(3),
            kind=np.array([KIND_CODES[r[4]] for r in rows], dtype=np.int8),
            status=np.array([STATUS_CODES[r[5]] for r in rows], dtype=np.int8),
            occurred=np.array([r[6] for r in rows], dtype=np.int64),
            event_start=np.array(
                [_NO_START if r[7] is None else r[7] for r in rows], dtype=np.int64
            ),
            event_end=np.array([_NO_END if r[8] is None else r[8] for r in rows], dtype=np.int64),
        )

    def __len__(self) -> int:
        return len(self.ids)

    @property
    def nbytes(self) -> int:
        """Estimated bytes held (the arrays and the id and name strings they point to)."""
        return sum(array_bytes(getattr(self, name)) for name in _NAMES)

    def append(self, other: Columns) -> Columns:
        """These rows followed by ``other``'s. The rows go into the room left after
        these (made, a quarter of the rows larger, when there is none), so a write's few
        rows do not copy every column of the scope: at 1M rows the copies took 22-113 ms
        of CPU per write (the three object columns' references counted one by one)."""
        room = self.room or _Room()

        def extend(name: str) -> np.ndarray:
            return room.extend(name, getattr(self, name), getattr(other, name))

        return Columns(
            ids=extend("ids"),
            agent=extend("agent"),
            session=extend("session"),
            kind=extend("kind"),
            status=extend("status"),
            occurred=extend("occurred"),
            event_start=extend("event_start"),
            event_end=extend("event_end"),
            room=room,
        )

    def allowed(self, flt: ItemFilter) -> np.ndarray:
        """Boolean mask of the rows that pass ``flt`` (the scope's user is the entry's; with
        ``shared_only`` the entry holds the rows of no user)."""
        mask = _codes_in(self.status, [STATUS_CODES[s.value] for s in flt.statuses])
        scope = flt.scope
        if flt.shared_only:  # an entry of the rows of no user: the organisation's, the agent's
            mask &= np.array([a is None or a == scope.agent_id for a in self.agent], dtype=bool)
        elif flt.level_only and scope.user_id is None:  # an entry of the rows of no user
            mask &= np.array([a == scope.agent_id for a in self.agent], dtype=bool)
        elif scope.agent_id is not None:
            agent = self.agent == scope.agent_id
            if flt.own_of_no_agent and scope.user_id is not None:  # and the user's of none
                agent |= np.array([a is None for a in self.agent], dtype=bool)
            mask &= agent
        if scope.session_id is not None and not flt.shared_only:
            mask &= self.session == scope.session_id
        if flt.kinds is not None:
            mask &= _codes_in(self.kind, [KIND_CODES[k.value] for k in flt.kinds])
        if flt.since is not None:
            mask &= self.occurred >= to_micros(flt.since)
        if flt.until is not None:
            mask &= self.occurred <= to_micros(flt.until)
        if flt.period is not None:
            start, end = (to_micros(t) for t in flt.period)
            inside = (self.occurred >= start) & (self.occurred < end)
            mask &= inside | ((self.event_start < end) & (self.event_end > start))
        return mask


def _codes_in(column: np.ndarray, codes: list[int]) -> np.ndarray:
    """Per row: whether its small-integer code is one of ``codes`` (what ``np.isin``
    answers, 35 against 1-10 microseconds on 10k rows: a read filters four times)."""
    if len(codes) == 1:
        return np.asarray(column == codes[0])
    # int8 codes read as bytes index a 256-entry table; GONE (-1) is entry 255, never set
    table = np.zeros(256, dtype=bool)
    table[codes] = True
    return np.asarray(table[column.view(np.uint8)])
