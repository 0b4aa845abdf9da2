"""Consolidation time: one whole LoCoMo conversation, and 10,000 episodes.

What it measures: the seconds ``Memory.consolidate`` takes, with no LLM (extractive
gists), over one user's memory that was just ingested into a fresh temporary SQLite
database (ingestion is not timed):

- **locomo**: one dev conversation (default conv-26), ingested by ``locomo.ingest``
  with the default local embedder (onnx:minilm). Target: under 5 s.
- **10k**: 10,000 synthetic episodes (sentences built from a small vocabulary, 25 a
  session, a session a day, two speakers), ingested with the ``document`` profile (no
  extraction) and the hashing embedder so the setup stays short; consolidation reads
  the episodes' vectors through the embedding cache either way.

Each case is timed once per repetition (fresh database every time); the median is
reported with what the pass wrote. A second pass on the same memory is timed too: it
finds nothing new and should cost little.

Usage (from the repository root):

    python benchmarks/consolidation.py [PATH] [--conversation conv-26] [--episodes 10000]
        [--repeats 3] [--out benchmarks/results]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from _machine import describe

from cognimem import Memory, Settings
from cognimem.eval import locomo
from cognimem.models import Message
from cognimem.providers.fakes import HashingEmbedder

ROOT = Path(__file__).resolve().parent.parent
WORDS = [
    "garden",
    "painting",
    "camping",
    "school",
    "dinner",
    "concert",
    "museum",
    "recipe",
    "hiking",
    "travel",
    "guitar",
    "puppy",
    "budget",
    "project",
    "meeting",
    "doctor",
    "birthday",
    "library",
    "workshop",
    "festival",
]
VERBS = [
    "visited",
    "planned",
    "enjoyed",
    "finished",
    "started",
    "discussed",
    "booked",
    "cancelled",
    "loved",
    "tried",
]


def synthetic(n: int, seed: int = 7) -> list[list[Message]]:
    rng = random.Random(seed)
    start = datetime(2023, 1, 1, 9, tzinfo=UTC)
    sessions: list[list[Message]] = []
    for s in range(0, n, 25):
        day = start + timedelta(days=s // 25)
        sessions.append(
            [
                Message(
                    content=f"I {rng.choice(VERBS)} the {rng.choice(WORDS)} with the "
                    f"{rng.choice(WORDS)} near the {rng.choice(WORDS)} number {i + s}.",
                    name=("Ann", "Ben")[i % 2],
                    occurred_at=day + timedelta(minutes=i),
                )
                for i in range(min(25, n - s))
            ]
        )
    return sessions


async def timed_pass(mem: Memory, user: str) -> tuple[float, dict[str, Any]]:
    start = time.perf_counter()
    result = await mem.consolidate(user_id=user)
    return time.perf_counter() - start, result.summary()


async def locomo_case(path: Path, sample: str) -> dict[str, Any]:
    [conv] = [c for c in locomo.load(path) if c.sample_id == sample]
    with tempfile.TemporaryDirectory() as tmp:
        async with Memory.open(f"sqlite:///{tmp}/c.db", settings=Settings()) as mem:
            turns = await locomo.ingest(mem, conv)
            first, summary = await timed_pass(mem, sample)
            again, _ = await timed_pass(mem, sample)
    return {"episodes": turns, "seconds": first, "second_pass_seconds": again, **summary}


async def synthetic_case(n: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        async with Memory.open(
            f"sqlite:///{tmp}/s.db", settings=Settings(), embedder=HashingEmbedder()
        ) as mem:
            for session in synthetic(n):
                await mem.write_batch(session, user_id="u", profile="document")
            first, summary = await timed_pass(mem, "u")
            again, _ = await timed_pass(mem, "u")
    return {"episodes": n, "seconds": first, "second_pass_seconds": again, **summary}


def median_run(runs: list[dict[str, Any]]) -> dict[str, Any]:
    ordered = sorted(runs, key=lambda r: r["seconds"])
    out = dict(ordered[len(ordered) // 2])
    out["runs_s"] = [round(r["seconds"], 2) for r in runs]
    out["seconds"] = round(statistics.median(r["seconds"] for r in runs), 2)
    out["second_pass_seconds"] = round(out["second_pass_seconds"], 3)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "path", nargs="?", type=Path, default=ROOT.parent / "shared/data/locomo/locomo10_dev.json"
    )
    parser.add_argument("--conversation", default="conv-26")
    parser.add_argument("--episodes", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", type=Path, help="directory for consolidation.{json,md}")
    args = parser.parse_args()
    cases = {
        f"locomo {args.conversation}": [
            asyncio.run(locomo_case(args.path, args.conversation)) for _ in range(args.repeats)
        ],
        f"{args.episodes} episodes": [
            asyncio.run(synthetic_case(args.episodes)) for _ in range(args.repeats)
        ],
    }
    results = {name: median_run(runs) for name, runs in cases.items()}
    machine = describe()
    lines = [
        "# Consolidation time (no LLM)",
        "",
        f"Machine: {machine['summary']}  ",
        f"Command: `python benchmarks/consolidation.py --repeats {args.repeats}`",
        "",
        "| case | episodes | seconds (median) | runs | groups | written | second pass s |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, r in results.items():
        lines.append(
            f"| {name} | {r['episodes']} | {r['seconds']} | {r['runs_s']} | {r['groups']} "
            f"| {r['written']} | {r['second_pass_seconds']} |"
        )
    print("\n".join(lines))
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "consolidation.md").write_text("\n".join(lines) + "\n")
        payload = {"machine": machine, "results": results}
        (args.out / "consolidation.json").write_text(json.dumps(payload, indent=2) + "\n")


if __name__ == "__main__":
    main()
