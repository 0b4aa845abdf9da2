"""A scope's facts of any status, newest first, as SQLite reads keep them per process
(``ScopeFacts``, dated by ``fact_versions``): loaded whole, or — after writes this
process made, whose touched facts ``fact_changes.FactChangeLog`` names — the copy
patched by reading those facts alone and putting them in place.

A scope's copy holds its newest ``limit`` facts by (recorded time, rowid). A copy of
fewer than ``limit`` holds them all; a full one may have left older facts unread, so
it is patched only when the facts it keeps still fill it and none of the touched facts
falls below its oldest (else a fresh load)."""

from __future__ import annotations

import sqlite3
from collections.abc import Collection, Sequence
from typing import NamedTuple, cast

from cognimem.models.knowledge import Fact
from cognimem.store import records, scored_facts
from cognimem.store.fact_copies import Kept
from cognimem.store.sqlite.rows import fact_from_row, query
from cognimem.store.types import FactRowParts, ScopeFacts

# a fact's place, newest first: (recorded_at, rowid), both integers
Order = tuple[int, int]
_BY_ID = 500  # ids a statement asks for at once


class ScopeRead(NamedTuple):
    """A scope's newest ``limit`` rows, as the reads that keep a copy per scope ask for
    them (``fact_rows``, ``scope_facts``, ``graph_edges``) and key that copy by."""

    tenant_id: str
    namespace: str
    user_id: str | None
    limit: int


class Loaded(NamedTuple):
    """A scope's facts and, parallel to them, each one's place."""

    facts: ScopeFacts
    order: list[Order]


_COLUMNS = f"{records.FACT_COLUMNS}, embedding, rowid AS row_order"
_SCOPE = "tenant_id = ? AND namespace = ? AND user_id IS ?"


def _decoded(found: Sequence[sqlite3.Row]) -> list[tuple[Order, Fact, FactRowParts]]:
    return [
        (
            (int(r["recorded_at"]), int(r["row_order"])),
            fact_from_row(r),
            scored_facts.fact_row_parts(scored_facts.scored_columns(r, r["embedding"])),
        )
        for r in found
    ]


def _loaded(entries: Sequence[tuple[Order, Fact, FactRowParts]]) -> Loaded:
    return Loaded(
        ScopeFacts(facts=[e[1] for e in entries], parts=[e[2] for e in entries]),
        [e[0] for e in entries],
    )


def load(conn: sqlite3.Connection, asked: ScopeRead) -> Loaded:
    """The scope's newest ``asked.limit`` facts, read and decoded whole."""
    found = query(
        conn,
        f"SELECT {_COLUMNS} FROM facts WHERE {_SCOPE} ORDER BY recorded_at DESC, rowid DESC"
        " LIMIT ?",
        asked,
    )
    return _loaded(_decoded(found))


def patched(
    conn: sqlite3.Connection, kept: Kept[ScopeFacts], asked: ScopeRead, touched: Collection[str]
) -> Loaded | None:
    """``kept`` with the facts ``touched`` read again (gone when no longer in the
    scope) and put in their place; None when the copy cannot tell what it would hold."""
    old = kept.value
    if len(kept.order) != len(old.facts):
        return None
    ids = sorted(touched)
    fresh: list[sqlite3.Row] = []
    for start in range(0, len(ids), _BY_ID):
        part = ids[start : start + _BY_ID]
        fresh += query(
            conn,
            f"SELECT {_COLUMNS} FROM facts WHERE {_SCOPE} AND id IN ({', '.join('?' * len(part))})",
            (*asked[:3], *part),
        )
    places = cast(Sequence[Order], kept.order)
    entries = [
        (order, fact, parts)
        for order, fact, parts in zip(places, old.facts, old.parts, strict=True)
        if fact.id not in touched
    ]
    entries += _decoded(fresh)
    entries.sort(key=lambda e: e[0], reverse=True)  # nearly sorted: about linear
    if len(old.facts) < asked.limit:  # the copy held every fact: it still does
        return _loaded(entries[: asked.limit])
    # a full copy may have left older facts unread: what it holds must still fill it,
    # from above its oldest fact (``Order`` values are unique, rowid last)
    oldest = places[-1] if places else None
    above = [e for e in entries if oldest is None or e[0] >= oldest]
    if len(above) < asked.limit:
        return None
    return _loaded(above[: asked.limit])


__all__ = ["Loaded", "Order", "ScopeRead", "load", "patched"]
