"""What a question's rule reading changes in a read: on LoCoMo fold B's tune
conversations (conv-42, conv-43), every question whose ``classify`` reading (intent or
decision flag) differs between another checkout's ``recall/analyze.py`` (``--base``)
and this one is read twice on one ingestion, once with each reading; reported are the
share of its evidence turns among the top 10 items, the packet's tokens and its items'
tokens, for all such questions and for those the base read as a decision.

Usage (repository root; PATH is read, never copied):

    python benchmarks/question_forms_cost.py PATH --base OTHER/src/cognimem/recall/analyze.py
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import sys
import tempfile
from datetime import timedelta
from pathlib import Path
from typing import Any

import cognimem.recall.analyze as analyze
from cognimem import Memory
from cognimem.eval import locomo

TUNE = ("conv-42", "conv-43")


def base_reader(path: Path) -> Any:
    spec = importlib.util.spec_from_file_location("base_analyze", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules["base_analyze"] = module
    spec.loader.exec_module(module)

    def classify(query: str) -> analyze.Classification:
        c = module.classify(query)
        return analyze.Classification(
            intent=analyze.Intent(c.intent.value),
            categories=c.categories,
            decision=c.decision,
            unsure=c.unsure,
            reasons=c.reasons,
        )

    return classify


async def run(path: Path, base: Path) -> list[dict[str, Any]]:
    readings = {"main": base_reader(base), "branch": analyze.classify}
    convs = [c for c in locomo.dev_five(locomo.load(path)) if c.sample_id in TUNE]
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        async with Memory.open(f"sqlite:///{tmp}/l.db") as mem:
            for conv in convs:
                await locomo.ingest(mem, conv)
            for conv in convs:
                reference = conv.last_time + timedelta(days=1)
                for q in conv.questions:
                    got = {k: f(q.text) for k, f in readings.items()}
                    if (got["main"].intent, got["main"].decision) == (
                        got["branch"].intent,
                        got["branch"].decision,
                    ):
                        continue
                    row: dict[str, Any] = {"decision": got["main"].decision}
                    for name, reading in readings.items():
                        analyze.classify = reading  # the one analyze() calls
                        packet = await mem.read(
                            q.text,
                            user_id=conv.sample_id,
                            limit=10,
                            max_tokens=locomo.MAX_READ_TOKENS,
                            preset="balanced",
                            reference_time=reference,
                        )
                        found = set().union(*(set(i.external_ids) for i in packet.items[:10]))
                        evidence = set(q.evidence)
                        row[name] = {
                            "frac": len(found & evidence) / len(evidence) if evidence else 0.0,
                            "tokens": packet.token_count,
                            "item_tokens": sum(i.token_count for i in packet.items),
                        }
                    analyze.classify = readings["branch"]
                    rows.append(row)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("path", type=Path)
    parser.add_argument("--base", type=Path, required=True, help="the other analyze.py")
    args = parser.parse_args()
    rows = asyncio.run(run(args.path, args.base))
    for label, group in (
        ("differ", rows),
        ("base read a decision", [r for r in rows if r["decision"]]),
    ):
        n = max(len(group), 1)
        cells = [
            f"{key} {sum(r['main'][key] for r in group) / n:.4f} -> "
            f"{sum(r['branch'][key] for r in group) / n:.4f}"
            for key in ("frac", "tokens", "item_tokens")
        ]
        print(f"{label}: {len(group)} questions; " + "; ".join(cells))


if __name__ == "__main__":
    main()
