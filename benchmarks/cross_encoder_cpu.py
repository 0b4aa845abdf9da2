"""CPU per read of the cross-encoder stage: 20 candidates, int8 against float products,
at several caps on a pair's word pieces.

What it measures: the process CPU time (every thread, ``time.process_time``) of scoring
one LoCoMo dev question against 20 turns of its conversation (``"<author>: <text>"``,
as the read path passes them), for each way the ms-marco-MiniLM-L-12-v2 cross-encoder
can run:

- ``int8, cap N``: the ``ms-marco-l12`` setting, integer products (weights stored
  unsigned on a CPU without VNNI), each pair alone, so a score depends on its pair only,
  each pair cut to N word pieces (``RecallConfig.cross_encoder_max_tokens``; 128 is the
  default);
- ``float``: the same weights dequantized, float products, each pair alone, uncut (the
  reference every form's scores are compared with; ``MS_MARCO_L12_FLOAT``).

Beside them, in the same run: the query embedding's CPU (``onnx:minilm``) on the same
questions, the yardstick of the read-latency goals (issue 35). Every form runs with
the read path's defaults (threads: the cores, at most 4). Forms take turns question by
question, ``--rounds`` times, so load on a shared machine falls on all of them alike;
the medians over every read are reported, with the load average before and after. The
quality columns compare each form's probabilities with the float ones on the same
pairs: largest difference, how often the best candidate is the same, and the mean rank
correlation over the 20.

The integer work per read is counted from the graph: the weight products' multiply-adds
per token times the tokens of the 20 pairs (attention's own products are not counted),
so the rate a form reaches, and the rate the 30 ms goal would need, can be read beside
the CPU. Usage (from the repository root):

    python benchmarks/cross_encoder_cpu.py [PATH] [--questions 40] [--rounds 3]
        [--caps 128 64 48 32] [--out benchmarks/results]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from _machine import describe

from cognimem.models.items import index_text
from cognimem.providers.cross_encoder import OnnxCrossEncoder
from cognimem.providers.onnx import OnnxMiniLMEmbedder
from cognimem.providers.onnx_models import (
    MS_MARCO_L12,
    MS_MARCO_L12_FLOAT,
    OnnxModel,
    build_tokenizer,
)

ROOT = Path(__file__).resolve().parent.parent
SEED = 20261127
CANDIDATES = 20  # RecallConfig.cross_encoder_top
GOAL_MS = 30.0  # issue 29: CPU per read for 20 candidates
DEFAULT_CAP = 128  # RecallConfig.cross_encoder_max_tokens
REFERENCE = "float"


def forms(caps: list[int]) -> dict[str, tuple[OnnxModel, int | None]]:
    """Each form's name, model and cap (None: the model's limit); the default cap first."""
    out: dict[str, tuple[OnnxModel, int | None]] = {
        f"int8, cap {cap}": (MS_MARCO_L12, cap) for cap in caps
    }
    out[REFERENCE] = (MS_MARCO_L12_FLOAT, None)
    return out


def reads(path: Path, questions: int) -> list[tuple[str, list[str]]]:
    """``questions`` LoCoMo questions spread over the conversations, each with 20 turns
    of its own conversation drawn at random (seeded)."""
    rng = np.random.default_rng(SEED)
    conversations = json.loads(path.read_text())
    per = -(-questions // len(conversations))
    out: list[tuple[str, list[str]]] = []
    for conversation in conversations:
        body = conversation["conversation"]
        turns = [
            index_text(turn["speaker"], turn["text"])
            for key, session in body.items()
            if key.startswith("session_") and isinstance(session, list)
            for turn in session
        ]
        qa = [q for q in conversation["qa"] if q.get("question")]
        for i in rng.choice(len(qa), size=min(per, len(qa)), replace=False):
            picked = rng.choice(len(turns), size=CANDIDATES, replace=False)
            out.append((qa[int(i)]["question"], [turns[int(j)] for j in picked]))
    return out[:questions]


def macs_per_token() -> int:
    """Multiply-adds per token of the cross-encoder's weight products."""
    import onnx

    graph = onnx.load(str(MS_MARCO_L12.locate())).graph
    weights = {t.name: t.dims for t in graph.initializer}
    total = 0
    for node in graph.node:
        if node.op_type == "MatMulInteger" and node.input[1] in weights:
            rows, columns = weights[node.input[1]]
            total += rows * columns
    return total


def rank_correlation(a: Any, b: Any) -> float:
    ra, rb = np.argsort(np.argsort(a)), np.argsort(np.argsort(b))
    return float(np.corrcoef(ra, rb)[0, 1])


def tokens_per_read(work: list[tuple[str, list[str]]], cap: int | None) -> float:
    """The mean word pieces of a read's 20 pairs, each cut to ``cap``."""
    tokenizer = build_tokenizer(cap or MS_MARCO_L12.max_tokens)
    return statistics.mean(
        sum(len(e.ids) for e in tokenizer.encode_batch([(q, p) for p in ps])) for q, ps in work
    )


async def run(path: Path, questions: int, rounds: int, caps: list[int]) -> dict[str, Any]:
    work = reads(path, questions)
    chosen = forms(caps)
    tokens = {name: tokens_per_read(work, cap) for name, (_, cap) in chosen.items()}
    # one encoder per model: the caps share a session, as a reader's presets would
    models = {model.name: OnnxCrossEncoder(model) for model, _ in chosen.values()}
    encoders = {name: (models[model.name], cap) for name, (model, cap) in chosen.items()}
    embedder = OnnxMiniLMEmbedder()
    # load and warm every model and tokenizer before measuring
    for encoder, cap in encoders.values():
        await encoder.score(*work[0], max_tokens=cap)
    await embedder.embed([work[0][0]], "query")
    cpu: dict[str, list[float]] = {name: [] for name in [*chosen, "query embedding"]}
    wall: dict[str, list[float]] = {name: [] for name in cpu}
    scores: dict[str, list[Any]] = {name: [] for name in chosen}
    load_before = [round(x, 2) for x in os.getloadavg()]
    for round_ in range(rounds):
        for query, passages in work:
            for name, (encoder, cap) in encoders.items():
                started, clock = time.process_time(), time.perf_counter()
                found = await encoder.score(query, passages, max_tokens=cap)
                cpu[name].append(time.process_time() - started)
                wall[name].append(time.perf_counter() - clock)
                if round_ == 0:
                    scores[name].append(found)
            # a fresh text each time, so the embedder's work is never skipped
            text = f"{query} ({round_})"
            started, clock = time.process_time(), time.perf_counter()
            await embedder.embed([text], "query")
            cpu["query embedding"].append(time.process_time() - started)
            wall["query embedding"].append(time.perf_counter() - clock)
    load_after = [round(x, 2) for x in os.getloadavg()]
    for encoder in models.values():
        await encoder.aclose()
    await embedder.aclose()
    macs = macs_per_token()
    rows: dict[str, dict[str, Any]] = {}
    for name in cpu:
        median_ms = 1000 * statistics.median(cpu[name])
        row: dict[str, Any] = {
            "cpu_ms_p50": round(median_ms, 1),
            "cpu_ms_p90": round(1000 * float(np.quantile(cpu[name], 0.9)), 1),
            "wall_ms_p50": round(1000 * statistics.median(wall[name]), 1),
        }
        if name in chosen:
            reference = scores[REFERENCE]
            row["tokens_per_read_mean"] = round(tokens[name], 1)
            row["int_gops_per_s"] = round(2 * macs * tokens[name] / (median_ms / 1000) / 1e9, 1)
            row["max_abs_diff_from_float"] = round(
                max(
                    float(np.abs(s - r).max()) for s, r in zip(scores[name], reference, strict=True)
                ),
                4,
            )
            row["same_best_as_float"] = round(
                statistics.mean(
                    float(np.argmax(s) == np.argmax(r))
                    for s, r in zip(scores[name], reference, strict=True)
                ),
                3,
            )
            row["rank_correlation_with_float"] = round(
                statistics.mean(
                    rank_correlation(s, r) for s, r in zip(scores[name], reference, strict=True)
                ),
                4,
            )
        rows[name] = row
    default = f"int8, cap {DEFAULT_CAP}" if DEFAULT_CAP in caps else next(iter(chosen))
    needed = 2 * macs * tokens[default] / (GOAL_MS / 1000) / 1e9
    return {
        "questions": len(work),
        "rounds": rounds,
        "reads_per_form": len(cpu[REFERENCE]),
        "candidates": CANDIDATES,
        "load_average_before_after": [load_before, load_after],
        "default_form": default,
        "tokens_per_read_mean": round(tokens[default], 1),
        "weight_macs_per_token": macs,
        "goal_cpu_ms": GOAL_MS,
        "gops_per_s_the_goal_needs": round(needed, 1),
        "goal_met_by": [n for n in chosen if rows[n]["cpu_ms_p50"] <= GOAL_MS],
        "forms": rows,
    }


def markdown(result: dict[str, Any], machine: dict[str, Any], command: str) -> str:
    before, after = result["load_average_before_after"]
    lines = [
        "# Cross-encoder CPU per read: 20 candidates, int8 against float products",
        "",
        f"Command: `{command}`  ",
        f"Machine: {machine['summary']}, load (1, 5, 15 min) {before} before the "
        f"measurements, {after} after  ",
        f"{result['questions']} LoCoMo dev questions × {result['rounds']} rounds "
        f"({result['reads_per_form']} reads per form, medians), each with "
        f"{result['candidates']} turns of its conversation, the query repeated in each pair",
        "",
        "| form | word pieces per read | CPU p50 ms | CPU p90 ms | wall p50 ms | integer Gop/s "
        "| max \\|p − float p\\| | same best as float | rank corr. with float |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name, row in result["forms"].items():
        lines.append(
            f"| {name} | {row.get('tokens_per_read_mean', '')} | {row['cpu_ms_p50']} | "
            f"{row['cpu_ms_p90']} | {row['wall_ms_p50']} | {row.get('int_gops_per_s', '')} | "
            f"{row.get('max_abs_diff_from_float', '')} | {row.get('same_best_as_float', '')} | "
            f"{row.get('rank_correlation_with_float', '')} |"
        )
    default = result["default_form"]
    met = ", ".join(result["goal_met_by"]) or "no form"
    lines += [
        "",
        f"Goal (issue 29): ≤ {result['goal_cpu_ms']} ms of CPU per read for 20 candidates: "
        f"met by {met}. The default ({default}: "
        f"{result['forms'][default]['cpu_ms_p50']} ms) reads "
        f"{result['tokens_per_read_mean']} word pieces for 20 pairs and each costs "
        f"{result['weight_macs_per_token'] / 1e6:.1f} M multiply-adds in the weight "
        f"products alone: {result['goal_cpu_ms']} ms needs "
        f"{result['gops_per_s_the_goal_needs']} Gop/s on one read's CPU.",
    ]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "path", nargs="?", type=Path, default=ROOT.parent / "shared/data/locomo/locomo10_dev.json"
    )
    parser.add_argument("--questions", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--caps", type=int, nargs="+", default=[DEFAULT_CAP, 64, 48, 32], help="int8 caps"
    )
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results")
    args = parser.parse_args()
    result = asyncio.run(run(args.path, args.questions, args.rounds, args.caps))
    machine = describe()
    command = "python benchmarks/cross_encoder_cpu.py " + " ".join(sys.argv[1:])
    text = markdown(result, machine, command.strip())
    print(text)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "cross_encoder_cpu.md").write_text(text)
    payload = {"machine": machine, "command": command.strip(), **result}
    (args.out / "cross_encoder_cpu.json").write_text(json.dumps(payload, indent=2) + "\n")


if __name__ == "__main__":
    main()
