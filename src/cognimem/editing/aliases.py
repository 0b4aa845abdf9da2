"""A user undoing a name merge, as a pure decision.

Entity resolution links another name to a known entity (a first name to the one full
name it fits, a nickname that was stated, a close spelling) and records each link as an
``alias_added`` entity history entry. When a link is wrong, removing the alias takes
the name off the entity: the alias rows of that name go (the user's own, or the shared
ones for a call over every user) with an ``alias_removed`` history entry (actor
``api``) that keeps what they were.

The merge also linked items: a pronoun read as the alias ("Sally loves her job") links
its item to the entity (``models/references.py``). Those links go with the alias
(``relinked``): each resolution read as the name is taken off the item's metadata, and
the entity off its ``entities`` unless a resolution read as another of its names still
links it ("Sarah Jones is my sister and she is kind"). The removal's entry keeps the
links taken off (``before.item_links``) and the items no longer linked
(``after.unlinked_items``); each item rewritten gets a ``relinked`` entry.

A consolidation summary has the entities of the items it covers (a profile, its
subject's alone), so a summary made before the undo from an item linked by the name alone
still named the entity. Each summary covering a rewritten item is corrected with it
(``resummarised``): the entity stays while an item it covers still has it, and the
split-off entity comes in with an item now linked to it. Each summary corrected gets a
``relinked`` entry (its entities before and after) and the removal's entry lists those
no longer linked (``after.unlinked_summaries``). A profile stays its subject's.

Removing alone does not stop the rules from linking the name again (a lone first name
still fits the one full name it starts). ``split`` makes the removal stick: the name
becomes an entity of its own (same type, named by the alias's words, properties
``split_from``) holding the alias, which exact-name resolution finds before any first-
name or fuzzy link; the removal's entry names it (``split_into``) and the new entity
gets a ``split`` entry naming where it came from. The items' links the name made move
to it (``after.item_links``), and so do the facts read through the name alone
(``editing/alias_facts.py``): each gets a ``relinked`` entry (its subject, key and
entities before and after) and the removal's entry lists them (``after.moved_facts``).
A removal without a split moves no fact (there is no one to move it to). A
supersession between a fact moved and one left is undone with them
(``editing/alias_settle.py``).

Giving back a name removed without a split (``added``) undoes that removal
(``last_removal``: the entity's latest removal of the name taking a row of the same
user): the resolutions it took off the items (``before.item_links``) come back to the
items still stored that lack them, each item with a ``relinked`` entry; the summaries
covering those items (the removal's ``after.unlinked_summaries`` among them) have the
entity again once an item they cover has it (``resummarised_back``, a profile left as
it is), each with a ``relinked`` entry, in the same transaction
(``EditStore.give_alias``); the entry names them (``after.linked_summaries``).

Giving the name back to the entity (``merger``: an alias edit the other way) merges
the split-off entity back: its rows of the name go, the entity gets them back (source
``user_stated``, the user's word), and what the split moved comes back by the same rules
run the other way (the items' links read as the name, the summaries covering them, the
facts read through the name alone, among them those written about the split-off name
since). The entity's ``alias_added`` entry (actor ``api``) names what came back
(``merged_from``, ``item_links``, ``moved_facts``); the split-off entity gets a
``merged`` entry and is left with no name of the user's, so nothing resolves to it.
In the same transaction it is deleted (``retired``: a ``deleted`` entry keeping what it
was) once nothing names it any more: no alias row of any user (another user's row of
the name keeps it theirs), no fact, relation or live item. Its history stays readable.

A profile (consolidation's summary of a subject, built from its facts) is not rewritten
here: once a split or a merge moves a fact (or merges the entity back), the user's live
profiles of both entities are archived in the same transaction (``archived``: an
``archived`` entry each, ``because`` the edit), so no read shows a profile stating what
is now another entity's. Right after the transaction commits, the service builds the
two entities' profiles again from the facts as they are (``services/lifecycle/
profiles.py``: consolidation's own profile groups and gists, for those entities alone).
That runs after the transaction, not in it: a profile's gist may need the LLM (seconds,
and it can fail) and its vector the embedder, neither of which may hold the store's one
writer (SQLite) or the rows the edit locks (PostgreSQL), and the facts it states are
those the transaction moves, known only once it has run. Between the two, a read finds
no profile of either entity (as before any consolidation pass), never a stale one; a
rebuild that fails leaves them to the next pass and the edit's result says so.
"""

from __future__ import annotations

import string
from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Any

from cognimem.models.ids import new_id
from cognimem.models.knowledge import Alias, AliasSource, Entity, Fact, HistoryEntry
from cognimem.models.references import ItemLinks, ItemReference
from cognimem.store.arguments import Moved, Relinked, Resummarised, SummarySources
from cognimem.store.types import Knowledge
from cognimem.text.names import normalize_name

ACTOR = "api"
# the consolidation group of a subject's profile (``lifecycle.consolidate.GroupKind``)
PROFILE_GROUP = "profile"


def split_off(entity: Entity, alias: str, user_id: str | None, now: datetime) -> Entity:
    """The entity the name ``alias`` (normalised) becomes when split off ``entity``."""
    return Entity(
        id=new_id("ent"),
        tenant_id=entity.tenant_id,
        namespace=entity.namespace,
        user_id=user_id,
        name=string.capwords(alias),
        type=entity.type,
        properties={"split_from": entity.id},
        created_at=now,
    )


def relinked(entity_id: str, alias: str, twin: Entity | None, item: ItemLinks) -> ItemLinks | None:
    """``item``'s links once the name ``alias`` (normalised) is no longer ``entity_id``'s:
    the resolutions read as that name go (to ``twin`` with a split), and the entity
    with them unless another of the item's resolutions still names it; ``None`` when
    no resolution of the item was read as the name."""

    def made(link: dict[str, Any]) -> bool:
        said = link.get("name")
        named = normalize_name(said) if isinstance(said, str) else ""
        return link.get("entity_id") == entity_id and named == alias

    if not any(made(x) for x in item.links):
        return None
    if twin is None:
        links = [x for x in item.links if not made(x)]
    else:
        links = [x | {"entity_id": twin.id} if made(x) else x for x in item.links]
    entities = list(item.entities)
    if not any(x.get("entity_id") == entity_id for x in links):
        entities = [e for e in entities if e != entity_id]
    if twin is not None and twin.id not in entities:
        entities.append(twin.id)
    return ItemLinks(item.item_id, entities, links)


def resummarised(entity_id: str, twin: Entity | None, summary: SummarySources) -> list[str] | None:
    """``summary``'s entities once the items it covers are relinked (``summary.sources``:
    their entities now): ``entity_id`` stays only while one of them has it, and the
    split-off ``twin`` comes in when one has it; ``None`` when that changes nothing or
    the summary is a profile (about its subject, whoever its items name)."""
    if summary.group == PROFILE_GROUP:
        return None
    held = {e for entities in summary.sources.values() for e in entities}
    entities = set(summary.entities)
    if entity_id not in held:
        entities.discard(entity_id)
    if twin is not None and twin.id in held:
        entities.add(twin.id)
    if entities == set(summary.entities):
        return None
    return sorted(entities)  # as consolidation writes them


def removal(
    entity: Entity,
    removed: Sequence[Alias],
    twin: Entity | None,
    items: Sequence[Relinked],
    summaries: Sequence[Resummarised],
    facts: Sequence[Moved],
    now: datetime,
) -> Knowledge:
    """What removing ``removed`` (the rows of one name) from ``entity`` writes beside
    the deletion: the history of the removal, of the split (``twin``, the entity split
    off, or ``None``), of each item whose links it rewrote (``items``: before, after),
    of each summary it corrected (``summaries``) and of each fact it moved (``facts``:
    before, after)."""
    alias = removed[0].alias
    out = Knowledge()
    if twin is not None:
        out.entities.append(twin)
        out.aliases.append(
            Alias(entity_id=twin.id, alias=alias, user_id=twin.user_id,
                  source=AliasSource.USER_STATED, confidence=1.0)
        )  # fmt: skip
        out.history.append(
            _entry(twin, "split", None, {"alias": alias, "split_from": entity.id}, now)
        )
    taken = {b.item_id: _taken(b, a) for b, a in items}  # one rewrite per item
    before: dict[str, Any] = {
        "alias": alias,
        "rows": [a.model_dump(mode="json", exclude={"entity_id"}) for a in removed],
        "item_links": [{"item_id": i} | x for i, (old, _) in taken.items() for x in old],
    }
    after: dict[str, Any] = {
        "alias": None,
        "split_into": None if twin is None else twin.id,
        "item_links": [{"item_id": i} | x for i, (_, new) in taken.items() for x in new],
        "unlinked_items": [b.item_id for b, a in items if entity.id not in a.entities],
        "unlinked_summaries": [s.summary_id for s, a in summaries if entity.id not in a],
        "moved_facts": [a.id for _, a in facts],
    }
    out.history.insert(0, _entry(entity, "alias_removed", before, after, now))
    out.history += [_relinked(entity, b, a, taken[b.item_id], now) for b, a in items]
    out.history += [_corrected(entity, s, a, now) for s, a in summaries]
    out.history += [_moved(b, a, now) for b, a in facts]
    return out


def last_removal(
    history: Sequence[HistoryEntry], name: str, user_id: str | None
) -> HistoryEntry | None:
    """The entity's latest ``alias_removed`` entry of ``name`` (normalised) taking a row
    of ``user_id`` (``None``: the shared rows), when it split nothing off: the removal a
    name given back undoes."""
    for entry in reversed(history):
        before, after = entry.before or {}, entry.after or {}
        if entry.action != "alias_removed" or before.get("alias") != name:
            continue
        rows = before.get("rows", [])
        if any(isinstance(r, dict) and r.get("user_id") == user_id for r in rows):
            return None if after.get("split_into") else entry
    return None


def taken_links(removal: HistoryEntry | None) -> list[dict[str, Any]]:
    """The item links a removal took off (its ``before.item_links``: each an
    ``item_id`` and the resolution it held); none without a removal."""
    taken = [] if removal is None else (removal.before or {}).get("item_links", [])
    return [x for x in taken if isinstance(x, dict) and "item_id" in x]


def given_back(entity_id: str, removal: HistoryEntry | None, item: ItemLinks) -> ItemLinks | None:
    """``item``'s links once the links ``removal`` took off it come back (those it lacks),
    ``entity_id`` among its entities; ``None`` when none comes back."""
    taken = [
        {k: v for k, v in x.items() if k != "item_id"}
        for x in taken_links(removal)
        if x.get("item_id") == item.item_id
    ]
    links = [x for x in taken if x not in item.links]
    if not links:
        return None
    entities = list(dict.fromkeys([*item.entities, entity_id]))
    return ItemLinks(item.item_id, entities, [*item.links, *links])


def resummarised_back(
    entity_id: str, restored: Collection[str], summary: SummarySources
) -> list[str] | None:
    """``summary``'s entities once a name given back links ``entity_id`` again to the items
    ``restored``: the entity comes in when an item it covers has it (``summary.sources``:
    their entities before the links come back); ``None`` when that changes nothing or the
    summary is a profile."""
    if summary.group == PROFILE_GROUP or entity_id in summary.entities:
        return None
    if not any(i in restored or entity_id in e for i, e in summary.sources.items()):
        return None
    return sorted({*summary.entities, entity_id})  # as consolidation writes them


def added(
    entity: Entity,
    row: Alias,
    now: datetime,
    removal: HistoryEntry | None = None,
    items: Sequence[ItemLinks] = (),
    summaries: Sequence[Resummarised] = (),
) -> Knowledge:
    """A name no entity of the scope holds given to ``entity``: the row, and its
    ``alias_added`` entry (actor ``api``). When it undoes ``removal`` (``last_removal``),
    the item links that removal took off come back to the items still stored (``items``,
    their links now: ``given_back``), each with a ``relinked`` entry, the summaries
    covering them have the entity again (``summaries``, corrected by
    ``resummarised_back``), each with a ``relinked`` entry, and the entry names them
    (``item_links``, ``linked_summaries``, ``restored_from``)."""
    out = Knowledge(aliases=[row])
    back: Links = []
    for item in items:
        now_linked = given_back(entity.id, removal, item)
        if now_linked is None:
            continue
        links = now_linked.links[len(item.links) :]
        out.item_links += [
            ItemReference(entity.tenant_id, item.item_id, entity.id, x) for x in links
        ]
        back += [{"item_id": item.item_id} | x for x in links]
        before = {"entities": item.entities, "links": []}
        after_item = {"entities": now_linked.entities, "links": links}
        out.history.append(_relinked_entry(entity, item.item_id, before, after_item, now))
    out.history += [_corrected(entity, s, a, now) for s, a in summaries]
    after = {
        "alias": row.alias,
        "source": row.source.value,
        "merged_from": None,
        "restored_from": None if removal is None else removal.id,
        "item_links": back,
        "linked_summaries": [s.summary_id for s, _ in summaries],
    }
    out.history.insert(0, _entry(entity, "alias_added", None, after, now))
    return out


def merger(
    entity: Entity,
    twin: Entity,
    removed: Sequence[Alias],
    items: Sequence[Relinked],
    summaries: Sequence[Resummarised],
    facts: Sequence[Moved],
    now: datetime,
) -> Knowledge:
    """What merging ``twin`` (split off ``entity``) back writes beside the deletion of its
    rows of the name (``removed``): the same rows as ``entity``'s, and the history of the
    merge, of each item relinked, summary corrected and fact moved back."""
    alias = removed[0].alias
    out = Knowledge(
        aliases=[
            Alias(entity_id=entity.id, alias=alias, user_id=r.user_id,
                  source=AliasSource.USER_STATED, confidence=1.0)
            for r in removed
        ]
    )  # fmt: skip
    taken = {b.item_id: _taken(b, a) for b, a in items}
    after: dict[str, Any] = {
        "alias": alias,
        "source": AliasSource.USER_STATED.value,
        "merged_from": twin.id,
        "item_links": [{"item_id": i} | x for i, (_, new) in taken.items() for x in new],
        "moved_facts": [a.id for _, a in facts],
    }
    out.history.append(_entry(entity, "alias_added", None, after, now))
    out.history.append(_entry(twin, "merged", {"alias": alias}, {"merged_into": entity.id}, now))
    out.history += [_relinked(twin, b, a, taken[b.item_id], now) for b, a in items]
    out.history += [_corrected(twin, s, a, now) for s, a in summaries]
    out.history += [_moved(b, a, now) for b, a in facts]
    return out


def retired(twin: Entity, entity: Entity, now: datetime) -> Knowledge:
    """What deleting ``twin``, merged back into ``entity``, writes: its ``deleted``
    entry (what it was, whom it went into); its history stays readable by its id."""
    before = twin.model_dump(mode="json", include={"name", "type", "user_id", "properties"})
    after = {"merged_into": entity.id}
    return Knowledge(history=[_entry(twin, "deleted", before, after, now)])


def archived(entity: Entity, edit: str, now: datetime, profiles: Sequence[str]) -> Knowledge:
    """The ``archived`` entry of each consolidation profile an alias ``edit`` (of
    ``entity``: ``alias_removed`` or ``alias_added``) archived: it stated facts the edit
    moved, so it is not read; the edit builds the entity's profile again once it has
    committed (``services/lifecycle/profiles.py``)."""
    return Knowledge(
        history=[
            _item_entry(
                entity,
                p,
                "archived",
                {"status": "active"},
                {"status": "archived", "because": edit, "entity_id": entity.id},
                now,
            )
            for p in profiles
        ]
    )


Links = list[dict[str, Any]]


def _taken(before: ItemLinks, after: ItemLinks) -> tuple[Links, Links]:
    """The resolutions of an item that the rewrite took off, and what it put in their
    place (the same, pointing at the split-off entity)."""
    old = [x for x in before.links if x not in after.links]
    new = [x for x in after.links if x not in before.links]
    return old, new


def _relinked(
    entity: Entity, before: ItemLinks, after: ItemLinks, taken: tuple[Links, Links], now: datetime
) -> HistoryEntry:
    old, new = taken
    return _relinked_entry(
        entity,
        before.item_id,
        {"entities": before.entities, "links": old},
        {"entities": after.entities, "links": new},
        now,
    )


def _corrected(
    entity: Entity, summary: SummarySources, entities: list[str], now: datetime
) -> HistoryEntry:
    before = {"entities": summary.entities}
    return _relinked_entry(entity, summary.summary_id, before, {"entities": entities}, now)


def _moved(before: Fact, after: Fact, now: datetime) -> HistoryEntry:
    """The ``relinked`` history entry of a fact a split moved to the split-off entity."""

    def held(f: Fact) -> dict[str, Any]:
        return f.model_dump(
            mode="json", include={"key", "subject", "subject_entity_id", "object_entity_id"}
        )

    return HistoryEntry.new(
        **HistoryEntry.target(after),
        action="relinked",
        actor=ACTOR,
        at=now,
        before=held(before),
        after=held(after),
    )


def _relinked_entry(
    entity: Entity, item_id: str, before: dict[str, Any], after: dict[str, Any], now: datetime
) -> HistoryEntry:
    """The ``relinked`` history entry of an item (or summary) an alias undo rewrote."""
    return _item_entry(entity, item_id, "relinked", before, after, now)


def _item_entry(
    entity: Entity,
    item_id: str,
    action: str,
    before: dict[str, Any],
    after: dict[str, Any],
    now: datetime,
) -> HistoryEntry:
    """The history entry ``action`` of an item an alias edit of ``entity`` changed."""
    return HistoryEntry.new(
        tenant_id=entity.tenant_id,
        target_type="item",
        target_id=item_id,
        action=action,
        actor=ACTOR,
        at=now,
        before=before,
        after=after,
    )


def _entry(
    entity: Entity,
    action: str,
    before: dict[str, Any] | None,
    after: dict[str, Any],
    now: datetime,
) -> HistoryEntry:
    return HistoryEntry.new(
        **HistoryEntry.target(entity),
        action=action,
        actor=ACTOR,
        at=now,
        before=before,
        after=after,
    )
