"""The cue → trigger benchmark data (benchmarks/data/cue_trigger.jsonl) keeps its promises:
enough pairs of every constraint type, and no content word shared by a cue and its
trigger, so only a read that understands the request can find the constraint."""

from __future__ import annotations

import json
import re
import sqlite3
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from cognimem.ingest.extract.schema import SCOPE_TAGS
from cognimem.recall.analyze import STOP_WORDS, query_terms

DATA = Path(__file__).parent.parent.parent / "benchmarks" / "data" / "cue_trigger.jsonl"
TYPES = ("policy", "value", "goal", "state", "causal")
FIELDS = {"id", "type", "domains", "cue", "trigger", "note"}


def load() -> list[dict[str, Any]]:
    return [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line]


def content_words(text: str) -> set[str]:
    """Lower-cased words minus stop words, each with its naive singular forms too
    ("shelves" also gives "shelve" and "shelv"; "puppies" gives "puppy")."""
    words: set[str] = set()
    for raw in re.findall(r"[\w']+", text.lower()):
        word = raw.strip("'").removesuffix("'s")
        if not word or word in STOP_WORDS:
            continue
        words.add(word)
        if len(word) > 4 and word.endswith("ies"):
            words.add(word[:-3] + "y")
        if len(word) > 3 and word.endswith("es"):
            words.add(word[:-2])
        if len(word) > 2 and word.endswith("s"):
            words.add(word[:-1])
    return words


PAIRS = load()


def test_the_file_parses_into_enough_well_formed_pairs() -> None:
    assert len(PAIRS) >= 60
    for pair in PAIRS:
        assert set(pair) == FIELDS, pair.get("id")
        assert pair["type"] in TYPES, pair["id"]
        assert pair["domains"], pair["id"]
        assert set(pair["domains"]) <= set(SCOPE_TAGS), pair["id"]
        assert all(pair[f].strip() for f in ("cue", "trigger", "note")), pair["id"]
    assert len({p["id"] for p in PAIRS}) == len(PAIRS)


def test_every_constraint_type_has_at_least_ten_pairs() -> None:
    counts = Counter(p["type"] for p in PAIRS)
    assert all(counts[t] >= 10 for t in TYPES), counts


def test_the_pairs_spread_over_many_domains() -> None:
    assert len({p["domains"][0] for p in PAIRS}) >= 12


@pytest.mark.parametrize("pair", PAIRS, ids=[p["id"] for p in PAIRS])
def test_cue_and_trigger_share_no_content_word(pair: dict[str, Any]) -> None:
    assert content_words(pair["cue"]) & content_words(pair["trigger"]) == set()


@pytest.mark.parametrize("pair", PAIRS, ids=[p["id"] for p in PAIRS])
def test_no_trigger_term_matches_its_cue_after_stemming(pair: dict[str, Any]) -> None:
    # SQLite's lexical index stems (porter): "coming" finds "come"
    db = sqlite3.connect(":memory:")
    try:
        db.execute("CREATE VIRTUAL TABLE cue USING fts5 (text, tokenize = 'porter unicode61')")
        db.execute("INSERT INTO cue (text) VALUES (?)", (pair["cue"],))
        matched = [
            term
            for term in query_terms(pair["trigger"])
            if db.execute("SELECT 1 FROM cue WHERE cue MATCH ?", (f'"{term}"',)).fetchone()
        ]
    finally:
        db.close()
    assert matched == []


def test_the_check_catches_shared_words_and_plurals() -> None:
    assert content_words("My dogs hate fireworks.") & content_words("Walk the dog?") == {"dog"}
    assert content_words("I'm allergic to berries") & content_words("Any berry pie?") == {"berry"}
    assert content_words("What should I do about it?") == set()
