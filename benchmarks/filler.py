"""Filler in packets: do the user's own questions, greetings and small talk outrank the
statement that answers a request, and is a request nothing in memory bears on padded?

Data: ``benchmarks/data/filler.jsonl`` (written for this benchmark, frozen before the
read path was changed for it): 20 chatty user scopes, one everyday topic each, twelve
messages a scope — statements, questions the user asked ("Any ideas for dinner
tonight?") and small talk ("Hi there!", "Thanks, that's great!"), each labelled by hand
— and five requests a scope: three answered by one of its statements, two that nothing
in it bears on ("What is my cat called?" in a scope with no pet). Scopes alternate
``split`` tune / check: a change is tuned on tune and kept only if check holds.

Protocol: one temporary SQLite database, the default local embedder (onnx:minilm), no
LLM, default settings. Each scope's messages are written one per write, in order, three
hours apart, said by the user; every request is read 30 days after the first message
with the default preset (or ``--preset``), ``limit`` 10, the default ``max_tokens``.

Reported per split:

- answered requests: the answer among the items (hit@10, hit@1), how often a question
  or small-talk message outranks it (``filler_above``: one is ranked above the answer,
  or the packet holds one and not the answer), and filler items per packet;
- requests with nothing relevant: items per packet, share with no item
  (``nothing_relevant``), filler items per packet.

Usage (repository root):

    python benchmarks/filler.py [--data benchmarks/data/filler.jsonl] [--preset NAME]
        [--out benchmarks/results]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from _machine import describe

from cognimem import Memory

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks" / "data" / "filler.jsonl"
START = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)
GAP = timedelta(hours=3)
READ_AT = START + timedelta(days=30)
SPEAKER = "Sam"
SPLITS = ("tune", "check")


@dataclass(frozen=True)
class Outcome:
    scope: str
    split: str
    query: str
    answered: bool  # the request has an answer in the scope
    items: int
    filler_items: int
    answer_rank: int | None  # 1-based among the items
    filler_above: bool  # a question or small talk ranked above the answer (or instead)
    nothing_relevant: bool


async def read_scope(mem: Memory, scope: dict[str, Any], preset: str | None) -> list[Outcome]:
    user = scope["id"]
    kinds: dict[str, str] = {}
    for i, message in enumerate(scope["messages"]):
        await mem.write(message["text"], user_id=user, name=SPEAKER, occurred_at=START + i * GAP)
        kinds[message["text"]] = message["kind"]
    out: list[Outcome] = []
    for q in scope["queries"]:
        packet = await mem.read(
            q["query"], user_id=user, reference_time=READ_AT, limit=10, preset=preset
        )
        texts = [i.text for i in packet.items]
        filler = [n for n, t in enumerate(texts) if kinds.get(t, "statement") != "statement"]
        answer = q["answer"]
        rank = texts.index(answer) + 1 if answer in texts else None
        above = bool(filler) and (rank is None or filler[0] < rank - 1)
        out.append(
            Outcome(
                user,
                scope["split"],
                q["query"],
                answer is not None,
                len(texts),
                len(filler),
                rank,
                above if answer is not None else False,
                packet.nothing_relevant,
            )
        )
    return out


async def run(scopes: list[dict[str, Any]], preset: str | None) -> list[Outcome]:
    with tempfile.TemporaryDirectory() as tmp:
        async with Memory.open(f"sqlite:///{tmp}/filler.db") as mem:
            found: list[Outcome] = []
            for scope in scopes:
                found += await read_scope(mem, scope, preset)
            return found


def summary(outcomes: list[Outcome]) -> dict[str, float]:
    answered = [o for o in outcomes if o.answered]
    empty = [o for o in outcomes if not o.answered]

    def mean(values: list[float]) -> float:
        return round(statistics.fmean(values), 3) if values else 0.0

    return {
        "answered": len(answered),
        "hit@10": mean([o.answer_rank is not None for o in answered]),
        "hit@1": mean([o.answer_rank == 1 for o in answered]),
        "filler_above": mean([o.filler_above for o in answered]),
        "filler_items": mean([o.filler_items for o in answered]),
        "items": mean([o.items for o in answered]),
        "unanswerable": len(empty),
        "empty_items": mean([o.items for o in empty]),
        "empty_nothing_relevant": mean([o.nothing_relevant for o in empty]),
        "empty_filler_items": mean([o.filler_items for o in empty]),
    }


COLUMNS = (
    ("hit@10", "answer hit@10"),
    ("hit@1", "answer hit@1"),
    ("filler_above", "filler above the answer"),
    ("filler_items", "filler items, answered"),
    ("items", "items, answered"),
    ("empty_items", "items, nothing relevant"),
    ("empty_nothing_relevant", "`nothing_relevant`"),
    ("empty_filler_items", "filler items, nothing relevant"),
)


def markdown(rows: dict[str, dict[str, float]], meta: dict[str, Any]) -> str:
    lines = [
        "# Filler in packets",
        "",
        f"`python benchmarks/filler.py` — preset {meta['preset'] or 'default'}, "
        f"{meta['machine'].get('date', '')}, {meta['seconds']} s.",
        "",
        "| | " + " | ".join(rows) + " |",
        "|---|" + "---|" * len(rows),
    ]
    for key, label in COLUMNS:
        lines.append(f"| {label} | " + " | ".join(f"{r[key]:.3f}" for r in rows.values()) + " |")
    counts = " / ".join(f"{int(r['answered'])}+{int(r['unanswerable'])}" for r in rows.values())
    lines += ["", f"Requests (answered + nothing relevant), {' / '.join(rows)}: {counts}.", ""]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--preset", default=None)
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results")
    args = parser.parse_args()
    scopes = [json.loads(line) for line in args.data.read_text("utf-8").splitlines() if line]
    started = time.perf_counter()
    outcomes = asyncio.run(run(scopes, args.preset))
    meta = {
        "preset": args.preset,
        "machine": describe(),
        "seconds": round(time.perf_counter() - started, 1),
    }
    rows = {s: summary([o for o in outcomes if o.split == s]) for s in SPLITS}
    rows["all"] = summary(outcomes)
    args.out.mkdir(parents=True, exist_ok=True)
    result = {"meta": meta, "rows": rows, "outcomes": [asdict(o) for o in outcomes]}
    (args.out / "filler.json").write_text(json.dumps(result, indent=2, default=str) + "\n")
    text = markdown(rows, meta)
    (args.out / "filler.md").write_text(text)
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
