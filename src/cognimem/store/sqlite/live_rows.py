"""A scope's live fact rows, newest first, as SQLite reads keep them per process
(``FactRows``: what the read's fact steps score, dated by ``fact_versions``): loaded
whole, or — after writes this process made, whose touched facts
``fact_changes.FactChangeLog`` names — the copy patched by reading those facts alone
(those still live) and putting them in place (``copy_patch.py``,
``FactRows.patched``)."""

from __future__ import annotations

import sqlite3
from collections.abc import Collection, Sequence
from typing import cast

from cognimem.models.fact_changes import LIVE_VALUES
from cognimem.store import scored_facts
from cognimem.store.fact_copies import Kept, kept_rows
from cognimem.store.fact_rows import FactRowParts, FactRows, Source
from cognimem.store.scored_facts import SCORED_FACT_COLUMNS
from cognimem.store.sqlite.copy_patch import (
    SCOPE,
    CopyKind,
    Loaded,
    Order,
    ScopeRead,
    place,
    placed,
    read_again,
    read_below,
)
from cognimem.store.sqlite.rows import query

_COLUMNS = f"{SCORED_FACT_COLUMNS}, embedding, recorded_at, rowid AS row_order"
_LIVE = f"{SCOPE} AND status IN (?, ?)"


def _parts(found: Sequence[sqlite3.Row]) -> list[tuple[Order, FactRowParts]]:
    return [
        (place(r), scored_facts.fact_row_parts(scored_facts.scored_columns(r, r["embedding"])))
        for r in found
    ]


def load(conn: sqlite3.Connection, asked: ScopeRead) -> Loaded[FactRows]:
    """The scope's newest ``asked.limit`` live facts, read and decoded whole."""
    found = query(
        conn,
        # the newest rows are chosen without touching the embedding blobs, which would
        # otherwise be carried through the sort (10 ms -> 3 ms at 1.6k facts)
        f"SELECT {_COLUMNS} FROM facts WHERE rowid IN (SELECT rowid FROM facts"
        f" WHERE {_LIVE} ORDER BY recorded_at DESC, rowid DESC LIMIT ?)"
        " ORDER BY recorded_at DESC, rowid DESC",
        (*asked[:3], *LIVE_VALUES, asked.limit),
    )
    entries = _parts(found)
    return Loaded(FactRows.of([e[1] for e in entries]), [e[0] for e in entries])


def patched(
    conn: sqlite3.Connection, kept: Kept[FactRows], asked: ScopeRead, touched: Collection[str]
) -> Loaded[FactRows] | None:
    """``kept`` with the facts ``touched`` read again (gone when no longer live in the
    scope) and put in their place, a full copy filled from below when left short; None
    when the copy does not say its rows' places or cannot give their embeddings back
    (``FactRows.patched``)."""
    old = kept.value
    if len(kept.order) != len(old.ids):
        return None
    args = (*asked[:3], *LIVE_VALUES)
    fresh = read_again(conn, f"SELECT {_COLUMNS} FROM facts WHERE {_LIVE}", args, touched)
    places = cast(Sequence[Order], kept.order)
    entries: list[tuple[Order, Source]] = [
        (order, i) for i, order in enumerate(places) if old.ids[i] not in touched
    ]

    def below(at: Order, n: int) -> list[tuple[Order, Source]]:
        return [*_parts(read_below(conn, f"SELECT {_COLUMNS}", _LIVE, args, at, n))]

    found = placed(places, [*entries, *_parts(fresh)], asked.limit, below)
    rows = old.patched([e[1] for e in found])
    return None if rows is None else Loaded(rows, [e[0] for e in found])


LIVE_ROWS: CopyKind[FactRows] = CopyKind(load, patched, kept_rows)
"""The live fact rows, as ``SQLiteKnowledge`` keeps them."""


__all__ = ["LIVE_ROWS", "load", "patched"]
