"""The set of preferences said to an assistant (benchmarks/data/constraint_likes.jsonl)
keeps its promises: at least 120 statements and 60 sentences that state no constraint,
both polarities and the four kinds in each half, halves split by topic, and every
labelled object, condition and reason said in its own text."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent.parent.parent / "benchmarks" / "data" / "constraint_likes.jsonl"
ROWS: list[dict[str, Any]] = [
    json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line
]
_WORD = re.compile(r"[a-z0-9]+")


def test_rows_are_well_formed_unique_and_enough() -> None:
    assert len({r["id"] for r in ROWS}) == len(ROWS)
    counts = Counter(r["constraint"] for r in ROWS)
    assert counts[True] >= 120, counts
    assert counts[False] >= 60, counts
    for r in ROWS:
        assert r["split"] in ("tune", "check"), r["id"]
        if r["constraint"]:
            assert isinstance(r["polarity"], bool), r["id"]


def test_the_halves_split_by_topic_and_hold_every_kind_and_polarity() -> None:
    halves = {t: {r["split"] for r in ROWS if r["topic"] == t} for t in {r["topic"] for r in ROWS}}
    assert len(halves) >= 12, halves
    assert all(len(s) == 1 for s in halves.values()), halves
    for split in ("tune", "check"):
        said = [r for r in ROWS if r["split"] == split and r["constraint"]]
        assert {r["kind"] for r in said} == {"plain", "exclusive", "conditional", "reasoned"}
        assert {r["polarity"] for r in said} == {True, False}


def test_every_label_is_said_in_its_text() -> None:
    for r in ROWS:
        text = set(_WORD.findall(r["text"].lower()))
        for key in ("object", "condition", "reason"):
            if key in r:
                assert set(_WORD.findall(r[key].lower())) <= text, (r["id"], key)
