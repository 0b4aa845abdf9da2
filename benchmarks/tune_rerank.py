"""Rerank tuning on the LoCoMo dev five with the rotation: ingest once, then read every
question under variants of the default preset's rerank weights, MMR and floors, and
report the folds (``benchmarks/tune_fusion.py`` does the same for fusion).

Each variant is the ``balanced`` preset with ``RankingOverrides`` merged over it (as a
read's ``ranking`` would be) or, for a step switched off, a changed ``RecallConfig``;
reads go through ``Memory.read`` like the harness's. For each fold (``locomo_rotation.
FOLDS``) the variant best on its *tune* conversations is picked and shown on its *check*
conversations and on the other fold's; a default changes only for a variant that beats
``balanced`` on both folds' check conversations. Reads record access (loaded counts), so
the ``utility`` signal drifts across variants; its variant runs last. Usage:

    python benchmarks/tune_rerank.py [PATH] [--out benchmarks/results]
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
from locomo_rotation import fold_picks, fold_scores, row
from locomo_rotation import run as rotation

from cognimem.eval import locomo
from cognimem.recall.overrides import RankingOverrides, apply_ranking
from cognimem.recall.presets import PRESETS, RecallConfig

ROOT = Path(__file__).resolve().parent.parent
BASELINE = "balanced"


def ranked(**changes: Any) -> RecallConfig:
    return apply_ranking(PRESETS[BASELINE], RankingOverrides.model_validate(changes))


RERANK: dict[str, RecallConfig] = {
    "no answer pairs (answer 0)": ranked(rerank={"answer": 0.0}),
    "answer 0.2": ranked(rerank={"answer": 0.2}),
    "answer 0.3": ranked(rerank={"answer": 0.3}),
    "answer 0.5": ranked(rerank={"answer": 0.5}),
    "fusion only (graph 0, fact 0)": ranked(rerank={"graph": 0.0, "fact": 0.0}),
    "graph 0.05": ranked(rerank={"graph": 0.05}),
    "graph 0.2": ranked(rerank={"graph": 0.2}),
    "graph 0.3": ranked(rerank={"graph": 0.3}),
    "fact 0.1": ranked(rerank={"fact": 0.1}),
    "fact 0.5": ranked(rerank={"fact": 0.5}),
    "entity 0.05": ranked(rerank={"entity": 0.05}),
    "entity 0.1": ranked(rerank={"entity": 0.1}),
    "entity 0.3": ranked(rerank={"entity": 0.3}),
    "recency 0.05": ranked(rerank={"recency": 0.05}),
    "recency 0.2": ranked(rerank={"recency": 0.2}),
    "importance 0.05": ranked(rerank={"importance": 0.05}),
    "importance 0.1": ranked(rerank={"importance": 0.1}),
    "reinforcement 0.1": ranked(rerank={"reinforcement": 0.1}),
    "confidence 0.1": ranked(rerank={"confidence": 0.1}),
    "mmr 0.9": ranked(mmr_lambda=0.9),
    "mmr 0.8": ranked(mmr_lambda=0.8),
    "mmr 0.7": ranked(mmr_lambda=0.7),
    "floor 0.2": ranked(episode_floor=0.2),
    "floor 0.35": ranked(episode_floor=0.35),
    "min_similarity 0.15": ranked(min_similarity=0.15),
    "min_similarity 0.25": ranked(min_similarity=0.25),
    "no graph step": PRESETS[BASELINE].model_copy(update={"graph": False}),
    "utility 0.1": ranked(rerank={"utility": 0.1}),  # last: loaded counts drift
}


async def run(path: Path, variants: dict[str, RecallConfig]) -> dict[str, locomo.Report]:
    names = {f"tune:{name}": name for name in variants}
    for key, name in names.items():
        PRESETS[key] = variants[name].model_copy(update={"name": key})
    try:
        reports = await rotation(path, [BASELINE, *names])
    finally:
        for key in names:
            del PRESETS[key]
    return {names.get(key, key): report for key, report in reports.items()}


def lines_for(reports: dict[str, locomo.Report]) -> list[str]:
    """One row per variant (all five and each fold), then the rotation's verdict."""
    columns = ("frac@10", "multi-hop", "temporal", "open-domain", "single-hop", "tokens@10")
    lines = [
        "| variant | " + " | ".join(columns) + " | A tune | A check | B tune | B check |",
        "|---" * (len(columns) + 5) + "|",
    ]
    scores = {}
    for name, report in reports.items():
        values = row(report, locomo.DEV_SAMPLES)
        scores[name] = folds = fold_scores(report)
        cells = [str(values[c]) for c in columns] + [
            str(folds[k]) for k in ("A tune", "A check", "B tune", "B check")
        ]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return [*lines, "", *fold_picks(scores, BASELINE)]


def compact(data: dict[str, Any]) -> dict[str, Any]:
    """A report without its per-conversation rows (the folds stand for them)."""
    return {k: v for k, v in data.items() if k != "by_conversation"}


def main(variants: dict[str, RecallConfig] = RERANK, stem: str = "tune_rerank") -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "path", nargs="?", type=Path, default=ROOT.parent / "shared/data/locomo/locomo10_dev.json"
    )
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results")
    args = parser.parse_args()
    started = time.perf_counter()
    reports = asyncio.run(run(args.path, variants))
    command = f"python benchmarks/{stem}.py " + " ".join(sys.argv[1:])
    lines = [
        f"# {stem}: LoCoMo dev five with the rotation (frac@10, categories 1–4)",
        "",
        f"Command: `{command.strip()}`  ",
        f"Machine: {describe()['summary']}",
        "",
        *lines_for(reports),
    ]
    args.out.mkdir(parents=True, exist_ok=True)
    result = {
        "command": command.strip(),
        "machine": describe(),
        "seconds": round(time.perf_counter() - started, 1),
        "variants": [
            {"variant": name, **compact(r.to_json()), "folds": fold_scores(r)}
            for name, r in reports.items()
        ],
    }
    (args.out / f"{stem}.json").write_text(json.dumps(result, indent=2) + "\n")
    (args.out / f"{stem}.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
