"""LoCoMo dev five by conversation, and the rotation that keeps tuning honest.

A change to recall is tuned on a fold's *tune* conversations and kept only if it also
helps that fold's *check* conversations. Both folds are printed: each conversation is a
check conversation at least once. One ingestion, then every preset (or override) is
read against it, with the default local embedder and no LLM. Usage (repository root):

    python benchmarks/locomo_rotation.py [PATH] [--preset balanced ...]
        [--set rerank.graph=0.2 --set mmr_lambda=0.8] [--consolidate] [--out FILE.json]
        [--md FILE.md]

``--set`` adds a preset ``balanced+`` (balanced with those fields replaced; nested
fields with dots) beside the named ones. ``--consolidate`` runs ``Memory.consolidate``
for each conversation after ingesting it, before the questions. PATH defaults to
../shared/data/locomo/locomo10_dev.json; the data is read, never copied.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _machine import describe

from cognimem import Memory
from cognimem.eval import locomo
from cognimem.recall.presets import PRESETS, RecallConfig

ROOT = Path(__file__).resolve().parent.parent
# (tune, check): every dev conversation is a check conversation in at least one fold
FOLDS = {
    "A": (("conv-26", "conv-30"), ("conv-41", "conv-42", "conv-43")),
    "B": (("conv-42", "conv-43"), ("conv-26", "conv-30", "conv-41")),
}
COLUMNS = ("frac@10", "multi-hop", "temporal", "open-domain", "single-hop", "tokens@10", "turns@10")


def with_overrides(base: RecallConfig, pairs: list[str], name: str) -> RecallConfig:
    data: dict[str, Any] = base.model_dump()
    for pair in pairs:
        key, _, raw = pair.partition("=")
        target = data
        *parents, leaf = key.strip().split(".")
        for part in parents:
            target = target[part]
        if leaf not in target:
            raise SystemExit(f"--set {pair}: no field {key!r} in RecallConfig")
        target[leaf] = json.loads(raw) if raw[:1] in '-0123456789[{tf"n' else raw
    data["name"] = name
    return RecallConfig.model_validate(data)


def row(report: locomo.Report, samples: tuple[str, ...]) -> dict[str, float]:
    overall = report.subset(samples).row()
    out = {
        "frac@10": overall["frac@10"],
        "tokens@10": overall["tokens@10"],
        "turns@10": overall["turns@10"],
    }
    for cat in (1, 2, 3, 4):
        out[locomo.CATEGORY_NAMES[cat]] = report.subset(samples, cat).row()["frac@10"]
    return out


async def run(path: Path, presets: list[str], consolidate: bool) -> dict[str, locomo.Report]:
    conversations = locomo.dev_five(locomo.load(path))
    reports: dict[str, locomo.Report] = {}
    with tempfile.TemporaryDirectory() as tmp:
        async with Memory.open(f"sqlite:///{tmp}/locomo.db") as mem:
            for conv in conversations:
                await locomo.ingest(mem, conv)
            if consolidate:
                seconds = await locomo.consolidate(mem, conversations)
                print(f"consolidated the five in {seconds:.1f} s", file=sys.stderr)
            for preset in presets:
                reports[preset] = await locomo.evaluate(
                    mem, conversations, preset=preset, ingest_first=False
                )
    return reports


def table(reports: dict[str, locomo.Report]) -> list[str]:
    lines = ["| preset | rows | " + " | ".join(COLUMNS) + " |", "|---" * (len(COLUMNS) + 2) + "|"]
    for name, report in reports.items():
        groups: list[tuple[str, tuple[str, ...]]] = [("all five", locomo.DEV_SAMPLES)]
        for fold, (tune, check) in FOLDS.items():
            groups += [(f"fold {fold} tune", tune), (f"fold {fold} check", check)]
        groups += [(s, (s,)) for s in locomo.DEV_SAMPLES]
        for label, samples in groups:
            values = row(report, samples)
            lines.append(
                f"| {name} | {label} | " + " | ".join(str(values[c]) for c in COLUMNS) + " |"
            )
    return lines


def fold_scores(report: locomo.Report) -> dict[str, float]:
    """frac@10 of ``report`` on each fold's tune and check conversations."""
    out = {}
    for fold, (tune, check) in FOLDS.items():
        out[f"{fold} tune"] = row(report, tune)["frac@10"]
        out[f"{fold} check"] = row(report, check)["frac@10"]
    return out


def fold_picks(scores: dict[str, dict[str, float]], baseline: str) -> list[str]:
    """The rotation's verdict on variants (``scores``: variant → ``fold_scores``): per
    fold, the variant best on its tune conversations, then that pick on the fold's check
    conversations and on the other fold's check, each beside ``baseline``; then the
    variants that beat ``baseline`` on both folds' check conversations (the only ones a
    default may change to)."""
    base = scores[baseline]
    lines = [
        "| fold | picked on tune | tune: base → pick | check: base → pick "
        "| other fold's check: base → pick |",
        "|---|---|---|---|---|",
    ]
    for fold in FOLDS:
        other = next(f for f in FOLDS if f != fold)
        pick = max(scores, key=lambda v: (scores[v][f"{fold} tune"], v == baseline))
        got = scores[pick]
        cells = [
            f"{base[k]:.4f} → {got[k]:.4f} ({got[k] - base[k]:+.4f})"
            for k in (f"{fold} tune", f"{fold} check", f"{other} check")
        ]
        lines.append(f"| {fold} | {pick} | " + " | ".join(cells) + " |")
    both = [
        v
        for v, got in scores.items()
        if v != baseline and all(got[f"{f} check"] > base[f"{f} check"] for f in FOLDS)
    ]
    lines += [
        "",
        "Better than "
        + baseline
        + " on both folds' check conversations: "
        + (
            ", ".join(
                f"{v} ({scores[v]['A check']:.4f} / {scores[v]['B check']:.4f})" for v in both
            )
            or "none"
        ),
    ]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "path", nargs="?", type=Path, default=ROOT.parent / "shared/data/locomo/locomo10_dev.json"
    )
    parser.add_argument("--preset", action="append", help="preset(s) to read (default balanced)")
    parser.add_argument("--set", action="append", default=[], dest="overrides")
    parser.add_argument(
        "--consolidate", action="store_true", help="consolidate after ingesting (issue 16)"
    )
    parser.add_argument("--out", type=Path, help="write the reports as JSON")
    parser.add_argument("--md", type=Path, help="write the table as Markdown")
    args = parser.parse_args()
    presets = args.preset or ["balanced"]
    if args.overrides:
        PRESETS["balanced+"] = with_overrides(PRESETS["balanced"], args.overrides, "balanced+")
        presets.append("balanced+")
    started = time.perf_counter()
    reports = asyncio.run(run(args.path, presets, args.consolidate))
    command = "python benchmarks/locomo_rotation.py " + " ".join(sys.argv[1:])
    lines = [
        "# LoCoMo dev five by conversation, with the tuning rotation",
        "",
        f"Command: `{command.strip()}`  ",
        f"Machine: {describe()['summary']}  ",
        "Folds: "
        + "; ".join(
            f"{f} tunes on {', '.join(t)}, checks on {', '.join(c)}" for f, (t, c) in FOLDS.items()
        ),
        "",
        *table(reports),
        "",
        f"overrides: {args.overrides or 'none'}; {time.perf_counter() - started:.0f} s",
    ]
    print("\n".join(lines))
    if args.md:
        args.md.write_text("\n".join(lines) + "\n")
    if args.out:
        payload = {name: r.to_json() for name, r in reports.items()}
        args.out.write_text(json.dumps(payload, indent=2) + "\n")


if __name__ == "__main__":
    main()
