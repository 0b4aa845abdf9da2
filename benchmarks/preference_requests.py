"""Preference → request: does a read a week later carry the one preference that bears on
the request, and not the user's other preferences?

Data: ``benchmarks/data/preference_requests.jsonl`` (written for this benchmark,
``preference_requests.md``): 240 recorded-constraint statements of
``constraint_statements.jsonl`` (24 topics, fixed tune / check halves by topic), each with
a request from its own topic that shares no content word with it ("I dislike cilantro in
anything." → "Can you suggest a salsa recipe for Friday?").

Protocol, one temporary SQLite database, the default local embedder, no LLM, default
settings:

1. Each pair gets a fresh user scope. Nine other statements are drawn with
   ``random.Random(f"{seed}:{pair id}")``: nine other topics of the pair's half, one
   recorded-constraint statement of each (any of the topic's, not only the set's). The
   ten statements are written in a seeded shuffled order as separate user messages
   ``GAP`` apart, the first ``WEEK`` plus an hour before the reference time.
2. A week after the last statement the request is read with the default preset
   (``preset=None``), the default ``limit`` and ``max_tokens``, and again with plain
   dense retrieval (``preset="vector"``) for reference.

Another set of pairs (``--data``, e.g. ``preference_requests_more.jsonl``,
``preference_requests_third.jsonl`` or ``preference_requests_fourth.jsonl``, whose topics
``constraint_statements.jsonl`` does not hold) draws the nine others from its own
statements: one statement of each of nine other topics of the pair's half. Its results
are written under the data file's name.

Scored per packet: the cue is *in the packet* when its event id is in the provenance of
an item or of a section entry (``sections.entries()``); *the others shown* are the
distinct other statements whose event id is in the provenance of an item or an entry,
and where they came from (the standing profile's entries, the constraint step's, the
other sections, the items); *section tokens* are the entries' ``token_count`` (all
sections, and the constraint sections alone). *Recorded*: a constraint fact (goal,
state, value, causal, policy) holds the cue's event in its evidence. Reported per half;
tune on the tune half only.

Usage (repository root):

    python benchmarks/preference_requests.py [--data PATH] [--split tune|check|all]
        [--seed 29] [--out benchmarks/results] [--only ID ...] [--no-write]
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
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from _machine import describe, provenance
from cue_trigger import extracted_constraints as recorded
from cue_trigger import rate

from cognimem import Memory
from cognimem.models import ContextPacket

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks" / "data" / "preference_requests.jsonl"
STATEMENTS = ROOT / "benchmarks" / "data" / "constraint_statements.jsonl"
REFERENCE = datetime(2025, 9, 15, 18, 0, tzinfo=UTC)
WEEK = timedelta(days=7)
GAP = timedelta(minutes=4)
OTHERS = 9
SPLITS = ("tune", "check")
APPROACHES: dict[str, str | None] = {"default": None, "vector": "vector"}
CONSTRAINT_SECTIONS = ("must_follow", "consider")
SECTIONS = ("must_follow", "consider", "facts", "preferences", "needs_validation")


@dataclass(frozen=True)
class Pair:
    id: str
    split: str
    topic: str
    kind: str
    statement: str
    request: str


@dataclass(frozen=True)
class Statement:
    id: str
    split: str
    topic: str
    text: str


def load(path: Path = DATA) -> list[Pair]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    return [Pair(**row) for row in rows]


def load_statements(path: Path = STATEMENTS) -> list[Statement]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    return [Statement(r["id"], r["split"], r["topic"], r["text"]) for r in rows if r["constraint"]]


def others_of(data: Path, pairs: Sequence[Pair]) -> list[Statement]:
    """Where the nine others come from: the recorded-constraint statements for the
    default set, the pairs' own statements for another set."""
    if data.resolve() == DATA.resolve():
        return load_statements()
    return [Statement(p.id, p.split, p.topic, p.statement) for p in pairs]


def choose_others(pair: Pair, statements: Sequence[Statement], seed: int) -> list[Statement]:
    """One statement from each of nine other topics of the pair's half, seeded."""
    rng = random.Random(f"{seed}:{pair.id}")
    topics = sorted({s.topic for s in statements if s.split == pair.split} - {pair.topic})
    if len(topics) < OTHERS:
        raise SystemExit(f"{pair.id}: only {len(topics)} other topics in its half")
    chosen = []
    for topic in rng.sample(topics, OTHERS):
        chosen.append(rng.choice(sorted((s for s in statements if s.topic == topic), key=_id)))
    return chosen


def _id(statement: Statement) -> str:
    return statement.id


@dataclass
class Written:
    """What was written for one pair: the event ids to look for in its packets."""

    pair: Pair
    cue_event: str
    other_events: dict[str, str]  # event id -> the statement it came from
    read_at: datetime


async def write_scope(mem: Memory, pair: Pair, others: list[Statement], seed: int) -> Written:
    lines: list[tuple[str, str | None]] = [(s.text, s.id) for s in others]
    lines.append((pair.statement, None))
    random.Random(f"{seed}:{pair.id}:order").shuffle(lines)
    start = REFERENCE - WEEK - timedelta(hours=1)
    cue_event = ""
    other_events: dict[str, str] = {}
    for i, (text, source) in enumerate(lines):
        done = await mem.write(text, user_id=pair.id, occurred_at=start + i * GAP)
        if source is None:
            cue_event = done.event_ids[0]
        else:
            other_events.update(dict.fromkeys(done.event_ids, source))
    read_at = start + (len(lines) - 1) * GAP + WEEK
    return Written(pair, cue_event, other_events, read_at)


@dataclass
class Outcome:
    """Where one read put the cue, and which other statements came with it."""

    pair_id: str
    split: str
    topic: str
    in_items: bool
    section: str | None  # the section that held the cue
    cue_via: str | None  # "profile" / "step": what put the cue in a constraint section
    others: list[str]  # the other statements shown anywhere in the packet
    others_profile: int  # in a constraint section, through the standing profile
    others_step: int  # in a constraint section, through the constraint step
    others_other_sections: int  # in facts / preferences / needs validation
    others_items: int  # in the items
    items: int
    section_entries: int
    section_tokens: int
    constraint_tokens: int
    decision: bool
    entries: list[str] = field(default_factory=list)  # the section entries' texts

    @property
    def hit(self) -> bool:
        return self.in_items or self.section is not None


def _from_profile(entry: Any) -> bool:
    return bool(getattr(entry, "signals", {}).get("profile"))


def score(scope: Written, packet: ContextPacket) -> Outcome:
    cue = scope.cue_event
    sections = packet.sections
    named = [(name, e) for name in SECTIONS for e in getattr(sections, name)]
    section = next((name for name, e in named if cue in e.source_event_ids), None)
    holder = next(
        (e for name, e in named if name in CONSTRAINT_SECTIONS and cue in e.source_event_ids),
        None,
    )

    def shown(events: set[str]) -> set[str]:
        return {src for ev, src in scope.other_events.items() if ev in events}

    def events_of(entries: Sequence[Any]) -> set[str]:
        return {ev for e in entries for ev in e.source_event_ids}

    constraint = [e for name, e in named if name in CONSTRAINT_SECTIONS]
    profile = shown(events_of([e for e in constraint if _from_profile(e)]))
    step = shown(events_of([e for e in constraint if not _from_profile(e)])) - profile
    rest = shown(events_of([e for name, e in named if name not in CONSTRAINT_SECTIONS]))
    items = shown(events_of(packet.items))
    return Outcome(
        pair_id=scope.pair.id,
        split=scope.pair.split,
        topic=scope.pair.topic,
        in_items=any(cue in item.source_event_ids for item in packet.items),
        section=section,
        cue_via=None if holder is None else ("profile" if _from_profile(holder) else "step"),
        others=sorted(profile | step | rest | items),
        others_profile=len(profile),
        others_step=len(step),
        others_other_sections=len(rest - profile - step),
        others_items=len(items),
        items=len(packet.items),
        section_entries=len(named),
        section_tokens=sum(e.token_count for _, e in named),
        constraint_tokens=sum(e.token_count for e in constraint),
        decision=bool(packet.meta.get("decision")),
        entries=[f"{name}: {e.text}" for name, e in named],
    )


@dataclass
class Run:
    outcomes: dict[str, list[Outcome]]
    recorded: dict[str, list[str]]
    others: dict[str, list[str]]
    write_seconds: float
    read_seconds: float


async def run(pairs: list[Pair], statements: list[Statement], seed: int) -> Run:
    outcomes: dict[str, list[Outcome]] = {name: [] for name in APPROACHES}
    stored: dict[str, list[str]] = {}
    chosen = {p.id: choose_others(p, statements, seed) for p in pairs}
    with tempfile.TemporaryDirectory() as tmp:
        async with Memory.open(f"sqlite:///{tmp}/preference_requests.db") as mem:
            started = time.perf_counter()
            scopes = [await write_scope(mem, p, chosen[p.id], seed) for p in pairs]
            write_seconds = time.perf_counter() - started
            for scope in scopes:
                stored[scope.pair.id] = await recorded(mem, scope)
            started = time.perf_counter()
            for name, preset in APPROACHES.items():
                for scope in scopes:
                    packet = await mem.read(
                        scope.pair.request,
                        user_id=scope.pair.id,
                        preset=preset,
                        reference_time=scope.read_at,
                    )
                    outcomes[name].append(score(scope, packet))
            read_seconds = time.perf_counter() - started
    others = {pid: [s.id for s in got] for pid, got in chosen.items()}
    return Run(outcomes, stored, others, write_seconds, read_seconds)


def summarise(outcomes: Sequence[Outcome], stored: dict[str, list[str]]) -> dict[str, Any]:
    if not outcomes:
        return {"pairs": 0}
    shown = [len(o.others) for o in outcomes]

    def mean(values: Sequence[float]) -> float:
        return round(statistics.mean(values), 2)

    return {
        "pairs": len(outcomes),
        "recorded_as_constraint": rate([bool(stored[o.pair_id]) for o in outcomes]),
        "cue_in_packet": rate([o.hit for o in outcomes]),
        "cue_in_items": rate([o.in_items for o in outcomes]),
        "cue_in_sections": rate([o.section is not None for o in outcomes]),
        "cue_via": {v: sum(o.cue_via == v for o in outcomes) for v in ("profile", "step")},
        "others_shown_mean": mean(shown),
        "others_shown_median": statistics.median(shown),
        "others_from_profile_mean": mean([o.others_profile for o in outcomes]),
        "others_from_step_mean": mean([o.others_step for o in outcomes]),
        "others_from_other_sections_mean": mean([o.others_other_sections for o in outcomes]),
        "others_in_items_mean": mean([o.others_items for o in outcomes]),
        "items_mean": mean([o.items for o in outcomes]),
        "section_entries_mean": mean([o.section_entries for o in outcomes]),
        "section_tokens_mean": round(statistics.mean(o.section_tokens for o in outcomes), 1),
        "section_tokens_median": statistics.median(o.section_tokens for o in outcomes),
        "constraint_tokens_median": statistics.median(o.constraint_tokens for o in outcomes),
        "decisions": sum(o.decision for o in outcomes),
    }


def table(summaries: dict[str, dict[str, dict[str, Any]]]) -> list[str]:
    lines = [
        "| approach | half | pairs | recorded as a constraint | cue in packet | in items | "
        "in sections | others shown (mean / median, of 9) | from profile | from step | "
        "other sections | in items | section tokens (mean / median) | decisions |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, halves in summaries.items():
        for half, s in halves.items():
            if not s["pairs"]:
                continue
            lines.append(
                f"| {name} (`preset={APPROACHES[name]!r}`) | {half} | {s['pairs']} | "
                f"{s['recorded_as_constraint']:.3f} | **{s['cue_in_packet']:.3f}** | "
                f"{s['cue_in_items']:.3f} | {s['cue_in_sections']:.3f} | "
                f"**{s['others_shown_mean']:.2f}** / {s['others_shown_median']:g} | "
                f"{s['others_from_profile_mean']:.2f} | {s['others_from_step_mean']:.2f} | "
                f"{s['others_from_other_sections_mean']:.2f} | {s['others_in_items_mean']:.2f} | "
                f"{s['section_tokens_mean']:.1f} / {s['section_tokens_median']:g} | "
                f"{s['decisions']} |"
            )
    return lines


def detail(result: dict[str, Any], pairs: Sequence[Pair]) -> list[str]:
    by_id = {p.id: p for p in pairs}
    lines = [
        "| pair | half | recorded as | cue: items / section (via) | others shown | "
        "plain dense: cue / others |",
        "|---|---|---|---|---|---|",
    ]
    vector = {o["pair_id"]: o for o in result["per_pair"].get("vector", [])}
    for o in result["per_pair"]["default"]:
        v = vector.get(o["pair_id"])
        where = f"{'yes' if o['in_items'] else '—'} / {o['section'] or '—'}"
        if o["cue_via"]:
            where += f" ({o['cue_via']})"
        plain = "" if v is None else f"{'hit' if v['in_items'] else '—'} / {len(v['others'])}"
        lines.append(
            f"| {o['pair_id']} | {by_id[o['pair_id']].split} | "
            f"{', '.join(result['recorded'][o['pair_id']]) or '—'} | {where} | "
            f"{len(o['others'])} | {plain} |"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--split", choices=("tune", "check", "all"), default="all")
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--only", nargs="*", help="pair ids to run (diagnosis)")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results")
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args()
    every = load(args.data)
    pairs = [p for p in every if args.split in ("all", p.split)]
    if args.only:
        pairs = [p for p in pairs if p.id in set(args.only)]
    machine = describe()
    started = time.perf_counter()
    cpu = time.process_time()
    done = asyncio.run(run(pairs, others_of(args.data, every), args.seed))
    halves = [h for h in SPLITS if any(p.split == h for p in pairs)]
    summaries = {
        name: {h: summarise([o for o in outs if o.split == h], done.recorded) for h in halves}
        for name, outs in done.outcomes.items()
    }
    result: dict[str, Any] = {
        "command": ("python benchmarks/preference_requests.py " + " ".join(sys.argv[1:])).strip(),
        "machine": machine,
        "seconds": round(time.perf_counter() - started, 1),
        "cpu_seconds": round(time.process_time() - cpu, 1),
        "write_seconds": round(done.write_seconds, 1),
        "read_seconds": round(done.read_seconds, 1),
        "protocol": {
            "pairs": len(pairs),
            "other_statements": OTHERS,
            "gap_minutes": GAP.total_seconds() / 60,
            "read_after_days": WEEK.days,
            "limit": "default",
            "max_tokens": "default",
            "seed": args.seed,
            "embedder": "default (onnx:minilm)",
            "llm": None,
        },
        "summaries": summaries,
        "recorded": done.recorded,
        "others": done.others,
        "per_pair": {name: [asdict(o) for o in outs] for name, outs in done.outcomes.items()},
    }
    lines = [
        "# Preference → request: the one preference that bears on a request, not the others",
        "",
        *provenance(result["command"], machine),
        "",
        f"{len(pairs)} pairs (`benchmarks/data/{args.data.name}`), each in its own "
        f"user scope of one SQLite database: the statement among {OTHERS} statements of "
        f"{OTHERS} other topics of its half (seed {args.seed}), shuffled, one user message "
        f"each {GAP.total_seconds() / 60:g} minutes apart; the request read {WEEK.days} days "
        "after the last, default limit and `max_tokens`, default embedder, no LLM. Cue in "
        "packet: its event id is in the provenance of an item or a section entry. Others "
        "shown: distinct other statements in the provenance of an item or an entry.",
        "",
        *table(summaries),
        "",
        f"Wall {result['seconds']} s (CPU {result['cpu_seconds']} s; writes "
        f"{result['write_seconds']} s, reads {result['read_seconds']} s); load average at "
        f"the start {machine['load_average_1_5_15']}.",
        "",
        "## Per pair",
        "",
        *detail(result, pairs),
        "",
    ]
    print("\n".join(lines[: 12 + len(table(summaries))]))
    if not args.no_write:
        args.out.mkdir(parents=True, exist_ok=True)
        name = args.data.stem
        (args.out / f"{name}.json").write_text(json.dumps(result, indent=2) + "\n")
        (args.out / f"{name}.md").write_text("\n".join(lines))


if __name__ == "__main__":
    main()
