"""What a store method takes as one object where its list of arguments would otherwise be
written three times (the protocol in ``store/protocols.py`` and both backends): built by
the caller, passed down whole to the SQL that reads it."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Generic, TypeVar

import numpy as np

from cognimem.models import ItemStatus, MemoryItem
from cognimem.models.knowledge import Alias, Entity, Fact, FactConflict, HistoryEntry
from cognimem.models.references import ItemLinks
from cognimem.store.types import Knowledge, PendingItem

R = TypeVar("R")
M = TypeVar("M")
# an item's links before and after an alias removal rewrote them
Relinked = tuple[ItemLinks, ItemLinks]
# a fact before and after a name split moved its role to the split-off entity
Moved = tuple[Fact, Fact]


@dataclass(frozen=True)
class SummarySources:
    """A consolidation summary covering items an alias removal rewrote: its entities,
    its consolidation group (``window``, ``topic``, ``theme``, ``profile``) and the
    entities of each item it covers as they are once rewritten (an item no longer stored
    is absent)."""

    summary_id: str
    entities: list[str]
    group: str
    sources: dict[str, list[str]]


# a summary's entities before an alias removal corrected them, and after
Resummarised = tuple[SummarySources, list[str]]


@dataclass(frozen=True)
class ItemEdit:
    """An item's new state (``EditStore.update_item``), guarded by ``expected``, the
    state the edit was made from. With ``search_text`` the text changed: the lexical
    index and the embedding (``embedding``) are replaced too."""

    item: MemoryItem
    expected: MemoryItem
    history: HistoryEntry
    embedding: np.ndarray | None = None
    search_text: str | None = None


@dataclass(frozen=True)
class ItemsForgetting:
    """The tenant's items ``ids`` forgotten into ``status`` (``EditStore.forget_items``),
    by ``actor`` (``api``, or ``forgetting`` for the policy); ``dry_run`` reads the same
    and writes nothing."""

    tenant_id: str
    ids: Sequence[str]
    status: ItemStatus
    now: datetime
    dry_run: bool = False
    actor: str = "api"


@dataclass(frozen=True)
class ConflictResolution:
    """A conflict's resolved state and what it changes (``EditStore.resolve_conflict``),
    in the bundle a write commits: ``changes``' fact updates (the facts it supersedes),
    history entries, items of superseded constraints to silence and the other losers'
    items to mark no longer true."""

    conflict: FactConflict
    changes: Knowledge = field(default_factory=Knowledge)


@dataclass(frozen=True)
class AliasDeletion:
    """``entity``'s alias rows of the normalised name ``alias`` that ``user_id``'s words
    use (``None``: the namespace's shared rows); ``relink``: each of the same user's items
    linked to ``entity``, rewritten (``None``: left as it is); ``resummarise``: the
    entities of each summary covering an item rewritten (``None``: left as they are);
    ``move``: each of the same user's facts of ``entity`` (subject or object), given
    the entity's names left once the rows are gone (its own and every alias row's,
    normalised), as it becomes (``None``: left as it is); and ``then``: what to write
    with the rows removed, the items rewritten (before, after), the summaries corrected
    and the facts moved (before, after) (``EditStore.remove_aliases``). With ``retire``
    (an entity merged back), ``entity`` itself is deleted, with ``retire`` written, once
    nothing names it any more: no alias row of any user, no fact, relation or live item.
    Once a fact moves or the entity retires, the same user's live consolidation profiles
    of the entities ``profiles`` are archived (they state facts no longer their subject's)
    with ``archive``, given their ids, written. ``settle``: given the facts moved and the
    same user's facts (any status, as they are after the move) under the keys those had
    or now have, what undoes the supersessions the move leaves across two entities (fact
    updates guarded by the revision read, item marks, history); a fact it makes live
    again loses the marks its superseder put on its evidence items and gets its graph
    edges back, and a constraint made live again its evidence items its supersession
    silenced (status ``active``), with ``unsilence``, given (item, fact) for each, written;
    the items of a constraint ``settle`` supersedes (``silence_items``) are silenced."""

    entity: Entity
    alias: str
    user_id: str | None
    then: Callable[[list[Alias], list[Relinked], list[Resummarised], list[Moved]], Knowledge]
    relink: Callable[[ItemLinks], ItemLinks | None] = lambda _: None
    resummarise: Callable[[SummarySources], list[str] | None] = lambda _: None
    move: Callable[[Fact, Collection[str]], Fact | None] = lambda *_: None
    retire: Knowledge | None = None
    profiles: tuple[str, ...] = ()
    archive: Callable[[list[str]], Knowledge] = lambda _: Knowledge()
    settle: Callable[[list[Moved], list[Fact]], Knowledge] = lambda *_: Knowledge()
    unsilence: Callable[[list[tuple[str, str]]], Knowledge] = lambda _: Knowledge()


@dataclass(frozen=True)
class AliasGiving:
    """A name given back to ``entity`` (``EditStore.give_alias``): the summaries in the
    entity's namespace covering an item of ``relinked`` (each item whose links the name
    gives back: before, after) have their entities set as ``resummarise`` says, given
    the entities of the items they cover as stored before the links come back (``None``:
    left as they are); then ``then(summaries corrected)`` is written (the alias row, the
    items' links and the history)."""

    entity: Entity
    relinked: Sequence[Relinked]
    resummarise: Callable[[SummarySources], list[str] | None]
    then: Callable[[list[Resummarised]], Knowledge]


@dataclass(frozen=True)
class AliasesRemoved:
    """What ``EditStore.remove_aliases`` did: the alias rows it removed, and the ids of
    the consolidation profiles it archived (``AliasDeletion.profiles``), for the caller
    to build again."""

    removed: list[Alias]
    archived: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class KnowledgeView:
    """Whose knowledge a lookup sees: the user's and the namespace's shared rows (the
    shared ones alone for ``user_id`` ``None``), or every user's with ``all_users``
    (``KnowledgeStore.find_aliases``, ``find_relations``, ``find_conflicts``)."""

    tenant_id: str
    namespace: str
    user_id: str | None
    all_users: bool = False


@dataclass(frozen=True)
class ProcedureQuery:
    """Whose procedures ``ProcedureStore.list_procedures`` lists, most confident first, at
    most ``limit``: the user's (every user's of the namespace for ``None``); with
    ``agent_id`` (and no user) the agent's, those of no user; with ``levels``
    (``user_id`` and ``agent_id`` are then not read) those shared levels' alone, the
    procedures of no user whose agent is one of them (``None``: the organisation's, of no
    agent)."""

    tenant_id: str
    namespace: str
    user_id: str | None
    limit: int
    agent_id: str | None = None
    levels: Sequence[str | None] = ()


@dataclass(frozen=True)
class Attachment:
    """What a queued job attaches to raw events already stored (``ItemStore.add_items``):
    its items, the merges (event id → existing item ids), its ``knowledge``, and
    ``event_ids``, the job's events that yield no item (e.g. all secret)."""

    items: Sequence[PendingItem]
    knowledge: Knowledge | None = None
    merges: Mapping[str, Sequence[str]] = field(default_factory=dict)
    event_ids: Sequence[str] = ()

    def events(self) -> set[str]:
        """Every event the attachment marks processed."""
        events = {e for p in self.items for e in p.item.source_event_ids} | set(self.merges)
        return events | set(self.event_ids)

    def is_empty(self) -> bool:
        """Whether there is nothing to write: no event to mark, no knowledge."""
        return not self.events() and (self.knowledge is None or self.knowledge.is_empty())


@dataclass(frozen=True)
class RowsById(Generic[R, M]):
    """What a read by id fetches: ``columns`` of ``table``, each row (``R``, as the
    backend gives it) made into ``M`` by ``convert``. ``prefix`` qualifies the id and
    tenant columns where ``table`` is a join (``"i."``)."""

    table: str
    columns: str
    convert: Callable[[R], M]
    prefix: str = ""
