"""Train the rich stance reader (``stance_reader_rich.py``) on the tune halves.

The training script's heads, fitting and threshold rule (``train_stance_reader``:
Newton's method, topic folds, the lowest threshold at which at most 0.5% of the
rule-quiet, gate-passing tune rows that state no stance score above it out of fold),
over a feature set of ``stance_feature_transfer.FEATURE_SETS`` chosen on tune only.
The object mask's general words are learned from every tune statement. No check half
is read.

Usage (from the repository root):

    PYTHONPATH=src python benchmarks/train_stance_reader_rich.py --features c1 [--write]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from stance_data import examples
from stance_feature_transfer import FEATURE_SETS, blocks_for, topic_texts
from stance_features import assemble, general_words
from stance_reader import stated
from stance_reader_rich import RICH_WEIGHTS
from train_stance_reader import REFERENCE, choose_threshold, fit, out_of_fold, rules_quiet


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--features", required=True, choices=sorted(FEATURE_SETS))
    parser.add_argument("--penalty", type=float, default=3.0)
    parser.add_argument("--false-rate", type=float, default=0.005)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args(argv)
    rows = examples("tune")
    stance = np.array([r.stance for r in rows])
    polarity = np.array([r.polarity for r in rows])
    states = np.array([stated(r.text, REFERENCE) is not None for r in rows])
    quiet = rules_quiet(rows) & states
    general = general_words(topic_texts(rows, np.ones(len(rows), bool)))
    names = FEATURE_SETS[args.features]
    x = assemble(blocks_for(rows, general), names)
    s_out, p_out = out_of_fold(x, rows, args.penalty)
    threshold = choose_threshold(s_out, ~stance & quiet, args.false_rate)
    neg = ~stance & quiet
    missed = stance & quiet
    caught = missed & (s_out >= threshold)
    right = caught & ((p_out >= 0.5) == polarity)
    print(f"features {args.features} ({'+'.join(names)}), width {x.shape[1]}, L2 {args.penalty:g}")
    print(f"tune rows {len(rows)}: stances {int(stance.sum())}, none {int((~stance).sum())}")
    print(f"threshold (out-of-fold, false rate {args.false_rate}): {threshold:.4f}")
    fired = int((neg & (s_out >= threshold)).sum())
    print(f"out-of-fold: quiet negatives fired {fired}/{int(neg.sum())}")
    print(
        f"out-of-fold: stances the rules miss {int(missed.sum())}, reader fires on "
        f"{int(caught.sum())}, right polarity {int(right.sum())}; all stances above "
        f"{int((stance & states & (s_out >= threshold)).sum())}/{int(stance.sum())}"
    )
    accuracy = float(((p_out >= 0.5) == polarity)[stance].mean())
    print(f"out-of-fold polarity accuracy: {accuracy:.3f}")
    w_stance = fit(x, stance.astype(np.float64), args.penalty)
    w_for = fit(x[stance], polarity[stance].astype(np.float64), args.penalty)
    if args.write:
        np.savez(
            RICH_WEIGHTS,
            stance=w_stance.astype(np.float32),
            polarity=w_for.astype(np.float32),
            threshold=np.float32(threshold),
            blocks=np.array(names),
            general=np.array(sorted(general)),
        )
        print(f"wrote {RICH_WEIGHTS}")


if __name__ == "__main__":
    main()
