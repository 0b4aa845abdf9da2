"""cognimem beside mem0 OSS, in the same run on the same data: add throughput and search
latency on one whole LoCoMo conversation.

What it measures, for each system on a fresh store:
- add: every turn of the conversation, one call per turn, in order (cognimem:
  ``Memory.write`` with the speaker and session time, default profile, rule extraction;
  mem0: ``Memory.add([message], user_id=..., infer=False)``); turns per second;
- search: every question of categories 1-4 once, top 10 (cognimem: ``Memory.read``, the
  whole read: analysis, plan, vector + lexical + graph steps, rerank, packet; mem0:
  ``Memory.search``); p50 / p95 / p99 milliseconds, query embedding included.

Both embed with the same code: cognimem's ``OnnxMiniLMEmbedder`` (all-MiniLM-L6-v2, int8
ONNX), injected into mem0 as its embedding model. mem0 runs with its local Qdrant in
on-disk mode and its SQLite history, no LLM (``infer=False``), telemetry off, no
network; its optional spaCy and fastembed extras are not installed (they fetch models),
so its search is vector-only with the entity boost off. cognimem runs on its embedded
default (SQLite). mem0 lives in its own virtual environment (``--venv``, default
``~/.cache/cognimem-bench/mem0``), created with ``python -m venv`` and ``pip install
mem0ai <this repository>`` when it lacks mem0; when that cannot be done the benchmark
is skipped with a message saying why (and exits 0). The mem0 side runs as a subprocess
(``mem0_driver.py``) with this repository's ``src`` first on its path.

Usage (repository root):

    python benchmarks/mem0_side_by_side.py [LOCOMO_JSON] [--conversation conv-26]
        [--queries 200] [--venv DIR] [--out benchmarks/results]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _machine import describe
from read_latency import stats

from cognimem import Memory
from cognimem.eval import locomo

ROOT = Path(__file__).resolve().parent.parent
DRIVER = Path(__file__).resolve().parent / "mem0_driver.py"
USER = "bench-user"
LIMIT = 10


def mem0_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("COGNIMEM_")}
    env |= {"MEM0_TELEMETRY": "False", "HF_HUB_OFFLINE": "1", "PYTHONPATH": str(ROOT / "src")}
    return env


def ensure_venv(venv: Path) -> tuple[Path | None, str]:
    """mem0's interpreter, building its environment first if needed; or None and why."""
    python = venv / "bin" / "python"
    probe = [str(python), "-c", "import mem0, qdrant_client, onnx, onnxruntime, tokenizers"]
    if python.exists() and subprocess.run(probe, capture_output=True).returncode == 0:
        return python, "reused"
    steps = [
        [sys.executable, "-m", "venv", str(venv)],
        [str(python), "-m", "pip", "install", "--quiet", "mem0ai", str(ROOT)],
    ]
    for step in steps:
        print("$", " ".join(step), flush=True)
        done = subprocess.run(step, capture_output=True, text=True)
        if done.returncode != 0:
            tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
            return None, f"`{' '.join(step[:4])} ...` failed: {' / '.join(tail)}"
    if subprocess.run(probe, capture_output=True).returncode != 0:
        return None, "mem0 installed but does not import"
    return python, "built"


def run_mem0(python: Path, turns: list[dict[str, str]], queries: list[str]) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        job = Path(tmp) / "job.json"
        (Path(tmp) / "work").mkdir()
        job.write_text(
            json.dumps(
                {
                    "workdir": str(Path(tmp) / "work"),
                    "user": USER,
                    "limit": LIMIT,
                    "turns": turns,
                    "queries": queries,
                }
            )
        )
        done = subprocess.run(
            [str(python), str(DRIVER), str(job)], capture_output=True, text=True, env=mem0_env()
        )
    if done.returncode != 0:
        raise RuntimeError(f"mem0 driver failed: {done.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


async def run_cognimem(conv: locomo.Conversation, queries: list[str]) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        async with Memory.open(f"sqlite:///{tmp}/cognimem.db") as mem:
            await mem.embedder.embed(["warm up the model"], "document")
            add_s: list[float] = []
            for session in conv.sessions:
                for turn in session:
                    if not turn.text.strip():
                        continue
                    start = time.perf_counter()
                    await mem.write(
                        turn.text, user_id=USER, name=turn.speaker, occurred_at=turn.occurred_at
                    )
                    add_s.append(time.perf_counter() - start)
            search_s: list[float] = []
            for query in queries:
                start = time.perf_counter()
                await mem.read(query, user_id=USER, limit=LIMIT, reference_time=conv.last_time)
                search_s.append(time.perf_counter() - start)
            return {"add_s": add_s, "search_s": search_s}


def summary(raw: dict[str, Any]) -> dict[str, Any]:
    add = raw["add_s"]
    return {
        "adds": len(add),
        "add_turns_per_s": round(len(add) / sum(add), 1),
        "add_ms": stats([s * 1000 for s in add]),
        "searches": len(raw["search_s"]),
        "search_ms": stats([s * 1000 for s in raw["search_s"]]),
    }


def render(result: dict[str, Any]) -> str:
    machine = result["machine"]
    lines = [
        "# cognimem beside mem0 OSS: add throughput and search latency",
        "",
        f"Command: `{result['command']}`  ",
        f"Machine: {machine['summary']}  ",
        f"Load average (1/5/15 min) at start {machine['load_average_1_5_15']}, "
        f"at end {result['load_average_at_end']}. The machine is shared with other "
        "engineers' work: read the ratios, not the absolute times.",
        "",
    ]
    if "skipped" in result:
        return "\n".join([*lines, f"**Skipped**: {result['skipped']}", ""])
    c, m = result["cognimem"], result["mem0"]
    lines += [
        f"{result['conversation']}: {c['adds']} turns added one call each, then "
        f"{c['searches']} questions (categories 1-4) searched once each, top {LIMIT}. "
        f"mem0 {result['mem0_version']} environment: {result['mem0_venv']}.",
        "",
        "| system | add turns/s | add p50 / p95 ms | search p50 / p95 / p99 ms |",
        "|---|---|---|---|",
    ]
    for name, s in (("cognimem (Memory.write / Memory.read)", c), ("mem0 (add / search)", m)):
        a, q = s["add_ms"], s["search_ms"]
        lines.append(
            f"| {name} | {s['add_turns_per_s']} | {a['p50']} / {a['p95']} | "
            f"{q['p50']} / {q['p95']} / {q['p99']} |"
        )
    r = result["ratios_cognimem_to_mem0"]
    lines += [
        "",
        f"Ratios cognimem / mem0: add throughput **{r['add_throughput']}**, search p50 "
        f"**{r['search_p50']}**, search p95 **{r['search_p95']}** (above 1 for search: "
        "cognimem is slower).",
        "",
        "Both embed with cognimem's `OnnxMiniLMEmbedder` (mem0 gets it injected as its "
        "embedding model). mem0: local Qdrant on disk, `infer=False` (no LLM), no spaCy "
        "or fastembed extras, so its search is one vector query; cognimem's read runs its "
        "whole pipeline (vector and BM25 steps, graph, constraints, rerank, packet) and "
        "its write runs rule extraction, entity resolution and reconciliation.",
        "",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "path", nargs="?", type=Path, default=ROOT.parent / "shared/data/locomo/locomo10_dev.json"
    )
    parser.add_argument("--conversation", default="conv-26")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument(
        "--venv", type=Path, default=Path.home() / ".cache" / "cognimem-bench" / "mem0"
    )
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results")
    args = parser.parse_args()
    result: dict[str, Any] = {
        "command": ("python benchmarks/mem0_side_by_side.py " + " ".join(sys.argv[1:])).strip(),
        "machine": describe(),
    }
    python, how = ensure_venv(args.venv)
    if python is None:
        print(f"SKIPPED: cannot build mem0's environment in {args.venv}: {how}")
        result["skipped"] = f"cannot build mem0's environment in {args.venv}: {how}"
    else:
        conv = next((c for c in locomo.load(args.path) if c.sample_id == args.conversation), None)
        if conv is None:
            raise SystemExit(f"no conversation {args.conversation!r} in {args.path}")
        turns = [
            {"speaker": t.speaker, "text": t.text}
            for s in conv.sessions
            for t in s
            if t.text.strip()
        ]
        queries = [q.text for q in conv.questions if q.category in (1, 2, 3, 4)][: args.queries]
        version = subprocess.run(
            [str(python), "-c", "from importlib.metadata import version; print(version('mem0ai'))"],
            capture_output=True,
            text=True,
        ).stdout.strip()
        print(f"mem0 {version} ({how}); {len(turns)} turns, {len(queries)} queries", flush=True)
        mem0 = run_mem0(python, turns, queries)
        cog = asyncio.run(run_cognimem(conv, queries))
        c, m = summary(cog), summary(mem0)
        result |= {
            "conversation": conv.sample_id,
            "mem0_version": version,
            "mem0_venv": how,
            "mem0_stored": mem0["stored"],
            "cognimem": c,
            "mem0": m,
            "ratios_cognimem_to_mem0": {
                "add_throughput": round(c["add_turns_per_s"] / m["add_turns_per_s"], 2),
                "search_p50": round(c["search_ms"]["p50"] / m["search_ms"]["p50"], 2),
                "search_p95": round(c["search_ms"]["p95"] / m["search_ms"]["p95"], 2),
            },
        }
    result["load_average_at_end"] = [round(x, 2) for x in os.getloadavg()]
    text = render(result)
    print(text)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "mem0_side_by_side.json").write_text(json.dumps(result, indent=2) + "\n")
    (args.out / "mem0_side_by_side.md").write_text(text)


if __name__ == "__main__":
    main()
