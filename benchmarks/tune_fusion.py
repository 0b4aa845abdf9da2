"""Fusion tuning on the LoCoMo dev five with the rotation: ingest once, then read every
question under variants of the default preset's fusion (method and weights) and report
the folds, as ``benchmarks/tune_rerank.py`` does for the rerank weights: per fold, the
variant best on its tune conversations, shown on its check conversations and on the
other fold's. Usage:

    python benchmarks/tune_fusion.py [PATH] [--out benchmarks/results]
"""

from __future__ import annotations

from tune_rerank import main, ranked

from cognimem.recall.presets import RecallConfig

FUSION: dict[str, RecallConfig] = {
    "lexical 0.5, vector 0.5": ranked(lexical_weight=0.5, vector_weight=0.5),
    "lexical 0.7, vector 0.3": ranked(lexical_weight=0.7, vector_weight=0.3),
    "lexical 0.8, vector 0.2": ranked(lexical_weight=0.8, vector_weight=0.2),
    "lexical 0.4, vector 0.6": ranked(lexical_weight=0.4, vector_weight=0.6),
    "rrf k 60": ranked(fusion="rrf", rrf_k=60),
    "rrf k 20": ranked(fusion="rrf", rrf_k=20),
}

if __name__ == "__main__":
    main(FUSION, "tune_fusion")
