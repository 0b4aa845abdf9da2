"""The frozen time-expression set (benchmarks/data/time_expressions.jsonl) keeps its
promises: at least 400 expressions, every span points at its expression, every expected
interval is well formed, and the tune/check split never divides a source document."""

from __future__ import annotations

import json
import re
from collections import defaultdict
from datetime import date, datetime
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent.parent.parent / "benchmarks" / "data" / "time_expressions.jsonl"
# tune rows written later, one file per round
ADDED = tuple(DATA.with_name(f"time_expressions_added{n}.jsonl") for n in ("", *range(2, 22)))
KINDS = {"absolute", "relative", "duration", "recurring", "vague", "event"}
SOURCES = {"duckling", "own"}  # the licence of each is in time_expressions.md
_HOLIDAY = re.compile(r"christmas|thanksgiving|easter|new year|halloween", re.IGNORECASE)


def rows() -> list[dict[str, Any]]:
    return [
        json.loads(line)
        for path in (DATA, *ADDED)
        for line in path.read_text(encoding="utf-8").splitlines()
        if line
    ]


def test_rows_added_later_are_all_tune_rows_of_their_own_documents() -> None:
    added = [
        json.loads(line)
        for path in ADDED
        for line in path.read_text(encoding="utf-8").splitlines()
        if line
    ]
    frozen = {
        json.loads(line)["document"]
        for line in DATA.read_text(encoding="utf-8").splitlines()
        if line
    }
    assert added
    assert all(r["split"] == "tune" and r["document"] not in frozen for r in added)


def test_the_set_is_large_enough_and_every_kind_is_in_both_halves() -> None:
    data = rows()
    assert len(data) >= 400
    assert len({r["id"] for r in data}) == len(data)
    for split in ("tune", "check"):
        assert {r["kind"] for r in data if r["split"] == split} == KINDS


def test_every_row_names_its_source_and_points_at_its_expression() -> None:
    for r in rows():
        assert r["source"] in SOURCES
        assert r["document"].startswith(r["source"] + ":")
        lo, hi = r["span"]
        assert r["sentence"][lo:hi] == r["expression"], r["id"]
        datetime.fromisoformat(r["anchor"])
        # "said": the tense is not given, read as ingest reads it (time_expressions.py)
        assert r["tense"] in ("past", "future", "said", None), r["id"]


def test_expected_intervals_are_well_formed() -> None:
    for r in rows():
        if r["start"] is None:  # a habit, or a span the text gives no date ("since I was 12")
            assert r["end"] is None, r["id"]
            assert r["kind"] == "recurring" or r["granularity"] is None, r["id"]
            continue
        start = date.fromisoformat(r["start"])
        if r["end"] is None:
            assert r["open_end"], r["id"]
        else:
            assert start < date.fromisoformat(r["end"]), r["id"]
        assert r["approximate"] == (r["tolerance_days"] > 0), r["id"]
        # Duckling's event rows name their event ("three days after Easter"); the
        # conversations' tell it in an earlier turn, or name a holiday
        if r["kind"] == "event" and r["source"] == "own":
            assert r["context"] or _HOLIDAY.search(r["expression"]), r["id"]


def test_no_document_straddles_the_split() -> None:
    halves: dict[str, set[str]] = defaultdict(set)
    for r in rows():
        halves[r["document"]].add(r["split"])
    assert all(len(s) == 1 for s in halves.values())


# the round-2 set: halves of its own, split by passage (time_expressions.md, "Round 2")
ROUND2 = DATA.with_name("time_expressions_round2.jsonl")


def test_the_round2_set_keeps_the_same_promises() -> None:
    data = [json.loads(line) for line in ROUND2.read_text(encoding="utf-8").splitlines() if line]
    assert len(data) >= 150
    assert len({r["id"] for r in data}) == len(data)
    halves: dict[str, set[str]] = defaultdict(set)
    for r in data:
        lo, hi = r["span"]
        assert r["sentence"][lo:hi] == r["expression"], r["id"]
        assert r["kind"] in KINDS, r["id"]
        assert r["tense"] in ("past", "future"), r["id"]
        assert r["approximate"] == (r["tolerance_days"] > 0), r["id"]
        if r["start"] is not None and r["end"] is None:
            assert r["open_end"], r["id"]
        elif r["start"] is not None:
            assert date.fromisoformat(r["start"]) < date.fromisoformat(r["end"]), r["id"]
        halves[r["document"]].add(r["split"])
    assert all(len(s) == 1 for s in halves.values())
    assert {r["split"] for r in data} == {"tune", "check"}
