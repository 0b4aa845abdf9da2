"""Cue → trigger: does a read surface a constraint that shares no words with the query?

Data: ``benchmarks/data/cue_trigger.jsonl`` (written for this benchmark): pairs of a
*cue* (a first-person constraint the user stated earlier, "I'm deathly allergic to
peanuts") and a *trigger* (a later request that needs it, "Can you recommend a Thai
restaurant for tonight?"), five constraint types (policy, value, goal, state, causal),
many domains. Cue and trigger share no content word (``tests/unit/test_cue_trigger_data.py``).

Protocol, one temporary SQLite database, the default local embedder (onnx:minilm), no
LLM, default settings (rule extraction on the write path; ``limit`` 10):

1. Each pair gets a fresh user scope. Written first, one message each, oldest first:
   6 *distractor constraints* (other pairs' cues) and the 10 chit-chat lines of
   ``CHIT_CHAT``, their times spread evenly over the 60 days before the reference time
   (``REFERENCE``) in a seeded shuffled order; then the cue, 30 days before it.
2. Distractors: from the pairs of a *different type* whose domains share no *domain
   family* (``FAMILIES``: food/diet/allergy, health/medical/fitness,
   finance/budget/shopping, work/schedule; every other domain is its own family) with
   any domain of this pair, six drawn without replacement by
   ``random.Random(f"{seed}:{pair id}")`` from the candidates sorted by id (from both
   halves of the split).
3. The trigger is read with ``reference_time=REFERENCE``, ``max_tokens=1000``, three
   ways: the default preset (``preset=None``), plain vector, plain BM25.

"Cue in packet": the cue's event id is in the provenance (``source_event_ids``) of a
packet item, or of a section entry (``packet.sections.entries()``, read defensively: the
sections may not be populated by the read path). Reported per approach: recall overall
and per type, where the hit came from, the cue's rank among the items (MRR, hit@1,
hit@3), and crowding — how many of the 6 distractor constraints the packet carried, in
its sections and in its items — overall and per half of the fixed tune/check split
(``split``: by pair, alternating within each type). Beside them, what a packet of the
same size drawn at random from the scope's items would score, and how many cues the
write path stored as a constraint fact (sections can only surface what was extracted).

Usage (from the repository root):

    python benchmarks/cue_trigger.py [--data benchmarks/data/cue_trigger.jsonl]
        [--seed 7] [--out benchmarks/results]
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

from cognimem import Memory
from cognimem.models import ContextPacket
from cognimem.models.knowledge import CONSTRAINT_CATEGORIES

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks" / "data" / "cue_trigger.jsonl"
TYPES = ("policy", "value", "goal", "state", "causal")
REFERENCE = datetime(2025, 6, 2, 12, 0, tzinfo=UTC)
CUE_AGE = timedelta(days=30)
HISTORY = timedelta(days=60)
DISTRACTORS = 6
MAX_TOKENS = 1000
SPLITS = ("tune", "check")
APPROACHES: dict[str, str | None] = {"default": None, "vector": "vector", "lexical": "lexical"}
# domains close enough that one's constraint may bear on the other's request
FAMILIES = {
    "food": "eating",
    "diet": "eating",
    "allergy": "eating",
    "health": "body",
    "medical": "body",
    "fitness": "body",
    "finance": "money",
    "budget": "money",
    "shopping": "money",
    "work": "time",
    "schedule": "time",
}
# ordinary talk with no constraint in it: the same ten lines in every scope
CHIT_CHAT = (
    "Had a lovely walk by the river this morning.",
    "The new season of that detective show was pretty good.",
    "My neighbour's tomatoes are finally turning red.",
    "It rained all afternoon, so I stayed in and read a novel.",
    "I finally fixed the squeaky hinge on the closet door.",
    "We watched the sunset from the hill behind the old church.",
    "Traffic on the ring road was terrible today.",
    "I tried a new bakery on Elm Street and the croissants were great.",
    "My cousin sent photos from her trip to Norway.",
    "The office printer jammed three times before lunch.",
)


@dataclass(frozen=True)
class Pair:
    id: str
    type: str
    domains: tuple[str, ...]
    cue: str
    trigger: str
    note: str
    split: str | None = None  # tune / check, in the long-conversation set

    @property
    def families(self) -> set[str]:
        return {FAMILIES.get(d, d) for d in self.domains}


def load(path: Path) -> list[Pair]:
    pairs = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            raw = json.loads(line)
            pairs.append(
                Pair(
                    raw["id"],
                    raw["type"],
                    tuple(raw["domains"]),
                    raw["cue"],
                    raw["trigger"],
                    raw["note"],
                    raw.get("split"),
                )
            )
    return pairs


def choose_distractors(pairs: Sequence[Pair], seed: int) -> dict[str, list[Pair]]:
    """Six other pairs' cues per pair: another type, no shared domain family, seeded."""
    chosen: dict[str, list[Pair]] = {}
    ordered = sorted(pairs, key=lambda p: p.id)
    for pair in ordered:
        candidates = [
            p
            for p in ordered
            if p.id != pair.id and p.type != pair.type and not (p.families & pair.families)
        ]
        if len(candidates) < DISTRACTORS:
            raise SystemExit(f"{pair.id}: only {len(candidates)} distractor candidates")
        chosen[pair.id] = random.Random(f"{seed}:{pair.id}").sample(candidates, DISTRACTORS)
    return chosen


@dataclass
class Written:
    """What was written for one pair: the event ids to look for in its packets."""

    pair: Pair
    cue_event: str
    distractor_events: dict[str, str]  # event id -> the pair it came from
    chat_events: set[str]
    items: set[str]
    # the line just before the cue in time: the write path indexes it with the cue for
    # lexical search (conversational context), so BM25 can reach the cue through it
    preceding: str


async def write_scope(mem: Memory, pair: Pair, distractors: list[Pair], seed: int) -> Written:
    lines = [(d.cue, d.id) for d in distractors] + [(c, None) for c in CHIT_CHAT]
    random.Random(f"{seed}:{pair.id}:order").shuffle(lines)
    step = (HISTORY - timedelta(days=1)) / (len(lines) - 1)
    start = REFERENCE - HISTORY
    distractor_events: dict[str, str] = {}
    chat_events: set[str] = set()
    items: set[str] = set()
    cue_time = REFERENCE - CUE_AGE
    preceding = ""
    for i, (text, source) in enumerate(lines):
        when = start + i * step
        if when <= cue_time:
            preceding = text
        done = await mem.write(text, user_id=pair.id, occurred_at=when)
        items.update(done.item_ids)
        if source is None:
            chat_events.update(done.event_ids)
        else:
            distractor_events.update(dict.fromkeys(done.event_ids, source))
    done = await mem.write(pair.cue, user_id=pair.id, occurred_at=cue_time)
    items.update(done.item_ids)
    return Written(pair, done.event_ids[0], distractor_events, chat_events, items, preceding)


@dataclass
class Outcome:
    """Where one read put the cue, and how many distractors came with it."""

    pair_id: str
    type: str
    item_rank: int | None  # 1-based rank among packet.items
    section: str | None  # the section that held the cue, if any
    section_rank: int | None  # 1-based rank in sections.entries()
    items: int
    section_entries: int
    distractors_in_sections: int
    distractors_in_items: int
    chat_in_items: int
    scope_items: int
    cue_item_text: str | None = field(default=None)

    @property
    def hit(self) -> bool:
        return self.item_rank is not None or self.section is not None


def section_entries(packet: ContextPacket) -> list[tuple[str, list[str]]]:
    """(section name, provenance) per section entry, in ``entries()`` order; the read
    path may not populate sections (or the model may lack them)."""
    sections = getattr(packet, "sections", None)
    if sections is None:
        return []
    found: list[tuple[str, list[str]]] = []
    for name in ("must_follow", "consider", "facts"):
        for entry in getattr(sections, name, None) or []:
            found.append((name, list(getattr(entry, "source_event_ids", []) or [])))
    return found


def score(scope: Written, packet: ContextPacket) -> Outcome:
    cue = scope.cue_event
    item_rank = next(
        (r for r, item in enumerate(packet.items, 1) if cue in item.source_event_ids), None
    )
    entries = section_entries(packet)
    section, section_rank = next(
        ((name, r) for r, (name, ids) in enumerate(entries, 1) if cue in ids), (None, None)
    )
    in_sections = {e for _, ids in entries for e in ids}
    in_items = {e for item in packet.items for e in item.source_event_ids}
    distractors = set(scope.distractor_events)
    return Outcome(
        pair_id=scope.pair.id,
        type=scope.pair.type,
        item_rank=item_rank,
        section=section,
        section_rank=section_rank,
        items=len(packet.items),
        section_entries=len(entries),
        distractors_in_sections=len(distractors & in_sections),
        distractors_in_items=len(distractors & in_items),
        chat_in_items=len(scope.chat_events & in_items),
        scope_items=len(scope.items),
        cue_item_text=None if item_rank is None else packet.items[item_rank - 1].text,
    )


async def extracted_constraints(mem: Memory, scope: Written) -> list[str]:
    """Categories of the constraint facts the write path drew from the cue."""
    facts = await mem.facts(user_id=scope.pair.id)
    return sorted(
        f.category.value
        for f in facts
        if f.category in CONSTRAINT_CATEGORIES and scope.cue_event in f.evidence_event_ids
    )


@dataclass
class Run:
    scopes: list[Written]
    outcomes: dict[str, list[Outcome]]
    extracted: dict[str, list[str]]
    ingest_seconds: float


async def run(pairs: list[Pair], seed: int) -> Run:
    distractors = choose_distractors(pairs, seed)
    outcomes: dict[str, list[Outcome]] = {name: [] for name in APPROACHES}
    extracted: dict[str, list[str]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        async with Memory.open(f"sqlite:///{tmp}/cue_trigger.db") as mem:
            started = time.perf_counter()
            scopes = [await write_scope(mem, p, distractors[p.id], seed) for p in pairs]
            ingest_seconds = time.perf_counter() - started
            for scope in scopes:
                extracted[scope.pair.id] = await extracted_constraints(mem, scope)
            for name, preset in APPROACHES.items():
                for scope in scopes:
                    packet = await mem.read(
                        scope.pair.trigger,
                        user_id=scope.pair.id,
                        preset=preset,
                        max_tokens=MAX_TOKENS,
                        reference_time=REFERENCE,
                    )
                    outcomes[name].append(score(scope, packet))
    return Run(scopes, outcomes, extracted, ingest_seconds)


def rate(hits: Sequence[bool]) -> float:
    return round(sum(hits) / len(hits), 3) if hits else 0.0


def random_packet(outcomes: Sequence[Outcome]) -> dict[str, float]:
    """Recall and MRR of a packet of the same size drawn at random from the scope."""
    recall = [min(1.0, o.items / o.scope_items) for o in outcomes]
    mrr = [sum(1 / r for r in range(1, min(o.items, o.scope_items) + 1)) / o.scope_items
           for o in outcomes]  # fmt: skip
    return {"recall": round(statistics.mean(recall), 3), "mrr": round(statistics.mean(mrr), 3)}


def summarise(outcomes: Sequence[Outcome]) -> dict[str, Any]:
    ranks = [o.item_rank for o in outcomes]
    return {
        "recall": rate([o.hit for o in outcomes]),
        "by_type": {t: rate([o.hit for o in outcomes if o.type == t]) for t in TYPES},
        "via_items": rate([o.item_rank is not None for o in outcomes]),
        "via_sections": rate([o.section is not None for o in outcomes]),
        "via_sections_only": rate(
            [o.section is not None and o.item_rank is None for o in outcomes]
        ),
        "via_sections_by_name": {
            name: sum(o.section == name for o in outcomes)
            for name in ("must_follow", "consider", "facts")
        },
        "items_mrr": round(statistics.mean(1 / r if r else 0.0 for r in ranks), 3),
        "items_hit@1": rate([r == 1 for r in ranks]),
        "items_hit@3": rate([r is not None and r <= 3 for r in ranks]),
        "items_median_rank_when_present": (
            statistics.median(r for r in ranks if r) if any(ranks) else None
        ),
        "mean_items": round(statistics.mean(o.items for o in outcomes), 2),
        "packets_with_sections": sum(o.section_entries > 0 for o in outcomes),
        "mean_section_entries": round(statistics.mean(o.section_entries for o in outcomes), 2),
        "mean_distractors_in_sections": round(
            statistics.mean(o.distractors_in_sections for o in outcomes), 2
        ),
        "mean_distractors_in_items": round(
            statistics.mean(o.distractors_in_items for o in outcomes), 2
        ),
        "mean_chat_in_items": round(statistics.mean(o.chat_in_items for o in outcomes), 2),
        "random_packet_same_size": random_packet(outcomes),
    }


def render(result: dict[str, Any]) -> list[str]:
    approaches = result["approaches"]
    lines = [
        "| approach | recall | " + " | ".join(TYPES) + " | via items | via sections | "
        "items MRR | hit@1 | hit@3 | distractors in sections (of 6) | in items (of 6) |",
        "|---|---|" + "---|" * len(TYPES) + "---|---|---|---|---|---|---|",
    ]
    for name, s in approaches.items():
        preset = APPROACHES[name]
        label = f"{name} (`preset={preset!r}`)"
        per_type = " | ".join(f"{s['by_type'][t]:.3f}" for t in TYPES)
        lines.append(
            f"| {label} | {s['recall']:.3f} | {per_type} | {s['via_items']:.3f} | "
            f"{s['via_sections']:.3f} | {s['items_mrr']:.3f} | {s['items_hit@1']:.3f} | "
            f"{s['items_hit@3']:.3f} | {s['mean_distractors_in_sections']:.2f} | "
            f"{s['mean_distractors_in_items']:.2f} |"
        )
    rnd = approaches["default"]["random_packet_same_size"]
    lines.append(
        f"| random packet, same size | {rnd['recall']:.3f} | | | | | | | | {rnd['mrr']:.3f} "
        "| | | | |"
    )
    return lines


def detail(result: dict[str, Any]) -> list[str]:
    default = result["per_pair"]["default"]
    lines = [
        "| pair | type | default: item rank | default: section (rank) | vector: item rank "
        "| lexical: item rank | cue extracted as |",
        "|---|---|---|---|---|---|---|",
    ]
    for i, o in enumerate(default):
        vec = result["per_pair"]["vector"][i]["item_rank"]
        lex = result["per_pair"]["lexical"][i]["item_rank"]
        sec = f"{o['section']} ({o['section_rank']})" if o["section"] else "—"
        cats = ", ".join(result["cue_extracted"][o["pair_id"]]) or "—"
        lines.append(
            f"| {o['pair_id']} | {o['type']} | {o['item_rank'] or '—'} | {sec} | "
            f"{vec or '—'} | {lex or '—'} | {cats} |"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results")
    args = parser.parse_args()
    machine = describe()
    pairs = load(args.data)
    started = time.perf_counter()
    done = asyncio.run(run(pairs, args.seed))
    extracted = done.extracted
    split_of = {p.id: p.split for p in pairs}
    by_type = {
        t: {
            "pairs": sum(p.type == t for p in pairs),
            "cue_extracted_as_constraint": sum(bool(extracted[p.id]) for p in pairs if p.type == t),
            "with_the_labelled_type": sum(p.type in extracted[p.id] for p in pairs if p.type == t),
        }
        for t in TYPES
    }
    result: dict[str, Any] = {
        "command": ("python benchmarks/cue_trigger.py " + " ".join(sys.argv[1:])).strip(),
        "machine": machine,
        "seconds": round(time.perf_counter() - started, 1),
        "ingest_seconds": round(done.ingest_seconds, 1),
        "protocol": {
            "pairs": len(pairs),
            "reference_time": REFERENCE.isoformat(),
            "cue_age_days": CUE_AGE.days,
            "history_days": HISTORY.days,
            "distractor_constraints": DISTRACTORS,
            "chit_chat_lines": len(CHIT_CHAT),
            "max_tokens": MAX_TOKENS,
            "limit": "default",
            "seed": args.seed,
            "embedder": "default (onnx:minilm)",
            "llm": None,
        },
        "approaches": {name: summarise(outs) for name, outs in done.outcomes.items()},
        # the fixed halves by pair (stratified by type): tune on one, report the other
        "by_split": {
            half: {
                name: summarise([o for o in outs if split_of[o.pair_id] == half])
                for name, outs in done.outcomes.items()
            }
            | {
                "cue_extracted_as_constraint": sum(
                    bool(extracted[p.id]) for p in pairs if p.split == half
                )
            }
            for half in SPLITS
        },
        "cue_extraction": {
            "cue_extracted_as_constraint": sum(bool(v) for v in extracted.values()),
            # sections can only hold what was extracted: how much of it they surfaced
            "extracted_cues_in_default_sections": sum(
                bool(extracted[o.pair_id]) and o.section is not None
                for o in done.outcomes["default"]
            ),
            "with_the_labelled_type": sum(p.type in extracted[p.id] for p in pairs),
            "by_type": by_type,
        },
        "cue_extracted": extracted,
        "distractors": {s.pair.id: sorted(set(s.distractor_events.values())) for s in done.scopes},
        "line_before_cue": {s.pair.id: s.preceding for s in done.scopes},
        "per_pair": {name: [asdict(o) for o in outs] for name, outs in done.outcomes.items()},
    }
    ext = result["cue_extraction"]
    by_id = {p.id: p for p in pairs}
    default = result["approaches"]["default"]
    lines = [
        "# Cue → trigger: constraints recalled for requests that share no words with them",
        "",
        *provenance(result["command"], machine),
        "",
        f"{len(pairs)} pairs (`benchmarks/data/cue_trigger.jsonl`), each in its own user "
        f"scope of one SQLite database: {DISTRACTORS} distractor constraints (other pairs' "
        f"cues: another type, no shared domain family, seed {args.seed}) and "
        f"{len(CHIT_CHAT)} chit-chat lines over the {HISTORY.days} days before "
        f"{REFERENCE:%Y-%m-%d}, then the cue {CUE_AGE.days} days before it; the trigger "
        f"read with `max_tokens={MAX_TOKENS}`, default limit, default embedder, no LLM. "
        "Recall = the cue's event id is in the provenance of a packet item or section "
        "entry.",
        "",
        *render(result),
        "",
        "By half (the split is fixed by pair, stratified by type; distractors are drawn "
        "from both halves as before):",
        "",
        "| half | pairs | recall | distractors in sections | in items | cues stored as "
        "a constraint |",
        "|---|---|---|---|---|---|",
        *(
            f"| {half} | {sum(p.split == half for p in pairs)} | "
            f"{b['default']['recall']:.3f} | {b['default']['mean_distractors_in_sections']:.2f}"
            f" | {b['default']['mean_distractors_in_items']:.2f} | "
            f"{b['cue_extracted_as_constraint']} |"
            for half, b in result["by_split"].items()
        ),
        "",
        f"Default preset: cue found via items {default['via_items']:.3f}, via sections "
        f"{default['via_sections']:.3f} ({default['via_sections_by_name']}; only there: "
        f"{default['via_sections_only']:.3f}); "
        f"{default['packets_with_sections']} of {len(pairs)} packets had any section entry "
        f"(mean {default['mean_section_entries']} entries); mean {default['mean_items']} "
        f"items per packet, of which {default['mean_chat_in_items']} chit-chat; median "
        f"item rank of the cue when present {default['items_median_rank_when_present']}.",
        "",
        f"Write path: {ext['cue_extracted_as_constraint']} of {len(pairs)} cues were stored "
        f"as a constraint fact, {ext['with_the_labelled_type']} with the labelled type ("
        + ", ".join(
            f"{t} {v['cue_extracted_as_constraint']}/{v['pairs']} ({v['with_the_labelled_type']})"
            for t, v in by_type.items()
        )
        + f"); {ext['extracted_cues_in_default_sections']} of those reached the default "
        "packet's sections.",
        "",
        "Random packet: a packet of the same size drawn at random from the scope's stored "
        "items (recall = items / stored items; MRR of a random rank).",
        "",
        "Lexical hits: the write path indexes each message for BM25 together with the "
        "message just before it in time (conversational context), so BM25 can reach a cue "
        "through that neighbour:",
        "",
        *(
            f"- {o['pair_id']} (rank {o['item_rank']}): trigger “{by_id[o['pair_id']].trigger}”,"
            f" line before the cue “{result['line_before_cue'][o['pair_id']]}”"
            for o in result["per_pair"]["lexical"]
            if o["item_rank"]
        ),
        "",
        "## Per pair",
        "",
        *detail(result),
        "",
    ]
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "cue_trigger.json").write_text(json.dumps(result, indent=2) + "\n")
    (args.out / "cue_trigger.md").write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
