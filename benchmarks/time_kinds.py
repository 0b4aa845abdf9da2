"""Time questions of five kinds inside two-speaker conversations: does a read bring the
turns that date what a "when", "how long", "how many" or "which first" question asks?

Data: ``benchmarks/data/time_kinds.jsonl`` (written for this benchmark by hand, committed
before the code it measures changed; nothing in it is drawn from an evaluation set):
twelve conversations between two friends catching up, four dated sessions each, and five
questions each, one per kind, labelled with their evidence turns:

- ``duration_start``: a duration that dates a start ("I've had the allotment for three
  years now" → when did she get it?);
- ``told_event``: an event said with no time word, dated only by when it was said
  ("Meet Pancho, my new tortoise!");
- ``pronoun``: a thing named in one turn and taken up by a pronoun in the dated one
  ("a 1978 Stratocaster" … "I bought it on Valentine's Day");
- ``count_order``: questions that count or order several events ("How many gigs … by
  May 2023?", "Which came first …?");
- ``plan``: plans ("I plan to go house-hunting next month").

Conversations alternate ``split`` tune / check: a change is tuned on tune and kept only
if check holds.

Protocol: one temporary SQLite database, the default local embedder (onnx:minilm), no
LLM. Each session is one ``write_batch`` (turns a minute apart, said by their speaker,
as ``cognimem.eval.locomo.ingest`` writes LoCoMo); before each session ``--padding``
messages of ``benchmarks/data/filler.jsonl`` (everyday talk of other topics, the two
speakers in turn, an hour apart, three days earlier) are written as a session of their
own; each conversation starts at its own place in the filler list, so a half reads the
same alone (``--split``) or with the other. Each question is read with
``reference_time`` a day after the last session, the preset (``--preset``, default
``balanced``), ``limit`` 10.

Reported per split, per kind and per split and kind: ``frac@10`` (the share of a
question's evidence turns among the top ten items, as the LoCoMo harness scores it) and
``hit@10`` (questions with at least one evidence turn among them), then the questions
not fully answered.

Usage (repository root):

    PYTHONPATH=src:. python benchmarks/time_kinds.py [--data FILE] [--preset NAME]
        [--padding N] [--split tune|check|both] [--out benchmarks/results]

``--data benchmarks/data/time_kinds_round2.jsonl`` reads the harder second set (the
question's words differ from the evidence turn's, and turns on the same topic that do
not date it sit around the evidence); results are named after the set's file.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from collections import defaultdict
from datetime import datetime, timedelta
from itertools import cycle
from pathlib import Path
from typing import Any

from _machine import describe, provenance
from event_questions import load, padding_texts

from cognimem import Memory, Message

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks" / "data" / "time_kinds.jsonl"
PADDING = 20
SPLITS = ("tune", "check")
KINDS = ("duration_start", "told_event", "pronoun", "count_order", "plan")


async def write_conversation(
    mem: Memory, conv: dict[str, Any], pad: cycle[str], padding: int
) -> datetime:
    """Write ``conv``'s sessions (each after a padding session); its last turn's time."""
    speakers = conv["speakers"]
    last = datetime.min
    for session in conv["sessions"]:
        start = datetime.fromisoformat(session["date"])
        if padding:
            before = start - timedelta(days=3)
            filler = [
                Message(
                    content=next(pad),
                    name=speakers[i % 2],
                    occurred_at=before + timedelta(hours=i),
                )
                for i in range(padding)
            ]
            await mem.write_batch(filler, user_id=conv["id"])
        turns = [
            Message(
                content=t["text"],
                name=t["speaker"],
                occurred_at=start + timedelta(minutes=i),
                external_id=t["id"],
            )
            for i, t in enumerate(session["turns"])
        ]
        await mem.write_batch(turns, user_id=conv["id"])
        last = start + timedelta(minutes=len(turns) - 1)
    return last


def padding_for(index: int, texts: list[str]) -> cycle[str]:
    """The filler of the ``index``-th conversation of the set: its own place in the
    filler list, whichever splits are read, so a half reads alike alone or with the
    other."""
    start = (index * 4 * PADDING) % len(texts)
    return cycle(texts[start:] + texts[:start])


async def run(
    data: Path, preset: str, padding: int, splits: tuple[str, ...]
) -> list[dict[str, Any]]:
    texts = padding_texts()
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        async with Memory.open(f"sqlite:///{tmp}/time_kinds.db") as mem:
            for index, conv in enumerate(load(data)):
                if conv["split"] not in splits:
                    continue
                pad = padding_for(index, texts)
                last = await write_conversation(mem, conv, pad, padding)
                for q in conv["questions"]:
                    packet = await mem.read(
                        q["question"],
                        user_id=conv["id"],
                        reference_time=last + timedelta(days=1),
                        limit=10,
                        preset=preset,
                    )
                    top = [set(item.external_ids) for item in packet.items[:10]]
                    covered = set().union(*top)
                    evidence = set(q["evidence"])
                    rank = next((r for r, ids in enumerate(top, 1) if ids & evidence), None)
                    rows.append(
                        {
                            "split": conv["split"],
                            "kind": q["kind"],
                            "id": q["id"],
                            "frac": len(evidence & covered) / len(evidence),
                            "hit": bool(evidence & covered),
                            "first_rank": rank,
                            "missing": sorted(evidence - covered),
                        }
                    )
    return rows


def summarise(rows: list[dict[str, Any]], kinds: tuple[str, ...] = KINDS) -> dict[str, Any]:
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        groups[r["split"]].append(r)
        groups[r["kind"]].append(r)
        groups[f"{r['split']}/{r['kind']}"].append(r)
    out: dict[str, Any] = {}
    for name in [*SPLITS, *kinds, *(f"{s}/{k}" for s in SPLITS for k in kinds)]:
        g = groups.get(name)
        if g:
            out[name] = {
                "questions": len(g),
                "frac@10": round(sum(r["frac"] for r in g) / len(g), 4),
                "hit@10": round(sum(r["hit"] for r in g) / len(g), 4),
            }
    return out


def render(result: dict[str, Any], title: str | None = None) -> str:
    """The Markdown report of ``result``, under ``title`` (default: this benchmark's)."""
    lines = [
        title or f"# Time questions of five kinds (`benchmarks/time_kinds.py`, `{result['data']}`)",
        "",
        *provenance(result["command"], result["machine"]),
        "",
        "| rows | questions | frac@10 | hit@10 |",
        "|---|---|---|---|",
    ]
    for name, s in result["summary"].items():
        lines.append(f"| {name} | {s['questions']} | {s['frac@10']} | {s['hit@10']} |")
    lines += ["", "Not fully answered (evidence turns missing from the top ten):", ""]
    lines += [f"- {r['id']} ({r['kind']}): {', '.join(r['missing'])}" for r in result["missed"]]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA, help="the set (JSON lines)")
    parser.add_argument("--preset", default="balanced")
    parser.add_argument("--padding", type=int, default=PADDING)
    parser.add_argument("--split", choices=(*SPLITS, "both"), default="both")
    parser.add_argument("--out", type=Path, default=None, help="directory for time_kinds.*")
    args = parser.parse_args()
    splits = SPLITS if args.split == "both" else (args.split,)
    started = time.perf_counter()
    if not args.data.is_file():
        parser.error(f"--data: no such file: {args.data}")
    rows = asyncio.run(run(args.data, args.preset, args.padding, splits))
    result = {
        "command": ("python benchmarks/time_kinds.py " + " ".join(sys.argv[1:])).strip(),
        "machine": describe(),
        "data": args.data.name,
        "seconds": round(time.perf_counter() - started, 1),
        "summary": summarise(rows),
        "missed": [r for r in rows if r["frac"] < 1.0],
    }
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        stem = args.data.stem if args.split == "both" else f"{args.data.stem}_{args.split}"
        (args.out / f"{stem}.json").write_text(json.dumps(result, indent=2) + "\n")
        (args.out / f"{stem}.md").write_text(render(result))
    sys.stdout.write(render(result))


if __name__ == "__main__":
    main()
