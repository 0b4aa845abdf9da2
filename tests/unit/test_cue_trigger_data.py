"""The cue → trigger benchmark data keeps its promises: enough pairs of every constraint
type, and no content word shared by a cue and its trigger, so only a read that
understands the request can find the constraint. Two files: the short-scope set
(benchmarks/data/cue_trigger.jsonl) and the long-conversation set
(benchmarks/data/cue_trigger_long.jsonl), each with a fixed tune/check split by pair."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from cognimem.models.extraction import SCOPE_TAGS
from cognimem.recall.analyze import STOP_WORDS, query_terms
from cognimem.store.lexical_index import query_tokens, tokens

DATA_DIR = Path(__file__).parent.parent.parent / "benchmarks" / "data"
DATA = DATA_DIR / "cue_trigger.jsonl"
LONG = DATA_DIR / "cue_trigger_long.jsonl"
TYPES = ("policy", "value", "goal", "state", "causal")
FIELDS = {"id", "type", "domains", "cue", "trigger", "note"}


def load(path: Path = DATA) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


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
LONG_PAIRS = load(LONG)
BOTH = [*PAIRS, *LONG_PAIRS]
BOTH_IDS = [f"short:{p['id']}" for p in PAIRS] + [f"long:{p['id']}" for p in LONG_PAIRS]


def test_the_file_parses_into_enough_well_formed_pairs() -> None:
    assert len(PAIRS) >= 60
    for pair in PAIRS:
        assert set(pair) == FIELDS | {"split"}, pair.get("id")
        assert pair["split"] in ("tune", "check"), pair["id"]
        assert pair["type"] in TYPES, pair["id"]
        assert pair["domains"], pair["id"]
        assert set(pair["domains"]) <= set(SCOPE_TAGS), pair["id"]
        assert all(pair[f].strip() for f in ("cue", "trigger", "note")), pair["id"]
    assert len({p["id"] for p in PAIRS}) == len(PAIRS)


def test_every_constraint_type_has_at_least_ten_pairs() -> None:
    counts = Counter(p["type"] for p in PAIRS)
    assert all(counts[t] >= 10 for t in TYPES), counts


def test_the_short_set_splits_every_type_in_halves_by_pair() -> None:
    for t in TYPES:
        of_type = [p for p in PAIRS if p["type"] == t]
        tune = sum(p["split"] == "tune" for p in of_type)
        assert abs(2 * tune - len(of_type)) <= 1, t  # the halves differ by one at most


def test_the_pairs_spread_over_many_domains() -> None:
    assert len({p["domains"][0] for p in PAIRS}) >= 12


def test_the_long_set_has_fifty_pairs_a_type_over_many_domains_split_in_halves() -> None:
    assert len({p["id"] for p in LONG_PAIRS}) == len(LONG_PAIRS)
    for pair in LONG_PAIRS:
        assert set(pair) == FIELDS | {"split"}, pair.get("id")
        assert pair["type"] in TYPES, pair["id"]
        assert pair["split"] in ("tune", "check"), pair["id"]
        assert pair["domains"], pair["id"]
        assert set(pair["domains"]) <= set(SCOPE_TAGS), pair["id"]
        assert all(pair[f].strip() for f in ("cue", "trigger", "note")), pair["id"]
    for t in TYPES:
        of_type = [p for p in LONG_PAIRS if p["type"] == t]
        assert len(of_type) >= 50, t
        tune = sum(p["split"] == "tune" for p in of_type)
        assert abs(2 * tune - len(of_type)) <= 1, t  # the halves differ by one at most
    assert len({p["domains"][0] for p in LONG_PAIRS}) >= 20


def test_the_long_set_is_written_fresh() -> None:
    old = {p["cue"].lower() for p in PAIRS} | {p["trigger"].lower() for p in PAIRS}
    assert not [p["id"] for p in LONG_PAIRS if {p["cue"].lower(), p["trigger"].lower()} & old]


@pytest.mark.parametrize("pair", BOTH, ids=BOTH_IDS)
def test_cue_and_trigger_share_no_content_word(pair: dict[str, Any]) -> None:
    assert content_words(pair["cue"]) & content_words(pair["trigger"]) == set()


@pytest.mark.parametrize("pair", BOTH, ids=BOTH_IDS)
def test_no_trigger_term_matches_its_cue_after_stemming(pair: dict[str, Any]) -> None:
    # the lexical index matches words in their index forms: "coming" finds "come"
    cue = set(tokens(pair["cue"]))
    assert [t for t in query_tokens(query_terms(pair["trigger"])) if t in cue] == []


def test_the_check_catches_shared_words_and_plurals() -> None:
    assert content_words("My dogs hate fireworks.") & content_words("Walk the dog?") == {"dog"}
    assert content_words("I'm allergic to berries") & content_words("Any berry pie?") == {"berry"}
    assert content_words("What should I do about it?") == set()


DILUTION = [
    json.loads(line)
    for line in (DATA_DIR / "dilution.jsonl").read_text(encoding="utf-8").splitlines()
    if line
]


def test_the_dilution_set_hides_each_constraint_among_fifty_chatty_lines() -> None:
    """benchmarks/dilution.py: 50 chatty lines, a dozen constraints on their own topics,
    and no content word shared by a constraint and its request."""
    chat = [r for r in DILUTION if r["kind"] == "chat"]
    scenarios = [r for r in DILUTION if r["kind"] == "scenario"]
    assert len(chat) == 50
    assert len({r["text"] for r in chat}) == 50
    assert len(scenarios) >= 12
    assert len({s["topic"] for s in scenarios}) == len(scenarios)
    for s in scenarios:
        shared = content_words(s["constraint"]) & content_words(s["trigger"])
        assert not shared, (s["id"], shared)
