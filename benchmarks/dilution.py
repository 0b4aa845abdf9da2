"""Dilution: one constraint among fifty chatty messages, then a request that shares no
word with it. Does the constraint reach the packet, and how much chat comes along?

The seeds' dilution failure: a user's one constraint that bears on a request is buried
under everything else they said, and a read either loses it or pads the packet with
small talk. Data: ``benchmarks/data/dilution.jsonl`` (written for this benchmark,
committed before any code was measured on it; a check set, nothing is tuned on it):
50 chatty lines with no constraint in them, and constraints on their own topics, each
with a later request sharing no content word with it (``tests/unit/
test_cue_trigger_data.py``).

Protocol, one temporary SQLite database, the default local embedder, no LLM, default
settings (rule extraction on the write path):

1. Each constraint gets a fresh user scope. The 50 chatty lines are written one a day
   (one message each) over the 50 days before the reference time, in an order shuffled
   by ``random.Random(f"{seed}:{id}")``; the constraint is written at a seeded place
   among them (half a day after the chatty line before it).
2. The request is read two days after the last line with the default preset (and, for
   contrast, plain dense ``preset='vector'``), default ``limit`` and ``max_tokens``.

Hit: the constraint's event id is in the provenance of a packet item or section entry.
Chat shown: the packet items and section entries whose provenance holds only chatty
lines (mean per packet); with it the packet's item count, and the write path's record
of the constraint (a constraint fact, or not).

Usage (repository root):

    python benchmarks/dilution.py [--data benchmarks/data/dilution.jsonl] [--seed 3]
        [--out benchmarks/results]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from _machine import describe, provenance
from cue_trigger import rate, section_entries

from cognimem import Memory
from cognimem.models import ContextPacket
from cognimem.models.knowledge import CONSTRAINT_CATEGORIES

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks" / "data" / "dilution.jsonl"
REFERENCE = datetime(2025, 9, 1, 12, 0, tzinfo=UTC)
READ_AFTER = timedelta(days=2)  # the request comes this long after the last line
APPROACHES: dict[str, str | None] = {"default": None, "vector": "vector"}


@dataclass(frozen=True)
class Scenario:
    id: str
    topic: str
    constraint: str
    trigger: str


def load(path: Path) -> tuple[list[str], list[Scenario]]:
    chat: list[str] = []
    scenarios: list[Scenario] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        raw = json.loads(line)
        if raw["kind"] == "chat":
            chat.append(raw["text"])
        else:
            scenarios.append(Scenario(raw["id"], raw["topic"], raw["constraint"], raw["trigger"]))
    return chat, scenarios


@dataclass
class Written:
    scenario: Scenario
    constraint_event: str
    chat_events: set[str]
    position: int  # how many chatty lines come before the constraint
    recorded: list[str]  # the constraint fact categories drawn from it


async def write_scope(mem: Memory, s: Scenario, chat: list[str], seed: int) -> Written:
    rng = random.Random(f"{seed}:{s.id}")
    order = list(chat)
    rng.shuffle(order)
    position = rng.randint(0, len(order))
    start = REFERENCE - READ_AFTER - timedelta(days=len(order))
    chat_events: set[str] = set()
    constraint_event = ""
    for i, text in enumerate(order):
        if i == position:
            done = await mem.write(
                s.constraint, user_id=s.id, occurred_at=start + timedelta(days=i - 0.5)
            )
            constraint_event = done.event_ids[0]
        done = await mem.write(text, user_id=s.id, occurred_at=start + timedelta(days=i))
        chat_events.update(done.event_ids)
    if position == len(order):
        done = await mem.write(
            s.constraint, user_id=s.id, occurred_at=start + timedelta(days=len(order) - 0.5)
        )
        constraint_event = done.event_ids[0]
    facts = await mem.facts(user_id=s.id)
    recorded = sorted(
        f.category.value
        for f in facts
        if f.category in CONSTRAINT_CATEGORIES and constraint_event in f.evidence_event_ids
    )
    return Written(s, constraint_event, chat_events, position, recorded)


@dataclass
class Outcome:
    id: str
    hit: bool
    item_rank: int | None
    section: str | None
    items: int
    chat_items: int
    chat_section_entries: int

    @property
    def chat_shown(self) -> int:
        return self.chat_items + self.chat_section_entries


def score(w: Written, packet: ContextPacket) -> Outcome:
    cue = w.constraint_event
    item_rank = next(
        (r for r, item in enumerate(packet.items, 1) if cue in item.source_event_ids), None
    )
    entries = section_entries(packet)
    section = next((name for name, ids in entries if cue in ids), None)

    def chatty(ids: list[str]) -> bool:
        return bool(ids) and set(ids) <= w.chat_events

    return Outcome(
        id=w.scenario.id,
        hit=item_rank is not None or section is not None,
        item_rank=item_rank,
        section=section,
        items=len(packet.items),
        chat_items=sum(chatty(list(i.source_event_ids)) for i in packet.items),
        chat_section_entries=sum(chatty(ids) for _, ids in entries),
    )


async def run(chat: list[str], scenarios: list[Scenario], seed: int) -> dict[str, Any]:
    outcomes: dict[str, list[Outcome]] = {name: [] for name in APPROACHES}
    with tempfile.TemporaryDirectory() as tmp:
        async with Memory.open(f"sqlite:///{tmp}/dilution.db") as mem:
            written = [await write_scope(mem, s, chat, seed) for s in scenarios]
            for name, preset in APPROACHES.items():
                for w in written:
                    packet = await mem.read(
                        w.scenario.trigger, user_id=w.scenario.id, preset=preset,
                        reference_time=REFERENCE,
                    )  # fmt: skip
                    outcomes[name].append(score(w, packet))
    return {"written": written, "outcomes": outcomes}


def summarise(outcomes: list[Outcome]) -> dict[str, Any]:
    return {
        "hit": rate([o.hit for o in outcomes]),
        "via_items": rate([o.item_rank is not None for o in outcomes]),
        "via_sections": rate([o.section is not None for o in outcomes]),
        "mean_items": round(statistics.mean(o.items for o in outcomes), 2),
        "mean_chat_items": round(statistics.mean(o.chat_items for o in outcomes), 2),
        "mean_chat_section_entries": round(
            statistics.mean(o.chat_section_entries for o in outcomes), 2
        ),
        "mean_chat_shown": round(statistics.mean(o.chat_shown for o in outcomes), 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results")
    args = parser.parse_args()
    machine = describe()
    chat, scenarios = load(args.data)
    started = time.perf_counter()
    done = asyncio.run(run(chat, scenarios, args.seed))
    written: list[Written] = done["written"]
    outcomes: dict[str, list[Outcome]] = done["outcomes"]
    result: dict[str, Any] = {
        "command": ("python benchmarks/dilution.py " + " ".join(sys.argv[1:])).strip(),
        "machine": machine,
        "seconds": round(time.perf_counter() - started, 1),
        "protocol": {
            "scenarios": len(scenarios),
            "chat_lines": len(chat),
            "reference_time": REFERENCE.isoformat(),
            "seed": args.seed,
            "embedder": "default (onnx:minilm)",
            "llm": None,
        },
        "approaches": {name: summarise(outs) for name, outs in outcomes.items()},
        "recorded_as_constraint": sum(bool(w.recorded) for w in written),
        "per_scenario": {name: [asdict(o) for o in outs] for name, outs in outcomes.items()},
        "positions": {w.scenario.id: w.position for w in written},
        "recorded": {w.scenario.id: w.recorded for w in written},
    }
    lines = [
        "# Dilution: one constraint among fifty chatty messages",
        "",
        *provenance(result["command"], machine),
        "",
        f"{len(scenarios)} constraints (`benchmarks/data/dilution.jsonl`, a check set: "
        f"nothing tuned on it), each in its own user scope among the same {len(chat)} "
        "chatty lines (one a day, seeded order and place), then a request sharing no "
        f"content word with it, read {READ_AFTER.days} days after the last line with the "
        "default limit and max_tokens, default embedder, no LLM. Hit = the constraint's "
        "event id is in the provenance of a packet item or section entry; chat shown = "
        "items and section entries whose provenance is chatty lines only.",
        "",
        "| approach | hit | via items | via sections | items per packet | chatty items "
        "| chatty section entries | chat shown |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, s in result["approaches"].items():
        lines.append(
            f"| {name} (`preset={APPROACHES[name]!r}`) | {s['hit']:.3f} | "
            f"{s['via_items']:.3f} | {s['via_sections']:.3f} | {s['mean_items']:.2f} | "
            f"{s['mean_chat_items']:.2f} | {s['mean_chat_section_entries']:.2f} | "
            f"{s['mean_chat_shown']:.2f} |"
        )
    lines += [
        "",
        f"Write path: {result['recorded_as_constraint']} of {len(scenarios)} constraints "
        "stored as a constraint fact.",
        "",
        "| scenario | request | recorded as | default: item rank | default: section | "
        "default: chat shown | vector: item rank |",
        "|---|---|---|---|---|---|---|",
    ]
    for w, d, v in zip(written, outcomes["default"], outcomes["vector"], strict=True):
        lines.append(
            f"| {w.scenario.id} | {w.scenario.trigger} | {', '.join(w.recorded) or '—'} | "
            f"{d.item_rank or '—'} | {d.section or '—'} | {d.chat_shown} | "
            f"{v.item_rank or '—'} |"
        )
    lines.append("")
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "dilution.json").write_text(json.dumps(result, indent=2) + "\n")
    (args.out / "dilution.md").write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
