"""A small shop database (customers, products, orders) for the domain layer's tests,
on a real SQLite file or a real PostgreSQL database, and its mapping file.

The mapping's row rules come in two sets: ``OWN_ROWS`` (the shop's customers as the
scope's users: each sees their own customers row and orders, every product) and
``STAFF`` (the scope's users are the shop's staff: every row, to every user of the
tenant)."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

# one schema for both backends (SQLite takes DOUBLE PRECISION as REAL)
SCHEMA = [
    "CREATE TABLE customers (id TEXT PRIMARY KEY, name TEXT NOT NULL, nickname TEXT,"
    " email TEXT, city TEXT, company TEXT)",
    "CREATE TABLE products (sku TEXT PRIMARY KEY, name TEXT NOT NULL,"
    " price DOUBLE PRECISION, stock INTEGER)",
    "CREATE TABLE orders (id INTEGER PRIMARY KEY, code TEXT NOT NULL, customer_id TEXT,"
    " product_sku TEXT, status TEXT, total DOUBLE PRECISION)",
    "CREATE INDEX customers_name ON customers (lower(name))",
    "CREATE INDEX orders_customer ON orders (customer_id)",
]
ROWS: dict[str, list[tuple[object, ...]]] = {
    "customers": [
        ("c-1001", "Alice Smith", "Ali", "alice@example.com", "Seattle", "Globex"),
        ("c-1002", "Bob Jones", None, "bob@example.com", "Denver", "Initech"),
        ("c-1003", "Dana Reed", None, None, "Austin", "Initech"),
        ("c-1004", "Dana Reed", None, None, "Boston", "Hooli"),  # a name two rows share
    ],
    "products": [("p-1", "Blue Kettle", 39.5, 12), ("p-2", "Tea Sampler", 18.0, 0)],
    "orders": [
        (5001, "SO-5001", "c-1001", "p-1", "shipped", 39.5),
        (5002, "SO-5002", "c-1001", "p-2", "backordered", 18.0),
        (5003, "SO-5003", "c-1002", "p-1", "delivered", 39.5),
    ],
}
# a view whose every read takes minutes: a lookup through it can only end by timeout
SLOW_VIEW = {
    "sqlite": "CREATE VIEW slow_customers AS SELECT c.* FROM customers c WHERE"
    " (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000000000)"
    " SELECT count(*) FROM n) > 0",
    "postgres": "CREATE VIEW slow_customers AS SELECT c.* FROM customers c,"
    " LATERAL (SELECT pg_sleep(60)) AS slow",
}

# each customer sees their own row and orders; products are reference data
OWN_ROWS = {
    "customer": 'user_column = "id"',
    "order": 'user_column = "customer_id"',
    "product": 'visibility = "tenant"',
}
STAFF = {name: 'visibility = "tenant"' for name in OWN_ROWS}

MAPPING = """
tenant = "{tenant}"

[database]
url = "{url}"
statement_timeout_ms = {timeout_ms}

{user}

[entities.customer]
table = "{customers}"
key = "id"
name = "name"
aliases = ["nickname"]
kind = "person"
facts = {{ city = "city", employer = "company", email = "{email}" }}
{customer}

[entities.product]
table = "products"
key = "sku"
name = "name"
kind = "thing"
facts = {{ price = "price", stock = "stock" }}
{product}

[entities.order]
table = "orders"
key = "id"
name = "code"
kind = "thing"
facts = {{ status = "status", total = "total" }}
{order}

[[relations]]
name = "placed_by"
subject = "order"
object = "customer"
foreign_key = "customer_id"

[[relations]]
name = "contains"
subject = "order"
object = "product"
foreign_key = "product_sku"
{ontology}
"""


def mapping_text(
    url: str,
    *,
    customers: str = "customers",
    email: str = "email",
    timeout_ms: int = 2000,
    ontology: str = "",
    tenant: str = "default",
    rows: dict[str, str] | None = None,
    user: bool = True,
) -> str:
    """The shop's mapping, for ``tenant``, with the row rules ``rows`` (by entity type;
    default ``OWN_ROWS``; a type left out has no rule) and, with ``user``, the ``[user]``
    link (the scope's user_id is a customers key)."""
    rules = OWN_ROWS if rows is None else rows
    return MAPPING.format(
        url=url,
        customers=customers,
        email=email,
        timeout_ms=timeout_ms,
        ontology=ontology,
        tenant=tenant,
        user='[user]\nentity = "customer"' if user else "",
        **{name: rules.get(name, "") for name in OWN_ROWS},
    )


def write_mapping(folder: Path, url: str, *, file: str = "shop.toml", **options: object) -> Path:
    path = folder / file
    path.write_text(mapping_text(url, **options), encoding="utf-8")  # type: ignore[arg-type]
    return path


def statements() -> list[tuple[str, list[tuple[object, ...]]]]:
    """The inserts, with SQLite's ``?`` marks (PostgreSQL's are made from them)."""
    return [
        (f"INSERT INTO {table} VALUES ({', '.join('?' * len(rows[0]))})", rows)
        for table, rows in ROWS.items()
    ]


def create_sqlite(path: Path) -> str:
    conn = sqlite3.connect(path)
    with conn:
        for sql in [*SCHEMA, SLOW_VIEW["sqlite"]]:
            conn.execute(sql)
        for sql, rows in statements():
            conn.executemany(sql, rows)
    conn.close()
    return f"sqlite:///{path}"


async def create_postgres(dsn: str) -> str:
    """The shop in the (emptied) database ``dsn``."""
    import asyncpg

    conn = await asyncpg.connect(dsn, timeout=10)
    try:
        await conn.execute(
            "DROP VIEW IF EXISTS slow_customers; DROP TABLE IF EXISTS orders, products, customers"
        )
        for sql in [*SCHEMA, SLOW_VIEW["postgres"]]:
            await conn.execute(sql)
        for sql, rows in statements():
            marks = iter(range(1, 100))
            pg = "".join(f"${next(marks)}" if ch == "?" else ch for ch in sql)
            await conn.executemany(pg, rows)
    finally:
        await conn.close()
    return dsn


@dataclass
class Shop:
    """The memory store's URL and the shop's domain database on one backend."""

    backend: str
    memory_url: str
    domain_url: str
    folder: Path

    def mapping(self, **options: object) -> Path:
        return write_mapping(self.folder, self.domain_url, **options)

    def staff_mapping(self, **options: object) -> Path:
        """The shop as its staff see it: every row to every user of the tenant."""
        return self.mapping(rows=STAFF, **options)
