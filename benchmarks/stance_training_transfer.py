"""Does the stance reader carry over to idioms and topics it was not trained on? Tune
rows only.

Two readings of ``stance_training_round1`` (``benchmarks/data/stance_training.md``),
whose topics no other set has:

- *transfer*: heads fitted on the other tune rows only (the reader before that set was
  added), their threshold chosen by the training script's rule on those rows' out-of-fold
  scores, then applied to the set's rows;
- *out of fold*: heads fitted on all tune rows with the set's rows scored only by heads
  fitted without their topic's fold (``train_stance_reader.out_of_fold``), at the
  threshold chosen on all tune rows.

Each prints, over the set's rows that the rule extractor is quiet on and that pass the
statement gates (where the reader speaks): stances at or above the threshold (with the
right polarity) and no-stance sentences at or above it. Only tune rows are read.

Usage (from the repository root):

    PYTHONPATH=src python benchmarks/stance_training_transfer.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from stance_data import TRAINING_SETS
from train_stance_reader import (
    choose_threshold,
    fit,
    out_of_fold,
    predict,
    rules_quiet,
    tune_matrix,
)

FALSE_RATE = 0.005  # the training script's rule


def _report(label: str, s: np.ndarray, p: np.ndarray, threshold: float, data: dict) -> None:
    stance, polarity, speaks = data["stance"], data["polarity"], data["speaks"]
    pos, neg = stance & speaks, ~stance & speaks
    above = pos & (s >= threshold)
    right = above & ((p >= 0.5) == polarity)
    false = neg & (s >= threshold)
    print(
        f"{label} (threshold {threshold:.4f}): stances above {int(above.sum())}/"
        f"{int(pos.sum())} (right polarity {int(right.sum())}); no-stance above "
        f"{int(false.sum())}/{int(neg.sum())}"
    )


def main() -> None:
    rows, x, stance, polarity, states = tune_matrix()
    quiet = rules_quiet(rows) & states
    mine = np.array([r.source in TRAINING_SETS for r in rows])
    data = {"stance": stance[mine], "polarity": polarity[mine], "speaks": quiet[mine]}
    old = ~mine
    old_rows = [r for r, o in zip(rows, old, strict=True) if o]
    s_old, _ = out_of_fold(x[old], old_rows)
    t_old = choose_threshold(s_old, ~stance[old] & quiet[old], FALSE_RATE)
    w_s = fit(x[old], stance[old].astype(np.float64))
    w_p = fit(x[old & stance], polarity[old & stance].astype(np.float64))
    _report("transfer", predict(w_s, x[mine]), predict(w_p, x[mine]), t_old, data)
    s_all, p_all = out_of_fold(x, rows)
    t_all = choose_threshold(s_all, ~stance & quiet, FALSE_RATE)
    _report("out of fold", s_all[mine], p_all[mine], t_all, data)


if __name__ == "__main__":
    main()
