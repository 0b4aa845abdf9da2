"""A store's copies of a scope's facts — its live fact rows (``fact_rows``), the
standing constraint profile kept on them (``FactRows.derived``) and its facts of any
status (``scope_facts``) — patched after the writes its own process makes (SQLite:
``fact_changes.py`` names the facts they touched; PostgreSQL: the rows whose ``xmin``
changed), equal what a store that never read them loads, after every kind of write:
facts added (with an embedding or none), edited, superseded (alone, or one of the
newest with one of the oldest edited beside it), invalidated, forgotten (deleted or
trimmed), written by a lifecycle job, a write that rolls back, writes from another
store (which this process cannot know: a fresh load), erasure."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import numpy as np
import pytest

from cognimem.errors import StaleKnowledge
from cognimem.models import ItemStatus
from cognimem.models.knowledge import CONSTRAINT_CATEGORIES, Fact, FactStatus
from cognimem.recall.profile import ProfileConfig
from cognimem.recall.profile_read import RowsProfile, rows_profile
from cognimem.store import Store
from cognimem.store.arguments import ItemsForgetting
from cognimem.store.fact_rows import FactRows
from cognimem.store.postgres import row_copies
from cognimem.store.sqlite import knowledge as sqlite_knowledge
from cognimem.store.types import (
    ConsolidationWrite,
    FactUpdate,
    Knowledge,
    PendingFact,
    ScopeFacts,
)
from cognimem.text.areas import AREA_PHRASES
from tests.contract.builders import ALICE, SHARED, WINDOW, entity, fact, new, relation
from tests.contract.conftest import EMBEDDER, T0, message, twin

LIMITS = (5_000, 7)  # every fact of the scope, and a copy that leaves older ones unread
SCOPES = ((ALICE, "alice"), (SHARED, None))
CONSTRAINTS = sorted(CONSTRAINT_CATEGORIES)
WORDS = ["tea", "coffee", "jazz", "rock", "oslo", "rome"]
PROFILE = ProfileConfig()
DESCRIPTIONS = EMBEDDER.embed_sync(list(AREA_PHRASES))  # what the areas list, embedded


@pytest.fixture
def patches(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Counts the copies patched rather than loaded whole, by kind (``FactRows``,
    ``ScopeFacts``; on either backend), and the profiles carried to a patched copy."""
    done: Counter[str] = Counter()

    def counted(module: Any) -> None:
        real = module.resized  # what keeps a patched copy, on both backends

        def resized(kept: Any, version: Any, value: Any, *rest: Any) -> Any:
            done[type(value).__name__] += 1
            return real(kept, version, value, *rest)

        monkeypatch.setattr(module, "resized", resized)

    counted(sqlite_knowledge)
    counted(row_copies)
    real_carried = RowsProfile.carried

    def carried(self: RowsProfile, *args: Any) -> object:
        found = real_carried(self, *args)
        done["profile carried"] += found is not None
        return found

    monkeypatch.setattr(RowsProfile, "carried", carried)
    return done


def _same_arrays(ours: np.ndarray | None, theirs: np.ndarray | None) -> None:
    assert (ours is None) == (theirs is None)
    if ours is not None:
        assert theirs is not None
        assert ours.shape == theirs.shape
        assert np.array_equal(ours, theirs)


def _same_facts(ours: ScopeFacts, theirs: ScopeFacts) -> None:
    assert [f.id for f in ours.facts] == [f.id for f in theirs.facts]
    assert ours.facts == theirs.facts
    for mine, fresh in zip(ours.parts, theirs.parts, strict=True):
        assert mine[:4] == fresh[:4]
        _same_arrays(mine[4], fresh[4])


def _same_rows(ours: FactRows, theirs: FactRows) -> None:
    assert ours.ids == theirs.ids
    assert ours.categories == theirs.categories
    assert ours.scope_tags == theirs.scope_tags
    assert ours.words == theirs.words
    _same_arrays(ours.matrix, theirs.matrix)


async def _same_profile(reader: Store, ours: FactRows, fresh: Store, theirs: FactRows) -> None:
    """The profile kept on (or carried to) ``ours`` equals the one consolidated anew."""
    mine = await rows_profile(reader, "t1", ours, PROFILE, DESCRIPTIONS)
    again = await rows_profile(fresh, "t1", theirs, PROFILE, DESCRIPTIONS)
    assert mine.profile.entries == again.profile.entries
    for name in ("areas", "things", "nearest"):
        _same_arrays(getattr(mine.profile, name), getattr(again.profile, name))
    assert mine.by_fact == again.by_fact


async def _assert_as_fresh(reader: Store) -> None:
    """Every copy ``reader`` keeps equals what a store that never read it loads."""
    fresh = twin(reader)
    await fresh.open()
    try:
        for scope, user in SCOPES:
            for limit in LIMITS:
                args = ("t1", scope.namespace, user, limit)
                _same_facts(await reader.scope_facts(*args), await fresh.scope_facts(*args))
                ours, theirs = await reader.fact_rows(*args), await fresh.fact_rows(*args)
                _same_rows(ours, theirs)
                await _same_profile(reader, ours, fresh, theirs)
    finally:
        await fresh.close()


class Writes:
    """Random writes of every kind to a few scopes' facts, by ``mine`` (this process)
    or ``theirs`` (another)."""

    def __init__(self, mine: Store, theirs: Store, seed: int) -> None:
        self.mine, self.theirs = mine, theirs
        self.rng = random.Random(seed)
        self.evidence: list[str] = []  # items facts rest on, not forgotten yet
        self.n = 0

    def _fact(self, **extra: Any) -> Fact:
        self.n += 1
        scope = self.rng.choice([ALICE, ALICE, SHARED])
        # few distinct times: ties are broken by the row's order
        at = T0 + timedelta(minutes=self.rng.randrange(6))
        word = self.rng.choice(WORDS)
        if self.rng.random() < 0.5:
            return fact(f"user:preference:k{self.n}", f"{word} {self.n}", scope, at=at, **extra)
        # a constraint of a few keys and stances: paraphrases merge, opposite stances
        # on one subject supersede in the profile
        category = self.rng.choice(CONSTRAINTS)
        value = self.rng.choice([word, f"no {word}", f"{word} every day"])
        key = f"user:{category.value}:{word}"
        return fact(key, value, scope, category=category, at=at, **extra)

    def _pending(self, *facts: Fact) -> list[PendingFact]:
        """``facts`` ready to commit, some with no embedding (most of the shared scope's,
        so a copy of its few newest often holds one or none that has one)."""
        out = new(*facts)
        for pending in out:
            shared = pending.fact.scope.user_id is None
            if self.rng.random() < (0.6 if shared else 0.15):
                pending.embedding = None
        return out

    async def _live(self, store: Store) -> list[Fact]:
        found = []
        for scope, user in SCOPES:
            known = await store.scope_facts("t1", scope.namespace, user, 5_000)
            found += [f for f in known.facts if f.status in (FactStatus.ACTIVE, FactStatus.AGING)]
        return found

    def _writer(self) -> Store:
        return self.theirs if self.rng.random() < 0.15 else self.mine

    async def add(self) -> None:
        facts = [self._fact() for _ in range(self.rng.randint(1, 3))]
        await self._writer().commit([], WINDOW, Knowledge(facts=self._pending(*facts)))

    async def add_with_evidence(self) -> None:
        said = message(f"note {self.n}", ALICE)
        await self.mine.commit([said], WINDOW)
        item = said.items[0].item.id
        self.evidence.append(item)
        facts = [self._fact(evidence_item_ids=[item]) for _ in range(2)]
        await self._writer().commit([], WINDOW, Knowledge(facts=self._pending(*facts)))

    async def _changed(self, change: Callable[[Fact], dict[str, Any]], *, job: bool) -> None:
        live = await self._live(self.theirs)
        if not live:
            return await self.add()
        target = self.rng.choice(live)
        after = target.model_copy(update={**change(target), "revision": target.revision + 1})
        knowledge = Knowledge(fact_updates=[FactUpdate(after, target.revision)])
        if job:  # a lifecycle job's write (consolidation's facts)
            await self.mine.apply_consolidation(ConsolidationWrite("t1", knowledge=knowledge))
        else:
            await self._writer().commit([], WINDOW, knowledge)

    async def edit(self) -> None:
        await self._changed(lambda f: {"value": f"{f.value} edited"}, job=False)

    async def move_in_time(self) -> None:
        minutes = self.rng.randrange(-3, 9)
        await self._changed(lambda f: {"recorded_at": T0 + timedelta(minutes=minutes)}, job=False)

    async def leave_and_touch_older(self) -> None:
        """One transaction: one of the newest facts superseded (out of a full copy of
        the newest, which is then short) and one of the oldest edited (read again, and
        not in that copy)."""
        user = self.rng.choice([u for _, u in SCOPES])
        live = [f for f in await self._live(self.theirs) if f.scope.user_id == user]
        live.sort(key=lambda f: f.recorded_at)  # oldest recorded first
        if len(live) < 2:
            return await self.add()
        newest, oldest = self.rng.choice(live[-3:]), self.rng.choice(live[:3])
        if newest.id == oldest.id:
            return
        updates = [
            FactUpdate(f.model_copy(update={**change, "revision": f.revision + 1}), f.revision)
            for f, change in (
                (newest, {"status": FactStatus.SUPERSEDED}),
                (oldest, {"value": f"{oldest.value} edited"}),
            )
        ]
        await self.mine.commit([], WINDOW, Knowledge(fact_updates=updates))

    async def supersede(self) -> None:
        await self._changed(lambda f: {"status": FactStatus.SUPERSEDED}, job=False)

    async def invalidate(self) -> None:
        await self._changed(
            lambda f: {"status": FactStatus.INVALIDATED, "valid_to": T0 + timedelta(days=1)},
            job=True,
        )

    async def consolidate(self) -> None:
        facts = new(self._fact())
        await self.mine.apply_consolidation(
            ConsolidationWrite("t1", knowledge=Knowledge(facts=facts))
        )

    async def forget(self) -> None:
        if not self.evidence:
            return await self.add_with_evidence()
        item = self.evidence.pop(self.rng.randrange(len(self.evidence)))
        status = self.rng.choice([ItemStatus.DELETED, ItemStatus.ARCHIVED])
        await self._writer().forget_items(ItemsForgetting("t1", [item], status, now=T0))

    async def rolled_back(self) -> None:
        live = await self._live(self.theirs)
        if not live:
            return
        target = self.rng.choice(live)
        after = target.model_copy(update={"value": "never", "revision": target.revision + 5})
        stale = Knowledge(facts=new(self._fact()), fact_updates=[FactUpdate(after, 999)])
        with pytest.raises(StaleKnowledge):
            await self.mine.commit([], WINDOW, stale)

    async def relations_only(self) -> None:
        a, b = entity(f"a{self.n}"), entity(f"b{self.n}")
        self.n += 1
        await self.mine.commit([], WINDOW, Knowledge(entities=[a, b], relations=[relation(a, b)]))

    async def erase(self) -> None:
        await self._writer().erase_user("t1", "alice")
        self.evidence.clear()

    async def step(self) -> None:
        kinds = [
            (self.add, 5), (self.add_with_evidence, 2), (self.edit, 3), (self.move_in_time, 2),
            (self.leave_and_touch_older, 2), (self.supersede, 3), (self.invalidate, 2),
            (self.consolidate, 2), (self.forget, 2), (self.rolled_back, 1),
            (self.relations_only, 1), (self.erase, 0.3),
        ]  # fmt: skip
        write = self.rng.choices([k for k, _ in kinds], [w for _, w in kinds])[0]
        await write()


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_patched_copies_of_a_scopes_facts_equal_a_fresh_load(
    store: Store, writer: Store, patches: Counter[str], seed: int
) -> None:
    writes = Writes(store, writer, seed)
    for _ in range(6):
        await writes.add()
    await _assert_as_fresh(store)
    for _ in range(45):
        await writes.step()
        await _assert_as_fresh(store)
    # the test reached every patch
    assert patches["FactRows"]
    assert patches["ScopeFacts"]
    assert patches["profile carried"]


async def test_a_kept_profile_serves_only_the_settings_it_was_made_with(
    store: Store, writer: Store
) -> None:
    """The profile kept on a copy of the fact rows was consolidated with one read's
    profile settings and area descriptions; a read with other settings, or without the
    descriptions (or with them after a read that had none), gets the profile its own
    settings give, as a store that never kept one consolidates it."""
    writes = Writes(store, writer, 7)
    for _ in range(12):
        await writes.add()
    args = ("t1", ALICE.namespace, "alice", 5_000)
    rows = await store.fact_rows(*args)
    reads = (
        (PROFILE, None),
        (PROFILE, DESCRIPTIONS),
        (ProfileConfig(paraphrase=0.99, same_subject=0.99), DESCRIPTIONS),
        (ProfileConfig(area_affinity=0.0, thing_affinity=0.0), DESCRIPTIONS),
        (PROFILE, DESCRIPTIONS),
    )
    for config, descriptions in reads:
        kept = await rows_profile(store, "t1", rows, config, descriptions)
        fresh = twin(store)  # a store that never kept a profile
        await fresh.open()
        try:
            theirs = await fresh.fact_rows(*args)
            again = await rows_profile(fresh, "t1", theirs, config, descriptions)
        finally:
            await fresh.close()
        assert kept.profile.entries
        assert kept.profile.entries == again.profile.entries
        for name in ("areas", "things", "nearest"):
            _same_arrays(getattr(kept.profile, name), getattr(again.profile, name))
        # and the profile now kept serves the next read with these settings
        assert await rows_profile(store, "t1", rows, config, descriptions) is kept
