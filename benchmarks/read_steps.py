"""Where a read's CPU goes, step by step, measured with thread CPU clocks.

What it measures: ``Memory.read`` (onnx:minilm, the default preset, limit 10) on the
scope ``read_latency.py`` grows, every question a text never embedded before, with the
functions that make up each step of the read wrapped in a timer of the calling thread's
CPU (``time.thread_time``). Time is charged exclusively: a step's own CPU, not that of
a step it calls (the SQL a vector search runs to check its cache is the cache check's),
so the rows add up. What no wrapped function ran is split by thread: the event loop's
thread (the reader's glue, the asyncio tasks, pydantic models built between the steps)
and the pool threads (handing work to a thread and back). Beside each read the same
onnx session embeds another fresh question alone, timed as process CPU (every thread):
what a read spends beyond its query's embedding is the read's CPU minus that.

Unlike a sampling profiler this counts CPU, not time on the run queue: on a loaded
machine a thread waiting for a core after a system call is not charged to the call.
The wrappers cost two clock reads per call (a few dozen calls a read).

Usage (from the repository root; the database is built by ``read_latency.py --db``):

    python benchmarks/read_steps.py --db PATH [--reads 300] [--warmup 30] [--split]
        [--user ID] [--out FILE.json]

``--user`` reads another scope's user (the growth scopes' ``growth-user``).

``--split`` wraps more functions (``SPLIT_STEPS``): each function of the fusion,
assembly and fact groups gets a row, and the loop thread's unwrapped rest is split into
the asyncio machinery and the async functions' own lines.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import sys
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

REFERENCE = datetime(2100, 1, 1, tzinfo=UTC)
EMBEDDING = "query embedding (onnx, tokenizer)"
LOOP_REST = "reader glue, event loop, asyncio tasks (the loop's thread, unwrapped)"
POOL_REST = "thread hops (pool threads, unwrapped)"
GC = "garbage collector (gc)"

# (step, module or class path, attribute): the functions each step's CPU is counted in
STEPS: tuple[tuple[str, str, str], ...] = (
    (EMBEDDING, "cognimem.providers.onnx:OnnxEmbedder", "embed_sync"),
    ("vector scan (numpy)", "cognimem.store.sqlite.vectors", "search_many"),
    ("lexical search (BM25)", "cognimem.store.lexical_index", "search"),
    ("scope cache check (SQL)", "cognimem.store.sqlite.scopes:ScopeCache", "get"),
    ("scope cache check (SQL)", "cognimem.store.sqlite.scopes:ScopeCache", "get_many"),
    ("fetch and decode rows (SQL)", "cognimem.store.sqlite.connection:Connections", "_call"),
    ("decode rows (models)", "cognimem.store.records", "item_from_row"),
    ("decode rows (models)", "cognimem.store.records", "fact_from_row"),
    ("access-count write", "cognimem.store.sqlite.usage", "add_accesses"),
    ("access-count write", "cognimem.services.access:AccessCounts", "add"),
    ("analyze and plan", "cognimem.recall.reader", "analyze"),
    ("analyze and plan", "cognimem.recall.reader", "read_filter"),
    ("analyze and plan", "cognimem.recall.reader", "describe"),
    ("analyze and plan", "cognimem.recall.packing", "make_plan"),
    ("facts and constraints", "cognimem.recall.steps", "pick_constraints"),
    ("facts and constraints", "cognimem.recall.steps", "pick_other_facts"),
    ("facts and constraints", "cognimem.recall.constraints:QueryView", "of"),
    ("fusion and rerank", "cognimem.recall.reader", "rank_inputs"),
    ("fusion and rerank", "cognimem.recall.reader", "shortlist"),
    ("fusion and rerank", "cognimem.recall.reader", "rerank"),
    ("fusion and rerank", "cognimem.recall.reader", "rank_answers"),
    ("fusion and rerank", "cognimem.recall.reader", "focus"),
    ("fusion and rerank", "cognimem.recall.reader", "admits"),
    ("fusion and rerank", "cognimem.recall.steps", "expand"),
    ("assembly and packing", "cognimem.recall.reader", "section_inputs"),
    ("assembly and packing", "cognimem.recall.reader", "assemble_sections"),
    ("assembly and packing", "cognimem.recall.reader", "keep"),
    ("assembly and packing", "cognimem.recall.reader", "assemble"),
    ("assembly and packing", "cognimem.recall.reader", "count_tokens"),
    ("explain", "cognimem.recall.reader", "explain_packet"),
    ("read service: checks, config", "cognimem.services.reading:ReadService", "recall_config"),
    ("read service: checks, config", "cognimem.services.reading:ReadService", "read_scope"),
    ("read service: checks, config", "cognimem.memory._facade", "split_scope"),
    ("read service: checks, config", "cognimem.services.reading", "loaded_ids"),
    ("step reports", "cognimem.recall.packing:StepsRun", "settle"),
    ("thread hops (submitting)", "asyncio.base_events:BaseEventLoop", "run_in_executor"),
    ("metrics and logging", "logging:Logger", "_log"),
)
# ``--split``: the groups above by function, and the loop thread's rest by what runs in
# it (the asyncio machinery apart; "coroutine bodies" is what the reader's, the steps'
# and the store's async functions run on their own lines, pydantic models built there)
SPLIT_GROUPS = ("fusion and rerank", "assembly and packing", "facts and constraints")
SPLIT_STEPS: tuple[tuple[str, str, str], ...] = (
    ("rerank: signals", "cognimem.recall.rerank", "signal_values"),
    ("rerank: word sets", "cognimem.recall.rerank", "tokens_of"),
    ("keep: evidence check", "cognimem.recall.conversation.evidence:EvidenceCheck", "split"),
    ("keep: diversity (mmr)", "cognimem.recall.packing", "mmr"),
    ("assemble: packet items", "cognimem.recall.assemble", "packet_item"),
    ("assemble: markdown lines", "cognimem.recall.assemble", "markdown_line"),
    ("asyncio: gather", "asyncio", "gather"),
    ("asyncio: create_task", "asyncio.base_events:BaseEventLoop", "create_task"),
    ("asyncio: timers (step timeouts)", "asyncio.base_events:BaseEventLoop", "call_at"),
    ("asyncio: loop iteration", "asyncio.base_events:BaseEventLoop", "_run_once"),
    ("coroutine bodies (async functions' own lines)", "asyncio.events:Handle", "_run"),
    ("step reports (models)", "cognimem.recall.step_groups", "StepReport"),
    ("packet (model)", "cognimem.recall.reader", "ContextPacket"),
    ("packet signals", "cognimem.recall.reader", "packet_signals"),
    ("rank loop: dating, staleness, themes", "cognimem.recall.reader", "dated_signal"),
    ("rank loop: dating, staleness, themes", "cognimem.recall.reader", "stale_since"),
    ("rank loop: dating, staleness, themes", "cognimem.recall.reader", "is_theme"),
    ("names in the query", "cognimem.recall.reader", "candidate_names"),
)


class Charges:
    """CPU per step, per thread, charged to the innermost wrapped call running."""

    def __init__(self) -> None:
        self.local = threading.local()
        self.lock = threading.Lock()
        self.by_step: dict[str, float] = defaultdict(float)
        self.by_thread: dict[int, float] = defaultdict(float)
        self.on = False

    def _charge(self, step: str, seconds: float) -> None:
        with self.lock:
            self.by_step[step] += seconds
            self.by_thread[threading.get_ident()] += seconds

    def wrap(self, step: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        charges = self

        def timed(*args: Any, **kwargs: Any) -> Any:
            local = charges.local
            stack: list[list[Any]] = local.__dict__.setdefault("stack", [])
            now = time.thread_time()
            if stack and charges.on:  # the caller's step stops counting
                charges._charge(stack[-1][0], now - stack[-1][1])
            stack.append([step, now])
            try:
                return fn(*args, **kwargs)
            finally:
                end = time.thread_time()
                mine = stack.pop()
                if charges.on:
                    charges._charge(step, end - mine[1])
                if stack:
                    stack[-1][1] = end  # the caller's step counts again from here

        return timed

    def collector(self, phase: str, info: dict[str, Any]) -> None:
        """``gc.callbacks``: the cyclic collector's CPU as a step of its own."""
        stack: list[list[Any]] = self.local.__dict__.setdefault("stack", [])
        now = time.thread_time()
        if phase == "start":
            if stack and self.on:
                self._charge(stack[-1][0], now - stack[-1][1])
            stack.append([GC, now])
            return
        if not stack or stack[-1][0] != GC:
            return  # started before the callback was installed
        mine = stack.pop()
        if self.on:
            self._charge(GC, now - mine[1])
        if stack:
            stack[-1][1] = now

    def reset(self) -> None:
        with self.lock:
            self.by_step.clear()
            self.by_thread.clear()


def install(charges: Charges, split: bool = False) -> None:
    import importlib

    for step, where, name in (*STEPS, *SPLIT_STEPS) if split else STEPS:
        if split and step in SPLIT_GROUPS:
            step = f"{step}: {name}"
        module, _, cls = where.partition(":")
        owner: Any = importlib.import_module(module)
        if cls:
            owner = getattr(owner, cls)
        if name not in owner.__dict__ and not hasattr(owner, name):
            continue  # a function an older tree does not have (compared side by side)
        raw = owner.__dict__[name] if name in owner.__dict__ else getattr(owner, name)
        if DETAIL and name == "_call":  # each store call by the function it runs
            setattr(owner, name, _by_function(charges, raw))
        elif isinstance(raw, classmethod):
            setattr(owner, name, classmethod(charges.wrap(step, raw.__func__)))
        else:
            setattr(owner, name, charges.wrap(step, raw))


DETAIL = os.environ.get("READ_STEPS_DETAIL") == "1"


def _by_function(charges: Charges, call: Callable[..., Any]) -> Callable[..., Any]:
    wrapped: dict[str, Callable[..., Any]] = {}

    def timed(self: Any, fn: Callable[..., Any]) -> Any:
        name = getattr(fn, "__qualname__", "?")
        inner = wrapped.get(name)
        if inner is None:
            inner = wrapped[name] = charges.wrap(f"fetch: {name}", call)
        return inner(self, fn)

    return timed


def wait_for_index(mem: Any) -> None:
    """Wait for the vector index a scope past its threshold (100k items) has built on a
    thread of its own after its first read, so no measured read pays the build's CPU
    or is answered by the exact scan meanwhile (a 10k scope has none: no wait)."""
    wait = getattr(mem.store, "wait_for_vector_indexes", None)
    if wait is not None:
        wait()


def thread_cpu() -> dict[int, float]:
    out = {}
    for t in threading.enumerate():
        if t.ident is None:
            continue
        try:
            out[t.ident] = time.clock_gettime(time.pthread_getcpuclockid(t.ident))
        except (OSError, AttributeError):
            continue
    return out


async def measure(
    db: Path, reads: int, warmup: int, split: bool = False, user: str | None = None
) -> dict[str, Any]:
    from read_latency import SEED, USER, FreshQueries

    user = user or USER

    from cognimem import Memory
    from cognimem.providers.embeddings import CachedEmbedder

    charges = Charges()
    install(charges, split)
    gc.callbacks.append(charges.collector)
    async with Memory.open(f"sqlite:///{db}") as mem:
        cached = mem.embedder
        assert isinstance(cached, CachedEmbedder)
        fresh = FreshQueries(mem, cached, SEED + 13)
        for _ in range(warmup):
            await mem.read(await fresh.next(), user_id=user, limit=10, reference_time=REFERENCE)
            await cached.inner.embed([await fresh.next()], "query")
        wait_for_index(mem)
        pairs = [(await fresh.next(), await fresh.next()) for _ in range(reads)]
        read_cpu: list[float] = []
        embed_cpu: list[float] = []
        charges.reset()
        threads_before = thread_cpu()
        loop_thread = threading.get_ident()
        for i, (read_q, embed_q) in enumerate(pairs):
            for task in ("read", "embed") if i % 2 else ("embed", "read"):
                cpu = time.process_time()
                if task == "read":
                    charges.on = True
                    await mem.read(read_q, user_id=user, limit=10, reference_time=REFERENCE)
                    charges.on = False
                    read_cpu.append(time.process_time() - cpu)
                else:
                    await cached.inner.embed([embed_q], "query")
                    embed_cpu.append(time.process_time() - cpu)
        threads_after = thread_cpu()
    # the bare embeddings ran on a pool thread too: their CPU is not a read's
    bare = sum(embed_cpu)
    loop_total = threads_after[loop_thread] - threads_before[loop_thread]
    pool_total = sum(
        threads_after[t] - threads_before.get(t, 0.0) for t in threads_after if t != loop_thread
    )
    return {
        "reads": reads,
        "by_step": dict(charges.by_step),
        "loop_thread_total": loop_total,
        "loop_thread_charged": charges.by_thread.get(loop_thread, 0.0),
        "pool_threads_total": pool_total - bare,
        "pool_threads_charged": sum(v for t, v in charges.by_thread.items() if t != loop_thread),
        "read_cpu": read_cpu,
        "embed_cpu": embed_cpu,
    }


def table(raw: dict[str, Any]) -> dict[str, Any]:
    """Milliseconds per read by step, the unwrapped rest by thread, and the totals."""
    n = raw["reads"]
    ms = {k: v * 1000 / n for k, v in raw["by_step"].items()}
    ms[LOOP_REST] = (raw["loop_thread_total"] - raw["loop_thread_charged"]) * 1000 / n
    ms[POOL_REST] = (raw["pool_threads_total"] - raw["pool_threads_charged"]) * 1000 / n
    reads = sorted(x * 1000 for x in raw["read_cpu"])
    embeds = sorted(x * 1000 for x in raw["embed_cpu"])
    mean_read, mean_embed = sum(reads) / n, sum(embeds) / n
    return {
        "steps_ms": dict(sorted(((k, round(v, 3)) for k, v in ms.items()), key=lambda kv: -kv[1])),
        "read_cpu_mean": round(mean_read, 3),
        "read_cpu_p50": round(reads[n // 2], 3),
        "bare_embedding_cpu_mean": round(mean_embed, 3),
        "bare_embedding_cpu_p50": round(embeds[n // 2], 3),
        "beyond_embedding_mean": round(mean_read - mean_embed, 3),
        "beyond_embedding_p50": round(reads[n // 2] - embeds[n // 2], 3),
        "steps_sum_ms": round(sum(ms.values()), 3),
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--db", type=Path, required=True)
    p.add_argument("--reads", type=int, default=300)
    p.add_argument("--warmup", type=int, default=30)
    p.add_argument("--out", type=Path)
    p.add_argument("--split", action="store_true", help="the steps by function (SPLIT_STEPS)")
    p.add_argument("--user", help="the scope's user (default: read_latency.py's)")
    args = p.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    load_start = [round(x, 2) for x in os.getloadavg()]
    raw = asyncio.run(measure(args.db, args.reads, args.warmup, args.split, args.user))
    doc = {
        "command": "python benchmarks/read_steps.py " + " ".join(sys.argv[1:]),
        "load_average_start": load_start,
        "load_average_end": [round(x, 2) for x in os.getloadavg()],
        **table(raw),
    }
    print(json.dumps(doc, indent=2))
    if args.out:
        args.out.write_text(json.dumps(doc, indent=2) + "\n")


if __name__ == "__main__":
    main()
