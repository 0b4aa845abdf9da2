"""Bulk ingest with extraction on, against the raw embedder on the same texts.

What it measures: ``--messages`` LoCoMo-like messages (the dev set's turns, one user per
conversation, in order) written through ``Memory.write_batch`` in batches of
``--batch`` (what ``cognimem import`` does) with the default ``chat`` profile (rule
extraction of facts, constraints and entities, entity resolution, reconciliation,
near-duplicate merging) and the default local embedder (onnx:minilm), into a fresh
database and a fresh ``Memory`` each repetition, on SQLite and on PostgreSQL (a
throwaway local server, ``tests/servers.py``: fsync off).

The baseline: a second warmed ``OnnxMiniLMEmbedder`` in the same process embedding,
right after each ``write_batch``, exactly what that write asked its embedder to embed
(the items' texts and the fact texts extraction found, in the same calls), so it is the
raw embedder's throughput on the texts the ingest needs, timed beside it batch by batch
(a change of load on this shared machine falls on both). The ratio is messages/s of
the ingest over messages/s of the baseline on the same messages (= baseline seconds /
ingest seconds), per repetition, median; goal ≥ 0.8 (issue 35). It also gives each
side's process CPU (every thread; PostgreSQL's own CPU is not in it) and where the
ingest's time went by write step (``WriteResult.steps``).

Usage (from the repository root):

    python benchmarks/ingest_ratio.py [PATH] [--messages 1000] [--batch 500]
        [--repeats 3] [--backend sqlite --backend postgresql] [--pg-options QUERY]
        [--out benchmarks/results]

``--pg-options`` appends a query string to the PostgreSQL URL (cognimem's URL options,
e.g. ``hnsw_m=12&hnsw_ef_construction=48`` for the HNSW index the first write builds).

PATH defaults to ../shared/data/locomo/locomo10_dev.json (read, never copied).
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
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from _machine import describe

from cognimem import Memory, Message
from cognimem.eval import locomo
from cognimem.providers.embeddings import EmbedKind, FloatMatrix, WrappingEmbedder
from cognimem.providers.onnx import OnnxMiniLMEmbedder
from cognimem.providers.tokens import count_tokens

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.servers import PostgresServer, start_postgres  # noqa: E402

GOAL = 0.8


class RecordingEmbedder(WrappingEmbedder):
    """The onnx embedder, noting the texts of each call."""

    def __init__(self, inner: OnnxMiniLMEmbedder) -> None:
        super().__init__(inner)
        self.calls: list[list[str]] = []

    async def embed(self, texts: Sequence[str], kind: EmbedKind = "document") -> FloatMatrix:
        self.calls.append(list(texts))
        return await self.inner.embed(texts, kind)


@dataclass
class Pass:
    seconds: float
    cpu: float
    calls: list[list[str]] = field(default_factory=list, repr=False)
    steps_ms: dict[str, float] = field(default_factory=dict)
    facts: int = 0
    server_cpu: float = 0.0  # the PostgreSQL server's processes, over the writes


def server_cpu(postmaster: int | None) -> float:
    """CPU seconds (user + system) of a PostgreSQL server's postmaster and its children
    (backends, WAL writer, autovacuum...) alive now; 0 without a server."""
    if postmaster is None:
        return 0.0
    ticks = 0
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            fields = (proc / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # it ended meanwhile
        if int(proc.name) == postmaster or int(fields[1]) == postmaster:
            ticks += int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")


def _message(turn: locomo.Turn, text: str, external_id: str) -> Message:
    return Message(
        content=text, name=turn.speaker, occurred_at=turn.occurred_at, external_id=external_id
    )


def messages(path: Path, total: int, restated: int = 0) -> dict[str, list[Message]]:
    """``total`` turns of the dev set as messages, by conversation (one user each).

    ``restated`` > 0: every ``restated``-th turn is said twice more in other cases
    (other events, the same embedding under an uncased model: near-duplicates the write
    merges), swapped right after it (into an item of the same write) and in capitals at
    the end of its conversation (in a later batch: into a stored item)."""
    out: dict[str, list[Message]] = {}
    left = total
    for conv in locomo.load(path):
        turns = [t for session in conv.sessions for t in session if t.text.strip()][:left]
        said, later = [], []
        for n, t in enumerate(turns, start=1):
            said.append(_message(t, t.text, t.dia_id))
            if (
                restated
                and n % restated == 0
                and len({t.text, t.text.swapcase(), t.text.upper()}) == 3
            ):
                said.append(_message(t, t.text.swapcase(), f"{t.dia_id}:again"))
                later.append(_message(t, t.text.upper(), f"{t.dia_id}:last"))
        out[conv.sample_id] = said + later
        left -= len(turns)
        if left == 0:
            return out
    raise SystemExit(f"{path} holds {total - left} turns, fewer than --messages {total}")


def warm(embedder: OnnxMiniLMEmbedder) -> OnnxMiniLMEmbedder:
    embedder.embed_sync(["warming up the model before timing"])
    return embedder


async def ingest_pass(
    url: str, by_user: dict[str, list[Message]], batch: int, postmaster: int | None = None
) -> tuple[Pass, Pass]:
    """The ingest, and beside each of its writes (right after it, so both see the same
    load) a second warmed embedder on exactly the texts that write embedded."""
    recording = RecordingEmbedder(warm(OnnxMiniLMEmbedder()))
    raw = warm(OnnxMiniLMEmbedder())
    ingest, baseline = Pass(0.0, 0.0), Pass(0.0, 0.0)
    steps: dict[str, float] = defaultdict(float)
    async with Memory.open(url, embedder=recording) as mem:
        for user, said in by_user.items():
            for i in range(0, len(said), batch):
                done = len(recording.calls)
                server = server_cpu(postmaster)  # its /proc scan outside the ingest's time
                start, cpu = time.perf_counter(), time.process_time()
                result = await mem.write_batch(said[i : i + batch], user_id=user)
                ingest.seconds += time.perf_counter() - start
                ingest.cpu += time.process_time() - cpu
                ingest.server_cpu += server_cpu(postmaster) - server
                for step in result.steps:
                    steps[step.name] += step.latency_ms
                start, cpu = time.perf_counter(), time.process_time()
                for texts in recording.calls[done:]:
                    if texts:
                        await raw.embed(texts, "document")
                baseline.seconds += time.perf_counter() - start
                baseline.cpu += time.process_time() - cpu
        for user in by_user:
            ingest.facts += len(await mem.facts(user_id=user, include_history=True, limit=10_000))
    await recording.aclose()
    await raw.aclose()
    ingest.calls = [c for c in recording.calls if c]
    ingest.steps_ms = dict(steps)
    return ingest, baseline


async def run_backend(
    backend: str,
    by_user: dict[str, list[Message]],
    batch: int,
    repeats: int,
    server: PostgresServer | None,
    tmp: Path,
    pg_options: str = "",
) -> dict[str, Any]:
    made = 0
    postmaster = None
    if server is not None:
        postmaster = int((server.datadir / "postmaster.pid").read_text().split()[0])

    async def fresh() -> str:
        nonlocal made
        made += 1
        if backend == "sqlite":
            return f"sqlite:///{tmp}/ingest_{made}.db"
        assert server is not None
        server.psql(f"CREATE DATABASE ingest_{made}")
        return server.admin_dsn(f"ingest_{made}") + (f"?{pg_options}" if pg_options else "")

    count_tokens("warming up the tokenizer")
    await ingest_pass(await fresh(), {u: m[:batch] for u, m in list(by_user.items())[:1]}, batch)
    ingests: list[Pass] = []
    raws: list[Pass] = []
    for rep in range(repeats):
        ingest, raw = await ingest_pass(await fresh(), by_user, batch, postmaster)
        ingests.append(ingest)
        raws.append(raw)
        print(
            f"{backend} rep {rep}: ingest {ingest.seconds:.2f}s raw {raw.seconds:.2f}s "
            f"load {os.getloadavg()[0]:.2f}",
            file=sys.stderr,
            flush=True,
        )
    texts = [sum(len(c) for c in p.calls) for p in ingests]
    if any(p.calls != ingests[0].calls for p in ingests):
        raise SystemExit("the ingest passes embedded different texts; the baseline is not paired")
    n = sum(len(m) for m in by_user.values())
    ratios = [r.seconds / i.seconds for i, r in zip(ingests, raws, strict=True)]
    cpu_ratios = [r.cpu / i.cpu for i, r in zip(ingests, raws, strict=True)]
    # the baseline's CPU over everything the ingest made the machine do: its process
    # and the database server's (SQLite runs inside the process)
    total_ratios = [r.cpu / (i.cpu + i.server_cpu) for i, r in zip(ingests, raws, strict=True)]
    steps = {
        k: statistics.median(p.steps_ms.get(k, 0.0) for p in ingests) / 1000
        for k in ingests[0].steps_ms
    }
    return {
        "backend": backend,
        "messages": n,
        "batch": batch,
        "repeats": repeats,
        "texts_embedded": texts,
        "facts": [p.facts for p in ingests],
        "ingest_seconds": [round(p.seconds, 3) for p in ingests],
        "raw_seconds": [round(p.seconds, 3) for p in raws],
        "ingest_cpu": [round(p.cpu, 3) for p in ingests],
        "raw_cpu": [round(p.cpu, 3) for p in raws],
        "ingest_messages_per_s": round(n / statistics.median(p.seconds for p in ingests), 1),
        "raw_messages_per_s": round(n / statistics.median(p.seconds for p in raws), 1),
        "ratio_paired": [round(r, 3) for r in ratios],
        "ratio": round(statistics.median(ratios), 3),
        "cpu_ratio": round(statistics.median(cpu_ratios), 3),
        "server_cpu": [round(p.server_cpu, 3) for p in ingests],
        "cpu_ratio_with_server_paired": [round(r, 3) for r in total_ratios],
        "cpu_ratio_with_server": round(statistics.median(total_ratios), 3),
        "steps_seconds": {k: round(v, 3) for k, v in steps.items()},
    }


def report(machine: dict[str, Any], command: str, rows: list[dict[str, Any]], end: Any) -> str:
    lines = [
        "# Bulk ingest against the raw embedder on the same texts (onnx:minilm, no LLM)",
        "",
        f"Command: `{command}`  ",
        f"Machine: {machine['summary']}  ",
        f"Load average (1/5/15 min) at start {machine['load_average_1_5_15']}, at end {end}",
        "",
        "Ingest: `Memory.write_batch` of the batch size below with the default `chat` "
        "profile (rule extraction, entity resolution, reconciliation, near-duplicate "
        "merging), a fresh database and `Memory` per repetition. Baseline: a second "
        "warmed onnx embedder, right after each write, on exactly the texts that write "
        "embedded (turns and fact texts), in the same calls. Ratio = baseline seconds / "
        "ingest seconds (messages/s "
        f"of the ingest over the embedder's), paired per repetition, median; goal ≥ {GOAL}.",
        "",
        "| backend | messages | batch | texts embedded | facts | ingest msg/s | raw embedder "
        "msg/s | ratio (paired, median) | per repetition | CPU ratio | CPU ratio with the "
        "server's (per repetition) | met |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['backend']} | {r['messages']} | {r['batch']} | {r['texts_embedded'][0]} | "
            f"{r['facts'][0]} | {r['ingest_messages_per_s']} | {r['raw_messages_per_s']} | "
            f"**{r['ratio']}** | {', '.join(map(str, r['ratio_paired']))} | {r['cpu_ratio']} | "
            f"{r['cpu_ratio_with_server']} "
            f"({', '.join(map(str, r['cpu_ratio_with_server_paired']))}) | "
            f"{'yes' if r['ratio'] >= GOAL else 'no'} |"
        )
    lines += [
        "",
        "CPU ratio: the baseline's process CPU over the ingest's (every thread of this "
        "process). With the server's: over the ingest's process CPU plus the PostgreSQL "
        "server's (its postmaster and every child process, from /proc, over the writes); "
        "on SQLite the two are the same. CPU moves far less than wall time with other "
        "work on the machine.",
        "",
        "| where the ingest's time went (median seconds, `WriteResult.steps`) | "
        + " | ".join(r["backend"] for r in rows)
        + " |",
        "|---|" + "---|" * len(rows),
    ]
    for step in rows[0]["steps_seconds"]:
        lines.append(
            f"| {step} | " + " | ".join(str(r["steps_seconds"].get(step, "")) for r in rows) + " |"
        )
    lines.append(
        "| total (ingest seconds, median) | "
        + " | ".join(str(round(statistics.median(r["ingest_seconds"]), 3)) for r in rows)
        + " |"
    )
    return "\n".join(lines) + "\n"


def message_arguments(
    doc: str, *, messages: int = 1000, batch: int = 500
) -> argparse.ArgumentParser:
    """A parser that takes the LoCoMo file (the shared dev file by default), how many
    messages to write and in batches of how many: what every bulk-ingest benchmark
    asks."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument(
        "path", nargs="?", type=Path, default=ROOT.parent / "shared/data/locomo/locomo10_dev.json"
    )
    parser.add_argument("--messages", type=int, default=messages)
    parser.add_argument("--batch", type=int, default=batch)
    parser.add_argument(
        "--restated",
        type=int,
        default=0,
        help="every Nth turn said twice more in another case (near-duplicates to merge)",
    )
    return parser


def main() -> None:
    parser = message_arguments(__doc__)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--backend", action="append", choices=["sqlite", "postgresql"], default=None
    )
    parser.add_argument(
        "--pg-options",
        default="",
        help="query string appended to the PostgreSQL URL, e.g. hnsw_m=12&hnsw_ef_construction=48",
    )
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    backends = args.backend or ["sqlite", "postgresql"]
    machine = describe()
    by_user = messages(args.path, args.messages, args.restated)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        server = start_postgres(Path(tmp) / "pg") if "postgresql" in backends else None
        try:
            for backend in backends:
                rows.append(
                    asyncio.run(
                        run_backend(
                            backend,
                            by_user,
                            args.batch,
                            args.repeats,
                            server,
                            Path(tmp),
                            args.pg_options,
                        )
                    )
                )
        finally:
            if server is not None:
                server.destroy()
    end = [round(x, 2) for x in os.getloadavg()]
    command = ("python benchmarks/ingest_ratio.py " + " ".join(sys.argv[1:])).strip()
    text = report(machine, command, rows, end)
    print(text)
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        data = {"machine": machine, "command": command, "load_at_end": end, "rows": rows}
        (args.out / "ingest_ratio.json").write_text(json.dumps(data, indent=2) + "\n")
        (args.out / "ingest_ratio.md").write_text(text)


if __name__ == "__main__":
    main()
