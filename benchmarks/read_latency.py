"""Read latency of ``Memory.read`` at 1k, 10k and 100k memories in one user scope.

What it measures: in-process ``Memory.read`` latency (p50/p95/p99), query embedding
included, with the default local embedder (onnx:minilm; ``--embedder`` picks another) and
the default preset, on a corpus of synthetic conversational sentences (seeded templates:
people, places, activities, times, foods, feelings). Every measured read uses a query text
never seen before, so the embedding cache cannot serve it.

Baselines beside it, at each size, in the same process: the query embedding alone (the
same onnx session ``Memory`` uses, called directly, on other fresh queries of the same
kind), and a numpy brute-force top-k over the scope's matrix (the floor of an exact
vector search). Per-step latencies (lexical, vector incl. embedding) come from the
packet's own step reports; "rest" is the read minus its slower step (fetching items,
fusion, assembly, the access-count write, thread hops). CPU per read is the process's
CPU time (every thread) over the read: it moves less with other work on the machine than
wall time does, and counts what a read takes from the other reads of a busy server.

The corpus is written through ``Memory.write_batch`` (batches of ``--batch``) with the
real embedder and grown incrementally in one scope: 1k → measure → 10k → measure →
100k → measure. Usage (from the repository root):

    python benchmarks/read_latency.py [--sizes 1000 10000 100000] [--reads 200]
        [--warmup 20] [--limit 10] [--batch 500] [--db PATH] [--out benchmarks/results]

``--db`` keeps the database (and reuses it on the next run, growing it as needed);
without it a temporary file is used and deleted. On a 2-core machine the whole run takes
about 10 minutes, most of it embedding the 100k turns (99.6% of them distinct texts).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sqlite3
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
from _machine import describe

from cognimem import Memory, Message, Scope
from cognimem.providers.embeddings import CachedEmbedder, Embedder, text_hash
from cognimem.recall.analyze import query_terms
from cognimem.store.types import ItemFilter

ROOT = Path(__file__).resolve().parent.parent
USER = "bench-user"
SEED = 20240521
# read p95 at 10k items: 25 ms for the foundation's read (issue 2: lexical + vector),
# 30 ms for the full cognitive read path (issue 5: sections, graph, constraints), 10 ms
# for speed at scale (issue 18, query embedding included)
TARGETS_P95_MS = {
    "foundation read (issue 2)": 25.0,
    "cognitive read (issue 5)": 30.0,
    "speed at scale (issue 18)": 10.0,
}
START = datetime(2022, 1, 3, 8, 0, tzinfo=UTC)

# -- the synthetic corpus ------------------------------------------------------------

PEOPLE = (
    "Maya", "Liam", "Priya", "Jonas", "Sofia", "Mateo", "Aisha", "Noah", "Chloe", "Ethan",
    "Yuki", "Omar", "Hannah", "Diego", "Lena", "Kofi", "Zara", "Lucas", "Ingrid", "Ravi",
    "Emma", "Tariq", "Nora", "Felix", "Mei", "Samuel", "Leila", "Oscar", "Amara", "Hugo",
    "Freya", "Kenji", "Lucia", "Marcus", "Elif", "Tomas", "Grace", "Arjun", "Clara", "Dmitri",
)  # fmt: skip
RELATIONS = (
    "sister", "brother", "mom", "dad", "cousin", "neighbour", "coworker", "best friend",
    "roommate", "aunt", "uncle", "grandma", "boss", "partner", "old teammate",
)  # fmt: skip
PLACES = (
    "the farmers market", "the climbing gym", "the lake", "the downtown library",
    "that new ramen place", "the community garden", "the beach", "the old bookstore",
    "the jazz bar", "the park by the river", "the museum", "the ski lodge", "the bakery",
    "the night market", "the yoga studio", "the food truck lot", "the botanical garden",
    "the cinema", "the pottery studio", "the train station", "the hiking trail", "the zoo",
    "the coffee shop on Elm Street", "the rooftop bar", "the vet", "the dentist",
    "the hardware store", "the swimming pool", "the art gallery", "the campsite",
)  # fmt: skip
CITIES = (
    "Lisbon", "Denver", "Osaka", "Toronto", "Nairobi", "Berlin", "Austin", "Melbourne",
    "Seoul", "Dublin", "Mexico City", "Vancouver", "Edinburgh", "Cape Town", "Portland",
    "Barcelona", "Chicago", "Kyoto", "Oslo", "Marrakesh", "Boston", "Prague", "Lima",
    "Hanoi", "Istanbul",
)  # fmt: skip
ACTIVITIES = (
    "hiking", "rock climbing", "baking sourdough", "painting", "running", "kayaking",
    "playing chess", "gardening", "salsa dancing", "birdwatching", "knitting", "surfing",
    "camping", "cycling", "photography", "learning guitar", "pottery", "volunteering",
    "swimming", "journaling", "skiing", "playing tennis", "woodworking", "bouldering",
    "stargazing", "meditating", "fishing", "skateboarding", "writing poetry", "cooking",
)  # fmt: skip
FOODS = (
    "pad thai", "a mushroom risotto", "tacos al pastor", "banana bread", "pho", "lasagna",
    "sushi", "a lemon tart", "shakshuka", "dumplings", "a veggie curry", "fish and chips",
    "pancakes", "falafel wraps", "a spicy ramen", "paella", "tiramisu", "a Greek salad",
    "butter chicken", "bibimbap", "apple pie", "empanadas", "a pumpkin soup", "churros",
    "gnocchi", "a chocolate cake", "kimchi fried rice", "poke bowls", "cinnamon rolls",
    "a lentil stew",
)  # fmt: skip
TIMES = (
    "last weekend", "yesterday", "this morning", "on Friday night", "two weeks ago",
    "last summer", "over the holidays", "on my birthday", "last Tuesday", "in March",
    "a few days ago", "after work today", "on Sunday afternoon", "last month",
    "during spring break", "tonight", "next Saturday", "this weekend", "in the fall",
    "on New Year's Eve",
)  # fmt: skip
FEELINGS = (
    "really happy", "a bit nervous", "exhausted but proud", "so relaxed", "grateful",
    "pretty anxious", "super excited", "kind of lonely", "inspired", "frustrated",
    "calm", "nostalgic", "overwhelmed", "confident", "relieved", "curious", "homesick",
    "thrilled", "content", "restless",
)  # fmt: skip
SKILLS = (
    "Spanish", "the piano", "watercolor", "coding in Python", "sign language", "baking",
    "calligraphy", "Japanese", "photography", "the violin", "public speaking", "sewing",
    "chess openings", "drawing portraits", "French",
)  # fmt: skip
DURATIONS = (
    "a month", "three weeks", "half a year", "two years", "a few days", "six months",
    "almost a year", "ten weeks",
)  # fmt: skip
PETS = ("dog", "cat", "puppy", "kitten", "parrot", "rabbit", "hamster", "turtle")
ADJECTIVES = (
    "amazing", "way too crowded", "surprisingly quiet", "beautiful", "freezing",
    "a total mess", "unforgettable", "so much fun", "exhausting", "peaceful", "hilarious",
    "disappointing", "cozy", "chaotic",
)  # fmt: skip

TEMPLATES = (
    "I finally tried {food} at {place} {time}, and honestly it left me feeling {feeling}.",
    "{person} and I went {activity} near {place} {time}; it was {adj}.",
    "Can't believe {person} talked me into {activity} {time}, I'm still {feeling}.",
    "We're planning to make {food} for {person}'s birthday {time}, probably at {place}.",
    "My {relation} {person} just moved to {city} and I'm feeling {feeling} about it.",
    "I've been learning {skill} for {duration} and my {relation} {person} says I'm improving.",
    "Remember the {food} we had at {place} {time}? {person} still talks about it.",
    "{time} I'm going {activity} with my {relation}, then grabbing {food} at {place}.",
    "Our {pet} got loose at {place} {time}, we were {feeling} until {person} found it.",
    "I booked a trip to {city} for {duration}, mostly for {activity} and {food}.",
    "{person} told me {time} she's quitting her job to sell {food} in {city}.",
    "Honestly {activity} with {person} has been great for my mood, I felt {feeling} {time}.",
    "We visited {city} {time} and the weather was {adj}, but {place} made up for it.",
    "My {relation} {person} keeps asking me to teach them {skill}; maybe {time} at {place}.",
    "I burned {food} {time} after a long day of {activity}, and {person} just laughed.",
    "Started volunteering at {place} {time} with {person}, it makes me feel {feeling}.",
    "{person} recommended {place} for {activity}, we should go {time}.",
    "I've been {feeling} lately, so no {activity} for {duration}; more time with my {relation}.",
    "Adopted a {pet} {time} from {place}! {person} helped me pick a name.",
    "The concert in {city} {time} was {adj}, {person} cried during the last song.",
)
QUESTIONS = (
    "What did {person} eat at {place}?",
    "When did I last go {activity} with {person}?",
    "How did I feel about {activity} {time}?",
    "Who moved to {city}?",
    "Where does my {relation} like to go {activity}?",
    "What was that {food} place {person} recommended?",
    "How long have I been learning {skill}?",
    "Did {person} ever visit {city}?",
    "What happened with the {pet} at {place}?",
    "Which trip did I plan for {activity} in {city}?",
    "What should I cook for {person}, maybe {food}?",
    "When was I feeling {feeling} after {activity}?",
    "What did my {relation} say about {place}?",
    "Is {place} good for {activity} {time}?",
)
SLOTS: dict[str, Sequence[str]] = {
    "person": PEOPLE,
    "relation": RELATIONS,
    "place": PLACES,
    "city": CITIES,
    "activity": ACTIVITIES,
    "food": FOODS,
    "time": TIMES,
    "feeling": FEELINGS,
    "skill": SKILLS,
    "duration": DURATIONS,
    "pet": PETS,
    "adj": ADJECTIVES,
}
SPEAKERS = ("Sam", "Alex")


def fill(template: str, rng: random.Random) -> str:
    """``template`` with every ``{slot}`` drawn from its vocabulary."""
    text = template.format(**{k: rng.choice(v) for k, v in SLOTS.items()})
    return text[0].upper() + text[1:]


def corpus(seed: int) -> Iterator[Message]:
    """An endless, reproducible stream of chat turns, a few minutes apart."""
    rng = random.Random(seed)
    at = START
    while True:
        at += timedelta(minutes=rng.randint(1, 30))
        yield Message(
            content=fill(rng.choice(TEMPLATES), rng), name=rng.choice(SPEAKERS), occurred_at=at
        )


def queries(seed: int) -> Iterator[str]:
    """An endless stream of distinct questions (no text is ever repeated)."""
    rng = random.Random(seed)
    seen: set[str] = set()
    while True:
        text = fill(rng.choice(QUESTIONS), rng)
        if text not in seen:
            seen.add(text)
            yield text


# -- measuring -----------------------------------------------------------------------


@dataclass
class SizeRun:
    """Everything measured at one corpus size (milliseconds unless named otherwise)."""

    items: int
    build_seconds: float = 0.0
    built_items: int = 0
    first_read_ms: float = 0.0
    read: list[float] = field(default_factory=list)
    embed: list[float] = field(default_factory=list)
    lexical: list[float] = field(default_factory=list)
    vector: list[float] = field(default_factory=list)
    rest: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    embed_cpu: list[float] = field(default_factory=list)
    brute: list[float] = field(default_factory=list)
    cache_hits: int = 0
    first_read_degraded: list[str] = field(default_factory=list)
    degraded_reads: int = 0
    queries: list[str] = field(default_factory=list)
    match_share: float = 0.0


def stats(values: Sequence[float]) -> dict[str, float]:
    """p50/p95/p99 (linear interpolation), min, max and mean, rounded to 0.01 ms."""
    arr = np.asarray(values, dtype=np.float64)
    p50, p95, p99 = np.percentile(arr, [50, 95, 99])
    out = {"p50": p50, "p95": p95, "p99": p99, "min": arr.min(), "max": arr.max()}
    out["mean"] = arr.mean()
    return {k: round(float(v), 2) for k, v in out.items()}


async def count_items(mem: Memory) -> int:
    return await mem.store.count_items(ItemFilter(scope=Scope(user_id=USER)))


async def grow(mem: Memory, stream: Iterator[Message], target: int, batch: int) -> int:
    """Write turns through ``write_batch`` until the scope holds ``target`` items."""
    have = await count_items(mem)
    while have < target:
        messages = [next(stream) for _ in range(min(batch, target - have))]
        await mem.write_batch(messages, user_id=USER)
        have = await count_items(mem)
    return have


class FreshQueries:
    """Distinct questions that are in neither the LRU nor the persistent embedding cache."""

    def __init__(self, mem: Memory, cached: CachedEmbedder, seed: int) -> None:
        self._stream = queries(seed)
        self._mem = mem
        self._model = cached.model_id

    async def next(self) -> str:
        while True:
            text = next(self._stream)
            found = await self._mem.store.get_embeddings(self._model, [text_hash(text)])
            if not found:
                return text


async def timed_read(mem: Memory, query: str, limit: int, at: datetime) -> tuple[float, float, Any]:
    """Wall and CPU (all threads) milliseconds of one read, and its packet."""
    cpu, start = time.process_time(), time.perf_counter()
    packet = await mem.read(query, user_id=USER, limit=limit, reference_time=at)
    wall = (time.perf_counter() - start) * 1000
    return wall, (time.process_time() - cpu) * 1000, packet


async def timed_embed(inner: Embedder, query: str) -> tuple[float, float, np.ndarray]:
    """Wall and CPU (all threads) milliseconds of one bare query embedding, and it."""
    cpu, start = time.process_time(), time.perf_counter()
    vectors = await inner.embed([query], "query")
    wall = (time.perf_counter() - start) * 1000
    return wall, (time.process_time() - cpu) * 1000, vectors[0]


def record_steps(run: SizeRun, read_ms: float, cpu_ms: float, packet: Any) -> None:
    steps = {s.name: s.latency_ms for s in packet.steps}
    run.read.append(read_ms)
    run.cpu.append(cpu_ms)
    run.lexical.append(steps.get("lexical", 0.0))
    run.vector.append(steps.get("vector", 0.0))
    run.rest.append(read_ms - max(steps.values(), default=0.0))


async def measure(
    mem: Memory, fresh: FreshQueries, run: SizeRun, args: argparse.Namespace, at: datetime
) -> list[np.ndarray]:
    """Warm up, then interleave measured reads with bare query embeddings."""
    cached = mem.embedder
    assert isinstance(cached, CachedEmbedder)
    run.first_read_ms, _, first = await timed_read(mem, await fresh.next(), args.limit, at)
    run.first_read_degraded = list(first.degraded)
    for _ in range(args.warmup):
        await timed_read(mem, await fresh.next(), args.limit, at)
        await timed_embed(cached.inner, await fresh.next())
    hits_before = cached.hits
    vectors: list[np.ndarray] = []
    for i in range(args.reads):
        read_query, embed_query = await fresh.next(), await fresh.next()
        if i % 2:
            embed_ms, embed_cpu, vector = await timed_embed(cached.inner, embed_query)
        read_ms, cpu_ms, packet = await timed_read(mem, read_query, args.limit, at)
        if not i % 2:
            embed_ms, embed_cpu, vector = await timed_embed(cached.inner, embed_query)
        record_steps(run, read_ms, cpu_ms, packet)
        run.queries.append(read_query)
        run.degraded_reads += bool(packet.degraded)
        run.embed.append(embed_ms)
        run.embed_cpu.append(embed_cpu)
        vectors.append(vector)
    run.cache_hits = cached.hits - hits_before
    return vectors


def match_share(path: Path, texts: Sequence[str]) -> float:
    """Median share of the scope's items that the lexical OR-query of a text matches."""
    with sqlite3.connect(path) as conn:
        total = conn.execute("SELECT COUNT(*) FROM items WHERE user_id = ?", (USER,)).fetchone()
        counts = [
            conn.execute(
                "SELECT COUNT(*) FROM items_fts WHERE items_fts MATCH ?",
                (" OR ".join(f'"{t}"' for t in query_terms(text)),),
            ).fetchone()[0]
            for text in texts
        ]
    return float(np.median(counts)) / max(int(total[0]), 1)


def load_matrix(path: Path) -> np.ndarray:
    with sqlite3.connect(path) as conn:
        blobs = conn.execute(
            "SELECT embedding FROM items WHERE user_id = ? AND embedding IS NOT NULL"
            " ORDER BY rowid",
            (USER,),
        ).fetchall()
    return np.frombuffer(b"".join(b for (b,) in blobs), dtype=np.float32).reshape(len(blobs), -1)


def brute_force(matrix: np.ndarray, vectors: Sequence[np.ndarray], k: int) -> list[float]:
    """Time exact top-``k`` by dot product, one query at a time (the vector-search floor)."""
    times: list[float] = []
    for v in vectors:
        start = time.perf_counter()
        scores = matrix @ v
        top = np.argpartition(-scores, k - 1)[:k]
        top[np.argsort(-scores[top])]
        times.append((time.perf_counter() - start) * 1000)
    return times


# -- running and reporting -----------------------------------------------------------


async def run(args: argparse.Namespace, db: Path) -> list[SizeRun]:
    reference = datetime(2100, 1, 1, tzinfo=UTC)  # after every synthetic turn
    runs: list[SizeRun] = []
    async with Memory.open(f"sqlite:///{db}") as mem:
        cached = mem.embedder
        assert isinstance(cached, CachedEmbedder)
        await cached.inner.embed(["warm up the model"], "query")
        stream = corpus(SEED)
        for _ in range(await count_items(mem)):
            next(stream)  # resume the stream where a kept database left off
        # queries come from their own seed; any already embedded (a kept database) is skipped
        fresh = FreshQueries(mem, cached, SEED + 1)
        for size in args.sizes:
            result = SizeRun(items=size)
            before = await count_items(mem)
            start = time.perf_counter()
            result.items = await grow(mem, stream, size, args.batch)
            result.build_seconds = time.perf_counter() - start
            result.built_items = result.items - before
            built = f"{result.built_items} written in {result.build_seconds:.0f}s"
            print(f"{result.items} items ({built}); measuring…", flush=True)
            vectors = await measure(mem, fresh, result, args, reference)
            result.brute = brute_force(load_matrix(db), vectors, args.limit)
            result.match_share = match_share(db, result.queries)
            runs.append(result)
            print(render_row(result), flush=True)
    return runs


def summary(r: SizeRun) -> dict[str, Any]:
    read, embed = stats(r.read), stats(r.embed)
    return {
        "items": r.items,
        "items_written_for_this_size": r.built_items,
        "build_seconds": round(r.build_seconds, 1),
        "build_items_per_s": round(r.built_items / r.build_seconds, 1) if r.built_items else None,
        "first_read_ms": round(r.first_read_ms, 2),
        "read_ms": read,
        "query_embedding_ms": embed,
        "ratio_read_to_embedding": {p: round(read[p] / embed[p], 2) for p in ("p50", "p95", "p99")},
        "steps_ms": {"lexical": stats(r.lexical), "vector_incl_embedding": stats(r.vector)},
        "rest_ms": stats(r.rest),
        "cpu_ms_per_read": stats(r.cpu),
        "query_embedding_cpu_ms": stats(r.embed_cpu),
        # what a read costs beyond its query's embedding (issue 35: <= 2.0 ms at 10k)
        "cpu_beyond_embedding_ms": {
            "p50": round(float(np.median(r.cpu)) - float(np.median(r.embed_cpu)), 2),
            "mean": round(float(np.mean(r.cpu)) - float(np.mean(r.embed_cpu)), 2),
        },
        "numpy_brute_force_ms": stats(r.brute),
        "embedding_cache_hits_during_reads": r.cache_hits,
        "degraded_measured_reads": r.degraded_reads,
        "first_read_degraded": r.first_read_degraded,
        "lexical_query_matches_median_share_of_items": round(r.match_share, 3),
    }


def render_row(r: SizeRun) -> str:
    s = summary(r)
    read, emb, brute = s["read_ms"], s["query_embedding_ms"], s["numpy_brute_force_ms"]
    lex, vec = s["steps_ms"]["lexical"], s["steps_ms"]["vector_incl_embedding"]
    return (
        f"| {r.items:>7,} | {read['p50']:.1f} / {read['p95']:.1f} / {read['p99']:.1f} | "
        f"{emb['p50']:.1f} / {emb['p95']:.1f} / {emb['p99']:.1f} | "
        f"{s['ratio_read_to_embedding']['p50']:.2f} / {s['ratio_read_to_embedding']['p95']:.2f} | "
        f"{lex['p50']:.1f} / {lex['p95']:.1f} | {vec['p50']:.1f} / {vec['p95']:.1f} | "
        f"{s['rest_ms']['p50']:.1f} / {s['rest_ms']['p95']:.1f} | {brute['p50']:.2f} |"
    )


HEADER = (
    "| items | read p50 / p95 / p99 | query embedding p50 / p95 / p99 | ratio p50 / p95 | "
    "lexical step p50 / p95 | vector step (incl. embedding) p50 / p95 | rest p50 / p95 | "
    "numpy brute force p50 |\n|---|---|---|---|---|---|---|---|"
)


BUILD_HEADER = (
    "| items | written for this size | build s | items/s "
    "| first read ms (builds matrix and lexical index) "
    "| numpy brute force p50 / p95 | embedding-cache hits in measured reads "
    "| degraded measured reads | first read degraded | lexical query matches (median share) |"
    "\n|---|---|---|---|---|---|---|---|---|---|"
)


def build_row(s: dict[str, Any]) -> str:
    brute = s["numpy_brute_force_ms"]
    return (
        f"| {s['items']:,} | {s['items_written_for_this_size']:,} | {s['build_seconds']} | "
        f"{s['build_items_per_s']} | {s['first_read_ms']} | {brute['p50']} / {brute['p95']} | "
        f"{s['embedding_cache_hits_during_reads']} | {s['degraded_measured_reads']} | "
        f"{'; '.join(s['first_read_degraded']) or 'no'} | "
        f"{s['lexical_query_matches_median_share_of_items']:.1%} |"
    )


def target_line(sizes: list[dict[str, Any]]) -> str:
    at_10k = [s for s in sizes if s["items"] == 10_000]
    if not at_10k:
        return "Targets (read p95 at 10k items): not measured in this run."
    p95 = at_10k[0]["read_ms"]["p95"]
    verdicts = [
        f"≤ {target:g} ms ({name}): **{'met' if p95 <= target else 'MISSED'}**"
        for name, target in TARGETS_P95_MS.items()
    ]
    return f"Read p95 at 10k items {p95} ms. Targets: " + "; ".join(verdicts) + "."


def scheduling() -> str:
    """How the benchmark's process was scheduled (``chrt -f`` keeps other work on a
    shared machine from preempting it: the numbers then approach a quiet machine's)."""
    if not hasattr(os, "sched_getscheduler"):
        return "unknown"
    policy = os.sched_getscheduler(0)
    names = {os.SCHED_OTHER: "SCHED_OTHER (default)", os.SCHED_FIFO: "SCHED_FIFO"}
    names[os.SCHED_RR] = "SCHED_RR"
    name = names.get(policy, str(policy))
    priority = os.sched_getparam(0).sched_priority
    return f"{name}, priority {priority}" if priority else name


def cpu_line(sizes: list[dict[str, Any]]) -> str:
    parts = [
        f"{s['items']:,} items {s['cpu_ms_per_read']['p50']} / {s['cpu_ms_per_read']['mean']}"
        f" (query embedding {s['query_embedding_cpu_ms']['p50']} /"
        f" {s['query_embedding_cpu_ms']['mean']}; beyond it"
        f" {s['cpu_beyond_embedding_ms']['p50']} / {s['cpu_beyond_embedding_ms']['mean']})"
        for s in sizes
    ]
    return "CPU per read, every thread (p50 / mean ms): " + "; ".join(parts) + "."


def p95_line(sizes: list[dict[str, Any]]) -> str:
    """Issue 35: read p95 <= 1.5 x the query embedding's p95 + 2 ms (wall, at 10k)."""
    out = []
    for s in sizes:
        read, embed = s["read_ms"]["p95"], s["query_embedding_ms"]["p95"]
        bound = round(1.5 * embed + 2.0, 2)
        verdict = "met" if read <= bound else "MISSED"
        out.append(f"{s['items']:,} items {read} ms against {bound} ms: **{verdict}**")
    return "Read p95 ≤ 1.5 × query embedding p95 + 2 ms: " + "; ".join(out) + "."


def write_results(args: argparse.Namespace, runs: list[SizeRun], result: dict[str, Any]) -> None:
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "read_latency.json").write_text(json.dumps(result, indent=2) + "\n")
    machine = result["machine"]
    lines = [
        f"# Read latency, in-process `Memory.read` ({args.embedder}, preset balanced)",
        "",
        f"Command: `{result['command']}`  ",
        f"Machine: {machine['summary']}  ",
        f"Load average (1/5/15 min) at start {machine['load_average_1_5_15']}, "
        f"at end {result['load_average_at_end']}  ",
        f"Scheduling: {result['scheduling']}",
        "",
        f"Reads per size: {args.reads} after {args.warmup} warm-up reads, limit {args.limit}, "
        "every query a text never embedded before. Milliseconds.",
        "",
        HEADER,
        *(render_row(r) for r in runs),
        "",
        target_line(result["sizes"]),
        "",
        cpu_line(result["sizes"]),
        "",
        p95_line(result["sizes"]),
        "",
        BUILD_HEADER,
        *(build_row(s) for s in result["sizes"]),
        "",
        "Baseline *query embedding*: the same onnx session, called directly on other fresh "
        "queries of the same kind, interleaved with the reads. *Ratio* = read / embedding. "
        "*Rest* = read minus its slower step (the steps run concurrently): fetching the "
        "items, fusion, assembly, the access-count write and thread hops. The corpus was "
        "grown in one scope (1k → 10k → 100k) through `write_batch` with the real embedder.",
        "",
    ]
    (args.out / "read_latency.md").write_text("\n".join(lines))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    parser.add_argument("--reads", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--limit", type=int, default=10)
    parser.add_argument("--batch", type=int, default=500)
    parser.add_argument("--db", type=Path, help="keep the database here (reused if present)")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results")
    parser.add_argument(
        "--embedder",
        default="onnx:minilm",
        help="COGNIMEM_EMBEDDING__MODEL for the run, e.g. onnx:minilm-float (the former "
        "default, float products) as a baseline; a kept --db must have been built with it",
    )
    args = parser.parse_args()
    args.sizes = sorted(args.sizes)
    os.environ["COGNIMEM_EMBEDDING__MODEL"] = args.embedder
    machine = describe()
    started = time.perf_counter()
    print(HEADER)
    with tempfile.TemporaryDirectory() as tmp:
        runs = asyncio.run(run(args, args.db or Path(tmp) / "read_latency.db"))
    command = "python benchmarks/read_latency.py " + " ".join(sys.argv[1:])
    result = {
        "command": command.strip(),
        "machine": machine,
        "load_average_at_end": [round(x, 2) for x in os.getloadavg()],
        "scheduling": scheduling(),
        "seconds": round(time.perf_counter() - started, 1),
        "settings": {k: str(v) for k, v in vars(args).items()},
        "sizes": [summary(r) for r in runs],
    }
    write_results(args, runs, result)


if __name__ == "__main__":
    main()
