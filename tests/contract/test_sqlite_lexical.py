"""The SQLite store's in-process lexical index against SQLite's own FTS5 (real files):
FTS5's ``unicode61`` splits and folds the words, ``text/stems.py`` gives their index
forms, and FTS5's ``bm25()`` over those forms is the score."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
import pytest

from cognimem.models import ItemStatus, Scope
from cognimem.store import ItemFilter, lexical_index
from cognimem.store.arguments import ItemsForgetting
from cognimem.store.sqlite import SQLiteStore, lexical
from cognimem.store.sqlite.scopes import ScopeRef
from cognimem.text.stems import index_stems
from tests.contract.conftest import T0, message

ALICE = Scope(tenant_id="t1", user_id="alice")
SCOPE = ScopeRef("t1", "default", "alice")
WINDOW = 300.0

TEXTS = [
    "Alice: I adopted a golden retriever named Biscuit last spring!",
    "Bob: We're running the Oslo half-marathon; she runs every morning.",
    "Café crème, naïve résumé and a piñata at the Zürich fête",
    "snake_case words, e-mail addresses (a.b@c.io) and 3.14 or 42nd street",
    "Don't stop believin’ — “quotes”, ellipses… and dashes – everywhere",
    "I am a s an x, my cat's toy; caring cares cared carefully",
    "",
    "Running, runner, ran: connected connections connecting relational relativity",
]


def _fts(path: Path, texts: list[str]) -> sqlite3.Connection:
    conn = sqlite3.connect(path)
    conn.execute("CREATE VIRTUAL TABLE t USING fts5 (x, tokenize = 'unicode61')")
    conn.executemany("INSERT INTO t (rowid, x) VALUES (?, ?)", enumerate(texts, 1))
    conn.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, instance)")
    conn.commit()
    return conn


def test_tokens_are_the_words_fts5_splits_in_their_index_forms(tmp_path: Path) -> None:
    conn = _fts(tmp_path / "fts.db", TEXTS)
    for rowid, text in enumerate(TEXTS, 1):
        theirs = [
            r[0] for r in conn.execute("SELECT term FROM v WHERE doc = ? ORDER BY offset", (rowid,))
        ]
        forms = index_stems(theirs)
        assert lexical_index.tokens(text) == [forms[w] for w in theirs], text


def test_postings_of_a_batch_are_each_texts_tokens(tmp_path: Path) -> None:
    # the batch is split as one string; a text holding the row separator stays one row
    texts = [*TEXTS, "left\x01right and more", "tail"]
    lengths, postings = lexical_index.batch_postings(texts)
    assert lengths.tolist() == [len(lexical_index.tokens(t)) for t in texts]
    rebuilt: dict[int, list[str]] = {}
    for term, (rows, counts) in postings.items():
        assert np.all(np.diff(rows) > 0), term
        for row, count in zip(rows.tolist(), counts.tolist(), strict=True):
            rebuilt.setdefault(row, []).extend([term] * int(count))
    for row, text in enumerate(texts):
        assert sorted(rebuilt.get(row, [])) == sorted(lexical_index.tokens(text)), text


async def test_scores_are_fts5_bm25_when_the_scope_is_the_whole_table(tmp_path: Path) -> None:
    # FTS5 scores the stored search texts written in their index forms
    store = SQLiteStore(tmp_path / "one_scope.db")
    await store.open()
    extra = ["the retriever runs to Oslo", "a café in Oslo", "she got mentored in Oslo"]
    try:
        for text in [*TEXTS[:6], *extra]:
            await store.commit([message(text, ALICE)], WINDOW)
        conn = sqlite3.connect(store.path)
        conn.execute("CREATE VIRTUAL TABLE ref USING fts5 (x, tokenize = 'unicode61')")
        stored = conn.execute("SELECT rowid, search_text FROM items_fts").fetchall()
        conn.executemany(
            "INSERT INTO ref (rowid, x) VALUES (?, ?)",
            [(rowid, " ".join(lexical_index.tokens(text))) for rowid, text in stored],
        )
        for terms in (
            ["retriever"],
            ["oslo", "running"],
            ["cafe", "marathon", "cared"],
            ["mentorship", "oslo"],
        ):
            ours = await store.lexical_search(ItemFilter(scope=ALICE), terms, 10)
            forms = lexical_index.query_tokens(terms)
            theirs = conn.execute(
                "SELECT i.id, -bm25(ref) FROM ref JOIN items i ON i.rowid = ref.rowid"
                " WHERE ref MATCH ? ORDER BY 2 DESC, i.rowid",
                (" OR ".join(f'"{t}"' for t in forms),),
            ).fetchall()
            assert theirs, terms
            assert [c.item_id for c in ours] == [r[0] for r in theirs], terms
            assert [c.score for c in ours] == pytest.approx([r[1] for r in theirs]), terms
        conn.close()
    finally:
        await store.close()


async def test_appended_rows_index_as_a_full_load_does(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "append.db")
    await store.open()
    try:
        for text in TEXTS[:4]:
            await store.commit([message(text, ALICE)], WINDOW)
        conn = sqlite3.connect(store.path)
        first = lexical.load(conn, SCOPE, 0, (1, 0))
        for text in TEXTS[4:]:
            await store.commit([message(text, ALICE)], WINDOW)
        grown = first.append(lexical.load(conn, SCOPE, first.max_rowid, (2, 0)))
        whole = lexical.load(conn, SCOPE, 0, (2, 0))
        conn.close()
    finally:
        await store.close()
    assert grown.cols.ids.tolist() == whole.cols.ids.tolist()
    assert grown.lengths.tolist() == whole.lengths.tolist()
    assert grown.postings.keys() == whole.postings.keys()
    for term, (rows, counts) in whole.postings.items():
        assert grown.postings[term][0].tolist() == rows.tolist(), term
        assert grown.postings[term][1].tolist() == counts.tolist(), term
    # the entry the first load cached is left as it was (readers may still hold it)
    assert len(first.cols) == 4


async def test_index_follows_another_store_on_the_same_file(tmp_path: Path) -> None:
    path = tmp_path / "shared.db"
    a, b = SQLiteStore(path), SQLiteStore(path)
    await a.open()
    await b.open()
    flt = ItemFilter(scope=ALICE)
    try:
        await a.commit([message("kayaks on the fjord", ALICE)], WINDOW)
        assert len(await a.lexical_search(flt, ["kayak"], 5)) == 1  # a caches the scope
        [r] = await b.commit([message("b paddles kayaks too", ALICE)], WINDOW)
        assert len(await a.lexical_search(flt, ["kayak"], 5)) == 2  # appended
        await b.forget_items(ItemsForgetting("t1", r.item_ids, ItemStatus.SILENT, now=T0))
        assert len(await a.lexical_search(flt, ["kayak"], 5)) == 1  # reloaded
        either = ItemFilter(scope=ALICE, statuses=(ItemStatus.ACTIVE, ItemStatus.SILENT))
        assert len(await a.lexical_search(either, ["kayak"], 5)) == 2
        await b.forget_items(ItemsForgetting("t1", r.item_ids, ItemStatus.DELETED, now=T0))
        assert len(await a.lexical_search(either, ["kayak"], 5)) == 1
    finally:
        await a.close()
        await b.close()
