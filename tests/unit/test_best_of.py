"""``store.types.best_of``: the best of a read's searches (the user's own rows and the
shared levels'), one list or several."""

from __future__ import annotations

from cognimem.store.types import best_of


def test_one_list_with_rows_is_its_best_in_its_own_order() -> None:
    own = [("a", 0.9), ("b", 0.5), ("c", 0.5), ("d", 0.1)]
    assert best_of([own, []], 3) == own[:3]
    assert best_of([[], own], 10) == own
    assert best_of([own], 2) == own[:2]
    assert best_of([[], []], 5) == []
    assert best_of([], 5) == []
    got = best_of([own], 4)
    got.append(("z", 0.0))  # the caller's list, not the search's
    assert len(own) == 4


def test_several_lists_merge_best_first_and_a_tie_keeps_the_earlier_list_first() -> None:
    own = [("a", 0.9), ("b", 0.5)]
    shared = [("s", 0.7), ("t", 0.5), ("u", 0.2)]
    assert best_of([own, shared], 4) == [("a", 0.9), ("s", 0.7), ("b", 0.5), ("t", 0.5)]
    assert best_of([shared, own], 3) == [("a", 0.9), ("s", 0.7), ("t", 0.5)]
