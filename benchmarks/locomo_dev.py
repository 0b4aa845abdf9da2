"""LoCoMo dev evidence recall: the default preset beside BM25-only and vector-only.

All three run through the same harness (``cognimem eval locomo``) on one ingestion, with
the default local embedder and no LLM. Usage (from the repository root):

    python benchmarks/locomo_dev.py [PATH] [--out benchmarks/results]

PATH defaults to ../shared/data/locomo/locomo10_dev.json. The data is read, never copied.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

from _machine import describe

from cognimem import Memory
from cognimem.eval import locomo

ROOT = Path(__file__).resolve().parent.parent
PRESETS = ("balanced", "reranked", "lexical", "vector", "rrf")


async def run(path: Path) -> dict[str, locomo.Report]:
    conversations = locomo.load(path)
    reports: dict[str, locomo.Report] = {}
    with tempfile.TemporaryDirectory() as tmp:
        async with Memory.open(f"sqlite:///{tmp}/locomo.db") as mem:
            for conv in conversations:
                await locomo.ingest(mem, conv)
            for preset in PRESETS:
                reports[preset] = await locomo.evaluate(
                    mem, conversations, preset=preset, ingest_first=False
                )
    return reports


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "path", nargs="?", type=Path, default=ROOT.parent / "shared/data/locomo/locomo10_dev.json"
    )
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results")
    args = parser.parse_args()
    started = time.perf_counter()
    reports = asyncio.run(run(args.path))
    command = "python benchmarks/locomo_dev.py " + " ".join(sys.argv[1:])
    result = {
        "command": command.strip(),
        "machine": describe(),
        "seconds": round(time.perf_counter() - started, 1),
        "presets": {name: r.to_json() for name, r in reports.items()},
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "locomo_dev.json").write_text(json.dumps(result, indent=2) + "\n")
    lines = [
        "# LoCoMo dev five, categories 1–4 (evidence recall)",
        "",
        f"Command: `{result['command']}`  ",
        f"Machine: {result['machine']['summary']}",
        "",
        "| preset | frac@5 | frac@10 | frac@20 | all@10 | any@10 | MRR | "
        "multi-hop@10 | temporal@10 | open-domain@10 | single-hop@10 | tokens/q |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, report in reports.items():
        data = report.to_json()
        o, cats = data["overall"], data["by_category"]
        per_cat = " | ".join(str(cats[c]["frac@10"]) for c in ("1", "2", "3", "4"))
        lines.append(
            f"| {name} | {o['frac@5']} | {o['frac@10']} | {o['frac@20']} | {o['all@10']} | "
            f"{o['any@10']} | {o['mrr']} | {per_cat} | {data['tokens_per_question']} |"
        )
    lines += ["", "Full tables (per category, with category 5 as a diagnostic):", ""]
    for report in reports.values():
        lines += ["```", locomo.render(report), "```", ""]
    (args.out / "locomo_dev.md").write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
