"""What a domain source answers, and the ``DomainSource`` protocol.

cognimem never copies the user's domain database: it names a row by a
:class:`DomainRef` (entity type and key; an entity linked to a row keeps it in
``external_ref`` as ``"customer:42"``), and reads the row's current values when a read
or a write needs them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from cognimem.domain.mapping import DomainMapping


@dataclass(frozen=True, order=True)
class DomainRef:
    """One row: its entity type (the mapping's name for its table) and its key."""

    entity_type: str
    key: str

    @property
    def external_ref(self) -> str:
        return f"{self.entity_type}:{self.key}"

    @classmethod
    def parse(cls, external_ref: str | None) -> DomainRef | None:
        if not external_ref or ":" not in external_ref:
            return None
        entity_type, key = external_ref.split(":", 1)
        return cls(entity_type, key)


@dataclass(frozen=True)
class DomainRow:
    """A row's current state: its name, aliases and fact values (by predicate; a NULL
    column is left out), with the table it was read from and the foreign keys it holds
    (by column: how its related rows are found)."""

    ref: DomainRef
    table: str
    name: str
    aliases: tuple[str, ...]
    values: dict[str, str]
    foreign_keys: dict[str, str] = field(default_factory=dict)

    def names(self) -> tuple[str, ...]:
        return (self.name, *self.aliases)


@dataclass(frozen=True)
class RelatedRow:
    """``row`` is joined by ``relation``: as its object (the row's foreign key names
    it), or with ``inverse`` as its subject (its foreign key names the row)."""

    relation: str  # the relation's name in the mapping ("placed_by")
    row: DomainRow
    inverse: bool = False


@dataclass(frozen=True)
class DomainRecord:
    """A row and the rows its foreign keys join it to, both ways."""

    row: DomainRow
    related: tuple[RelatedRow, ...] = ()


@dataclass(frozen=True)
class Matches:
    """What :meth:`DomainSource.find` matched: the rows with their related rows (the
    user's own first), and which of them is the user's."""

    records: list[DomainRecord]
    user: DomainRef | None


class DomainSource(Protocol):
    """Read-only access to the user's domain database, as the mapping describes it.

    Every lookup is for a ``viewer`` (the scope's ``user_id``; None: no user) and
    answers only rows the mapping's row rules let the viewer see — related rows
    included; a row the viewer may not see is never read. Every call is batched (one
    statement per entity type and relation, whatever the number of names or refs) and
    runs under the mapping's statement timeout; a failure raises ``DomainUnavailable``
    (``DomainTimeout`` for the timeout)."""

    mapping: DomainMapping

    async def open(self) -> None:
        """Connect and check the mapping against the live schema
        (``DomainMappingError`` names a missing table or column)."""

    async def close(self) -> None: ...

    async def ping(self) -> None:
        """Answer one trivial statement (readiness), or raise ``DomainUnavailable``."""

    async def match_names(self, names: Sequence[str], *, viewer: str | None) -> list[DomainRow]:
        """The rows whose name or an alias equals one of ``names`` (normalised,
        compared case-insensitively)."""

    async def rows(self, refs: Sequence[DomainRef], *, viewer: str | None) -> list[DomainRow]:
        """The rows ``refs`` name that still exist."""

    async def records(self, refs: Sequence[DomainRef], *, viewer: str | None) -> list[DomainRecord]:
        """The rows ``refs`` name with their related rows."""

    async def expand(self, rows: Sequence[DomainRow], *, viewer: str | None) -> list[DomainRecord]:
        """``rows`` (as this source read them) with their related rows."""

    async def find(
        self, names: Sequence[str], limit: int, *, viewer: str | None, own: bool
    ) -> Matches:
        """In one round trip of the driver: with ``own`` the viewer's own row (with a
        ``[user]`` link) and the rows matching ``names``, at most ``limit``, with their
        related rows."""

    async def user_row(self, *, viewer: str | None) -> DomainRow | None:
        """The row the viewer is (the mapping's ``[user]``); None without a ``[user]``,
        without a viewer, or when the row rule hides it."""
