"""Do a cue and the request it bears on land in a shared decision area, more often than
a cue and a request it has nothing to do with?

The decision areas are ``cognimem.text.areas`` (money, food and diet, health and body,
time and schedule, travel, ...). A constraint's areas are what the write path records
without an LLM (``ingest/implications.py``: the areas of its scope tags, and the areas
whose description the embedder finds closest); a request's are what the read path
gives it (``recall/constraints.py``: ``QueryView``). Here each pair's cue is tagged as
one constraint (its own text: the scope tags the lexicon reads in it, its embedding;
no turns around it) and each trigger as a request.

- *true pair*: the cue and its own trigger share an area;
- *random pair*: the cue and the trigger of another pair of the same half share one
  (every other trigger, averaged);
- beside them, the same two rates with the lexicon alone (no embedder), and how many
  areas a cue and a trigger get on average.

Sets: ``benchmarks/data/cue_trigger_long.jsonl`` by its tune / check halves (the
closeness rule was chosen on the tune half) and ``benchmarks/data/cue_trigger.jsonl``
(no halves: reported whole). Default local embedder, nothing else.

Usage (repository root):

    PYTHONPATH=src python benchmarks/implication_areas.py [--out benchmarks/results]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from _machine import describe
from cue_trigger import Pair, load

from cognimem.config import Settings
from cognimem.ingest.implications import WRITE_CLOSENESS, constraint_areas
from cognimem.providers.factory import build_embedder
from cognimem.recall.constraints import READ_CLOSENESS, QueryView
from cognimem.text.areas import AreaDescriptions, areas_of_tags
from cognimem.text.scope_tags import scope_tags

ROOT = Path(__file__).resolve().parent.parent
SETS = {
    "cue_trigger_long": ROOT / "benchmarks" / "data" / "cue_trigger_long.jsonl",
    "cue_trigger": ROOT / "benchmarks" / "data" / "cue_trigger.jsonl",
}


def rates(cues: Sequence[set[str]], triggers: Sequence[set[str]]) -> dict[str, float]:
    n = len(cues)
    true = sum(bool(cues[i] & triggers[i]) for i in range(n)) / n
    others = [bool(cues[i] & triggers[j]) for i in range(n) for j in range(n) if i != j]
    return {
        "true_pair": round(true, 3),
        "random_pair": round(sum(others) / len(others), 3),
        "cue_areas": round(float(np.mean([len(c) for c in cues])), 2),
        "trigger_areas": round(float(np.mean([len(t) for t in triggers])), 2),
    }


async def measure(pairs: Sequence[Pair]) -> dict[str, Any]:
    embedder = build_embedder(Settings().embedding.model)
    try:
        descriptions = await AreaDescriptions().matrix(
            lambda texts: embedder.embed(texts, "document")
        )
        cues = await embedder.embed([p.cue for p in pairs], "document")
        triggers = await embedder.embed([p.trigger for p in pairs], "query")
    finally:
        await embedder.aclose()
    both_cue, both_trigger, lex_cue, lex_trigger = [], [], [], []
    for pair, cue, trigger in zip(pairs, cues, triggers, strict=True):
        tags = scope_tags(pair.cue.replace("-", " "))
        both_cue.append({a.value for a in constraint_areas(tags, cue, descriptions)})
        both_trigger.append(set(QueryView.of(pair.trigger, trigger, False, descriptions).areas))
        lex_cue.append(set(areas_of_tags(tags)))
        lex_trigger.append(set(QueryView.of(pair.trigger, None, False).areas))
    return {
        "lexicon_and_embedder": rates(both_cue, both_trigger),
        "lexicon": rates(lex_cue, lex_trigger),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results")
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args()
    results: dict[str, Any] = {}
    for name, path in SETS.items():
        pairs = load(path)
        halves = sorted({p.split for p in pairs if p.split})
        groups = {h: [p for p in pairs if p.split == h] for h in halves} or {"all": pairs}
        results[name] = {h: asyncio.run(measure(group)) for h, group in groups.items()}
    machine = describe()
    result = {
        "command": ("python benchmarks/implication_areas.py " + " ".join(sys.argv[1:])).strip(),
        "machine": machine,
        "write_closeness": vars(WRITE_CLOSENESS),
        "read_closeness": vars(READ_CLOSENESS),
        "sets": results,
    }
    lines = [
        "# Cue and trigger in a shared decision area",
        "",
        f"Command: `{result['command']}`  ",
        f"Machine: {machine['summary']}",
        "",
        "Cue tagged as the write path tags a constraint without an LLM, trigger as the "
        "read path tags a request (`cognimem.text.areas`). True pair: a cue and its own "
        "trigger share an area; random pair: a cue and another pair's trigger of the same "
        "half.",
        "",
        "| set | half | true pair | random pair | areas per cue | per trigger | "
        "lexicon alone: true | random |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, groups in results.items():
        for half, found in groups.items():
            both, lex = found["lexicon_and_embedder"], found["lexicon"]
            lines.append(
                f"| {name} | {half} | {both['true_pair']:.3f} | {both['random_pair']:.3f} | "
                f"{both['cue_areas']:.2f} | {both['trigger_areas']:.2f} | "
                f"{lex['true_pair']:.3f} | {lex['random_pair']:.3f} |"
            )
    lines.append("")
    print("\n".join(lines))
    if not args.no_write:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "implication_areas.json").write_text(json.dumps(result, indent=2) + "\n")
        (args.out / "implication_areas.md").write_text("\n".join(lines))


if __name__ == "__main__":
    main()
