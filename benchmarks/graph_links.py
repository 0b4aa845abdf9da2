"""How far the read's graph step could reach on LoCoMo through items' entity links.

The graph step (``recall/steps.py``, ``_graph``) seeds a personalized PageRank with the
entities the query names and returns the evidence items of the relations around them.
Items also carry entity links (``items.entities``, written at ingest for the people a
pronoun or role word in them was resolved to). This counts, after the same ingestion as
``locomo_rotation.py`` (default local embedder, no LLM), what such a link could add:

- the scope's items, the items with a link and the type of the entities linked;
- the entities, aliases, relations (the graph's edges) and live facts;
- per question category: the questions, those whose names resolve to an entity of their
  conversation (the step's seeds), those for which a seed has a linked item, the
  evidence turns among all linked items and among the seeds' linked items, and the
  evidence turns that back a live fact (what a step from the seeds' facts could reach).

Counts only, never the data's text. Usage (repository root):

    python benchmarks/graph_links.py [PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import sys
import tempfile
from collections import Counter
from pathlib import Path

from _machine import describe

from cognimem import Memory
from cognimem.eval import locomo
from cognimem.recall.graph import candidate_names
from cognimem.store.records import user_key

ROOT = Path(__file__).resolve().parent.parent
LIVE = ("active", "aging")
LINKED_ITEMS = "SELECT count(*) FROM items WHERE entities != '[]'"
COLUMNS = (
    "questions",
    "with seeds",
    "a seed has a linked item",
    "evidence turns",
    "evidence turns linked (any entity)",
    "evidence turns linked to a seed",
    "evidence turns backing a live fact",
)


def store_counts(conn: sqlite3.Connection) -> list[str]:
    """The rows the graph step could use, as Markdown lines."""

    def one(sql: str) -> int:
        return int(conn.execute(sql).fetchone()[0])

    linked_types = conn.execute(
        "SELECT e.type, count(*) FROM items i, json_each(i.entities) j"
        " JOIN entities e ON e.id = j.value GROUP BY e.type ORDER BY 2 DESC"
    ).fetchall()
    entity_types = conn.execute(
        "SELECT type, count(*) FROM entities GROUP BY type ORDER BY 2 DESC"
    ).fetchall()
    return [
        f"- items: {one('SELECT count(*) FROM items')}, with an entity link: "
        f"{one(LINKED_ITEMS)} "
        f"(links by entity type: {dict(linked_types)})",
        f"- entities: {one('SELECT count(*) FROM entities')} ({dict(entity_types)}), "
        f"aliases: {one('SELECT count(*) FROM aliases')}",
        f"- relations (the graph's edges): {one('SELECT count(*) FROM relations')}, "
        f"live facts: {one(f'SELECT count(*) FROM facts WHERE status IN {LIVE}')}",
    ]


def question_counts(
    conn: sqlite3.Connection, conversations: list[locomo.Conversation]
) -> Counter[tuple[str, str]]:
    """Per category, what the seeds' links and facts reach of the evidence turns."""
    aliases: dict[tuple[str, str], set[str]] = {}
    for alias, entity_id, key in conn.execute("SELECT alias, entity_id, user_key FROM aliases"):
        aliases.setdefault((key, alias), set()).add(entity_id)
    turns = {
        item_id: set(json.loads(ext))
        for item_id, ext in conn.execute("SELECT id, external_ids FROM items")
    }
    linked: dict[tuple[str, str], set[str]] = {}  # (user, entity) → turns linked to it
    for user, entities, ext in conn.execute(
        "SELECT user_id, entities, external_ids FROM items WHERE entities != '[]'"
    ):
        for entity_id in json.loads(entities):
            linked.setdefault((user, entity_id), set()).update(json.loads(ext))
    backing: dict[str, set[str]] = {}  # user → turns backing a live fact
    for user, evidence in conn.execute(
        f"SELECT user_id, evidence_item_ids FROM facts WHERE status IN {LIVE}"
    ):
        for item_id in json.loads(evidence):
            backing.setdefault(user, set()).update(turns[item_id])
    out: Counter[tuple[str, str]] = Counter()
    for conv in conversations:
        user = conv.sample_id
        keys = (user_key(user), user_key(None))
        all_linked = set().union(*(t for (u, _), t in linked.items() if u == user))
        for q in conv.questions:
            cat = locomo.CATEGORY_NAMES.get(q.category, str(q.category))
            gold = set(q.evidence)
            seeds = {
                e for n in candidate_names(q.text) for k in keys for e in aliases.get((k, n), ())
            }
            reached = set().union(*(linked.get((user, e), set()) for e in seeds))
            out[(cat, "questions")] += 1
            out[(cat, "with seeds")] += bool(seeds)
            out[(cat, "a seed has a linked item")] += bool(reached)
            out[(cat, "evidence turns")] += len(gold)
            out[(cat, "evidence turns linked (any entity)")] += len(gold & all_linked)
            out[(cat, "evidence turns linked to a seed")] += len(gold & reached)
            out[(cat, "evidence turns backing a live fact")] += len(gold & backing.get(user, set()))
    return out


async def ingest(path: Path, db: str) -> list[locomo.Conversation]:
    conversations = locomo.dev_five(locomo.load(path))
    async with Memory.open(f"sqlite:///{db}") as mem:
        for conv in conversations:
            await locomo.ingest(mem, conv)
    return conversations


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "path", nargs="?", type=Path, default=ROOT.parent / "shared/data/locomo/locomo10_dev.json"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = f"{tmp}/locomo.db"
        conversations = asyncio.run(ingest(args.path, db))
        conn = sqlite3.connect(db)
        lines = store_counts(conn)
        counts = question_counts(conn, conversations)
        conn.close()
    columns = COLUMNS
    categories = sorted({cat for cat, _ in counts})
    table = ["| category | " + " | ".join(columns) + " |", "|---" * (len(columns) + 1) + "|"]
    table += [
        f"| {cat} | " + " | ".join(str(counts[(cat, c)]) for c in columns) + " |"
        for cat in categories
    ]
    command = "python benchmarks/graph_links.py " + " ".join(sys.argv[1:])
    head = [f"Command: `{command.strip()}`  ", f"Machine: {describe()['summary']}", ""]
    print("\n".join([*head, *lines, "", *table]))


if __name__ == "__main__":
    main()
