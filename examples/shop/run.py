"""A shop's own database under cognimem's memory: run ``.venv/bin/python examples/shop/run.py``.

It creates a small SQLite shop (customers, products, orders) in a fresh folder, maps it
with ``shop.toml``, writes a few memories as the customer c-1001, and reads: the
packet's "Domain facts" section shows the rows the question touches that the asking
customer may see (their own row and orders, every product) with their table and key,
and a memory that disagrees with the database ("I moved to Portland" while the
customers row says Seattle) becomes a ``trust_domain`` conflict — the database wins in
the packet, the memory stays as a claim. Another customer asking about c-1001 gets none
of her row. docs/domain.md walks through the output."""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sqlite3
import tempfile
from pathlib import Path

from cognimem import Memory, Settings
from cognimem.providers.fakes import HashingEmbedder

HERE = Path(__file__).resolve().parent

SCHEMA = """
CREATE TABLE customers (id TEXT PRIMARY KEY, name TEXT NOT NULL, nickname TEXT,
                        email TEXT, city TEXT, company TEXT);
CREATE TABLE products (sku TEXT PRIMARY KEY, name TEXT NOT NULL, price REAL, stock INTEGER);
CREATE TABLE orders (id INTEGER PRIMARY KEY, code TEXT NOT NULL,
                     customer_id TEXT REFERENCES customers(id),
                     product_sku TEXT REFERENCES products(sku), status TEXT, total REAL);
-- names are matched case-insensitively: index lower(name) so the match is a lookup
CREATE INDEX customers_name ON customers (lower(name));
CREATE INDEX customers_nickname ON customers (lower(nickname));
CREATE INDEX products_name ON products (lower(name));
CREATE INDEX orders_code ON orders (lower(code));
CREATE INDEX orders_customer ON orders (customer_id);
"""

ROWS = {
    "customers": [
        ("c-1001", "Alice Smith", "Ali", "alice@example.com", "Seattle", "Globex"),
        ("c-1002", "Bob Jones", None, "bob@example.com", "Denver", "Initech"),
    ],
    "products": [("p-1", "Blue Kettle", 39.5, 12), ("p-2", "Tea Sampler", 18.0, 0)],
    "orders": [
        (5001, "SO-5001", "c-1001", "p-1", "shipped", 39.5),
        (5002, "SO-5002", "c-1001", "p-2", "backordered", 18.0),
        (5003, "SO-5003", "c-1002", "p-1", "delivered", 39.5),
    ],
}


def create_shop(folder: Path) -> Path:
    """The shop database and its mapping in ``folder``; returns the mapping's path."""
    db = folder / "shop.db"
    conn = sqlite3.connect(db)
    with conn:
        conn.executescript(SCHEMA)
        for table, rows in ROWS.items():
            marks = ", ".join("?" * len(rows[0]))
            conn.executemany(f"INSERT INTO {table} VALUES ({marks})", rows)
    conn.close()
    return Path(shutil.copy(HERE / "shop.toml", folder / "shop.toml"))


async def main(folder: Path) -> None:
    mapping = create_shop(folder)
    settings = Settings(domain_mapping=mapping)
    url = f"sqlite:///{folder / 'memory.db'}"
    # the hashing embedder keeps the example offline; drop it to use the local model
    async with Memory.open(url, settings=settings, embedder=HashingEmbedder()) as mem:
        # the scope's user is a customers row: c-1001 is Alice Smith, c-1002 Bob Jones
        alice, bob = "c-1001", "c-1002"
        await mem.write("I moved to Portland last month.", user_id=alice)
        await mem.write("Bob Jones works at Hooli.", user_id=alice)
        await mem.write("I prefer deliveries on Fridays.", user_id=alice)

        for user, question in [
            (alice, "Where do I live, and how are my orders doing?"),
            (alice, "Is the Blue Kettle in stock?"),
            (alice, "Who does Bob Jones work for?"),  # not her row: memory only
            (bob, "What is Alice Smith's email?"),  # not his row: nothing from the database
        ]:
            print(f"# {user} asks: {question}")
            print((await mem.read(question, user_id=user)).to_markdown())

        print("Conflicts (the database wins; the memory is kept as a claim):")
        for c in await mem.conflicts(user_id=alice, open_only=False):
            print(f"- {c.id} [{c.strategy.value}, {c.status.value}] {c.note}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dir", type=Path, help="where to create the shop (default: a temp dir)")
    args = parser.parse_args()
    if args.dir is not None:
        args.dir.mkdir(parents=True, exist_ok=True)
        asyncio.run(main(args.dir))
    else:
        with tempfile.TemporaryDirectory() as tmp:
            asyncio.run(main(Path(tmp)))
