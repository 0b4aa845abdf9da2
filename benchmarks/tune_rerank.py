"""Rerank tuning on the LoCoMo dev set: ingest once, then read every question under
variants of the default preset's rerank weights, MMR and relevance floor.

Each variant is one ``RecallConfig``; reads go through ``Memory.read`` like the
harness's. Reads record access (loaded counts), so the ``utility`` signal drifts
across variants; its variants are run last and read with that caveat. Usage:

    python benchmarks/tune_rerank.py [PATH] [--db keep.db] [--out benchmarks/results]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

from _machine import describe

from cognimem import Memory
from cognimem.eval import locomo
from cognimem.recall import presets

ROOT = Path(__file__).resolve().parent.parent
BASE = presets.PRESETS["balanced"]


def variant(name: str, **changes: Any) -> presets.RecallConfig:
    weights = changes.pop("rerank", {})
    rerank = BASE.rerank.model_copy(update=weights)
    return BASE.model_copy(update={"name": name, "rerank": rerank, **changes})


VARIANTS = [
    variant("fusion only", rerank={"graph": 0.0, "fact": 0.0}),
    variant("graph 0.1, fact 0.1", rerank={"graph": 0.1, "fact": 0.1}),
    variant("graph 0.3, fact 0.1", rerank={"graph": 0.3, "fact": 0.1}),
    variant("default (graph 0.1, fact 0.3)"),
    variant("entity 0.1", rerank={"entity": 0.1}),
    variant("entity 0.3", rerank={"entity": 0.3}),
    variant("recency 0.05", rerank={"recency": 0.05}),
    variant("recency 0.2", rerank={"recency": 0.2}),
    variant("importance 0.1", rerank={"importance": 0.1}),
    variant("importance 0.3", rerank={"importance": 0.3}),
    variant("reinforcement 0.1", rerank={"reinforcement": 0.1}),
    variant("confidence 0.1", rerank={"confidence": 0.1}),
    variant("mmr 0.9", mmr_lambda=0.9),
    variant("mmr 0.7", mmr_lambda=0.7),
    variant("floor 0.2", episode_floor=0.2),
    variant("floor 0.35", episode_floor=0.35),
    variant("no graph step", graph=False),
    variant("utility 0.1", rerank={"utility": 0.1}),
]


async def run(path: Path, db: Path | None) -> list[tuple[str, locomo.Report]]:
    conversations = locomo.load(path)
    out: list[tuple[str, locomo.Report]] = []
    target = db or Path("/tmp/cognimem-tune-rerank.db")
    fresh = not target.exists()
    async with Memory.open(f"sqlite:///{target}") as mem:
        if fresh:
            for conv in conversations:
                await locomo.ingest(mem, conv)
        for config in VARIANTS:
            key = f"tune:{config.name}"
            presets.PRESETS[key] = config.model_copy(update={"name": key})
            try:
                report = await locomo.evaluate(mem, conversations, preset=key, ingest_first=False)
            finally:
                del presets.PRESETS[key]
            out.append((config.name, report))
            o = report.to_json()
            print(config.name, o["overall"]["frac@10"], o["tokens_per_question"], flush=True)
    if db is None:
        target.unlink(missing_ok=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "path", nargs="?", type=Path, default=ROOT.parent / "shared/data/locomo/locomo10_dev.json"
    )
    parser.add_argument("--db", type=Path, help="keep the ingested database here (reused)")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results")
    args = parser.parse_args()
    started = time.perf_counter()
    reports = asyncio.run(run(args.path, args.db))
    command = "python benchmarks/tune_rerank.py " + " ".join(sys.argv[1:])
    rows = []
    lines = [
        "# Rerank tuning on LoCoMo dev, categories 1–4 (evidence recall)",
        "",
        f"Command: `{command.strip()}`  ",
        f"Machine: {describe()['summary']}",
        "",
        "| variant | frac@10 | frac@5 | MRR | multi-hop | temporal | open-domain | single-hop |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, report in reports:
        data = report.to_json()
        o, cats = data["overall"], data["by_category"]
        per_cat = " | ".join(str(cats[c]["frac@10"]) for c in ("1", "2", "3", "4"))
        lines.append(f"| {name} | {o['frac@10']} | {o['frac@5']} | {o['mrr']} | {per_cat} |")
        rows.append({"variant": name, **data})
    args.out.mkdir(parents=True, exist_ok=True)
    result = {
        "command": command.strip(),
        "machine": describe(),
        "seconds": round(time.perf_counter() - started, 1),
        "variants": rows,
    }
    (args.out / "tune_rerank.json").write_text(json.dumps(result, indent=2) + "\n")
    (args.out / "tune_rerank.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
