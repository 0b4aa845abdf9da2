"""Cue → trigger inside whole conversations: does a read find a constraint said hundreds
of turns into a conversation, days before a request that shares no words with it?

Data: ``benchmarks/data/cue_trigger_long.jsonl`` (written for this benchmark): pairs of a
first-person *cue* ("I've got gout, it flares with red meat and beer") and a later
*trigger* ("Pick a place for the guys' night."), five constraint types (policy, value,
goal, state, causal), 50+ of each, every scope tag; cue and trigger share no content
word (``tests/unit/test_cue_trigger_data.py``). Each pair carries a fixed ``split``
(tune / check, alternating within a type): changes are tuned on the tune half only.

Protocol (no LLM, default local embedder, rule extraction on the write path):

1. Each dev LoCoMo conversation (``cognimem.eval.locomo``, read from PATH, never copied:
   CC BY-NC) is ingested once, as in the LoCoMo harness, into its own SQLite file.
2. Pairs are dealt round-robin to the five conversations (sorted by id). For each pair
   the conversation's file is copied; the cue is written into that conversation's user
   scope as a final session after the conversation's last one (1–14 days later, seeded),
   said by one of its two speakers (seeded). The trigger is read 3–28 days after the cue
   (seeded) with ``reference_time`` then, ``limit=10``, the default ``max_tokens``,
   three ways in the same process: the default preset, plain dense (``vector``) and
   BM25 (``lexical``).
3. Hit in items: the cue's event id is in the provenance of one of the 10 items. Hit in
   sections: it is in the provenance of a must_follow / consider / facts entry. Hit:
   either. A random packet of 10 items from the scope holds the cue with probability
   10 / the scope's stored items.
4. Packet precision: per packet, the constraint entries (must_follow and consider)
   that do not hold the cue ("unrelated constraints shown") and the tokens the
   constraint sections take (their entries' ``token_count``), mean and median; and
   where the unrelated ones came from (the standing profile, or the constraint step).

``--cue-at mid`` puts the cue mid-conversation instead (nothing real guarantees the cue
is the newest statement): half a second after a turn of a session in the middle third of
the conversation, so later sessions follow it; the trigger is read when it is in the end
setting. Results go to ``cue_trigger_long_mid.md``.

Usage (repository root):

    python benchmarks/cue_trigger_long.py [PATH] [--split tune|check|all] [--only ID ...]
        [--out benchmarks/results] [--no-write] [--cache DIR] [--cue-at end|mid]
        [--default-only]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from _machine import describe, provenance
from cue_trigger import TYPES, Pair, load, rate, section_entries

from cognimem import Memory
from cognimem.config import Settings
from cognimem.eval import locomo
from cognimem.models import ContextPacket, Message
from cognimem.models.knowledge import CONSTRAINT_CATEGORIES
from cognimem.providers.embeddings import Embedder, EmbedKind, FloatMatrix, WrappingEmbedder
from cognimem.providers.factory import build_embedder

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks" / "data" / "cue_trigger_long.jsonl"
LOCOMO = Path("/work/shared/data/locomo/locomo10_dev.json")
SEED = 14
LIMIT = 10
APPROACHES: dict[str, str | None] = {"default": None, "vector": "vector", "lexical": "lexical"}
SECTIONS = ("must_follow", "consider", "facts")
CUE_SETTINGS = ("end", "mid")
CUE_AFTER_DAYS = (1, 14)  # the cue's session comes this long after the conversation's last
TRIGGER_AFTER_DAYS = (3, 28)  # the trigger comes this long after the cue


class Borrowed(WrappingEmbedder):
    """An embedder lent to one Memory after another: closing a Memory leaves it open."""

    def __init__(self, inner: Embedder) -> None:
        super().__init__(inner)

    async def embed(self, texts: Sequence[str], kind: EmbedKind = "document") -> FloatMatrix:
        return await self.inner.embed(texts, kind)

    async def aclose(self) -> None:
        return None


@dataclass(frozen=True)
class Placement:
    """Where and when one pair's cue and trigger sit."""

    pair: Pair
    conversation: str
    speaker: str
    cue_at: datetime
    trigger_at: datetime


def place(
    pairs: Sequence[Pair], conversations: Sequence[locomo.Conversation], cue_at: str = "end"
) -> list[Placement]:
    """Where each pair sits: ``cue_at="end"`` in a session of its own after the
    conversation's last; ``"mid"`` between two turns of a session in the middle third
    of the conversation (the trigger read after the conversation's last session)."""
    out = []
    for i, pair in enumerate(sorted(pairs, key=lambda p: p.id)):
        conv = conversations[i % len(conversations)]
        rng = random.Random(f"{SEED}:{pair.id}")
        speakers = sorted({t.speaker for s in conv.sessions for t in s})
        said_at = conv.last_time + timedelta(days=rng.randint(*CUE_AFTER_DAYS), hours=2)
        trigger_at = said_at + timedelta(days=rng.randint(*TRIGGER_AFTER_DAYS), hours=3)
        speaker = rng.choice(speakers)
        if cue_at == "mid":
            said_at = _mid_conversation(conv, random.Random(f"{SEED}:mid:{pair.id}"))
        out.append(Placement(pair, conv.sample_id, speaker, said_at, trigger_at))
    return out


def _mid_conversation(conv: locomo.Conversation, rng: random.Random) -> datetime:
    """Half a second after a turn (turns are a second apart) of a session in the
    conversation's middle third: later sessions follow the cue."""
    n = len(conv.sessions)
    session = conv.sessions[rng.randint(n // 3, max(n // 3, (2 * n) // 3 - 1))]
    return session[rng.randrange(len(session))].occurred_at + timedelta(milliseconds=500)


@dataclass
class Outcome:
    """Where one read put the cue."""

    pair_id: str
    type: str
    split: str
    conversation: str
    item_rank: int | None  # 1-based rank among the packet's items (at most LIMIT)
    section: str | None  # the section that held the cue
    section_entries: int
    scope_items: int
    unrelated_constraints: int = 0  # must_follow / consider entries without the cue
    constraint_tokens: int = 0  # what the must_follow and consider sections take
    # where the unrelated ones came from: the standing profile, or the constraint step
    unrelated_profile: int = 0
    cue_via: str | None = None  # "profile" or "step": what put the cue in a section

    @property
    def hit(self) -> bool:
        return self.item_rank is not None or self.section is not None


def score(placement: Placement, cue_event: str, packet: ContextPacket, scope: int) -> Outcome:
    item_rank = next(
        (r for r, item in enumerate(packet.items[:LIMIT], 1) if cue_event in item.source_event_ids),
        None,
    )
    entries = section_entries(packet)
    section = next((name for name, ids in entries if cue_event in ids), None)
    constraints = [*packet.sections.must_follow, *packet.sections.consider]
    holder = next((e for e in constraints if cue_event in e.source_event_ids), None)
    return Outcome(
        placement.pair.id,
        placement.pair.type,
        placement.pair.split or "",
        placement.conversation,
        item_rank,
        section,
        len(entries),
        scope,
        sum(cue_event not in e.source_event_ids for e in constraints),
        sum(e.token_count for e in constraints),
        sum(cue_event not in e.source_event_ids and _from_profile(e) for e in constraints),
        None if holder is None else ("profile" if _from_profile(holder) else "step"),
    )


def _from_profile(entry: Any) -> bool:
    """A section entry the standing profile put there (its signals say so)."""
    return bool(getattr(entry, "signals", {}).get("profile"))


def scope_items(path: Path, user_id: str) -> int:
    with sqlite3.connect(path) as db:
        row = db.execute("SELECT count(*) FROM items WHERE user_id = ?", (user_id,)).fetchone()
    return int(row[0])


@dataclass
class Run:
    outcomes: dict[str, list[Outcome]]
    extracted: dict[str, list[str]]
    ingest_seconds: float
    read_seconds: float


async def ingest_all(
    conversations: Sequence[locomo.Conversation], embedder: Embedder, where: Path
) -> dict[str, Path]:
    """One SQLite file per conversation in ``where``; a file already there is reused."""
    files = {}
    for conv in conversations:
        path = where / f"{conv.sample_id}.db"
        files[conv.sample_id] = path
        if path.exists():
            continue
        async with Memory.open(f"sqlite:///{path}", embedder=embedder) as mem:
            await locomo.ingest(mem, conv)
    return files


async def one_pair(
    placement: Placement, base: Path, embedder: Embedder, tmp: Path, approaches: Sequence[str]
) -> tuple[dict[str, Outcome], list[str]]:
    path = tmp / f"{placement.pair.id}.db"
    shutil.copyfile(base, path)
    try:
        async with Memory.open(f"sqlite:///{path}", embedder=embedder) as mem:
            user = placement.conversation
            written = await mem.write_batch(
                [
                    Message(
                        content=placement.pair.cue,
                        name=placement.speaker,
                        occurred_at=placement.cue_at,
                        external_id="cue",
                    )
                ],
                user_id=user,
                profile="chat",
            )
            cue_event = written.event_ids[0]
            facts = await mem.facts(user_id=user)
            extracted = sorted(
                f.category.value
                for f in facts
                if f.category in CONSTRAINT_CATEGORIES and cue_event in f.evidence_event_ids
            )
            scope = scope_items(path, user)
            outcomes = {}
            for name in approaches:
                packet = await mem.read(
                    placement.pair.trigger,
                    user_id=user,
                    preset=APPROACHES[name],
                    limit=LIMIT,
                    reference_time=placement.trigger_at,
                )
                outcomes[name] = score(placement, cue_event, packet, scope)
    finally:
        for leftover in (path, *path.parent.glob(f"{path.name}-*")):  # -wal, -shm
            leftover.unlink(missing_ok=True)
    return outcomes, extracted


async def run(
    pairs: list[Pair],
    chosen: set[str],
    path: Path,
    cache: Path | None,
    approaches: Sequence[str] = tuple(APPROACHES),
    cue_at: str = "end",
) -> Run:
    """Every pair is placed (so a pair sits in the same conversation whichever subset
    runs); the ``chosen`` ones are read."""
    conversations = locomo.dev_five(locomo.load(path))
    placements = [p for p in place(pairs, conversations, cue_at) if p.pair.id in chosen]
    settings = Settings()
    inner = build_embedder(settings.embedding.model)
    embedder = Borrowed(inner)
    outcomes: dict[str, list[Outcome]] = {name: [] for name in approaches}
    extracted: dict[str, list[str]] = {}
    try:
        with tempfile.TemporaryDirectory() as raw:
            tmp = Path(raw)
            started = time.perf_counter()
            files = await ingest_all(conversations, embedder, cache or tmp)
            ingest_seconds = time.perf_counter() - started
            started = time.perf_counter()
            for placement in placements:
                got, cats = await one_pair(
                    placement, files[placement.conversation], embedder, tmp, approaches
                )
                for name, outcome in got.items():
                    outcomes[name].append(outcome)
                extracted[placement.pair.id] = cats
            read_seconds = time.perf_counter() - started
    finally:
        await inner.aclose()
    return Run(outcomes, extracted, ingest_seconds, read_seconds)


def summarise(outcomes: Sequence[Outcome]) -> dict[str, Any]:
    def block(group: Sequence[Outcome]) -> dict[str, Any]:
        group = group or [Outcome("", "", "", "", None, None, 0, 1)]  # a half not run
        return {
            "pairs": len(group),
            "hit": rate([o.hit for o in group]),
            "items": rate([o.item_rank is not None for o in group]),
            "sections": rate([o.section is not None for o in group]),
            "unrelated_constraints_mean": round(
                statistics.mean(o.unrelated_constraints for o in group), 2
            ),
            "unrelated_constraints_median": statistics.median(
                o.unrelated_constraints for o in group
            ),
            "unrelated_profile_mean": round(statistics.mean(o.unrelated_profile for o in group), 2),
            "unrelated_step_mean": round(
                statistics.mean(o.unrelated_constraints - o.unrelated_profile for o in group), 2
            ),
            "constraint_tokens_mean": round(statistics.mean(o.constraint_tokens for o in group), 1),
            "constraint_tokens_median": statistics.median(o.constraint_tokens for o in group),
        }

    out = block(outcomes)
    out["by_type"] = {t: block([o for o in outcomes if o.type == t]) for t in TYPES}
    out["by_split"] = {s: block([o for o in outcomes if o.split == s]) for s in ("tune", "check")}
    out["by_split_type"] = {
        s: {t: rate([o.hit for o in outcomes if o.split == s and o.type == t]) for t in TYPES}
        for s in ("tune", "check")
    }
    out["by_section"] = {n: sum(o.section == n for o in outcomes) for n in SECTIONS}
    out["cue_via"] = {v: sum(o.cue_via == v for o in outcomes) for v in ("step", "profile")}
    ranks = [o.item_rank for o in outcomes]
    out["items_mrr"] = round(statistics.mean(1 / r if r else 0.0 for r in ranks), 3)
    out["mean_section_entries"] = round(statistics.mean(o.section_entries for o in outcomes), 2)
    out["random_packet_items"] = round(
        statistics.mean(min(1.0, LIMIT / o.scope_items) for o in outcomes), 3
    )
    return out


def table(summaries: dict[str, dict[str, Any]], split: str | None) -> list[str]:
    head = "| approach | hit (items or sections) | items@10 | sections | " + " | ".join(TYPES)
    head += " | unrelated constraints (mean / median) | constraint tokens (mean / median)"
    lines = [head + " |", "|---|---|---|---|" + "---|" * (len(TYPES) + 2)]
    for name, s in summaries.items():
        block = s if split is None else s["by_split"][split]
        per_type = (
            [s["by_type"][t]["hit"] for t in TYPES]
            if split is None
            else [s["by_split_type"][split][t] for t in TYPES]
        )
        lines.append(
            f"| {name} (`preset={APPROACHES[name]!r}`) | {block['hit']:.3f} | "
            f"{block['items']:.3f} | {block['sections']:.3f} | "
            + " | ".join(f"{v:.3f}" for v in per_type)
            + f" | {block['unrelated_constraints_mean']:.2f} / "
            f"{block['unrelated_constraints_median']:g} | {block['constraint_tokens_mean']:.1f}"
            f" / {block['constraint_tokens_median']:g} |"
        )
    rnd = summaries["default"]["random_packet_items"]
    lines.append(f"| random packet of {LIMIT} items | {rnd:.3f} | {rnd:.3f} | | " + "| " * 7)
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("path", nargs="?", type=Path, default=LOCOMO)
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--split", choices=("tune", "check", "all"), default="all")
    parser.add_argument("--only", nargs="*", help="pair ids to run (diagnosis)")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results")
    parser.add_argument("--no-write", action="store_true", help="print only")
    parser.add_argument(
        "--cue-at",
        choices=CUE_SETTINGS,
        default="end",
        help="end: the cue in a session after the conversation's last (results in "
        "cue_trigger_long.md); mid: between two turns in its middle third, later sessions "
        "after it (cue_trigger_long_mid.md)",
    )
    parser.add_argument(
        "--default-only",
        action="store_true",
        help="read with the default preset only (diagnosis: the baselines do not change)",
    )
    parser.add_argument(
        "--cache",
        type=Path,
        help="keep the ingested conversations here and reuse them (read-side tuning only: "
        "a change to the write path needs a fresh directory)",
    )
    args = parser.parse_args()
    every = load(args.data)
    pairs = [p for p in every if args.split == "all" or p.split == args.split]
    if args.only:
        pairs = [p for p in pairs if p.id in set(args.only)]
    machine = describe()
    started = time.perf_counter()
    if args.cache:
        args.cache.mkdir(parents=True, exist_ok=True)
    approaches = ("default",) if args.default_only else tuple(APPROACHES)
    done = asyncio.run(
        run(every, {p.id for p in pairs}, args.path, args.cache, approaches, args.cue_at)
    )
    summaries = {name: summarise(outs) for name, outs in done.outcomes.items()}
    extracted = done.extracted
    result: dict[str, Any] = {
        "command": ("python benchmarks/cue_trigger_long.py " + " ".join(sys.argv[1:])).strip(),
        "machine": machine,
        "seconds": round(time.perf_counter() - started, 1),
        "ingest_seconds": round(done.ingest_seconds, 1),
        "read_seconds": round(done.read_seconds, 1),
        "protocol": {
            "pairs": len(pairs),
            "conversations": list(locomo.DEV_SAMPLES),
            "cue_at": args.cue_at,
            "cue_after_last_session_days": CUE_AFTER_DAYS,
            "trigger_after_cue_days": TRIGGER_AFTER_DAYS,
            "limit": LIMIT,
            "max_tokens": "default",
            "seed": SEED,
            "embedder": "default (onnx:minilm)",
            "llm": None,
        },
        "approaches": summaries,
        "cue_extracted_as_constraint": {
            t: f"{sum(bool(extracted[p.id]) for p in pairs if p.type == t)}"
            f"/{sum(p.type == t for p in pairs)}"
            for t in TYPES
        },
        "cue_extracted": extracted,
        "per_pair": {name: [asdict(o) for o in outs] for name, outs in done.outcomes.items()},
    }
    default = summaries["default"]
    n_extracted = sum(bool(v) for v in extracted.values())
    where = (
        f"the cue said by one of the conversation's speakers in a final session "
        f"{CUE_AFTER_DAYS[0]}–{CUE_AFTER_DAYS[1]} days after its last, the trigger read "
        f"{TRIGGER_AFTER_DAYS[0]}–{TRIGGER_AFTER_DAYS[1]} days later"
        if args.cue_at == "end"
        else "the cue said by one of the conversation's speakers mid-conversation (half a "
        "second after a turn of a session in its middle third: later sessions follow it, "
        "so it is not the newest statement), the trigger read at the same time as in the "
        f"end setting ({CUE_AFTER_DAYS[0]}–{CUE_AFTER_DAYS[1]} + "
        f"{TRIGGER_AFTER_DAYS[0]}–{TRIGGER_AFTER_DAYS[1]} days after the last session)"
    )
    title = "" if args.cue_at == "end" else ", the cue mid-conversation"
    lines = [
        f"# Cue → trigger inside whole LoCoMo conversations{title}",
        "",
        *provenance(result["command"], machine),
        "",
        f"{len(pairs)} pairs (`benchmarks/data/cue_trigger_long.jsonl`), dealt round-robin "
        f"to the dev five ({', '.join(locomo.DEV_SAMPLES)}; each ingested once, copied per "
        f"pair): {where}, in the same user scope "
        f"(`limit={LIMIT}`, default `max_tokens`, default embedder, no LLM; seed {SEED}). "
        "Hit = the cue's event id is in the provenance of one of the 10 items or of a "
        "must_follow / consider / facts entry.",
        "",
        "## All pairs",
        "",
        *table(summaries, None),
        "",
        "## Tune half (the only one tuned on)",
        "",
        *table(summaries, "tune"),
        "",
        "## Check half",
        "",
        *table(summaries, "check"),
        "",
        f"Default preset: cue in sections by name {default['by_section']}; mean "
        f"{default['mean_section_entries']} section entries per packet; items MRR "
        f"{default['items_mrr']}.",
        "",
        "Where the unrelated constraints come from (default preset, mean per packet, "
        "standing profile / constraint step): "
        + "; ".join(
            f"{name} {b['unrelated_profile_mean']:.2f} / {b['unrelated_step_mean']:.2f}"
            for name, b in (
                ("all", default),
                ("tune", default["by_split"]["tune"]),
                ("check", default["by_split"]["check"]),
            )
        )
        + f". The cue was put in a section by the constraint step {default['cue_via']['step']}"
        f" times, by the profile only {default['cue_via']['profile']} times.",
        "",
        f"Write path: {n_extracted} of {len(pairs)} cues stored as a constraint fact ("
        + ", ".join(f"{t} {v}" for t, v in result["cue_extracted_as_constraint"].items())
        + "); sections can only surface what was extracted.",
        "",
        f"{result['seconds']} s ({result['ingest_seconds']} s ingesting the five "
        "conversations"
        + (" — reused from --cache, ingested by the same write path" if args.cache else "")
        + f", {result['read_seconds']} s for the pairs).",
        "",
    ]
    print("\n".join(lines))
    if not args.no_write:
        args.out.mkdir(parents=True, exist_ok=True)
        name = "cue_trigger_long" + ("" if args.cue_at == "end" else f"_{args.cue_at}")
        (args.out / f"{name}.json").write_text(json.dumps(result, indent=2) + "\n")
        (args.out / f"{name}.md").write_text("\n".join(lines))


if __name__ == "__main__":
    main()
