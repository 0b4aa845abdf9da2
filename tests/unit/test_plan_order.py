"""A read's plan is the same in every process: it is shown in the packet's meta and in
explain, and a set's order follows its strings' hashes, which ``PYTHONHASHSEED`` (random
by default) changes from process to process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from cognimem.models.knowledge import FactCategory

ROOT = Path(__file__).resolve().parents[2]
SHOW = """
from datetime import UTC, datetime
from cognimem.recall.analyze import analyze
from cognimem.recall.plan import make_plan
from cognimem.recall.presets import PRESETS
now = datetime(2025, 10, 1, 12, tzinfo=UTC)
for query in ("What did I do last weekend?", "Plan my Saturday for me"):
    plan = make_plan(analyze(query, now), PRESETS["balanced"])
    print([[c.value for c in s.categories or ()] for s in plan.steps()])
"""


def test_the_constraint_categories_of_a_plan_do_not_depend_on_the_hash_seed() -> None:
    shown = set()
    for seed in ("0", "1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT / "src")}
        out = subprocess.run(
            [sys.executable, "-c", SHOW], env=env, capture_output=True, text=True, check=True
        )
        shown.add(out.stdout)
    assert len(shown) == 1, shown
    # the light step of a plain question lists every constraint type, in the enum's order
    first = shown.pop().splitlines()[0]
    order = [c.value for c in FactCategory if c.value in first]
    assert str(order) in first
    assert order == ["goal", "state", "value", "causal", "policy"]
