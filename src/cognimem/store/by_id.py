"""The reads by id both backends make (``RowsById``): which table and columns each
reads and the model a row becomes are the same on both; only how a backend's stored
times decode differs (``records.TimeDecoder``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cognimem.models import Event, MemoryItem
from cognimem.models.knowledge import Entity, Fact
from cognimem.store import records
from cognimem.store.arguments import RowsById
from cognimem.store.records import (
    ENTITY_COLUMNS,
    EVENT_COLUMNS,
    FACT_COLUMNS,
    ITEM_SELECT,
    ITEMS_WITH_USAGE,
    TimeDecoder,
)


@dataclass(frozen=True)
class ByIdReads:
    """Events, items (with their usage), facts and entities by id."""

    events: RowsById[Any, Event]
    items: RowsById[Any, MemoryItem]
    facts: RowsById[Any, Fact]
    entities: RowsById[Any, Entity]


def by_id_reads(time: TimeDecoder) -> ByIdReads:
    """The reads by id of a backend whose stored times ``time`` decodes."""
    return ByIdReads(
        events=RowsById("events", EVENT_COLUMNS, lambda row: records.event_from_row(row, time)),
        items=RowsById(
            ITEMS_WITH_USAGE,
            ITEM_SELECT,
            lambda row: records.item_from_row(row, time),
            prefix="i.",
        ),
        facts=RowsById("facts", FACT_COLUMNS, lambda row: records.fact_from_row(row, time)),
        entities=RowsById(
            "entities", ENTITY_COLUMNS, lambda row: records.entity_from_row(row, time)
        ),
    )
