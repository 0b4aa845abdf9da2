"""Undoing a wrong name merge (issue 32): an alias taken off an entity, or the name
split back into an entity of its own, with the history that says what was undone.
Through ``Memory`` and through the SDK over the real app, on SQLite and PostgreSQL (the
dashboard's control: ``test_dashboard_browser.py``)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from datetime import UTC, datetime, timedelta

import httpx
import pytest

from cognimem import AsyncMemoryClient, Conflict, InvalidInput, Memory, NotFound, Settings
from cognimem.api import create_app
from cognimem.errors import ProviderUnavailable
from cognimem.models import ItemStatus, MemoryItem, MessageResult
from cognimem.models.knowledge import AliasAddition, AliasSource, Entity, EntityType
from cognimem.providers.fakes import HashingEmbedder
from cognimem.providers.llm.fakes import ScriptedLLM
from cognimem.store.types import Knowledge, PendingMessage
from tests.doubles import new_api_key
from tests.e2e.conversation_world import USER as U
from tests.e2e.conversation_world import say


async def known(memory: Memory) -> dict[str, tuple[Entity, set[str]]]:
    return {
        e.name: (e, {a.alias for a in aliases}) for e, aliases in await memory.entities(user_id=U)
    }


async def test_a_first_name_merged_by_mistake_splits_into_its_own_person(
    memory: Memory,
) -> None:
    await say(memory, "My sister Sarah Jones is a nurse.", "Sarah lives in Boston.")
    sarah, names = (await known(memory))["Sarah Jones"]
    assert "sarah" in names  # the first name was linked to the full name
    [boston] = [f for f in await memory.facts(user_id=U) if f.predicate == "city"]
    assert (boston.subject, boston.subject_entity_id) == ("sarah_jones", sarah.id)

    undone = await memory.remove_alias(sarah.id, "Sarah", split=True, user_id=U)
    assert [(a.alias, a.source) for a in undone.removed] == [("sarah", AliasSource.COREFERENCE)]
    assert {a.alias for a in undone.entity.aliases} == {"sarah jones"}
    assert undone.split_into is not None
    twin = undone.split_into.entity
    assert (twin.name, twin.type, twin.properties) == (
        "Sarah", EntityType.PERSON, {"split_from": sarah.id},
    )  # fmt: skip
    assert [a.alias for a in undone.split_into.aliases] == ["sarah"]
    # no profile was made (no consolidation pass ran): none is built by the edit either
    assert (undone.rebuilt_profiles, undone.degraded) == ([], [])
    assert await memory.list_items(user_id=U, kinds=["summary"]) == []

    # provenance: the merge and its undoing are both in the entity's history
    history = await memory.history(sarah.id)
    assert [h.action for h in history][-2:] == ["alias_added", "alias_removed"]
    removal = history[-1]
    assert removal.actor == "api"
    assert removal.before is not None
    assert removal.before["alias"] == "sarah"
    assert removal.after == {
        "alias": None, "split_into": twin.id, "item_links": [], "unlinked_items": [],
        "unlinked_summaries": [], "moved_facts": [boston.id],
    }  # fmt: skip
    # what was said of "Sarah" alone is the split-off person's
    moved = await memory.get_fact("sarah:location:city", user_id=U)
    assert (moved.id, moved.subject_entity_id) == (boston.id, twin.id)
    [split] = await memory.history(twin.id)
    assert (split.action, split.after) == ("split", {"alias": "sarah", "split_from": sarah.id})

    # the undo sticks: a later "Sarah" is the split-off person, not Sarah Jones
    await say(memory, "Sarah works at Acme Corp.")
    now = await known(memory)
    assert "sarah" not in now["Sarah Jones"][1]
    assert now["Sarah"][0].id == twin.id
    [works] = [f for f in await memory.facts(user_id=U) if f.predicate == "employer"]
    assert (works.subject, works.subject_entity_id) == ("sarah", twin.id)


async def test_a_nickname_removed_without_a_split_is_gone(memory: Memory) -> None:
    await say(memory, "My sister Sarah Jones is a nurse.", "She goes by Sally.")
    sarah, names = (await known(memory))["Sarah Jones"]
    assert "sally" in names
    undone = await memory.remove_alias(sarah.id, "  SALLY ", user_id=U)
    assert undone.split_into is None
    assert [a.source for a in undone.removed] == [AliasSource.USER_STATED]
    assert "sally" not in (await known(memory))["Sarah Jones"][1]
    assert [h.action for h in await memory.history(sarah.id)][-1] == "alias_removed"
    # nothing left to remove; another user's scope does not hold it; the own name stays
    with pytest.raises(NotFound):
        await memory.remove_alias(sarah.id, "Sally", user_id=U)
    with pytest.raises(NotFound):
        await memory.remove_alias("ent_missing", "Sally", user_id=U)
    with pytest.raises(InvalidInput) as err:
        await memory.remove_alias(sarah.id, "Sarah Jones", user_id=U)
    assert err.value.field == "alias"
    assert {"sarah jones"} <= (await known(memory))["Sarah Jones"][1]


@pytest.fixture
async def client(memory: Memory) -> AsyncIterator[AsyncMemoryClient]:
    key = await new_api_key(memory.store)
    transport = httpx.ASGITransport(app=create_app(memory))
    async with AsyncMemoryClient("http://cognimem.test", transport=transport, api_key=key) as sdk:
        yield sdk


async def test_the_sdk_undoes_a_merge_over_http(memory: Memory, client: AsyncMemoryClient) -> None:
    await say(memory, "My sister Sarah Jones is a nurse.", "Sarah lives in Boston.")
    sarah, _ = (await known(memory))["Sarah Jones"]
    undone = await client.remove_alias(sarah.id, "sarah", split=True, user_id=U)
    assert [a.alias for a in undone.removed] == ["sarah"]
    assert undone.split_into is not None
    assert undone.split_into.entity.name == "Sarah"
    names = {e.name: {a.alias for a in aliases} for e, aliases in await client.entities(user_id=U)}
    assert names["Sarah Jones"] == {"sarah jones"}
    assert names["Sarah"] == {"sarah"}
    assert [h.action for h in await client.history(sarah.id)][-1] == "alias_removed"
    with pytest.raises(NotFound):
        await client.remove_alias(sarah.id, "sarah", user_id=U)
    with pytest.raises(InvalidInput):
        await client.remove_alias(sarah.id, "Sarah Jones", user_id=U)
    with pytest.raises(InvalidInput):  # a user's call names the user
        await client.remove_alias(sarah.id, "sarah")


Face = Memory | AsyncMemoryClient


async def linked(face: Face, item_id: str) -> tuple[list[str], list[str]]:
    """An item's entities, and who each of its resolved references was read as."""
    item = await face.get(item_id)
    return item.entities, [x["name"] for x in item.metadata.get("coreference", [])]


async def write_each(face: Face, *lines: str) -> dict[str, str]:
    """Each line written as one message of the user's, with the id of its item."""
    written: dict[str, str] = {}
    for line in lines:
        [written[line]] = (await face.write(line, user_id=U, session_id="s1")).item_ids
    return written


async def test_undoing_a_nickname_unlinks_the_items_it_linked_and_nothing_else(
    face: Face,
) -> None:
    written = await write_each(
        face,
        "My sister Sarah Jones is a nurse.",
        "She goes by Sally.",
        "Sally loves her job. She works nights.",
        "Sally is tired. Sarah Jones is my sister and she is kind.",
        "My friend Luis is a doctor.",
        "He lives in Perth.",
    )
    people = {e.name: e for e, _ in await face.entities(user_id=U)}
    sarah, luis = people["Sarah Jones"], people["Luis"]
    by_alias = written["Sally loves her job. She works nights."]
    both = written["Sally is tired. Sarah Jones is my sister and she is kind."]
    by_name = written["She goes by Sally."]
    he = written["He lives in Perth."]
    assert await linked(face, by_alias) == ([sarah.id], ["Sally", "Sally"])
    assert await linked(face, both) == ([sarah.id], ["Sarah Jones", "Sally"])
    before = {i: await face.get(i) for i in (by_name, he)}

    undone = await face.remove_alias(sarah.id, "Sally", user_id=U)
    assert [a.alias for a in undone.removed] == ["sally"]
    assert "sally" not in {a.alias for a in undone.entity.aliases}

    # the links the nickname made go; one the item also makes by the own name stays
    assert await linked(face, by_alias) == ([], [])
    assert await linked(face, both) == ([sarah.id], ["Sarah Jones"])
    for item_id, item in before.items():  # linked by another name, or another person
        assert await face.get(item_id) == item
    assert (await face.get(he)).entities == [luis.id]

    # provenance: the entity's entry names the links taken off, each item's its own
    removal = (await face.history(sarah.id))[-1]
    assert removal.action == "alias_removed"
    assert removal.before is not None
    assert removal.after is not None
    assert sorted((x["item_id"], x["said"]) for x in removal.before["item_links"]) == sorted(
        [(by_alias, "her"), (by_alias, "She"), (both, "she")]
    )
    assert removal.after["item_links"] == []
    assert removal.after["unlinked_items"] == [by_alias]
    for item_id, entities in ((by_alias, []), (both, [sarah.id])):
        entry = (await face.history(item_id))[-1]
        assert (entry.action, entry.actor) == ("relinked", "api")
        assert entry.before is not None
        assert entry.after is not None
        assert (entry.before["entities"], entry.after["entities"]) == ([sarah.id], entities)
        assert {x["name"] for x in entry.before["links"]} == {"Sally"}
        assert entry.after["links"] == []


async def test_a_split_moves_the_links_the_name_made_to_the_new_entity(face: Face) -> None:
    [nights] = (
        await face.write("My sister Sarah Jones is a nurse.", user_id=U, session_id="s1")
    ).item_ids
    await face.write("Sarah lives in Boston.", user_id=U, session_id="s1")
    [cat] = (await face.write("She has a cat.", user_id=U, session_id="s1")).item_ids
    sarah = {e.name: e for e, _ in await face.entities(user_id=U)}["Sarah Jones"]
    assert await linked(face, cat) == ([sarah.id], ["Sarah"])

    undone = await face.remove_alias(sarah.id, "sarah", split=True, user_id=U)
    assert undone.split_into is not None
    twin = undone.split_into.entity
    assert await linked(face, cat) == ([twin.id], ["Sarah"])
    item = await face.get(cat)
    assert [x["entity_id"] for x in item.metadata["coreference"]] == [twin.id]
    assert (await face.get(nights)).entities == []
    removal = (await face.history(sarah.id))[-1]
    assert removal.after is not None
    assert [(x["item_id"], x["entity_id"]) for x in removal.after["item_links"]] == [(cat, twin.id)]
    assert removal.after["unlinked_items"] == [cat]


T0 = datetime(2026, 11, 20, 9, tzinfo=UTC)
# three session windows of one conversation (consolidation starts a window after six
# hours without a message): Sarah Jones named, then linked by her nickname alone
# (beside Luis), then by her nickname and her own name
DAYS = (
    (0, "My sister Sarah Jones is a nurse."),
    (0, "She goes by Sally."),
    (8, "Sally loves her job. She works nights."),
    (8, "My friend Luis is a doctor."),
    (8, "He lives in Perth."),
    (16, "Sally is tired. Sarah Jones is my sister and she is kind."),
)


@pytest.mark.parametrize("split", [False, True], ids=["remove", "split"])
async def test_undoing_a_nickname_corrects_the_summaries_made_before(
    face: Face, memory_url: str, split: bool
) -> None:
    said: list[str] = []
    for hours, line in DAYS:
        at = T0 + timedelta(hours=hours)
        said += (await face.write(line, user_id=U, session_id="s1", occurred_at=at)).item_ids
    people = {e.name: e for e, _ in await face.entities(user_id=U)}
    sarah, luis = people["Sarah Jones"], people["Luis"]
    # the background job (the same database through its own Memory)
    async with Memory.open(memory_url, settings=Settings(), embedder=HashingEmbedder()) as job:
        made = await job.consolidate(user_id=U)
    summaries = [await face.get(i) for i in made.summary_ids]
    windows = {
        tuple(s.metadata["consolidation"]["covers"]): s
        for s in summaries
        if s.metadata["consolidation"]["group"] == "window"
    }
    first, nicknamed, both = (windows[tuple(said[i:j])] for i, j in ((0, 2), (2, 5), (5, 6)))
    assert nicknamed.entities == sorted([sarah.id, luis.id])  # "Sally", read as her
    profiles = {s.id: s for s in summaries if s.id not in {first.id, nicknamed.id, both.id}}

    undone = await face.remove_alias(sarah.id, "Sally", split=split, user_id=U)
    twin = [] if undone.split_into is None else [undone.split_into.entity.id]

    # the window linked to her by the nickname alone no longer names her (the split-
    # off name instead); one that still names her in its own words keeps her (and
    # gains the split-off name its nickname now links)
    now = await face.get(nicknamed.id)
    assert now.entities == sorted([luis.id, *twin])
    assert (now.text, now.metadata) == (nicknamed.text, nicknamed.metadata)
    assert (await face.get(both.id)).entities == sorted([sarah.id, *twin])
    for kept in (first, *profiles.values()):  # a profile is about its subject
        assert await face.get(kept.id) == kept
    # provenance: the summary's own entry, and the removal's
    entry = (await face.history(nicknamed.id))[-1]
    assert (entry.action, entry.actor) == ("relinked", "api")
    assert entry.before == {"entities": nicknamed.entities}
    assert entry.after == {"entities": now.entities}
    removal = (await face.history(sarah.id))[-1]
    assert removal.after is not None
    assert removal.after["unlinked_items"] == [said[2]]
    assert removal.after["unlinked_summaries"] == [nicknamed.id]
    assert [h.action for h in await face.history(both.id)][-1] == (
        "relinked" if split else "consolidated"
    )


async def test_a_nickname_given_back_links_again_the_summaries_its_removal_corrected(
    face: Face, memory_url: str
) -> None:
    """Removed without a split and given back, "Sally" links her again to the items
    read as her and so to the summaries covering them (a profile stays as it is)."""
    said: list[str] = []
    for hours, line in DAYS:
        at = T0 + timedelta(hours=hours)
        said += (await face.write(line, user_id=U, session_id="s1", occurred_at=at)).item_ids
    people = {e.name: e for e, _ in await face.entities(user_id=U)}
    sarah, luis = people["Sarah Jones"], people["Luis"]
    async with Memory.open(memory_url, settings=Settings(), embedder=HashingEmbedder()) as job:
        made = await job.consolidate(user_id=U)
    summaries = {i: await face.get(i) for i in made.summary_ids}
    [nicknamed] = [
        s for s in summaries.values() if s.metadata["consolidation"]["covers"] == said[2:5]
    ]
    removed = await face.remove_alias(sarah.id, "Sally", user_id=U)
    assert removed.split_into is None
    assert (await face.get(nicknamed.id)).entities == [luis.id]

    await face.add_alias(sarah.id, "Sally", user_id=U)
    # every summary is as consolidation made it, its entities those of its items again
    for summary_id, summary in summaries.items():
        assert await face.get(summary_id) == summary
    entry = (await face.history(nicknamed.id))[-1]
    assert (entry.action, entry.actor) == ("relinked", "api")
    assert (entry.before, entry.after) == (
        {"entities": [luis.id]}, {"entities": sorted([sarah.id, luis.id])},
    )  # fmt: skip
    added = (await face.history(sarah.id))[-1]
    assert added.after is not None
    assert (added.action, added.after["linked_summaries"]) == ("alias_added", [nicknamed.id])


async def test_removing_the_shared_name_leaves_the_links_a_user_s_own_name_makes(
    memory: Memory,
) -> None:
    """The shared rows' removal rewrites the items of no user: a user whose words linked
    through the shared name holds a row of the name of their own (recorded when it was
    used), which stays and still says what their items link, until they remove it."""
    shared = {"level": "namespace"}
    await memory.write("Our director Sarah Jones runs the lab.", scope=shared)
    [goes_by] = (await memory.write("She goes by Sally.", scope=shared)).item_ids
    sarah = {e.name: e for e, _ in await memory.entities(scope=shared)}["Sarah Jones"]
    await say(memory, "Sally is my boss.")
    [upset] = (await memory.write("She was upset today.", user_id=U, session_id="s1")).item_ids
    assert await linked(memory, upset) == ([sarah.id], ["Sally"])
    own = {(a.alias, a.user_id) for e, aliases in await memory.entities(user_id=U) for a in aliases}
    assert {("sally", None), ("sally", U)} <= own

    undone = await memory.remove_alias(sarah.id, "Sally", all_users=True)
    assert [(a.alias, a.user_id) for a in undone.removed] == [("sally", None)]
    assert await linked(memory, goes_by) == ([sarah.id], ["Sarah Jones"])  # by her own name
    assert await linked(memory, upset) == ([sarah.id], ["Sally"])  # the user's row says so

    await memory.remove_alias(sarah.id, "Sally", user_id=U)
    assert await linked(memory, upset) == ([], [])


async def test_a_split_moves_the_facts_said_through_the_name_and_no_other(
    face: Face, memory_url: str
) -> None:
    """ "Lizzie" was taken for Elizabeth Smith's nickname: what was said of Lizzie (by
    name, or by a pronoun read as her) goes with the name; what was said of Elizabeth
    Smith, or of her by both names, stays."""
    for line in (
        "My colleague Elizabeth Smith is a lawyer.",
        "She goes by Lizzie.",
        "Lizzie works at Acme Corp.",
        "She lives in Boston.",
        "Lizzie is my sister.",
        "Elizabeth Smith likes tea.",
    ):
        await face.write(line, user_id=U, session_id="s1")
    people = {e.name: e for e, _ in await face.entities(user_id=U)}
    liz, acme, me = people["Elizabeth Smith"], people["Acme Corp"], people["user"]
    before = {f.text: f for f in await face.facts(user_id=U)}
    works, city, sister = (
        before[t] for t in ("Lizzie works at Acme Corp.", "Lizzie lives in Boston.",
                            "Lizzie is my sister.")
    )  # fmt: skip
    assert city.provenance["coreference"][0]["said"] == "She"  # "She" read as "Lizzie"
    assert (works.key, works.subject_entity_id) == ("elizabeth_smith:occupation:employer", liz.id)
    assert sister.object_entity_id == liz.id

    undone = await face.remove_alias(liz.id, "Lizzie", split=True, user_id=U)
    assert undone.split_into is not None
    twin = undone.split_into.entity
    after = {f.id: f for f in await face.facts(user_id=U)}
    assert (after[works.id].key, after[works.id].subject) == (
        "lizzie:occupation:employer",
        "lizzie",
    )
    assert after[works.id].subject_entity_id == twin.id
    assert after[works.id].object_entity_id == acme.id
    assert (after[city.id].key, after[city.id].subject_entity_id) == (
        "lizzie:location:city", twin.id,
    )  # fmt: skip
    # the user's sister is the split-off Lizzie; the key (the user's) is unchanged
    assert (after[sister.id].key, after[sister.id].subject_entity_id) == (sister.key, me.id)
    assert after[sister.id].object_entity_id == twin.id
    for text in ("My colleague Elizabeth Smith is a lawyer.", "Elizabeth Smith likes tea."):
        for kept in [f for f in before.values() if f.text == text]:
            assert after[kept.id] == kept  # said of Elizabeth Smith by her own name
    # the graph follows the facts: the employer edge is Lizzie's now (read in-process:
    # the SDK has no graph call)
    async with Memory.open(memory_url, settings=Settings(), embedder=HashingEmbedder()) as mem:
        edges = {
            (r.source_entity_id, r.relation, r.target_entity_id)
            for r in await mem.relations([liz.id, twin.id], user_id=U)
        }
    assert {(twin.id, "employer", acme.id), (me.id, "sister", twin.id)} <= edges
    assert not {(liz.id, "employer", acme.id), (me.id, "sister", liz.id)} & edges

    # provenance: the removal names the facts moved, each fact says what it was
    removal = (await face.history(liz.id))[-1]
    assert removal.after is not None
    assert sorted(removal.after["moved_facts"]) == sorted([works.id, city.id, sister.id])
    entry = (await face.history(works.id))[-1]
    assert (entry.action, entry.actor) == ("relinked", "api")
    assert entry.before == {
        "key": works.key, "subject": "elizabeth_smith", "subject_entity_id": liz.id,
        "object_entity_id": acme.id,
    }  # fmt: skip
    assert entry.after == entry.before | {
        "key": "lizzie:occupation:employer", "subject": "lizzie", "subject_entity_id": twin.id,
    }  # fmt: skip

    # a later word about Lizzie's job is reconciled with the fact moved, not with hers
    await face.write("Lizzie works at Globex Inc.", user_id=U, session_id="s1")
    employers = {
        f.value: (f.status.value, f.key, f.subject_entity_id)
        for f in await face.facts(user_id=U, include_history=True)
        if f.predicate == "employer"
    }
    assert employers == {
        "Acme Corp": ("superseded", "lizzie:occupation:employer", twin.id),
        "Globex Inc": ("active", "lizzie:occupation:employer", twin.id),
    }


async def test_giving_the_name_back_merges_the_split_off_entity_back(face: Face) -> None:
    """The undo of the undo: the name given back to the entity it was split off
    brings back what the split moved (and what was said of the name since)."""
    written = await write_each(
        face,
        "My colleague Elizabeth Smith is a lawyer.",
        "She goes by Lizzie.",
        "Lizzie works at Acme Corp.",
        "She lives in Boston.",
    )
    people = {e.name: e for e, _ in await face.entities(user_id=U)}
    liz, acme = people["Elizabeth Smith"], people["Acme Corp"]
    merged = {f.id: f for f in await face.facts(user_id=U)}
    boston = written["She lives in Boston."]
    linked_before = await linked(face, boston)
    counted = (await face.stats(user_id=U)).entities
    undone = await face.remove_alias(liz.id, "Lizzie", split=True, user_id=U)
    assert undone.split_into is not None
    twin = undone.split_into.entity
    assert (await face.stats(user_id=U)).entities == counted + 1
    [since] = (
        await face.write("Lizzie likes jazz.", user_id=U, session_id="s1")
    ).knowledge.facts_created
    assert (await face.get_fact("lizzie:preference:music:jazz", user_id=U)).id == since

    back = await face.add_alias(liz.id, "Lizzie", user_id=U)
    assert back.merged_from is not None
    assert back.merged_from.entity.id == twin.id
    assert back.merged_from.aliases == []  # nothing of the user's resolves to it
    assert [(a.alias, a.source) for a in back.added] == [("lizzie", AliasSource.USER_STATED)]
    assert "lizzie" in {a.alias for a in back.entity.aliases}
    # the facts the split moved are hers again as they were (but for their revision);
    # what was said of the name meanwhile is hers too
    now = {f.id: f for f in await face.facts(user_id=U)}
    for fact_id, was in merged.items():
        assert now[fact_id].model_copy(update={"revision": was.revision}) == was
    jazz = now[since]
    assert (jazz.key, jazz.subject, jazz.subject_entity_id) == (
        "elizabeth_smith:preference:music:jazz", "elizabeth_smith", liz.id,
    )  # fmt: skip
    assert await linked(face, boston) == linked_before
    employer = merged[next(i for i, f in merged.items() if f.object_entity_id == acme.id)]
    assert now[employer.id].subject_entity_id == liz.id

    # provenance: the entity's entry names what came back, the split-off one its merge
    entry = (await face.history(liz.id))[-1]
    assert (entry.action, entry.actor) == ("alias_added", "api")
    assert entry.after is not None
    assert entry.after["merged_from"] == twin.id
    assert sorted(entry.after["moved_facts"]) == sorted(
        [
            *(i for i, f in merged.items() if f.subject_entity_id == liz.id and "Lizzie" in f.text),
            since,
        ]
    )
    assert [x["item_id"] for x in entry.after["item_links"]] == [boston]
    # nothing names the split-off entity any more: it is deleted, its history kept
    assert [(h.action, h.after) for h in await face.history(twin.id)] == [
        ("split", {"alias": "lizzie", "split_from": liz.id}),
        ("merged", {"merged_into": liz.id}),
        ("deleted", {"merged_into": liz.id}),
    ]
    deleted = (await face.history(twin.id))[-1]
    assert deleted.before == {
        "name": "Lizzie", "type": "person", "user_id": U, "properties": {"split_from": liz.id},
    }  # fmt: skip
    assert (await face.stats(user_id=U)).entities == counted
    assert twin.id not in {e.id for e, _ in await face.entities(user_id=U)}
    with pytest.raises(NotFound):
        await face.remove_alias(twin.id, "Lizzie", user_id=U)
    # the name resolves to her again
    await face.write("Lizzie works at Globex Inc.", user_id=U, session_id="s1")
    globex = await face.get_fact("elizabeth_smith:occupation:employer", user_id=U)
    assert (globex.value, globex.subject_entity_id) == ("Globex Inc", liz.id)

    # giving it again changes nothing; another entity's name is refused
    again = await face.add_alias(liz.id, "lizzie", user_id=U)
    assert (again.added, again.merged_from) == ([], None)
    with pytest.raises(Conflict):
        await face.add_alias(liz.id, "Acme Corp", user_id=U)
    with pytest.raises(NotFound):
        await face.add_alias("ent_missing", "Lizzie", user_id=U)


async def test_a_write_that_took_the_name_for_the_split_off_entity_lands_on_the_merge(
    memory: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A write that resolved "Lizzie" to the split-off entity, committed just after the
    merge back deleted it, does not keep its id: the commit finds the entity gone, and the
    write, made again, resolves the name to the entity it was merged into."""
    await say(memory, "My colleague Elizabeth Smith is a lawyer.", "She goes by Lizzie.")
    liz = (await known(memory))["Elizabeth Smith"][0]
    undone = await memory.remove_alias(liz.id, "Lizzie", split=True, user_id=U)
    assert undone.split_into is not None
    twin = undone.split_into.entity
    store, commit = memory.store, memory.store.commit
    merges: list[AliasAddition] = []

    async def merged_first(
        messages: Sequence[PendingMessage], window: float, knowledge: Knowledge | None = None
    ) -> list[MessageResult]:
        named = {p.fact.subject_entity_id for p in (knowledge.facts if knowledge else [])}
        if twin.id in named and not merges:  # the merge back commits in between
            merges.append(await memory.add_alias(liz.id, "Lizzie", user_id=U))
        return await commit(messages, window, knowledge)

    monkeypatch.setattr(store, "commit", merged_first)
    [item_id] = (await memory.write("Lizzie likes jazz.", user_id=U, session_id="s1")).item_ids
    [merge] = merges
    assert merge.merged_from is not None
    assert merge.merged_from.entity.id == twin.id
    assert await store.get_entities("default", [twin.id]) == []  # deleted by the merge
    jazz = await memory.get_fact("elizabeth_smith:preference:music:jazz", user_id=U)
    assert (jazz.subject_entity_id, jazz.evidence_item_ids) == (liz.id, [item_id])
    # nothing the write stored names the deleted entity
    facts = await memory.facts(user_id=U, include_history=True)
    assert twin.id not in {e for f in facts for e in (f.subject_entity_id, f.object_entity_id)}
    assert twin.id not in (await memory.get(item_id)).entities
    assert await memory.relations([twin.id], user_id=U) == []


async def profiles_of(face: Face, memory_url: str) -> dict[str, MemoryItem]:
    """A consolidation pass (the background job, through its own ``Memory``), and the
    live profiles it leaves, by their key, read through ``face``."""
    async with Memory.open(memory_url, settings=Settings(), embedder=HashingEmbedder()) as job:
        await job.consolidate(user_id=U)
        made = await job.list_items(user_id=U, kinds=["summary"], statuses=["active"])
    found = [await face.get(i.id) for i in made]
    return {s.key or "": s for s in found if s.metadata["consolidation"]["group"] == "profile"}


async def live_profiles(face: Face) -> dict[str, MemoryItem]:
    """The user's live profiles as they are (no consolidation pass), by their key."""
    found = await face.list_items(user_id=U, kinds=["summary"], statuses=["active"])
    return {s.key or "": s for s in found if s.metadata["consolidation"]["group"] == "profile"}


async def test_a_split_and_its_merge_rebuild_the_profiles_they_leave_stale(
    face: Face, memory_url: str
) -> None:
    """A profile states its subject's facts: once a split moves some of them, both
    people's profiles are archived in the edit and built again right after it, each as a
    consolidation pass builds it (a pass then finds nothing to change); the same when
    the name is given back, and the split-off person, left with no fact, has none."""
    for line in (
        "My colleague Elizabeth Smith is a lawyer.",
        "She goes by Lizzie.",
        "Lizzie works at Acme Corp.",
        "Lizzie likes jazz.",
        "Elizabeth Smith likes tea.",
    ):
        await face.write(line, user_id=U, session_id="s1")
    liz = {e.name: e for e, _ in await face.entities(user_id=U)}["Elizabeth Smith"]
    before = await profiles_of(face, memory_url)
    hers = before[f"profile:{liz.id}"]
    assert "Lizzie works at Acme Corp" in hers.text

    undone = await face.remove_alias(liz.id, "Lizzie", split=True, user_id=U)
    assert undone.split_into is not None
    twin = undone.split_into.entity
    assert undone.degraded == []
    assert (await face.get(hers.id)).status is ItemStatus.ARCHIVED
    archived, superseded = (await face.history(hers.id))[-2:]
    assert (archived.action, archived.actor) == ("archived", "api")
    assert archived.after == {"status": "archived", "because": "alias_removed", "entity_id": liz.id}
    # rebuilt at once, no consolidation pass: hers without Lizzie's job, Lizzie's own
    split = await live_profiles(face)
    assert set(split) == {f"profile:{liz.id}", f"profile:{twin.id}"}
    assert sorted(undone.rebuilt_profiles) == sorted(p.id for p in split.values())
    rebuilt = split[f"profile:{liz.id}"]
    assert "Acme" not in rebuilt.text
    assert "Elizabeth Smith likes tea" in rebuilt.text
    assert "Lizzie works at Acme Corp" in split[f"profile:{twin.id}"].text
    assert split[f"profile:{twin.id}"].entities == [twin.id]
    # provenance: the archived profile names the one built in its place, and that one
    # names the edit and what it replaced
    assert (superseded.action, superseded.actor) == ("superseded", "api")
    assert superseded.after == {
        "status": "archived", "superseded_by": rebuilt.id, "because": "alias_removed",
    }  # fmt: skip
    [made] = await face.history(rebuilt.id)
    assert (made.action, made.actor) == ("rebuilt", "api")
    assert made.before == {"id": hers.id, "text": hers.text}
    assert made.after is not None
    assert (made.after["because"], made.after["key"]) == ("alias_removed", rebuilt.key)
    [twins] = await face.history(split[f"profile:{twin.id}"].id)
    assert (twins.action, twins.before) == ("rebuilt", None)
    # what consolidation builds: a pass finds both as it would write them
    assert {k: p.id for k, p in (await profiles_of(face, memory_url)).items()} == {
        k: p.id for k, p in split.items()
    }

    back = await face.add_alias(liz.id, "Lizzie", user_id=U)
    assert back.degraded == []
    for p in split.values():
        assert (await face.get(p.id)).status is ItemStatus.ARCHIVED
    assert [h.action for h in await face.history(twin.id)][-1] == "deleted"
    merged = await live_profiles(face)
    assert set(merged) == {f"profile:{liz.id}"}
    assert back.rebuilt_profiles == [merged[f"profile:{liz.id}"].id]
    assert "Lizzie works at Acme Corp" in merged[f"profile:{liz.id}"].text
    # the split-off person's archived profile is not built again (no fact is hers)
    assert [h.action for h in await face.history(split[f"profile:{twin.id}"].id)][-1] == (
        "archived"
    )
    assert {k: p.id for k, p in (await profiles_of(face, memory_url)).items()} == {
        k: p.id for k, p in merged.items()
    }


async def test_a_profile_the_llm_fails_to_rebuild_is_written_extractively_and_said(
    memory_url: str, memory: Memory
) -> None:
    """With an LLM configured, a rebuilt profile's gist is the LLM's; when it fails, the
    profile is written extractively and the edit's result says so (``degraded``)."""
    for line in (
        "My colleague Elizabeth Smith is a lawyer.",
        "She goes by Lizzie.",
        "Lizzie works at Acme Corp.",
        "Lizzie likes jazz.",
        "Elizabeth Smith likes tea.",
    ):
        await memory.write(line, user_id=U, session_id="s1")
    liz = {e.name: e for e, _ in await memory.entities(user_id=U)}["Elizabeth Smith"]
    await profiles_of(memory, memory_url)
    down = ScriptedLLM(
        responder=lambda _: (_ for _ in ()).throw(
            ProviderUnavailable("down", provider="llm", model="scripted")
        )
    )
    async with Memory.open(
        memory_url, settings=Settings(), embedder=HashingEmbedder(), llm=down
    ) as with_llm:
        undone = await with_llm.remove_alias(liz.id, "Lizzie", split=True, user_id=U)
    assert undone.split_into is not None
    keys = {f"profile:{liz.id}", f"profile:{undone.split_into.entity.id}"}
    assert len(down.calls) == len(keys)  # one call per profile
    assert sorted(undone.degraded) == sorted(f"{k}: down" for k in keys)
    now = await live_profiles(memory)
    assert set(now) == keys
    assert sorted(undone.rebuilt_profiles) == sorted(p.id for p in now.values())
    assert now[f"profile:{liz.id}"].text.startswith("What is known about Elizabeth Smith:")


@pytest.mark.parametrize("nickname_first", [False, True], ids=["name-first", "nickname-first"])
async def test_a_split_undoes_a_supersession_the_merge_made_and_a_merge_makes_it_again(
    face: Face, nickname_first: bool
) -> None:
    """While "Lizzie" was taken for Elizabeth Smith, the later of "Elizabeth Smith lives
    in Boston." and "Lizzie lives in Paris." superseded the earlier. Split apart, each
    person lives where they were said to (the earlier fact live again, its sentence no
    longer marked); merged back, the later supersedes the earlier again."""
    by_name, by_nick = "Elizabeth Smith lives in Boston.", "Lizzie lives in Paris."
    lines = ["My colleague Elizabeth Smith is a lawyer.", "She goes by Lizzie."]
    lines += [by_nick, by_name] if nickname_first else [by_name, by_nick]
    said: dict[str, str] = {}
    for day, line in enumerate(lines):
        at = T0 + timedelta(days=day)
        [said[line]] = (await face.write(line, user_id=U, session_id="s1", occurred_at=at)).item_ids
    liz = {e.name: e for e, _ in await face.entities(user_id=U)}["Elizabeth Smith"]
    cities = {f.value: f for f in await face.facts(user_id=U, include_history=True)
              if f.predicate == "city"}  # fmt: skip
    earlier, later = ("Paris", "Boston") if nickname_first else ("Boston", "Paris")
    assert cities[earlier].superseded_by == cities[later].id
    ended = said[by_nick if nickname_first else by_name]
    assert "no_longer_true" in (await face.get(ended)).metadata

    undone = await face.remove_alias(liz.id, "Lizzie", split=True, user_id=U)
    assert undone.split_into is not None
    twin = undone.split_into.entity
    apart = {f.value: f for f in await face.facts(user_id=U) if f.predicate == "city"}
    assert {v: (f.key, f.subject_entity_id) for v, f in apart.items()} == {
        "Boston": ("elizabeth_smith:location:city", liz.id),
        "Paris": ("lizzie:location:city", twin.id),
    }
    assert (apart[earlier].valid_to, apart[earlier].recorded_to) == (None, None)
    item = await face.get(ended)
    assert (item.superseded_by, item.metadata.get("no_longer_true")) == (None, None)
    entry = (await face.history(cities[earlier].id))[-1]
    assert (entry.action, entry.actor) == ("restored", "api")
    assert entry.before is not None
    assert entry.after is not None
    assert (entry.before["status"], entry.before["superseded_by"]) == (
        "superseded", cities[later].id,
    )  # fmt: skip
    assert (entry.after["status"], entry.after["because"]) == ("active", "alias_removed")

    await face.add_alias(liz.id, "Lizzie", user_id=U)
    back = {f.value: f for f in await face.facts(user_id=U, include_history=True)
            if f.predicate == "city"}  # fmt: skip
    assert {f.key for f in back.values()} == {"elizabeth_smith:location:city"}
    assert (back[later].status.value, back[earlier].status.value) == ("active", "superseded")
    assert back[earlier].superseded_by == back[later].id
    assert "no_longer_true" in (await face.get(ended)).metadata
    entry = (await face.history(cities[earlier].id))[-1]
    assert (entry.action, entry.actor) == ("superseded", "api")
    assert entry.after is not None
    assert entry.after["because"] == "alias_added"


async def test_a_split_gives_back_the_items_a_constraint_s_supersession_silenced(
    face: Face,
) -> None:
    """ "Lizzie is vegan." ended "Elizabeth Smith is vegetarian." while the names were one
    person, and silenced the sentence that stated it (a constraint's evidence is
    silenced, not marked). Split apart, the vegetarian fact is live again and so is its
    sentence; merged back, the later ends the earlier again and silences it again."""
    said: dict[str, str] = {}
    lines = ("My colleague Elizabeth Smith is a lawyer.", "She goes by Lizzie.",
             "Elizabeth Smith is vegetarian.", "Lizzie is vegan.")  # fmt: skip
    for day, line in enumerate(lines):
        at = T0 + timedelta(days=day)
        [said[line]] = (await face.write(line, user_id=U, session_id="s1", occurred_at=at)).item_ids
    veggie_item = said["Elizabeth Smith is vegetarian."]
    liz = {e.name: e for e, _ in await face.entities(user_id=U)}["Elizabeth Smith"]
    diets = {f.value: f for f in await face.facts(user_id=U, include_history=True)
             if f.predicate == "diet"}  # fmt: skip
    assert diets["vegetarian"].superseded_by == diets["vegan"].id
    assert diets["vegetarian"].is_constraint
    assert (await face.get(veggie_item)).status is ItemStatus.SILENT

    await face.remove_alias(liz.id, "Lizzie", split=True, user_id=U)
    apart = {f.value: f for f in await face.facts(user_id=U) if f.predicate == "diet"}
    assert apart["vegetarian"].subject_entity_id == liz.id
    assert (await face.get(veggie_item)).status is ItemStatus.ACTIVE
    entry = (await face.history(veggie_item))[-1]
    assert (entry.action, entry.actor) == ("unsilenced", "api")
    assert entry.after == {
        "status": "active", "because": "alias_removed", "fact_id": diets["vegetarian"].id,
    }  # fmt: skip
    # read back: the sentence is among what a read finds about her diet again
    found = await face.read("What does Elizabeth Smith eat?", user_id=U)
    assert veggie_item in {i.id for i in found.items}

    await face.add_alias(liz.id, "Lizzie", user_id=U)
    back = {f.value: f for f in await face.facts(user_id=U, include_history=True)
            if f.predicate == "diet"}  # fmt: skip
    assert back["vegetarian"].superseded_by == back["vegan"].id
    assert (await face.get(veggie_item)).status is ItemStatus.SILENT
    assert "no_longer_true" not in (await face.get(veggie_item)).metadata
    entry = (await face.history(veggie_item))[-1]
    assert (entry.action, entry.actor) == ("silenced", "api")
    assert entry.after is not None
    assert entry.after["because"] == "alias_added"
    # and a second split gives it back again
    await face.remove_alias(liz.id, "Lizzie", split=True, user_id=U)
    assert (await face.get(veggie_item)).status is ItemStatus.ACTIVE


async def test_a_nickname_given_back_links_again_what_its_removal_unlinked(face: Face) -> None:
    """Removed without a split by mistake, "Sally" given back is the removal undone: the
    items whose pronouns were read as her are hers again, as they were."""
    written = await write_each(
        face,
        "My sister Sarah Jones is a nurse.",
        "She goes by Sally.",
        "Sally loves her job. She works nights.",
        "Sally is tired. Sarah Jones is my sister and she is kind.",
    )
    sarah = {e.name: e for e, _ in await face.entities(user_id=U)}["Sarah Jones"]
    before = {i: await linked(face, i) for i in written.values()}
    by_alias = written["Sally loves her job. She works nights."]
    removal = await face.remove_alias(sarah.id, "Sally", user_id=U)
    assert await linked(face, by_alias) == ([], [])

    back = await face.add_alias(sarah.id, "Sally", user_id=U)
    assert [(a.alias, a.source) for a in back.added] == [("sally", AliasSource.USER_STATED)]
    assert {i: await linked(face, i) for i in written.values()} == before
    entry = (await face.history(sarah.id))[-1]
    removed = (await face.history(sarah.id))[-2]
    assert (entry.action, removed.action) == ("alias_added", "alias_removed")
    assert entry.after is not None
    assert removed.before is not None
    assert entry.after["restored_from"] == removed.id
    assert sorted(map(str, entry.after["item_links"])) == sorted(
        map(str, removed.before["item_links"])
    )
    relink = (await face.history(by_alias))[-1]
    assert (relink.action, relink.after) == (
        "relinked", {"entities": [sarah.id], "links": relink.after["links"]},
    )  # fmt: skip
    assert {x["name"] for x in relink.after["links"]} == {"Sally"}
    assert removal.split_into is None

    # given again: nothing changes; removed and given back again: the same links
    again = await face.add_alias(sarah.id, "Sally", user_id=U)
    assert (again.added, again.merged_from) == ([], None)
    await face.remove_alias(sarah.id, "Sally", user_id=U)
    await face.add_alias(sarah.id, "Sally", user_id=U)
    assert {i: await linked(face, i) for i in written.values()} == before
