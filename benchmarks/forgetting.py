"""Forgetting-policy planning time: scoring and planning every item of one user scope
(10k and 100k items) on SQLite beside PostgreSQL.

What it measures, per store and size, median of ``--repeats`` runs:

- **rows**: ``RetentionStore.retention_rows`` — the ONE query that reads the scope's
  items with their live dependents counted (facts citing each item, the constraints
  among them, the active relations of those facts, the active or silent summaries
  whose claims state it);
- **plan**: ``lifecycle.retention.plan`` over those rows (pure Python: score and action
  per item);
- **total** = rows + plan: what a dry run of ``forget_policy`` costs before building its
  answer. Target (issue 17): under 2 s at 100k items on SQLite.

Baseline beside it, on the same database: the same item columns read with a plain
``SELECT`` of the scope (no dependency counting): the cost floor of reading the rows.

The scope is synthetic and written straight through ``Store.commit`` in batches (the
write funnel is not what is measured): episodes a minute apart (one session a day), a
live fact citing every 10th item (every 5th fact a constraint, each with a graph edge),
and a summary per 40 episodes whose claims state 3 of them — as consolidation writes
them. Embeddings are 64-dimensional hashing vectors (not read by the plan).

Usage (from the repository root, PostgreSQL 15 + pgvector installed):

    python benchmarks/forgetting.py [--sizes 10000 100000] [--repeats 5]
        [--stores sqlite postgres] [--out benchmarks/results]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from _machine import describe

from cognimem.config import ForgettingPolicy
from cognimem.lifecycle import retention
from cognimem.models import Event, ItemKind, MemoryItem, Role, Scope
from cognimem.models.ids import content_hash, new_id
from cognimem.models.knowledge import Entity, EntityType, Fact, FactCategory, Relation
from cognimem.providers.fakes import HashingEmbedder
from cognimem.store import PendingItem, PendingMessage, Store, open_store
from cognimem.store.types import Knowledge, PendingFact

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.servers import start_postgres  # noqa: E402

T0 = datetime(2024, 1, 1, tzinfo=UTC)
USER = "bench"
SCOPE = Scope(tenant_id="default", user_id=USER)
EMBED = HashingEmbedder(dim=64)
BATCH = 1_000
COLUMNS = (
    "id, kind, status, tier, importance, novelty, confidence, occurred_at, last_accessed_at,"
    " access_count, consolidated"
)


def _message(
    n: int, at: datetime, kind: ItemKind = ItemKind.EPISODE, **meta: Any
) -> PendingMessage:
    text = f"turn {n}: we talked about topic {n % 97} and thing {n % 13}"
    scope = SCOPE.model_copy(update={"session_id": f"day-{n // 1440}"})
    event = Event(
        id=new_id("evt"), scope=scope, role=Role.USER, name=None, content=text,
        content_hash=content_hash(f"{text}/{n}"), idempotency_key=None, external_id=None,
        occurred_at=at, recorded_at=at,
    )  # fmt: skip
    item = MemoryItem(
        id=new_id("mem"), scope=scope, text=text, kind=kind, source_event_ids=[event.id],
        occurred_at=at, recorded_at=at, importance=0.3 + (n % 7) / 10,
        novelty=(n % 10) / 10, access_count=n % 4, metadata=meta,
    )  # fmt: skip
    return PendingMessage(
        event=event,
        items=[PendingItem(item, EMBED.embed_sync([text])[0], text, text)],
    )


async def build(store: Store, size: int) -> None:
    """``size`` episodes plus their facts, relations and summaries (module docstring)."""
    person = Entity(id=new_id("ent"), tenant_id="default", namespace="default", user_id=USER,
                    name="Sam", type=EntityType.PERSON, created_at=T0)  # fmt: skip
    await store.commit([], 300.0, Knowledge(entities=[person]))
    for start in range(0, size, BATCH):
        messages = [
            _message(n, T0 + timedelta(minutes=n)) for n in range(start, min(size, start + BATCH))
        ]
        ids = [m.items[0].item.id for m in messages]
        facts: list[PendingFact] = []
        relations: list[Relation] = []
        for k in range(0, len(ids), 10):
            n = start + k
            category = FactCategory.POLICY if (n // 10) % 5 == 0 else FactCategory.PREFERENCE
            fact = Fact(
                id=new_id("fact"), scope=SCOPE, key=f"user:{category.value}:topic:{n}",
                subject="user", predicate="topic", category=category, value=f"topic {n}",
                text=f"the user's topic is {n}", last_validated_at=T0, recorded_at=T0,
                evidence_item_ids=[ids[k]],
            )  # fmt: skip
            facts.append(PendingFact(fact, EMBED.embed_sync([fact.text])[0], fact.text))
            relations.append(
                Relation(
                    id=new_id("rel"),
                    scope=SCOPE,
                    source_entity_id=person.id,
                    relation="likes",
                    target_entity_id=person.id,
                    fact_id=fact.id,
                    created_at=T0,
                )
            )
        summaries = [
            _message(
                10_000_000 + start + k, T0 + timedelta(minutes=start + k), ItemKind.SUMMARY,
                consolidation={"claims": [{"text": "…", "item_ids": ids[k : k + 3]}]},
            )
            for k in range(0, len(ids), 40)
        ]  # fmt: skip
        await store.commit(
            [*messages, *summaries], 0.0, Knowledge(facts=facts, relations=relations)
        )


async def baseline_rows(url: str, dsn: str | None) -> int:
    """The scope's item columns with a plain SELECT (no dependents)."""
    where = "tenant_id = 'default' AND namespace = 'default' AND user_id = 'bench'"
    sql = f"SELECT {COLUMNS} FROM items WHERE {where} AND status <> 'deleted'"
    if dsn is None:
        import sqlite3

        conn = sqlite3.connect(url.removeprefix("sqlite:///"))
        try:
            return len(conn.execute(sql).fetchall())
        finally:
            conn.close()
    import asyncpg

    pg = await asyncpg.connect(dsn)
    try:
        return len(await pg.fetch(sql))
    finally:
        await pg.close()


async def timed(fn: Callable[[], Awaitable[Any]]) -> tuple[float, float, Any]:
    """Wall seconds, this process's CPU seconds (every thread: SQLite's reads run in
    a worker thread), and the answer."""
    start, cpu = time.perf_counter(), time.process_time()
    out = await fn()
    return time.perf_counter() - start, time.process_time() - cpu, out


async def measure(url: str, dsn: str | None, size: int, repeats: int) -> dict[str, Any]:
    store = open_store(url)
    await store.open()
    try:
        started = time.perf_counter()
        await build(store, size)
        built_s = time.perf_counter() - started
        policy = ForgettingPolicy()
        now = T0 + timedelta(days=size // 1440 + 30)
        rows_s, plan_s, base_s, rows_cpu, plan_cpu = [], [], [], [], []
        counts: dict[str, int] = {}
        scored = 0
        for _ in range(repeats):
            s, c, rows = await timed(lambda: store.retention_rows("default", "default", USER))
            rows_s.append(s)
            rows_cpu.append(c)
            begin, cpu = time.perf_counter(), time.process_time()
            decisions = retention.plan(rows, policy, now)
            plan_s.append(time.perf_counter() - begin)
            plan_cpu.append(time.process_time() - cpu)
            s, _, n = await timed(lambda: baseline_rows(url, dsn))
            base_s.append(s)
            scored = len(rows)
            assert n == scored, (n, scored)
            counts = {}
            for d in decisions:
                counts[d.action.value] = counts.get(d.action.value, 0) + 1
        med = statistics.median
        return {
            "items": scored,
            "build_s": round(built_s, 1),
            "rows_s": round(med(rows_s), 3),
            "plan_s": round(med(plan_s), 3),
            "total_s": round(med([a + b for a, b in zip(rows_s, plan_s, strict=True)]), 3),
            "baseline_select_s": round(med(base_s), 3),
            "rows_cpu_s": round(med(rows_cpu), 3),
            "plan_cpu_s": round(med(plan_cpu), 3),
            "runs_total_s": [round(a + b, 3) for a, b in zip(rows_s, plan_s, strict=True)],
            "actions": counts,
            "protected": sum(1 for r in rows if retention.protection(r) is not None),
        }
    finally:
        await store.close()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--stores", nargs="+", choices=("sqlite", "postgres"),
                        default=["sqlite", "postgres"])  # fmt: skip
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results")
    args = parser.parse_args()
    load_start = list(os.getloadavg())
    results: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        server = start_postgres(Path(tmp) / "pg") if "postgres" in args.stores else None
        try:
            for size in args.sizes:
                for store in args.stores:
                    if store == "sqlite":
                        url, dsn = f"sqlite:///{tmp}/forget-{size}.db", None
                    else:
                        assert server is not None
                        dsn = url = server.dsn
                    got = await measure(url, dsn, size, args.repeats)
                    results.append({"store": store, "size": size, **got})
                    print(json.dumps(results[-1]))
                    if server is not None and store == "postgres":
                        await _truncate(server.dsn)
        finally:
            if server is not None:
                server.stop()
    report = {
        "machine": describe(),
        "command": "python benchmarks/forgetting.py " + " ".join(sys.argv[1:]),
        "load_average_start": [round(x, 2) for x in load_start],
        "load_average_end": [round(x, 2) for x in os.getloadavg()],
        "results": results,
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "forgetting.json").write_text(json.dumps(report, indent=2) + "\n")
    (args.out / "forgetting.md").write_text(markdown(report))


async def _truncate(dsn: str) -> None:
    """Empty the PostgreSQL database for the next size."""
    import asyncpg

    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute(
            "DO $$ BEGIN EXECUTE (SELECT 'TRUNCATE ' || string_agg(format('%I', tablename),"
            " ', ') FROM pg_tables WHERE schemaname = 'public'"
            " AND tablename <> 'schema_migrations'); END $$"
        )
    finally:
        await conn.close()


def markdown(report: dict[str, Any]) -> str:
    m = report["machine"]
    lines = [
        "# Forgetting policy: scoring and planning a scope (SQLite beside PostgreSQL)",
        "",
        f"Command: `{report['command']}`  ",
        f"Machine: {m['summary']}  ",
        f"Load average (1/5/15 min) at start {report['load_average_start']}, at end "
        f"{report['load_average_end']} (2 cores: a load above 2 means other processes "
        "shared the machine, and the times are upper bounds).",
        "",
        "Seconds, median of the runs. *rows*: `retention_rows`, the one query reading the "
        "scope's items with their live dependents counted; *plan*: scoring and choosing "
        "every item's action in Python; *total* = rows + plan. *Baseline*: the same item "
        "columns with a plain `SELECT` of the scope (no dependents). *CPU s*: this "
        "process's CPU time for rows / plan (all threads; PostgreSQL's own CPU not "
        "included) — on a busy machine, closer to what an idle one takes than wall "
        "time is.",
        "",
        "| store | items | rows s | plan s | total s | baseline SELECT s | CPU s rows / plan "
        "| runs (total) | protected | actions |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in report["results"]:
        lines.append(
            f"| {r['store']} | {r['items']:,} | {r['rows_s']} | {r['plan_s']} | "
            f"**{r['total_s']}** | {r['baseline_select_s']} | {r['rows_cpu_s']} / "
            f"{r['plan_cpu_s']} | {r['runs_total_s']} | {r['protected']:,} | {r['actions']} |"
        )
    target = [r for r in report["results"] if r["store"] == "sqlite" and r["size"] >= 100_000]
    if target:
        t = target[0]
        met = "met" if t["total_s"] < 2.0 else "NOT met"
        cpu = round(t["rows_cpu_s"] + t["plan_cpu_s"], 3)
        lines += [
            "",
            f"Target: under 2 s at 100k items on SQLite: **{met}** in wall time "
            f"({t['total_s']} s, at the load average above); the work itself, this "
            f"process's CPU time for rows + plan, is **{cpu} s**.",
        ]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    asyncio.run(main())
