"""The shared in-process BM25 (store/lexical_index.py) against a plain per-row reference."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from cognimem.errors import UsageError
from cognimem.models import ItemKind, ItemStatus, Scope
from cognimem.store import lexical_index
from cognimem.store.lexical_index import K1, B, ScopeTerms, batch_postings, search, tokens
from cognimem.store.scope_columns import GONE, KIND_CODES, STATUS_CODES, Columns
from cognimem.store.types import ItemFilter

WORDS = [
    "apple",
    "pear",
    "plum",
    "fig",
    "kiwi",
    "lime",
    "date",
    "grape",
    "melon",
    "berry",
    "cherry",
    "mango",
]
KINDS = ("episode", "fact", "preference")


def _entry(texts: list[str], agents: list[str | None], kinds: list[str], statuses: list[str]):
    rows = [
        (i, f"id{i:05d}", agents[i], None, kinds[i], statuses[i], i, None, None)
        for i in range(len(texts))
    ]
    lengths, postings = batch_postings(texts)
    return ScopeTerms(1, 0, len(texts), Columns.of(rows), lengths, postings)


def _reference(texts, agents, kinds, statuses, flt: ItemFilter, terms, limit):
    """BM25 row by row, as FTS5 defines it, over the rows the filter lets through."""
    wanted = {s.value for s in flt.statuses}
    ok = [
        statuses[i] in wanted
        and (flt.scope.agent_id is None or agents[i] == flt.scope.agent_id)
        and (flt.kinds is None or kinds[i] in {k.value for k in flt.kinds})
        for i in range(len(texts))
    ]
    docs = [tokens(t) for t in texts]
    n = sum(ok)
    average = (sum(len(d) for d, k in zip(docs, ok, strict=True) if k) / n if n else 0) or 1.0
    query = list(dict.fromkeys(tok for t in terms for tok in tokens(t)))
    scores: dict[int, float] = {}
    for term in query:
        holding = [i for i, d in enumerate(docs) if ok[i] and term in d]
        if not holding:
            continue
        df = len(holding)
        idf = max(math.log((n - df + 0.5) / (df + 0.5)), 1e-6)
        for i in holding:
            f = docs[i].count(term)
            norm = K1 * (1 - B + B * len(docs[i]) / average)
            scores[i] = scores.get(i, 0.0) + idf * f * (K1 + 1) / (f + norm)
    ranked = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))[:limit]
    return [(f"id{i:05d}", s) for i, s in ranked]


@pytest.mark.parametrize(
    ("size", "large"),
    [
        (40, 4096),  # few hits: summed by sorting them
        (3000, 4096),  # many: dense sums
        (3000, 150),  # common terms: rare terms' rows scored first, or every row
    ],
)
def test_search_matches_a_row_by_row_bm25_under_filters_limits_and_ties(
    size: int, large: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lexical_index, "_LARGE_MIN", large)
    answered: list[bool] = []  # whether the rare terms' rows were the answer
    rare_first = lexical_index.rare_first_scores

    def counted(*args: object) -> object:
        got = rare_first(*args)  # type: ignore[arg-type]
        answered.append(got is not None)
        return got

    monkeypatch.setattr(lexical_index, "rare_first_scores", counted)
    rng = random.Random(size)
    # short texts from a small vocabulary: many rows tie on their scores; a few rare
    # words so that some queries have rare and common terms
    vocabulary = [*WORDS, *(f"rare{i}" for i in range(20))]
    weights = [40] * len(WORDS) + [1] * 20
    texts = [" ".join(rng.choices(vocabulary, weights, k=rng.randint(1, 4))) for _ in range(size)]
    agents = [rng.choice(["a1", "a2", None]) for _ in range(size)]
    kinds = [rng.choice(KINDS) for _ in range(size)]
    statuses = [rng.choice(["active", "active", "silent"]) for _ in range(size)]
    entry = _entry(texts, agents, kinds, statuses)
    alice = Scope(tenant_id="t", user_id="alice")
    filters = [
        ItemFilter(scope=alice),
        ItemFilter(scope=alice.model_copy(update={"agent_id": "a1"}), kinds=(ItemKind.EPISODE,)),
        ItemFilter(scope=alice, statuses=(ItemStatus.ACTIVE, ItemStatus.SILENT)),
    ]
    checked = 0
    for _ in range(30):
        terms = [*rng.sample(vocabulary, rng.randint(1, 3)), "nothing"]
        for flt in filters:
            for limit in (1, 5, 50):
                ours = search(entry, flt, terms, limit)
                theirs = _reference(texts, agents, kinds, statuses, flt, terms, limit)
                assert [i for i, _ in ours] == [i for i, _ in theirs], (terms, limit)
                assert [s for _, s in ours] == pytest.approx([s for _, s in theirs], rel=1e-12)
                checked += bool(ours)
    assert checked > 100
    assert set(answered) == {True, False}  # both ways were taken


def test_a_replaced_row_leaves_every_search_and_the_statistics() -> None:
    texts = ["apple pie", "apple tart with pear", "plum"]
    entry = _entry(texts, [None] * 3, ["episode"] * 3, ["active"] * 3)
    flt = ItemFilter(scope=Scope(tenant_id="t", user_id="alice"))
    before = search(entry, flt, ["apple"], 10)
    assert [i for i, _ in before] == ["id00000", "id00001"]
    fewer = entry.without(np.array([0]))
    assert [i for i, _ in search(fewer, flt, ["apple"], 10)] == ["id00001"]
    # as if row 0 were gone: the scores use the two remaining rows' statistics
    alone = _entry(texts[1:], [None] * 2, ["episode"] * 2, ["active"] * 2)
    assert search(fewer, flt, ["apple"], 10)[0][1] == pytest.approx(
        search(alone, flt, ["apple"], 10)[0][1]
    )
    assert fewer.gone() == 1
    assert entry.gone() == 0  # the shared entry is left as it was


def test_a_consolidated_filter_is_refused_not_ignored() -> None:
    entry = _entry(["apple"], [None], ["episode"], ["active"])
    flt = ItemFilter(scope=Scope(tenant_id="t", user_id="alice"), consolidated=False)
    with pytest.raises(UsageError, match="consolidated"):
        search(entry, flt, ["apple"], 10)


def test_a_filters_kind_and_status_sets_pass_the_rows_np_isin_passes() -> None:
    # the codes are compared through a lookup table; a replaced row (GONE) passes none
    rng = random.Random(3)
    kinds, statuses = list(ItemKind), list(ItemStatus)
    rows = [
        (
            i, f"mem_{i}", None, None, rng.choice(kinds).value, rng.choice(statuses).value,
            i, None, None,
        )
        for i in range(400)
    ]  # fmt: skip
    cols = Columns.of(rows)
    cols.status[::7] = GONE
    scope = Scope(user_id="u")
    for _ in range(50):
        want_kinds = tuple(rng.sample(kinds, rng.randint(1, 4)))
        want_statuses = tuple(rng.sample(statuses, rng.randint(1, len(statuses))))
        flt = ItemFilter(scope=scope, kinds=want_kinds, statuses=want_statuses)
        expected = np.isin(cols.status, [STATUS_CODES[s.value] for s in want_statuses])
        expected &= np.isin(cols.kind, [KIND_CODES[k.value] for k in want_kinds])
        assert np.array_equal(cols.allowed(flt), expected)
        assert not cols.allowed(flt)[::7].any()


def test_a_filter_view_is_cached_apart_for_each_reach_of_the_agent() -> None:
    # one entry of a user's rows: of agent "sales", of no agent, of agent "support"
    entry = _entry(["apple one", "apple two", "apple three"], ["sales", None, "support"],
                   ["episode"] * 3, ["active"] * 3)  # fmt: skip
    scope = Scope(tenant_id="t", user_id="ada", agent_id="sales")
    walled = ItemFilter(scope=scope)
    own = ItemFilter(scope=scope, own_of_no_agent=True)
    assert [i for i, _ in search(entry, walled, ["apple"], 10)] == ["id00000"]
    # the view the first search cached must not answer for the wider reach
    assert sorted(i for i, _ in search(entry, own, ["apple"], 10)) == ["id00000", "id00001"]
    assert [i for i, _ in search(entry, walled, ["apple"], 10)] == ["id00000"]


def test_postings_built_in_chunks_are_those_of_one_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    # a scope's first load folds and splits its texts a chunk at a time (the word
    # strings of one pass over 1M rows were ~4.4 GiB at once): the arrays are the same
    rng = random.Random(7)
    texts = [" ".join(rng.choices(WORDS, k=rng.randint(0, 9))) for _ in range(53)]
    texts[20] = ""  # a chunk may start or end on a row with no words
    whole_lengths, whole = batch_postings(texts)
    monkeypatch.setattr(lexical_index, "_CHUNK_ROWS", 10)
    lengths, postings = batch_postings(texts)
    assert lengths.dtype == whole_lengths.dtype
    assert np.array_equal(lengths, whole_lengths)
    assert postings.keys() == whole.keys()
    for term, (rows, counts) in postings.items():
        assert rows.dtype == whole[term][0].dtype
        assert counts.dtype == whole[term][1].dtype
        assert np.array_equal(rows, whole[term][0]), term
        assert np.array_equal(counts, whole[term][1]), term
    assert max(int(r[-1]) for r, _ in postings.values()) >= 40  # rows past the first chunks


def test_rows_folded_alone_are_the_rows_folded_as_one_string() -> None:
    # each row's text is folded on its own (an ASCII row through the fast path): the
    # postings are those of every row's words as ``tokens`` finds them, with rows that
    # hold accents, dashes, emoji, a final sigma and a combining mark at their start
    texts = [
        "Café déjà-vu at the ÉCOLE",
        "plain words only, plain",
        "ΟΔΥΣΣΕΥΣ sailed — home",
        "\u0301accent first then words",
        "🌟 painting 💪 again – painted",
        "",
        "naïve résumé RÉSUMÉ resume",
    ]
    lengths, postings = batch_postings(texts)
    assert lengths.tolist() == [len(tokens(t)) for t in texts]
    expected: dict[str, dict[int, int]] = {}
    for row, text in enumerate(texts):
        for term in tokens(text):
            expected.setdefault(term, {}).setdefault(row, 0)
            expected[term][row] += 1
    assert postings.keys() == expected.keys()
    for term, (rows, counts) in postings.items():
        assert dict(zip(rows.tolist(), counts.tolist(), strict=True)) == expected[term], term
    assert postings["resum"][1].tolist() == [3.0]


@pytest.mark.parametrize("distinct", [3, 1 << 16, (1 << 16) + 5])
def test_term_rows_are_those_of_a_sort_of_every_pair(distinct: int) -> None:
    # a chunk's (term, row) pairs are found by a stable sort of the term ids (16-bit
    # ones radix-sorted): the pairs and counts np.unique finds over every pair
    rng = np.random.default_rng(distinct)
    n = 500
    rows = np.sort(rng.integers(0, n, size=200_000))  # words come in row order
    terms = rng.integers(0, distinct, size=rows.size)
    terms[:2] = [0, distinct - 1]
    keys, counts = lexical_index.term_rows(terms, rows, n, distinct)
    want_keys, want_counts = np.unique(terms * n + rows, return_counts=True)
    assert keys.dtype == want_keys.dtype
    assert counts.dtype == want_counts.dtype
    assert np.array_equal(keys, want_keys)
    assert np.array_equal(counts, want_counts)


def _scores_by_every_row(
    idx: np.ndarray, held: list[lexical_index.HeldTerm], norm: np.ndarray
) -> np.ndarray:
    """Each row of ``idx`` looked up in every term's postings, every term's gain (0.0
    where the row holds none) added in term order: the sums ``full_scores`` must give."""
    scores = np.zeros(idx.size, dtype=np.float64)
    for t in held:
        gain = np.zeros(idx.size, dtype=np.float64)
        for n, row in enumerate(idx.tolist()):
            at = np.flatnonzero(t.at == row)
            if at.size:
                count = t.counts[at[0]]
                gain[n] = t.idf * count * (K1 + 1) / (count + norm[row])
        scores += gain
    return scores


def test_full_scores_of_a_row_set_sum_every_term_s_gain_in_order() -> None:
    """Rare terms (fewer rows than the set) and common ones (more) alike: the same
    floats, bit for bit, as looking every row up in every term."""
    rng = np.random.default_rng(35)
    n = 400
    norm = rng.uniform(0.3, 2.5, n)
    view = lexical_index.FilterView.__new__(lexical_index.FilterView)
    object.__setattr__(view, "norm", norm)
    for _ in range(40):
        idx = np.sort(rng.choice(n, int(rng.integers(1, 120)), replace=False))
        held = []
        for _ in range(int(rng.integers(1, 5))):
            at = np.sort(rng.choice(n, int(rng.integers(1, 300)), replace=False))
            counts = rng.integers(1, 6, at.size).astype(np.float32)
            held.append(lexical_index.HeldTerm("t", at, counts, float(rng.uniform(0.1, 3)), False))
        got = lexical_index.full_scores(idx, held, view)
        assert got.tobytes() == _scores_by_every_row(idx, held, norm).tobytes()
