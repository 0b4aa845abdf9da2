"""Counting and ordering questions: does a read bring every event a question counts or
orders, not only the turns nearest to its words?

Data: ``benchmarks/data/event_questions.jsonl`` (written for this benchmark by hand,
committed before the read path was changed for it; nothing in it is drawn from an
evaluation set): six conversations of one user each, months long, each a dozen story
turns — events (adopted, moved, started, bought, won, ...) said mostly without a time
word, and turns on the same topics that tell of no event ("Pet food is so expensive
these days") — and four questions each, labelled with the turns that answer them:
``count`` ("How many pets did I have as of May 2025?"), ``order`` ("Which did I do
first, X or Y?") and ``between`` ("How long between X and Y?"). Conversations alternate
``split`` tune / check: a change is tuned on tune and kept only if check holds.

Protocol: one temporary SQLite database, the default local embedder (onnx:minilm), no
LLM, default settings. Each story turn is written with ``PADDING`` messages of
``benchmarks/data/filler.jsonl`` after it (everyday statements, questions and small
talk of other topics, an hour apart), one ``write_batch`` each, said by the user; each
question is read at its ``asked_at`` with the default preset (or ``--preset``),
``limit`` 10 and the default ``max_tokens``.

Reported per split and question form: ``frac@10`` (the share of a question's answer
turns among its items), ``all@10`` (questions with every answer turn among them),
``in_order`` (order and between questions whose answer turns all came and in the order
they happened) and items per packet.

Usage (repository root):

    python benchmarks/event_questions.py [--preset NAME] [--padding N] [--out FILE.json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from collections import defaultdict
from datetime import datetime, timedelta
from itertools import cycle
from pathlib import Path
from typing import Any

from cognimem import Memory, Message

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks" / "data" / "event_questions.jsonl"
FILLER = ROOT / "benchmarks" / "data" / "filler.jsonl"
PADDING = 6
SPEAKER = "Dana"
SPLITS = ("tune", "check")


def load(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def padding_texts() -> list[str]:
    return [m["text"] for scope in load(FILLER) for m in scope["messages"]]


async def write_conversation(
    mem: Memory, conv: dict[str, Any], pad: cycle[str], padding: int
) -> None:
    for turn in conv["turns"]:
        said = datetime.fromisoformat(turn["time"])
        messages = [
            Message(content=turn["text"], name=SPEAKER, occurred_at=said, external_id=turn["id"])
        ]
        messages += [
            Message(content=next(pad), name=SPEAKER, occurred_at=said + timedelta(hours=i))
            for i in range(1, padding + 1)
        ]
        await mem.write_batch(messages, user_id=conv["id"])


async def run(preset: str | None, padding: int) -> dict[str, Any]:
    conversations = load(DATA)
    pad = cycle(padding_texts())
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        async with Memory.open(f"sqlite:///{tmp}/events.db") as mem:
            for conv in conversations:
                await write_conversation(mem, conv, pad, padding)
                said = {t["id"]: t["time"] for t in conv["turns"]}
                for q in conv["questions"]:
                    packet = await mem.read(
                        q["question"],
                        user_id=conv["id"],
                        reference_time=datetime.fromisoformat(q["asked_at"]),
                        limit=10,
                        preset=preset,
                    )
                    got = [i for item in packet.items for i in item.external_ids]
                    answers = set(q["answers"])
                    found = [i for i in got if i in answers]
                    ordered = sorted(found, key=lambda i: said[i])
                    rows.append(
                        {
                            "split": conv["split"],
                            "form": q["form"],
                            "id": q["id"],
                            "frac": len(set(found)) / len(answers),
                            "all": answers <= set(found),
                            "in_order": answers <= set(found) and found == ordered,
                            "items": len(packet.items),
                        }
                    )
    return summarise(rows)


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        groups[r["split"]].append(r)
        groups[f"{r['split']}/{r['form']}"].append(r)
    out: dict[str, Any] = {}
    for name in sorted(groups):
        g = groups[name]
        ordering = [r for r in g if r["form"] != "count"]
        out[name] = {
            "questions": len(g),
            "frac@10": round(sum(r["frac"] for r in g) / len(g), 3),
            "all@10": round(sum(r["all"] for r in g) / len(g), 3),
            "in_order": round(sum(r["in_order"] for r in ordering) / len(ordering), 3)
            if ordering
            else None,
            "items": round(sum(r["items"] for r in g) / len(g), 1),
        }
    out["missed"] = [r["id"] for r in rows if not r["all"]]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default=None)
    parser.add_argument("--padding", type=int, default=PADDING)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    result = asyncio.run(run(args.preset, args.padding))
    text = json.dumps(result, indent=2)
    if args.out is not None:
        args.out.write_text(text + "\n")
    sys.stdout.write(text + "\n")


if __name__ == "__main__":
    main()
