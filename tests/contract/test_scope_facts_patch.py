"""A store's copy of a scope's facts (``scope_facts``), patched after the writes its
own process makes (SQLite: ``fact_changes.py`` names the facts they touched;
PostgreSQL: the rows whose ``xmin`` changed), equals what a store that never read it
loads, after every kind of write: facts added, edited, superseded, invalidated,
forgotten (deleted or trimmed), written by a lifecycle job, a write that rolls back,
writes from another store (which this process cannot know: a fresh load), erasure."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import numpy as np
import pytest

from cognimem.errors import StaleKnowledge
from cognimem.models import ItemStatus
from cognimem.models.knowledge import Fact, FactStatus
from cognimem.store import Store
from cognimem.store.arguments import ItemsForgetting
from cognimem.store.postgres import row_copies
from cognimem.store.sqlite import scope_facts as sqlite_scope_facts
from cognimem.store.types import ConsolidationWrite, FactUpdate, Knowledge, ScopeFacts
from tests.contract.builders import ALICE, SHARED, WINDOW, entity, fact, new, relation
from tests.contract.conftest import T0, message, twin

LIMITS = (5_000, 7)  # every fact of the scope, and a copy that leaves older ones unread
SCOPES = ((ALICE, "alice"), (SHARED, None))


@pytest.fixture
def patches(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the copies patched rather than loaded whole (on either backend)."""
    done: list[int] = []

    def counted(module: Any, name: str) -> None:
        real = getattr(module, name)

        async def async_counted(*args: Any) -> Any:
            found = await real(*args)
            done.extend([1] if found is not None else [])
            return found

        def sync_counted(*args: Any) -> Any:
            found = real(*args)
            done.extend([1] if found is not None else [])
            return found

        is_async = name.startswith("_")
        monkeypatch.setattr(module, name, async_counted if is_async else sync_counted)

    counted(sqlite_scope_facts, "patched")
    counted(row_copies, "_patched")
    return done


def _same(ours: ScopeFacts, theirs: ScopeFacts) -> None:
    assert [f.id for f in ours.facts] == [f.id for f in theirs.facts]
    assert ours.facts == theirs.facts
    for mine, fresh in zip(ours.parts, theirs.parts, strict=True):
        assert mine[:4] == fresh[:4]
        assert (mine[4] is None) == (fresh[4] is None)
        if mine[4] is not None:
            assert np.array_equal(mine[4], fresh[4])


async def _assert_as_fresh(reader: Store) -> None:
    """Every copy ``reader`` keeps equals what a store that never read it loads."""
    fresh = twin(reader)
    await fresh.open()
    try:
        for scope, user in SCOPES:
            for limit in LIMITS:
                args = ("t1", scope.namespace, user, limit)
                _same(await reader.scope_facts(*args), await fresh.scope_facts(*args))
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
        word = self.rng.choice(["tea", "coffee", "jazz", "rock", "oslo", "rome"])
        return fact(f"user:preference:k{self.n}", f"{word} {self.n}", scope, at=at, **extra)

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
        await self._writer().commit([], WINDOW, Knowledge(facts=new(*facts)))

    async def add_with_evidence(self) -> None:
        said = message(f"note {self.n}", ALICE)
        await self.mine.commit([said], WINDOW)
        item = said.items[0].item.id
        self.evidence.append(item)
        facts = [self._fact(evidence_item_ids=[item]) for _ in range(2)]
        await self._writer().commit([], WINDOW, Knowledge(facts=new(*facts)))

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
            (self.supersede, 3), (self.invalidate, 2), (self.consolidate, 2), (self.forget, 2),
            (self.rolled_back, 1), (self.relations_only, 1), (self.erase, 0.3),
        ]  # fmt: skip
        write = self.rng.choices([k for k, _ in kinds], [w for _, w in kinds])[0]
        await write()


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_a_patched_copy_of_the_scope_facts_equals_a_fresh_load(
    store: Store, writer: Store, patches: list[int], seed: int
) -> None:
    writes = Writes(store, writer, seed)
    for _ in range(6):
        await writes.add()
    await _assert_as_fresh(store)
    for _ in range(45):
        await writes.step()
        await _assert_as_fresh(store)
    assert patches, "no copy was patched: the test did not reach the patch"
