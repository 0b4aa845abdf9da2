"""A decision-like request in the first or second person leans its fusion on the vector
list (recall/fuse.py ``for_request``): what it must respect rarely shares its words."""

from __future__ import annotations

from cognimem.recall.analyze import classify, speaks_in_person
from cognimem.recall.fuse import for_request, fuse
from cognimem.recall.presets import PRESETS
from cognimem.store.types import Candidate

LISTS = {
    # "shared words": a strong lexical hit with a weak meaning; "meaning": the opposite
    "lexical": [Candidate("shared words", 9.0), Candidate("meaning", 1.0), Candidate("x", 0.0)],
    "vector": [Candidate("meaning", 0.8), Candidate("shared words", 0.35), Candidate("x", 0.3)],
}


def test_a_request_of_the_users_own_speaks_in_person() -> None:
    assert speaks_in_person("Can you find me a place for dinner tonight?")
    assert speaks_in_person("What should we cook this weekend?")
    assert speaks_in_person("Plan my Saturday.")
    assert not speaks_in_person("What did Rosa paint for the art show?")
    assert not speaks_in_person("Would Vivian likely enjoy a concert?")
    assert classify("Can you recommend a restaurant for tonight?").decision


def test_a_personal_request_ranks_by_meaning_first() -> None:
    balanced = PRESETS["balanced"]
    assert fuse(LISTS, balanced)[0][0] == "shared words"
    leaning = for_request(balanced, personal_decision=True)
    assert leaning.vector_weight == 0.7 * (balanced.lexical_weight + balanced.vector_weight)
    assert leaning.lexical_weight + leaning.vector_weight == 1.0
    assert fuse(LISTS, leaning)[0][0] == "meaning"


def test_other_queries_and_other_fusions_keep_their_weights() -> None:
    balanced = PRESETS["balanced"]
    assert for_request(balanced, personal_decision=False) is balanced
    assert for_request(PRESETS["rrf"], personal_decision=True) is PRESETS["rrf"]
    off = balanced.model_copy(update={"request_vector_share": None})
    assert for_request(off, personal_decision=True) is off
