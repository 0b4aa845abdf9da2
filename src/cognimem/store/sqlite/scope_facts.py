"""A scope's facts of any status, newest first, as SQLite reads keep them per process
(``ScopeFacts``, dated by ``fact_versions``): loaded whole, or — after writes this
process made, whose touched facts ``fact_changes.FactChangeLog`` names — the copy
patched by reading those facts alone and putting them in place (``copy_patch.py``)."""

from __future__ import annotations

import sqlite3
from collections.abc import Collection, Sequence
from typing import cast

from cognimem.models.knowledge import Fact
from cognimem.store import records, scored_facts
from cognimem.store.fact_copies import Kept, kept_facts
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
from cognimem.store.sqlite.rows import fact_from_row, query
from cognimem.store.types import FactRowParts, ScopeFacts

_COLUMNS = f"{records.FACT_COLUMNS}, embedding, rowid AS row_order"
Entry = tuple[Order, tuple[Fact, FactRowParts]]


def _decoded(found: Sequence[sqlite3.Row]) -> list[Entry]:
    return [
        (
            place(r),
            (
                fact_from_row(r),
                scored_facts.fact_row_parts(scored_facts.scored_columns(r, r["embedding"])),
            ),
        )
        for r in found
    ]


def _loaded(entries: Sequence[Entry]) -> Loaded[ScopeFacts]:
    return Loaded(
        ScopeFacts(facts=[e[1][0] for e in entries], parts=[e[1][1] for e in entries]),
        [e[0] for e in entries],
    )


def load(conn: sqlite3.Connection, asked: ScopeRead) -> Loaded[ScopeFacts]:
    """The scope's newest ``asked.limit`` facts, read and decoded whole."""
    found = query(
        conn,
        f"SELECT {_COLUMNS} FROM facts WHERE {SCOPE} ORDER BY recorded_at DESC, rowid DESC LIMIT ?",
        asked,
    )
    return _loaded(_decoded(found))


def patched(
    conn: sqlite3.Connection, kept: Kept[ScopeFacts], asked: ScopeRead, touched: Collection[str]
) -> Loaded[ScopeFacts] | None:
    """``kept`` with the facts ``touched`` read again (gone when no longer in the
    scope) and put in their place, a full copy filled from below when left short; None
    when the copy does not say its rows' places."""
    old = kept.value
    if len(kept.order) != len(old.facts):
        return None
    fresh = read_again(conn, f"SELECT {_COLUMNS} FROM facts WHERE {SCOPE}", asked[:3], touched)
    places = cast(Sequence[Order], kept.order)
    entries = [
        (order, (fact, parts))
        for order, fact, parts in zip(places, old.facts, old.parts, strict=True)
        if fact.id not in touched
    ]

    def below(at: Order, n: int) -> list[Entry]:
        return _decoded(read_below(conn, f"SELECT {_COLUMNS}", SCOPE, asked[:3], at, n))

    return _loaded(placed(places, entries + _decoded(fresh), asked.limit, below))


SCOPE_FACTS: CopyKind[ScopeFacts] = CopyKind(load, patched, kept_facts)
"""The facts of any status, as ``SQLiteKnowledge`` keeps them."""


__all__ = ["SCOPE_FACTS", "load", "patched"]
