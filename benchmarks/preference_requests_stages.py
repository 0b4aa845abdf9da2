"""Where a preference that does not reach its request is lost, stage by stage (issue 29,
twentieth stop): each miss of a preference set's half goes in the first stage it fails.

1. **not recorded**: no constraint fact (goal, state, value, causal, policy) holds the
   cue's event in its evidence;
2. **cut or wrong object**: recorded, but no constraint fact of the cue names what the
   preference is about (the stage table says how that was judged: the facts are
   printed);
3. **not in the profile**: recorded, but no entry of the standing profile holds the
   cue's event (superseded, merged away, not live) — or in it but decayed out or with
   no evidence of bearing on the request (``profile_choose``'s live and evident
   tests);
4. **ranked out**: in the profile and a candidate, but not among the entries carried
   into the constraint sections (below the floors, or past the section's four places).

A miss whose request was not read as a decision (no profile read) is counted apart.
The read is the benchmark's own (``preference_requests.py`` run unchanged on the half
asked, the default preset; ``profile_replay.py capture`` keeps the profile's inputs);
a miss is a pair whose cue was in neither an item nor a section entry.

``ceiling`` runs the benchmark with every user message the rule extractor drew no
constraint fact from recorded as a rule of its whole sentence (``policy``, the
sentence as its value): what the "not recorded" stage is worth to the read as it is,
were the write path to record every stated preference (the nine others too).

Usage (repository root; ``PYTHONPATH=src:benchmarks``; the tune half only — the check
halves are measured by ``preference_requests.py``, never split by stage)::

    python benchmarks/preference_requests_stages.py DATA.jsonl [DATA.jsonl ...] \\
        [--half tune] [--json OUT.json] [--keep DIR]
    python benchmarks/preference_requests_stages.py ceiling [preference_requests.py ARGS]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import preference_requests as bench
import profile_replay as pr

import cognimem.recall.profile_read as profile_read
from cognimem.models.knowledge import CONSTRAINT_CATEGORIES
from cognimem.recall import profile_choose

STAGES = (
    "not a decision",
    "not recorded",
    "cut or wrong object",
    "not in the profile",
    "in the profile, decayed or no evidence",
    "ranked out",
)


def _facts_hook(store: dict[str, list[dict[str, Any]]]) -> None:
    """Keep every fact drawn from each pair's cue (the benchmark's ``recorded`` step)."""
    recorded = bench.recorded

    async def hooked(mem: Any, scope: Any) -> list[str]:
        facts = await mem.facts(user_id=scope.pair.id)
        store[scope.pair.id] = [
            {
                "category": f.category.value,
                "predicate": f.predicate,
                "value": f.value,
                "polarity": f.polarity,
                "constraint": f.category in CONSTRAINT_CATEGORIES,
            }
            for f in facts
            if scope.cue_event in f.evidence_event_ids
        ]
        out: list[str] = await recorded(mem, scope)
        return out

    bench.recorded = hooked


def read(data: Path, half: str, tmp: Path) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Run the benchmark on ``half`` of ``data``: the captured first reads and the facts
    of each cue."""
    facts: dict[str, list[dict[str, Any]]] = {}
    saved = (bench.recorded, bench.score, profile_read.cosines, profile_read.choose)
    _facts_hook(facts)
    pkl = tmp / f"{data.stem}.pkl"
    try:
        pr.capture(pkl, bench.__file__, ["--data", str(data), "--split", half, "--no-write"])
    finally:
        bench.recorded, bench.score, profile_read.cosines, profile_read.choose = saved
    return pr.first_reads(pkl), facts


def stage_of(record: dict[str, Any], facts: list[dict[str, Any]], whole: bool) -> str:
    """The first stage a miss fails (``whole``: a constraint fact of the cue names its
    object, judged by hand from the printed facts)."""
    if not record["calls"]:
        return "not a decision"
    if not any(f["constraint"] for f in facts):
        return "not recorded"
    if not whole:
        return "cut or wrong object"
    call = record["calls"][0]
    profile, inputs = call["profile"], call["inputs"]
    at = pr.cue_entry(profile, record["cue"])
    if at is None:
        return "not in the profile"
    evident = profile_choose.choose(profile, *inputs[:4], _evident(inputs[4]), *inputs[5:])
    if not any(e.standing is profile.entries[at] for e in evident):
        return "in the profile, decayed or no evidence"
    return "ranked out"


def _evident(config: Any) -> Any:
    """Nothing cut but what is stale or has no evidence of bearing on the request."""
    return replace(pr.uncut(config), evidence_floor=config.evidence_floor)


def hit(record: dict[str, Any]) -> bool:
    """The read's own outcome: the cue's event in an item or a section entry."""
    shown = record["packet"]
    every = [*shown["items"], *shown["constraint"], *shown["rest"]]
    return any(record["cue"] in s for s in every)


def ceiling(args: list[str]) -> None:
    """Run ``preference_requests.py`` with ``args``, every user message with no
    constraint fact recorded as a rule of its whole sentence (see the module)."""
    from cognimem.ingest.extract.rules import RuleExtractor
    from cognimem.models.extraction import ExtractedFact
    from cognimem.models.knowledge import FactCategory

    extract_one = RuleExtractor.extract_one

    def recorded_whole(self: RuleExtractor, message: Any, discourse: Any = None) -> Any:
        out = extract_one(self, message, discourse)
        said = message.text.strip()
        unrecorded = not any(f.category in CONSTRAINT_CATEGORIES for f in out.facts)
        if message.role in {"user", "human"} and said and unrecorded:
            whole = said.rstrip(".")
            rule = FactCategory.POLICY  # multi-valued: one rule does not replace another
            fact = ExtractedFact(category=rule, predicate="general", value=whole, multi_valued=True)
            out.facts.append(fact)
        return out

    RuleExtractor.extract_one = recorded_whole  # type: ignore[method-assign]
    sys.argv = [bench.__file__, *args]
    try:
        bench.main()
    finally:
        RuleExtractor.extract_one = extract_one  # type: ignore[method-assign]


def main() -> None:
    import tempfile

    if len(sys.argv) > 1 and sys.argv[1] == "ceiling":
        ceiling(sys.argv[2:])
        return

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", nargs="+", type=Path)
    parser.add_argument("--half", choices=("tune",), default="tune")
    parser.add_argument(
        "--cut",
        default="",
        help="comma-separated pair ids judged 'cut or wrong object' (from the printed facts)",
    )
    parser.add_argument("--json", type=Path)
    parser.add_argument(
        "--keep", type=Path, help="keep each set's capture (DATA stem .pkl) here, for replays"
    )
    args = parser.parse_args()
    cut = {p for p in args.cut.split(",") if p}
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as scratch:
        tmp = str(args.keep or scratch)
        Path(tmp).mkdir(parents=True, exist_ok=True)
        for data in args.data:
            pairs = {p.id: p for p in bench.load(data)}
            records, facts = read(data, args.half, Path(tmp))
            for record in records:
                if hit(record):
                    continue
                pid = record["id"]
                got = facts.get(pid, [])
                rows.append(
                    {
                        "set": data.stem,
                        "pair": pid,
                        "statement": pairs[pid].statement,
                        "request": pairs[pid].request,
                        "facts": got,
                        "stage": stage_of(record, got, pid not in cut),
                        "pairs_in_half": len(records),
                    }
                )
            done = Counter(r["stage"] for r in rows if r["set"] == data.stem)
            print(f"{data.stem}: {sum(done.values())} misses of {len(records)}: {dict(done)}")
    for r in rows:
        shown = "; ".join(
            f"{f['category']}:{f['predicate']}={f['value']!r}{'' if f['polarity'] else ' (neg)'}"
            for f in r["facts"]
            if f["constraint"]
        )
        print(f"{r['set']} {r['pair']} [{r['stage']}] {r['statement']!r} -> {shown or '—'}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2) + "\n")


if __name__ == "__main__":
    sys.exit(main())
