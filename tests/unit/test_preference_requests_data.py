"""The preference → request set keeps its promises: at least 200 pairs, both halves
with at least eight topics each, every statement a recorded-constraint statement of
constraint_statements.jsonl with its split, and no content word shared by a statement
and its request. The second set (preference_requests_more.jsonl, its own statements):
at least 120 pairs over at least 20 topics split by topic, half negative in every
topic, and the same no-shared-word rule. The third set
(preference_requests_third.jsonl): split by topic, ten topics a half, none of the other
sets' topics, and the same rule. The fourth (preference_requests_fourth.jsonl): the
same, at least 80 pairs, none of the three others' topics, half negative in every
topic. The fifth (preference_requests_fifth.jsonl): the same, none of the four others'
topics. The sixth (preference_requests_sixth.jsonl): the same, at least 200 pairs,
five negative and five positive in every topic."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.unit.test_cue_trigger_data import content_words

DATA_DIR = Path(__file__).parent.parent.parent / "benchmarks" / "data"
FIELDS = {"id", "split", "topic", "kind", "statement", "request"}


def load(name: str) -> list[dict[str, Any]]:
    text = (DATA_DIR / name).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line]


PAIRS = load("preference_requests.jsonl")
STATEMENTS = {row["id"]: row for row in load("constraint_statements.jsonl")}


def test_enough_pairs_in_both_halves() -> None:
    assert len(PAIRS) >= 200
    assert len({pair["id"] for pair in PAIRS}) == len(PAIRS)
    topics = {half: {p["topic"] for p in PAIRS if p["split"] == half} for half in ("tune", "check")}
    assert len(topics["tune"]) >= 8
    assert len(topics["check"]) >= 8
    assert not topics["tune"] & topics["check"]
    assert min(Counter(p["split"] for p in PAIRS).values()) >= 100


def test_every_pair_copies_a_recorded_constraint_statement() -> None:
    for pair in PAIRS:
        assert set(pair) == FIELDS, pair["id"]
        source = STATEMENTS[pair["id"]]
        assert source["constraint"] is True, pair["id"]
        assert pair["statement"] == source["text"], pair["id"]
        for key in ("split", "topic", "kind"):
            assert pair[key] == source[key], (pair["id"], key)


def test_no_request_shares_a_content_word_with_its_statement() -> None:
    for pair in PAIRS:
        shared = content_words(pair["statement"]) & content_words(pair["request"])
        assert not shared, (pair["id"], shared)


MORE = load("preference_requests_more.jsonl")


def test_the_second_set_has_enough_pairs_split_by_topic() -> None:
    assert len(MORE) >= 120
    assert len({pair["id"] for pair in MORE}) == len(MORE)
    for pair in MORE:
        assert set(pair) == FIELDS, pair["id"]
        assert pair["split"] in ("tune", "check"), pair["id"]
    topics = {half: {p["topic"] for p in MORE if p["split"] == half} for half in ("tune", "check")}
    assert len(topics["tune"] | topics["check"]) >= 20
    assert len(topics["tune"]) >= 10
    assert len(topics["check"]) >= 10
    assert not topics["tune"] & topics["check"]


def test_the_second_set_is_half_negative_in_every_topic() -> None:
    for topic in {p["topic"] for p in MORE}:
        kinds = Counter(p["kind"] for p in MORE if p["topic"] == topic)
        assert set(kinds) == {"negative", "positive"}, topic
        assert kinds["negative"] == kinds["positive"], topic


def test_no_request_of_the_second_set_shares_a_content_word_with_its_statement() -> None:
    for pair in MORE:
        shared = content_words(pair["statement"]) & content_words(pair["request"])
        assert not shared, (pair["id"], shared)


THIRD = load("preference_requests_third.jsonl")


def test_the_third_set_is_split_by_topic_with_enough_topics_a_half() -> None:
    assert len(THIRD) >= 60
    assert len({pair["id"] for pair in THIRD}) == len(THIRD)
    for pair in THIRD:
        assert set(pair) == FIELDS, pair["id"]
        assert pair["split"] in ("tune", "check"), pair["id"]
        assert pair["kind"] in ("negative", "positive"), pair["id"]
    topics = {half: {p["topic"] for p in THIRD if p["split"] == half} for half in ("tune", "check")}
    # the benchmark draws nine others from nine other topics of the pair's half
    assert len(topics["tune"]) >= 10
    assert len(topics["check"]) >= 10
    assert not topics["tune"] & topics["check"]
    assert not (topics["tune"] | topics["check"]) & {p["topic"] for p in PAIRS + MORE}


def test_no_request_of_the_third_set_shares_a_content_word_with_its_statement() -> None:
    for pair in THIRD:
        shared = content_words(pair["statement"]) & content_words(pair["request"])
        assert not shared, (pair["id"], shared)


FOURTH = load("preference_requests_fourth.jsonl")
FIFTH = load("preference_requests_fifth.jsonl")
SIXTH = load("preference_requests_sixth.jsonl")
# the sets written on new topics alone: (name, pairs, fewest pairs, the sets before it)
NEW_TOPIC_SETS = [
    ("fourth", FOURTH, 80, PAIRS + MORE + THIRD),
    ("fifth", FIFTH, 80, PAIRS + MORE + THIRD + FOURTH),
    ("sixth", SIXTH, 200, PAIRS + MORE + THIRD + FOURTH + FIFTH),
]
NEW_TOPIC_IDS = [name for name, *_ in NEW_TOPIC_SETS]


@pytest.mark.parametrize(("name", "rows", "fewest", "earlier"), NEW_TOPIC_SETS, ids=NEW_TOPIC_IDS)
def test_a_later_set_is_split_by_topic_on_new_topics(
    name: str, rows: list[dict[str, Any]], fewest: int, earlier: list[dict[str, Any]]
) -> None:
    assert len(rows) >= fewest, name
    assert len({pair["id"] for pair in rows}) == len(rows)
    for pair in rows:
        assert set(pair) == FIELDS, pair["id"]
        assert pair["split"] in ("tune", "check"), pair["id"]
    topics = {half: {p["topic"] for p in rows if p["split"] == half} for half in ("tune", "check")}
    assert len(topics["tune"]) >= 10
    assert len(topics["check"]) >= 10
    assert not topics["tune"] & topics["check"]
    assert not (topics["tune"] | topics["check"]) & {p["topic"] for p in earlier}


@pytest.mark.parametrize(("name", "rows", "fewest", "earlier"), NEW_TOPIC_SETS, ids=NEW_TOPIC_IDS)
def test_a_later_set_is_half_negative_in_every_topic(
    name: str, rows: list[dict[str, Any]], fewest: int, earlier: list[dict[str, Any]]
) -> None:
    for topic in {p["topic"] for p in rows}:
        kinds = Counter(p["kind"] for p in rows if p["topic"] == topic)
        assert set(kinds) == {"negative", "positive"}, (name, topic)
        assert kinds["negative"] == kinds["positive"], (name, topic)


def test_the_sixth_set_has_five_of_each_kind_in_every_topic() -> None:
    for topic in {p["topic"] for p in SIXTH}:
        kinds = Counter(p["kind"] for p in SIXTH if p["topic"] == topic)
        assert kinds == {"negative": 5, "positive": 5}, topic


@pytest.mark.parametrize(("name", "rows", "fewest", "earlier"), NEW_TOPIC_SETS, ids=NEW_TOPIC_IDS)
def test_no_request_of_a_later_set_shares_a_content_word_with_its_statement(
    name: str, rows: list[dict[str, Any]], fewest: int, earlier: list[dict[str, Any]]
) -> None:
    for pair in rows:
        shared = content_words(pair["statement"]) & content_words(pair["request"])
        assert not shared, (name, pair["id"], shared)
