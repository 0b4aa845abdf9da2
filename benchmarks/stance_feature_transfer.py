"""Which inputs from the shipped MiniLM carry a stance reader to unseen topics? Tune rows
only (branch ``stance23``, issue 29 item 1).

For each feature set (blocks of ``stance_features``) and L2 penalty, two held-out
readings, both with the training script's heads (``train_stance_reader.fit``) and its
threshold rule (out-of-fold over topic folds, 0.5% of the rule-quiet, gate-passing
no-stance rows):

- *transfer*: heads fitted on every tune row but ``stance_training_round1`` (whose 27
  topics no other set has; the general words of the mask learned without it too), the
  threshold chosen on those rows, then applied to that set's rows;
- *out of fold*: every tune row scored by heads fitted without its topic's fold, at
  the threshold chosen on those scores: the tune stances the rules miss that clear it,
  and all tune stances above it.

Transfer also prints the counts at the threshold the held-out rows' own no-stance
sentences would give (1% above it): how well the inputs separate unseen topics, apart
from where the tune threshold falls. Each prints, over the rows where the reader
speaks (the rules read no constraint, the statement gates pass), stances at or above
the threshold (right polarity) and no-stance rows at or above it. Only tune rows are read.

Usage (from the repository root):

    PYTHONPATH=src python benchmarks/stance_feature_transfer.py [--sets a1,b2] [--penalties 3]
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from stance_data import STATEMENT_SETS, TRAINING_SETS, Example, examples
from stance_features import TokenEmbedder, assemble, general_words, sentence_blocks
from stance_reader import stated
from train_stance_reader import REFERENCE, choose_threshold, fit, out_of_fold, predict, rules_quiet

FALSE_RATE = 0.005
CACHE = Path("/tmp") / "stance23_blocks"
# the feature sets tried, in the order the brief gave: (a) token states, (b) the bank,
# (c) with the hashed words
FEATURE_SETS = {
    "base": ("mean", "words"),
    "a1": ("mean", "max", "predicate"),
    "a2": ("mean", "max", "predicate", "words"),
    "b1": ("mean", "bank"),
    "b2": ("mean", "bank", "words"),
    "b3": ("mean", "masked", "words"),
    "c1": ("mean", "max", "predicate", "bank", "words"),
    "c2": ("mean", "predicate", "bank", "words"),
    "c3": ("mean", "max", "predicate", "bank", "masked", "words"),
}


def topic_texts(rows: list[Example], keep: np.ndarray) -> list[tuple[str, str]]:
    """(topic, text) of the statement rows of ``keep`` (a topic named across sets once)."""
    sources = (*STATEMENT_SETS, *TRAINING_SETS)
    return [
        (r.group.split(":", 1)[1], r.text)
        for r, k in zip(rows, keep, strict=True)
        if k and r.source in sources
    ]


def blocks_for(rows: list[Example], general: frozenset[str]) -> dict[str, np.ndarray]:
    """Every block for ``rows`` (cached in /tmp by the texts and the general words)."""
    key = hashlib.sha256(
        ("\n".join(r.text for r in rows) + "|" + " ".join(sorted(general))).encode()
    ).hexdigest()[:16]
    path = CACHE.with_name(f"{CACHE.name}_{key}.npz")
    if path.exists():
        with np.load(path) as data:
            return {k: data[k] for k in data.files}
    blocks = sentence_blocks(TokenEmbedder(), [r.text for r in rows], general)
    np.savez(path, **blocks)
    return blocks


def _count(s: np.ndarray, p: np.ndarray, threshold: float, data: dict) -> str:
    stance, polarity, speaks = data["stance"], data["polarity"], data["speaks"]
    pos, neg = stance & speaks, ~stance & speaks
    above = pos & (s >= threshold)
    right = above & ((p >= 0.5) == polarity)
    return (
        f"stances above {int(above.sum())}/{int(pos.sum())} (right {int(right.sum())}), "
        f"no-stance above {int((neg & (s >= threshold)).sum())}/{int(neg.sum())}"
    )


def transfer(x: np.ndarray, rows: list[Example], info: dict, penalty: float) -> str:
    mine, stance, polarity, quiet = info["mine"], info["stance"], info["polarity"], info["quiet"]
    old = ~mine
    old_rows = [r for r, o in zip(rows, old, strict=True) if o]
    s_old, _ = out_of_fold(x[old], old_rows, penalty)
    t_old = choose_threshold(s_old, ~stance[old] & quiet[old], FALSE_RATE)
    w_s = fit(x[old], stance[old].astype(np.float64), penalty)
    w_p = fit(x[old & stance], polarity[old & stance].astype(np.float64), penalty)
    data = {"stance": stance[mine], "polarity": polarity[mine], "speaks": quiet[mine]}
    s_mine, p_mine = predict(w_s, x[mine]), predict(w_p, x[mine])
    # a diagnostic, not a threshold the reader could use: where 1% of the held-out
    # topics' own no-stance rows would score above it (separation, apart from calibration)
    t_own = choose_threshold(s_mine, ~data["stance"] & data["speaks"], 0.01)
    return (
        f"transfer t={t_old:.4f}: "
        + _count(s_mine, p_mine, t_old, data)
        + f" | at the held-out rows' own 1% t={t_own:.4f}: "
        + _count(s_mine, p_mine, t_own, data)
    )


def all_folds(x: np.ndarray, rows: list[Example], info: dict, penalty: float) -> str:
    stance, polarity, quiet = info["stance"], info["polarity"], info["quiet"]
    states = info["states"]
    s, p = out_of_fold(x, rows, penalty)
    t = choose_threshold(s, ~stance & quiet, FALSE_RATE)
    data = {"stance": stance, "polarity": polarity, "speaks": quiet}
    every = stance & states & (s >= t)
    return (
        f"out of fold t={t:.4f}: rule-missed "
        + _count(s, p, t, data)
        + f"; all tune stances above {int(every.sum())}/{int(stance.sum())}"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", default=",".join(FEATURE_SETS))
    parser.add_argument("--penalties", default="3")
    parser.add_argument("--no-folds", action="store_true", help="transfer only")
    args = parser.parse_args(argv)
    rows = examples("tune")
    mine = np.array([r.source in TRAINING_SETS for r in rows])
    info = {
        "mine": mine,
        "stance": np.array([r.stance for r in rows]),
        "polarity": np.array([r.polarity for r in rows]),
        "states": np.array([stated(r.text, REFERENCE) is not None for r in rows]),
    }
    info["quiet"] = rules_quiet(rows) & info["states"]
    without = blocks_for(rows, general_words(topic_texts(rows, ~mine)))
    with_all = blocks_for(rows, general_words(topic_texts(rows, np.ones(len(rows), bool))))
    for name in args.sets.split(","):
        for penalty in (float(p) for p in args.penalties.split(",")):
            label = f"{name} {'+'.join(FEATURE_SETS[name])} L2 {penalty:g}"
            x = assemble(without, FEATURE_SETS[name])
            print(f"{label}: {transfer(x, rows, info, penalty)}", flush=True)
            if not args.no_folds:
                x = assemble(with_all, FEATURE_SETS[name])
                print(f"{label}: {all_folds(x, rows, info, penalty)}", flush=True)


if __name__ == "__main__":
    main()
