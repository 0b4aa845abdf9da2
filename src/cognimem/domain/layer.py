"""The domain layers of one ``Memory``: each mapping (with its ontology) and, when the
mapping has a ``[database]``, the read-only source over it, by the tenant it belongs to.

A mapping names its tenant (``tenant = "acme"``): only that tenant's scopes link to,
look up or are checked against its rows, and another tenant has no domain layer at
all. ``tenant = "*"`` serves every tenant, for a single-tenant deployment; it must be
the only mapping. Opening states, in the log, whose each mapping is and who sees which
rows."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator, Sequence
from pathlib import Path

from cognimem.domain.mapping import EVERY_TENANT, DomainMapping, load_mapping
from cognimem.domain.source import DomainSource
from cognimem.errors import DomainMappingError

log = logging.getLogger(__name__)


class Domain:
    """What the write path (linking, the ontology, conflicts) and the read path (the
    domain step) share for one tenant. ``source`` is None for an ontology without a
    database."""

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


class Domains:
    """The domain layer of each tenant that has a mapping."""

    def __init__(self, layers: Sequence[Domain]) -> None:
        self._by_tenant: dict[str, Domain] = {}
        for d in layers:
            m = d.mapping
            seen = self._by_tenant.get(m.tenant)
            if seen is not None:
                raise DomainMappingError(
                    f"domain mappings {seen.mapping.source} and {m.source} both name the"
                    f" tenant {m.tenant!r}: a tenant has one mapping",
                    file=m.source,
                    entry="tenant",
                )
            self._by_tenant[m.tenant] = d
        if EVERY_TENANT in self._by_tenant and len(self._by_tenant) > 1:
            wide = self._by_tenant[EVERY_TENANT].mapping.source
            raise DomainMappingError(
                f'domain mapping {wide} serves every tenant (tenant = "*"), so it must be the'
                " only mapping: name its tenant, or remove the others",
                file=wide,
                entry="tenant",
            )

    @classmethod
    def from_path(cls, path: str | Path) -> Domains:
        """The mapping file ``path``, or every ``*.toml`` file in the folder ``path``
        (one per tenant)."""
        folder = Path(path).expanduser()
        if not folder.is_dir():
            return cls([Domain.from_file(folder)])
        files = sorted(folder.glob("*.toml"))
        if not files:
            raise DomainMappingError(
                f"the domain mapping folder {folder} holds no *.toml mapping file", file=folder
            )
        return cls([Domain.from_file(f) for f in files])

    def __iter__(self) -> Iterator[Domain]:
        return iter(self._by_tenant.values())

    def for_tenant(self, tenant_id: str) -> Domain | None:
        """The domain layer of ``tenant_id``'s scopes: its own mapping's, the
        server-wide one's, or None (the tenant has no domain layer)."""
        return self._by_tenant.get(tenant_id) or self._by_tenant.get(EVERY_TENANT)

    async def open(self) -> None:
        """Open every layer (a mapping that does not fit its database stops here, and
        the ones opened before it are closed), then state whose each is."""
        opened: list[Domain] = []
        try:
            for d in self:
                await d.open()
                opened.append(d)
        except BaseException:
            await asyncio.gather(*(d.close() for d in opened))
            raise
        for d in self:
            wide = d.mapping.tenant == EVERY_TENANT
            log.log(logging.WARNING if wide else logging.INFO, "%s", d.mapping.describe())

    async def close(self) -> None:
        await asyncio.gather(*(d.close() for d in self))

    async def ping(self) -> None:
        """Every source answers one trivial statement, or ``DomainUnavailable``."""
        await asyncio.gather(*(d.source.ping() for d in self if d.source is not None))

    @property
    def has_source(self) -> bool:
        return any(d.source is not None for d in self)
