"""The reads by id both backends make (``RowsById``): which table and columns each
reads and the model a row becomes are the same on both; only how a backend's stored
times decode differs (``records.TimeDecoder``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from cognimem.models import Event, MemoryItem
from cognimem.models.knowledge import Entity, Fact
from cognimem.store import records, scored_facts
from cognimem.store.arguments import RowsById
from cognimem.store.records import (
    ENTITY_COLUMNS,
    EVENT_COLUMNS,
    FACT_COLUMNS,
    ITEM_SELECT,
    ITEMS_WITH_USAGE,
    TimeDecoder,
)
from cognimem.store.scored_facts import FactColumns
from cognimem.store.types import FactRows

T = TypeVar("T")


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


class KnowledgeByIds:
    """The reads by id of ``KnowledgeStore``, alike on both backends: a backend's
    knowledge role names its reads (``BY_ID``; ``SCORED_ROWS``, a fact's row as a read
    scores it) and its database reads them (``_by_ids``, which this class comes after)."""

    BY_ID: ClassVar[ByIdReads]
    SCORED_ROWS: ClassVar[RowsById[Any, FactColumns]]

    async def _by_ids(self, of: RowsById[Any, T], tenant_id: str, ids: Sequence[str]) -> list[T]:
        raise NotImplementedError  # the backend's database reads them

    async def get_facts(self, tenant_id: str, ids: Sequence[str]) -> list[Fact]:
        return await self._by_ids(self.BY_ID.facts, tenant_id, ids)

    async def fact_rows_by_ids(self, tenant_id: str, ids: Sequence[str]) -> FactRows:
        return scored_facts.fact_rows(await self._by_ids(self.SCORED_ROWS, tenant_id, ids))

    async def get_entities(self, tenant_id: str, ids: Sequence[str]) -> list[Entity]:
        return await self._by_ids(self.BY_ID.entities, tenant_id, ids)
