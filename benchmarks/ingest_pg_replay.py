"""Where a PostgreSQL bulk ingest's database CPU goes, statement by statement, on both
sides of the socket: the client's (asyncpg's encoding and decoding, the event loop) and
the server backend's.

It runs the ingest of ``benchmarks/ingest_ratio.py`` (``Memory.write_batch``, default
``chat`` profile, onnx:minilm) once into a fresh database, recording every statement
the store sends during the writes with its arguments (asyncpg's ``BEGIN`` and
``COMMIT`` too), then replays that log ``--replays`` times, each into a fresh database (the
migrations first, not counted), on one connection, with no extraction and no model:
only what the database path costs. For each statement it takes the event loop thread's
CPU (``time.thread_time``: the driver's encoding, the socket, the decoding) and the
backend's CPU (``/proc/<pid>/schedstat``, nanoseconds) around the call, and lists them
by statement, summed over a replay (median of the replays).

Usage (from the repository root):

    python benchmarks/ingest_pg_replay.py [PATH] [--messages 400] [--batch 200]
        [--replays 5] [--top 25] [--out FILE.md] [--perf FILE] [--scalar-constants]
        [--without trigger|hnsw|btrees[,...] ...]

``--scalar-constants`` is a diagnostic, never what cognimem sends: every ``unnest``
insert with its batch-constant columns bound as scalars. ``--without`` is a
diagnostic too: the replay's items table without the change-number row trigger
(disabled), without the HNSW index (never created: the near-duplicate search then scans
exactly), or without its btree indexes other than the primary key, to price each part
of the items insert per row. ``--perf FILE`` records the
first replay's backend with ``perf record -g`` (read it with ``perf report -i FILE
--children``).
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import os
import re
import signal
import statistics
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import asyncpg
from ingest_ratio import ingest_pass, message_arguments, messages
from tests.servers import PostgresServer, start_postgres  # ingest_ratio put the repo on the path

from cognimem import Memory
from cognimem.store.postgres.store import PostgresStore

_CALLS = ("execute", "executemany", "fetch", "fetchrow", "fetchval")
Entry = tuple[str, str, tuple[Any, ...]]  # (method, sql, args); asyncpg's BEGIN/COMMIT too


class Recorder:
    """Notes every statement an asyncpg connection sends while ``on``, and the event
    loop thread's CPU inside each ``PostgresStore`` method (the outermost call)."""

    def __init__(self) -> None:
        self.on = False
        self.log: list[Entry] = []
        self.store_cpu: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])
        self._depth = 0

    def install(self) -> None:
        conn_class = asyncpg.connection.Connection
        for name in _CALLS:
            setattr(conn_class, name, self._wrap(name, getattr(conn_class, name)))
        for name in dir(PostgresStore):
            method = getattr(PostgresStore, name)
            if not name.startswith("__") and inspect.iscoroutinefunction(method):
                setattr(PostgresStore, name, self._timed(name, method))

    def _wrap(self, name: str, call: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(call)
        async def recorded(conn: Any, sql: str, *args: Any, **kwargs: Any) -> Any:
            if self.on:
                self.log.append((name, sql, args))
            return await call(conn, sql, *args, **kwargs)

        return recorded

    def _timed(self, name: str, call: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(call)
        async def timed(*args: Any, **kwargs: Any) -> Any:
            if not self.on or self._depth:
                return await call(*args, **kwargs)
            self._depth += 1
            start = time.thread_time()
            try:
                return await call(*args, **kwargs)
            finally:
                self._depth -= 1
                row = self.store_cpu[name]
                row[0] += 1
                row[1] += time.thread_time() - start

        return timed


def record(server: PostgresServer, by_user: dict[str, Any], batch: int) -> tuple[Recorder, str]:
    """The recorded ingest: its log and store CPU, and a line on its CPU."""
    recorder = Recorder()
    recorder.install()
    write_batch = Memory.write_batch

    async def recorded(self: Memory, *args: Any, **kwargs: Any) -> Any:
        recorder.on = True
        try:
            return await write_batch(self, *args, **kwargs)
        finally:
            recorder.on = False

    Memory.write_batch = recorded  # type: ignore[method-assign]
    server.psql("CREATE DATABASE recorded")
    postmaster = int((server.datadir / "postmaster.pid").read_text().split()[0])
    try:
        ingest, raw = asyncio.run(
            ingest_pass(server.admin_dsn("recorded"), by_user, batch, postmaster)
        )
    finally:
        Memory.write_batch = write_batch  # type: ignore[method-assign]
    spent = sorted(recorder.store_cpu.items(), key=lambda kv: -kv[1][1])
    line = (
        f"The recorded ingest: process CPU {ingest.cpu:.2f} s, raw embedder {raw.cpu:.2f} s,"
        f" server {ingest.server_cpu:.2f} s; the event loop thread inside `PostgresStore`"
        f" methods {sum(v[1] for _, v in spent) * 1000:.1f} ms ("
        + ", ".join(f"`{k}` {v[1] * 1000:.1f} ms in {v[0]}" for k, v in spent[:6])
        + ")"
    )
    return recorder, line


_INSERT = re.compile(r"^INSERT INTO (\w+) \((.*?)\) SELECT \* FROM unnest\((.*)\)(.*)$", re.S)


def constants_as_scalars(entry: Entry) -> Entry:
    """Diagnostic: an ``unnest`` insert with each column whose values are all the same
    (the scope's ids, the counters of new rows...) bound once as a scalar instead of as
    an array (the same rows inserted; the statement's text then depends on the batch)."""
    method, sql, args = entry
    found = _INSERT.match(sql)
    if found is None or method != "execute" or len(args[0]) < 2:
        return entry
    table, columns, params, tail = found.groups()
    select, arrays, names, values = [], [], [], []
    for n, (param, column) in enumerate(zip(params.split(","), args, strict=True)):
        kind = param.strip().split("::")[1].removesuffix("[]")
        if all(v == column[0] for v in column):
            values.append(column[0])
            select.append(f"${len(values)}::{kind}")
        else:
            values.append(column)
            arrays.append(f"${len(values)}::{kind}[]")
            names.append(f"c{n}")
            select.append(f"c{n}")
    rewritten = (
        f"INSERT INTO {table} ({columns}) SELECT {', '.join(select)}"
        f" FROM unnest({', '.join(arrays)}) AS u({', '.join(names)}){tail}"
    )
    return method, rewritten, tuple(values)


def label(sql: str) -> str:
    """A statement's first words, literal lists and spaces squeezed."""
    text = re.sub(r"\s+", " ", sql).strip()
    return text[:110]


def backend_ns(pid: int) -> int:
    return int(Path(f"/proc/{pid}/schedstat").read_text().split()[0])


_BTREES = ("items_scope", "items_session", "items_agent", "items_kind", "items_key")
_WITHOUT = {
    "trigger": ["ALTER TABLE items DISABLE TRIGGER items_change_insert"],
    "hnsw": [],  # the log's CREATE INDEX of the HNSW index is skipped instead
    "btrees": [f"DROP INDEX {name}" for name in (*_BTREES, "items_change_seq")],
}


def without_parts(log: list[Entry], parts: list[str]) -> tuple[list[Entry], list[str]]:
    """Diagnostic: the log and the statements that take ``parts`` off the items table."""
    if "hnsw" in parts:
        log = [e for e in log if not e[1].startswith("CREATE INDEX IF NOT EXISTS items_embedding")]
    unknown = set(parts) - set(_WITHOUT)
    if unknown:
        raise SystemExit(f"--without: no part {sorted(unknown)}; parts: {sorted(_WITHOUT)}")
    return log, [sql for part in parts for sql in _WITHOUT[part]]


async def replay(
    url: str, log: list[Entry], perf: Path | None = None, setup: list[str] | None = None
) -> dict[str, list[float]]:
    """Each statement's (calls, client CPU s, server CPU s) in one replay; with ``perf``,
    the backend recorded by ``perf record -g`` into that file meanwhile; ``setup`` run
    after the migrations, before the log (not counted)."""
    store = PostgresStore.from_url(url)
    await store.open()  # the migrations; the pool's connections get the vector codec
    async with store._connection() as conn:
        for sql in setup or []:
            await conn.execute(sql)
    out: dict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0.0])
    recorder = None
    try:
        async with store._connection() as conn:
            pid = conn.get_server_pid()
            if perf is not None:
                command = ["perf", "record", "-F", "999", "-g", "-p", str(pid), "-o", str(perf)]
                recorder = await asyncio.create_subprocess_exec(
                    *command, stderr=asyncio.subprocess.DEVNULL
                )
                await asyncio.sleep(1.0)  # perf attached
            for method, sql, args in log:
                key = label(sql)
                cpu, server = time.thread_time(), backend_ns(pid)
                await getattr(conn, method)(sql, *args)
                row = out[key]
                row[0] += 1
                row[1] += time.thread_time() - cpu
                row[2] += (backend_ns(pid) - server) / 1e9
    finally:
        if recorder is not None:
            recorder.send_signal(signal.SIGINT)
            await recorder.wait()
        await store.close()
    return dict(out)


def table(runs: list[dict[str, list[float]]], top: int, n: int) -> str:
    keys = {k for r in runs for k in r}
    med = {
        k: (
            runs[0].get(k, [0])[0],
            statistics.median(r.get(k, [0, 0.0, 0.0])[1] for r in runs),
            statistics.median(r.get(k, [0, 0.0, 0.0])[2] for r in runs),
        )
        for k in keys
    }
    client = statistics.median(sum(v[1] for v in r.values()) for r in runs)
    server = statistics.median(sum(v[2] for v in r.values()) for r in runs)
    statements = sum(v[0] for k, v in med.items() if k not in ("BEGIN;", "COMMIT;"))
    lines = [
        f"{n} messages; per replay (median of {len(runs)}): client CPU {client * 1000:.1f} ms,"
        f" server backend CPU {server * 1000:.1f} ms, {statements} statements"
        f" ({statements / n:.2f} per message)",
        "",
        "| server ms | client ms | calls | statement |",
        "|---|---|---|---|",
    ]
    ranked = sorted(med.items(), key=lambda kv: -(kv[1][1] + kv[1][2]))
    for k, (calls, c, s) in ranked[:top]:
        q = k.replace("|", "\\|")
        lines.append(f"| {s * 1000:.1f} | {c * 1000:.1f} | {calls} | `{q}` |")
    rest = ranked[top:]
    if rest:
        lines.append(
            f"| {sum(v[2] for _, v in rest) * 1000:.1f} | {sum(v[1] for _, v in rest) * 1000:.1f}"
            f" | {sum(v[0] for _, v in rest)} | the other {len(rest)} statements |"
        )
    return "\n".join(lines) + "\n"


def variant_line(
    part: str, full: list[dict[str, list[float]]], varied: list[dict[str, list[float]]]
) -> str:
    """The items insert's and the whole replay's server CPU without ``part`` against the
    full replays (medians; the replays of both were interleaved)."""

    def server_ms(runs: list[dict[str, list[float]]], prefix: str) -> float:
        return 1000 * statistics.median(
            sum(v[2] for k, v in r.items() if k.startswith(prefix)) for r in runs
        )

    parts = []
    for what, prefix in (("the items insert", "INSERT INTO items "), ("all", "")):
        a, b = server_ms(full, prefix), server_ms(varied, prefix)
        parts.append(f"{what} {a:.1f} → {b:.1f} ms ({b - a:+.1f})")
    return f"Without {part} (server CPU, medians of {len(varied)}): " + "; ".join(parts)


def main() -> None:
    parser = message_arguments(__doc__, messages=400, batch=200)
    parser.add_argument("--replays", type=int, default=5)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument(
        "--scalar-constants",
        action="store_true",
        help="diagnostic: replay the unnest inserts with batch-constant columns as scalars",
    )
    parser.add_argument(
        "--without",
        action="append",
        default=[],
        help="diagnostic: a variant replayed without these parts of the items table, "
        f"comma-separated, of {', '.join(sorted(_WITHOUT))} (repeatable: one variant each)",
    )
    parser.add_argument(
        "--perf", type=Path, default=None, help="perf record the backend of the first replay here"
    )
    args = parser.parse_args()
    by_user = messages(args.path, args.messages, args.restated)
    with tempfile.TemporaryDirectory() as tmp:
        server = start_postgres(Path(tmp) / "pg")
        try:
            recorder, recorded = record(server, by_user, args.batch)
            log = recorder.log
            if args.scalar_constants:
                log = [constants_as_scalars(e) for e in log]
            variants = [[], *(parts.split(",") for parts in args.without)]
            runs: list[list[dict[str, list[float]]]] = [[] for _ in variants]
            for i in range(args.replays):  # the variants interleaved, replay by replay
                for v, parts in enumerate(variants):
                    name = f"replay_{i}_{v}"
                    server.psql(f"CREATE DATABASE {name}")
                    perf = args.perf if i == 0 and v == 0 else None
                    varied, setup = without_parts(log, parts)
                    runs[v].append(asyncio.run(replay(server.admin_dsn(name), varied, perf, setup)))
        finally:
            server.destroy()
    text = f"{recorded}\n\nReplayed, " + table(runs[0], args.top, args.messages)
    for parts, varied_runs in zip(variants[1:], runs[1:], strict=True):
        text += f"\n{variant_line(' and '.join(parts), runs[0], varied_runs)}\n"
    text += f"\nload at end {os.getloadavg()[0]:.2f}\n"
    print(text)
    if args.out is not None:
        args.out.write_text(text)


if __name__ == "__main__":
    main()
