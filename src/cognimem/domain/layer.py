"""The domain layer of one ``Memory``: the mapping (with its ontology) and, when the
mapping has a ``[database]``, the read-only source over it."""

from __future__ import annotations

from pathlib import Path

from cognimem.domain.mapping import DomainMapping, load_mapping
from cognimem.domain.source import DomainSource


class Domain:
    """What the write path (linking, the ontology, conflicts) and the read path (the
    domain step) share. ``source`` is None for an ontology without a database."""

    def __init__(self, mapping: DomainMapping, source: DomainSource | None = None) -> None:
        self.mapping = mapping
        self.source = source

    @classmethod
    def from_file(cls, path: str | Path) -> Domain:
        """The mapping in ``path`` and, when it has a ``[database]``, its SQL source
        (connected by :meth:`open`)."""
        mapping = load_mapping(path)
        if mapping.database is None:
            return cls(mapping)
        from cognimem.domain.sql import SqlDomainSource

        return cls(mapping, SqlDomainSource(mapping))

    async def open(self) -> None:
        """Connect the source and check the mapping against the live schema."""
        if self.source is not None:
            await self.source.open()

    async def close(self) -> None:
        if self.source is not None:
            await self.source.close()
