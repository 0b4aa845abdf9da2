"""The house-rule set (benchmarks/data/house_rules.jsonl) keeps its promises: rules of
the speaker's own home said with no first person, beside near misses of the same shape
that state no rule of the speaker's (instructions to the assistant, recipes' steps,
quoted signs, the world's habits), split in tune and check halves by topic."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent.parent.parent / "benchmarks" / "data" / "house_rules.jsonl"
ROWS: list[dict[str, Any]] = [
    json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line
]
_FIRST_PERSON = re.compile(r"\b(?:I|I'm|me|my|mine|we|we're|us|our|ours)\b", re.IGNORECASE)


def test_rows_are_well_formed_and_unique() -> None:
    assert len({r["id"] for r in ROWS}) == len(ROWS)
    for r in ROWS:
        assert r["split"] in ("tune", "check"), r["id"]
        assert r["text"].strip(), r["id"]
        if r["constraint"]:
            assert r["object"].strip(), r["id"]
            assert isinstance(r["polarity"], bool), r["id"]


def test_the_halves_split_by_topic_and_balance() -> None:
    halves = {t: {r["split"] for r in ROWS if r["topic"] == t} for t in {r["topic"] for r in ROWS}}
    assert all(len(s) == 1 for s in halves.values()), halves
    counts = Counter((r["split"], r["constraint"]) for r in ROWS)
    assert counts[("tune", True)] == counts[("check", True)] >= 18
    assert counts[("tune", False)] == counts[("check", False)] >= 18


def test_the_rules_have_no_first_person() -> None:
    assert not [r["id"] for r in ROWS if r["constraint"] and _FIRST_PERSON.search(r["text"])]


def test_every_half_holds_each_kind_of_near_miss() -> None:
    for split in ("tune", "check"):
        kinds = {r["kind"] for r in ROWS if r["split"] == split and not r["constraint"]}
        assert {"request", "recipe", "sign", "world"} <= kinds, (split, kinds)
