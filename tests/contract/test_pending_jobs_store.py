"""Unprocessed events and their ingest jobs (async ingestion), on every backend: the
job id and profile an event records, the jobs a retry or a worker's sweep finds, and
events that yield no item marked processed with the rest of their job."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from cognimem.models import Scope
from cognimem.store import PendingMessage, Store
from cognimem.store.base import PendingJob, job_id_for
from tests.contract.conftest import T0, message


def unprocessed(text: str, scope: Scope, job: str | None, at_s: int = 0) -> PendingMessage:
    m = message(text, scope, at=T0 + timedelta(seconds=at_s))
    return PendingMessage(event=m.event, processed=False, job_id=job, profile="document")


async def test_a_pending_job_is_found_from_any_of_its_events_with_all_of_them(
    store: Store,
) -> None:
    ada = Scope(tenant_id="t1", namespace="n1", user_id="ada")
    batch = [unprocessed(f"note {i}", ada, "job_a") for i in range(3)]
    other = unprocessed("a note of another job", ada, "job_b", at_s=5)
    await store.commit([*batch, other], 0)
    ids = [m.event.id for m in batch]
    expected = PendingJob(
        id="job_a",
        tenant_id="t1",
        namespace="n1",
        user_id="ada",
        profile="document",
        event_ids=tuple(ids),
    )
    assert await store.pending_jobs("t1", [ids[1]]) == [expected]
    both = await store.pending_jobs("t1", [other.event.id, ids[2], ids[0]])
    assert [j.id for j in both] == ["job_a", "job_b"]  # commit order
    assert await store.pending_jobs("t2", ids) == []  # another tenant's events
    assert await store.pending_jobs("t1", []) == []
    # an event stored unprocessed without a job id (e.g. imported) is a job of its own
    [loose] = await store.commit([unprocessed("imported", ada, None, at_s=9)], 0)
    [alone] = await store.pending_jobs("t1", [loose.event_id])
    assert alone.id == job_id_for(loose.event_id)
    assert alone.event_ids == (loose.event_id,)


async def test_stranded_jobs_are_the_oldest_unprocessed_before_the_cutoff(store: Store) -> None:
    ada = Scope(tenant_id="t1", user_id="ada")
    bob = Scope(tenant_id="t2", user_id="bob")
    old = unprocessed("old", ada, "job_old", at_s=0)
    older_bob = unprocessed("older", bob, "job_bob", at_s=-10)
    new = unprocessed("new", ada, "job_new", at_s=60)
    done = message("done", ada, at=T0 - timedelta(seconds=30))
    await store.commit([old, older_bob, new, done], 0)
    found = await store.stranded_jobs(T0 + timedelta(seconds=30), 100)
    assert [(j.id, j.tenant_id) for j in found] == [("job_bob", "t2"), ("job_old", "t1")]
    assert [j.id for j in await store.stranded_jobs(T0 + timedelta(seconds=30), 1)] == ["job_bob"]
    assert await store.stranded_jobs(T0 - timedelta(seconds=60), 100) == []


async def test_a_job_marks_its_events_processed_even_those_with_no_item(store: Store) -> None:
    ada = Scope(tenant_id="t1", user_id="ada")
    said = unprocessed("a note", ada, "job_a")
    secret = unprocessed("all of it was a secret", ada, "job_a")
    await store.commit([said, secret], 0)
    item = message("a note", ada).items[0]
    item = replace(item, item=item.item.model_copy(update={"source_event_ids": [said.event.id]}))
    ids = [said.event.id, secret.event.id]
    assert await store.add_items([item], event_ids=ids) == [item.item.id]
    assert await store.unprocessed("t1", ids) == []
    assert await store.pending_jobs("t1", ids) == []
    assert await store.stranded_jobs(T0 + timedelta(days=1), 100) == []
