"""CPU of ``Store.scope_facts`` (or ``Store.fact_rows``) right after a fact write, for one
or more source trees, interleaved, on SQLite and PostgreSQL.

What it measures: a user with ``--facts`` facts (seeded texts, 384-d vectors, a third of
them superseded), then rounds of: one fact write through ``Store.commit`` by the same
store (every second one supersedes a live fact, the others add one), then
``scope_facts(tenant, namespace, user, 5000)`` timed as process CPU — what a read that
names a time pays for the scope's facts after each turn of a conversation (the write's
own CPU is reported beside it). With ``--read fact_rows``, ``fact_rows(tenant,
namespace, user, 500)`` (a read's ``MAX_FACTS_SCANNED``) instead and then the rows'
postings (``word_share``, as the read's fact steps score them): what every other read
pays for the live fact rows. Each
``--tree`` (a checkout's root: its ``src`` goes first on the path) runs in a child
process of its own, on its own database, and the children take turns, a block of
``--block`` rounds each, so a change of load on the machine falls on every tree alike.
PostgreSQL runs in a throw-away cluster of ``tests/servers.py``.

Usage (from the repository root):

    python benchmarks/scope_facts_after_write.py [--tree . [--tree ../other]]
        [--backend sqlite|postgres] [--read scope_facts|fact_rows] [--facts 2000]
        [--blocks 6] [--block 20] [--out F.json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
from read_cpu import report, spawn, take_turns

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
T0 = datetime(2024, 1, 1, tzinfo=UTC)
WORDS = ("tea", "coffee", "jazz", "rock", "oslo", "rome", "baker", "pilot", "teal", "amber")


def _fact(rng: random.Random, n: int, status: str = "active") -> Any:
    from cognimem.models import Scope
    from cognimem.models.knowledge import Fact, FactCategory, FactStatus
    from cognimem.store.types import PendingFact

    value = f"{rng.choice(WORDS)} {rng.choice(WORDS)} {n}"
    key = f"user:preference:k{n}"
    fact = Fact(
        id=f"fact_bench_{n:07d}",
        scope=Scope(tenant_id="t1", user_id="bench"),
        key=key,
        subject="user",
        predicate=f"k{n}",
        category=FactCategory.PREFERENCE,
        value=value,
        text=f"the user's k{n} is {value}",
        last_validated_at=T0,
        status=FactStatus(status),
        recorded_at=T0 + timedelta(minutes=n),
    )
    vector = np.asarray([rng.gauss(0, 1) for _ in range(384)], np.float32)
    return PendingFact(fact=fact, embedding=vector / np.linalg.norm(vector), embed_text=fact.text)


async def _read(store: Any, what: str) -> None:
    """What is timed after each write: ``scope_facts``, or ``fact_rows`` and its postings."""
    if what == "scope_facts":
        await store.scope_facts("t1", "default", "bench", 5_000)
    else:
        rows = await store.fact_rows("t1", "default", "bench", 500)
        rows.word_share(frozenset(WORDS[:3]))


async def child(url: str, facts: int, what: str) -> None:
    """Fill the store, then answer each block request (a line with its size) with one
    JSON line: the CPU of each write (``commit``) and of each read (``_read``) after it."""
    from cognimem.models.knowledge import FactStatus
    from cognimem.store import open_store
    from cognimem.store.types import FactUpdate, Knowledge

    rng = random.Random(7)
    store = open_store(url)
    await store.open()
    try:
        made = [_fact(rng, n, "superseded" if n % 3 == 0 else "active") for n in range(facts)]
        for start in range(0, len(made), 500):
            await store.commit([], 300.0, Knowledge(facts=made[start : start + 500]))
        live = [p.fact for p in made if p.fact.status is FactStatus.ACTIVE]
        await _read(store, what)
        n = facts
        print("ready", flush=True)
        for line in sys.stdin:
            cpu: list[float] = []
            wrote: list[float] = []
            for i in range(int(line)):
                if i % 2 and live:
                    old = live.pop(rng.randrange(len(live)))
                    gone = old.model_copy(
                        update={"status": FactStatus.SUPERSEDED, "revision": old.revision + 1}
                    )
                    change = Knowledge(fact_updates=[FactUpdate(gone, old.revision)])
                else:
                    new = _fact(rng, n)
                    n += 1
                    live.append(new.fact)
                    change = Knowledge(facts=[new])
                started = time.process_time()
                await store.commit([], 300.0, change)
                wrote.append(time.process_time() - started)
                started = time.process_time()
                await _read(store, what)
                cpu.append(time.process_time() - started)
            print(json.dumps({"read": cpu, "write": wrote}), flush=True)
    finally:
        await store.close()


def start(tree: Path, url: str, facts: int, what: str) -> subprocess.Popen[str]:
    options = ["--url", url, "--facts", str(facts), "--read", what]
    return spawn(tree, Path(__file__).resolve(), options)


def summary(cpu: list[float]) -> dict[str, float]:
    ms = sorted(x * 1000 for x in cpu)
    return {
        "calls": len(ms),
        "cpu_p50_ms": round(statistics.median(ms), 3),
        "cpu_p95_ms": round(ms[int(0.95 * (len(ms) - 1))], 3),
        "cpu_mean_ms": round(sum(ms) / len(ms), 3),
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tree", type=Path, action="append")
    p.add_argument("--backend", choices=["sqlite", "postgres"], default="sqlite")
    p.add_argument("--read", choices=["scope_facts", "fact_rows"], default="scope_facts")
    p.add_argument("--facts", type=int, default=2_000)
    p.add_argument("--blocks", type=int, default=6)
    p.add_argument("--block", type=int, default=20)
    p.add_argument("--out", type=Path)
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--url", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        asyncio.run(child(args.url, args.facts, args.read))
        return
    trees = [t.resolve() for t in (args.tree or [ROOT])]
    load_start = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        server = None
        if args.backend == "postgres":
            sys.path.insert(0, str(ROOT))
            from tests.servers import start_postgres

            server = start_postgres(tmp)
        try:
            procs = []
            for n, tree in enumerate(trees):
                if server is None:
                    url = f"sqlite:///{tmp}/tree{n}.db"
                else:
                    server.psql(f"CREATE DATABASE tree{n}")
                    url = server.admin_dsn(f"tree{n}")
                procs.append(start(tree, url, args.facts, args.read))
            turns = take_turns(trees, procs, args.blocks, args.block)
        finally:
            if server is not None:
                server.destroy()
    trees_cpu = {
        t: {
            args.read: summary([x for b in blocks for x in b["read"]]),
            "commit": summary([x for b in blocks for x in b["write"]]),
        }
        for t, blocks in turns.items()
    }
    report("scope_facts_after_write.py", load_start, trees_cpu, args.out)


if __name__ == "__main__":
    main()
