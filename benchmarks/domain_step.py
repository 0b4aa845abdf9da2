"""The domain step's latency at 1M domain rows on SQLite (indexed lookups).

What it measures: the ``domain`` step of ``Memory.read`` (the latency its ``StepReport``
gives: the query's names matched against every mapped table, the linked entities read
from memory, then the rows and their related rows, batched), for queries naming one
random customer, product or order, on a synthetic shop of ``--rows`` rows (customers,
products and orders, 25 / 5 / 70 %) with ``lower(name)`` and foreign-key indexes, as
docs/domain.md asks. Beside it, per house rule:

- **baseline**: the same step on a shop of ``--baseline-rows`` rows (does it grow with
  the database?);
- **floor**: the same names looked up with one hand-written indexed ``SELECT`` per table
  in plain ``sqlite3`` on the 1M-row file (what the step costs beyond the database).

Each series is ``--reads`` reads after ``--warmup``, repeated ``--repeats`` times, the
two shops (and the floor) taking turns query by query so the machine's load falls on
each alike; the table gives each repeat's p50 / p95 / p99 and the median of the repeats.
The memory store is a fresh SQLite file with the hashing embedder (the step does not embed).

Usage (from the repository root):

    PYTHONPATH=src python benchmarks/domain_step.py [--rows 1000000] [--baseline-rows 10000]
        [--reads 300] [--warmup 30] [--repeats 3] [--out benchmarks/results]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from _machine import describe
from read_latency import stats

from cognimem import Memory, Scope, Settings
from cognimem.domain import Domain
from cognimem.domain.lookup import look_up
from cognimem.providers.fakes import HashingEmbedder
from cognimem.recall.graph import candidate_names

SEED = 20261125
USER = "bench"
SYLLABLES = ["ka", "lo", "mi", "ra", "ten", "vo", "shi", "du", "mar", "el", "zo", "bri"]
# the step as the shop's staff run it: every row to every user of the tenant
MAPPING = """
tenant = "default"

[database]
url = "sqlite:///{path}"
statement_timeout_ms = 1000

[entities.customer]
table = "customers"
key = "id"
name = "name"
kind = "person"
facts = {{ city = "city", employer = "company" }}
visibility = "tenant"

[entities.product]
table = "products"
key = "sku"
name = "name"
kind = "thing"
facts = {{ price = "price", stock = "stock" }}
visibility = "tenant"

[entities.order]
table = "orders"
key = "id"
name = "code"
kind = "thing"
facts = {{ status = "status", total = "total" }}
visibility = "tenant"

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
"""
SCHEMA = """
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT, city TEXT, company TEXT);
CREATE TABLE products (sku TEXT PRIMARY KEY, name TEXT, price REAL, stock INTEGER);
CREATE TABLE orders (id INTEGER PRIMARY KEY, code TEXT, customer_id INTEGER,
                     product_sku TEXT, status TEXT, total REAL);
CREATE INDEX customers_name ON customers (lower(name));
CREATE INDEX products_name ON products (lower(name));
CREATE INDEX orders_code ON orders (lower(code));
CREATE INDEX orders_customer ON orders (customer_id);
CREATE INDEX orders_product ON orders (product_sku);
"""


def word(rng: random.Random, parts: int) -> str:
    return "".join(rng.choice(SYLLABLES) for _ in range(parts)).capitalize()


def build_shop(path: Path, rows: int) -> dict[str, int]:
    """A shop of ``rows`` rows; customer names are unique (a syllable name and a serial)."""
    rng = random.Random(SEED)
    n_customers, n_products = rows * 25 // 100, rows * 5 // 100
    n_orders = rows - n_customers - n_products
    conn = sqlite3.connect(path)
    with conn:
        conn.executescript(SCHEMA)
        conn.executemany(
            "INSERT INTO customers VALUES (?, ?, ?, ?)",
            (
                (i, f"{word(rng, 2)} {word(rng, 3)}{i}", word(rng, 2), word(rng, 2))
                for i in range(n_customers)
            ),
        )
        conn.executemany(
            "INSERT INTO products VALUES (?, ?, ?, ?)",
            (
                (f"p{i}", f"{word(rng, 2)} gadget{i}", rng.randint(1, 500), rng.randint(0, 50))
                for i in range(n_products)
            ),
        )
        conn.executemany(
            "INSERT INTO orders VALUES (?, ?, ?, ?, ?, ?)",
            (
                (
                    i,
                    f"SO{i}",
                    rng.randrange(n_customers),
                    f"p{rng.randrange(n_products)}",
                    rng.choice(["open", "shipped", "delivered"]),
                    rng.randint(1, 900),
                )
                for i in range(n_orders)
            ),
        )
    conn.execute("ANALYZE")
    conn.close()
    return {"customers": n_customers, "products": n_products, "orders": n_orders}


def queries(path: Path, count: int, seed: int) -> list[tuple[str, str]]:
    """(query, the name it asks about), a third each about a customer, product, order."""
    rng = random.Random(seed)
    conn = sqlite3.connect(path)
    out: list[tuple[str, str]] = []
    top = {t: conn.execute(f"SELECT max(rowid) FROM {t}").fetchone()[0] for t in
           ("customers", "products", "orders")}  # fmt: skip
    for i in range(count):
        table = ("customers", "products", "orders")[i % 3]
        column = {"customers": "name", "products": "name", "orders": "code"}[table]
        name = conn.execute(
            f"SELECT {column} FROM {table} WHERE rowid = ?", (rng.randint(1, top[table]),)
        ).fetchone()[0]
        text = {
            "customers": f"Where does {name} live these days?",
            "products": f"Is the {name} still in stock?",
            "orders": f"What is the status of order {name}?",
        }[table]
        out.append((text, name))
    conn.close()
    return out


@dataclass
class Shop:
    """One shop's memory, domain and measured series during a repeat."""

    label: str
    memory: Memory
    domain: Domain
    asked: list[tuple[str, str]]
    in_read: list[float] = field(default_factory=list)
    alone: list[float] = field(default_factory=list)
    floor: list[float] = field(default_factory=list)
    empty: int = 0


async def open_shop(label: str, shop: Path, folder: Path, asked: list[tuple[str, str]]) -> Shop:
    mapping = folder / "shop.toml"
    mapping.write_text(MAPPING.format(path=shop), encoding="utf-8")
    url = f"sqlite:///{folder / 'memory.db'}"
    mem = Memory.open(url, settings=Settings(domain_mapping=mapping), embedder=HashingEmbedder())
    await mem.start()
    await mem.write("I keep an eye on the shop's orders.", user_id=USER)
    domain = Domain.from_file(mapping)
    await domain.open()
    return Shop(label, mem, domain, asked)


async def measure(shop: Shop, i: int, warmup: int, floor: sqlite3.Connection | None) -> None:
    """One query on ``shop``: the read (its domain step's report), the same lookup
    awaited alone, and (on the 1M shop) the floor's plain SELECTs."""
    query, name = shop.asked[i]
    packet = await shop.memory.read(query, user_id=USER)
    step = next(s for s in packet.steps if s.name == "domain")
    if step.timed_out or step.error:
        raise SystemExit(f"the domain step failed: {step}")
    names = tuple(candidate_names(query))
    start = time.perf_counter()
    await look_up(shop.domain, shop.memory.store, Scope(user_id=USER), names, about_user=False)
    alone = (time.perf_counter() - start) * 1000
    took = floor_lookup(floor, name) if floor is not None else 0.0
    if i >= warmup:
        shop.in_read.append(step.latency_ms)
        shop.alone.append(alone)
        shop.floor.append(took)
        shop.empty += not packet.sections.domain_facts


def floor_lookup(conn: sqlite3.Connection, name: str) -> float:
    """One indexed SELECT per table for the asked name, in plain sqlite3 (ms)."""
    start = time.perf_counter()
    low = name.casefold()
    conn.execute("SELECT * FROM customers WHERE lower(name) = ?", (low,)).fetchall()
    conn.execute("SELECT * FROM products WHERE lower(name) = ?", (low,)).fetchall()
    conn.execute("SELECT * FROM orders WHERE lower(code) = ?", (low,)).fetchall()
    return (time.perf_counter() - start) * 1000


def median_of(runs: list[dict[str, float]]) -> dict[str, float]:
    return {k: round(statistics.median(r[k] for r in runs), 3) for k in ("p50", "p95", "p99")}


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--baseline-rows", type=int, default=10_000)
    parser.add_argument("--reads", type=int, default=300)
    parser.add_argument("--warmup", type=int, default=30)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results")
    args = parser.parse_args()
    machine_start = describe()
    result: dict[str, Any] = {"command": "python " + " ".join(sys.argv), "series": {}}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        shops: dict[str, Path] = {}
        for label, rows in (("1M", args.rows), ("baseline", args.baseline_rows)):
            shops[label] = root / f"shop_{label}.db"
            started = time.perf_counter()
            result[f"tables_{label}"] = build_shop(shops[label], rows)
            result[f"build_s_{label}"] = round(time.perf_counter() - started, 1)
        runs: dict[str, list[dict[str, float]]] = {
            "1M": [],
            "1M_alone": [],
            "baseline": [],
            "baseline_alone": [],
            "floor": [],
        }
        empties: dict[str, int] = {"1M": 0, "baseline": 0}
        for repeat in range(args.repeats):
            # the two shops and the floor take turns query by query: the machine's load
            # falls on every series alike
            open_shops: list[Shop] = []
            for label in ("1M", "baseline"):
                folder = root / f"mem_{label}_{repeat}"
                folder.mkdir()
                asked = queries(shops[label], args.reads + args.warmup, SEED + repeat)
                open_shops.append(await open_shop(label, shops[label], folder, asked))
            floor = sqlite3.connect(f"{shops['1M'].resolve().as_uri()}?mode=ro", uri=True)
            try:
                for i in range(args.reads + args.warmup):
                    for shop in open_shops if i % 2 else open_shops[::-1]:
                        await measure(shop, i, args.warmup, floor if shop.label == "1M" else None)
            finally:
                floor.close()
                for shop in open_shops:
                    await shop.domain.close()
                    await shop.memory.aclose()
            for shop in open_shops:
                runs[shop.label].append(stats(shop.in_read))
                runs[f"{shop.label}_alone"].append(stats(shop.alone))
                empties[shop.label] += shop.empty
            runs["floor"].append(stats(open_shops[0].floor))
    result["series"] = {k: {"repeats": v, "median": median_of(v)} for k, v in runs.items()}
    result["reads_without_rows"] = empties
    result["machine_start"] = machine_start
    result["machine_end"] = describe()
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "domain_step.json").write_text(json.dumps(result, indent=2) + "\n")
    (args.out / "domain_step.md").write_text(render(result, args))
    print(render(result, args))


def render(result: dict[str, Any], args: argparse.Namespace) -> str:
    m0, m1 = result["machine_start"], result["machine_end"]
    s = result["series"]
    lines = [
        f"# The domain step at {args.rows:,} domain rows (SQLite)",
        "",
        f"Command: `{result['command']}`  ",
        f"Machine: {m0['summary']}  ",
        f"Load average (1/5/15 min) at start {m0['load_average_1_5_15']}, at end"
        f" {m1['load_average_1_5_15']} (2 cores: a load above 2 means other processes"
        " shared the machine, and the times are upper bounds).",
        "",
        "The `domain` step's latency as its StepReport in `Memory.read` gives it (the"
        " read's other steps run beside it on the same event loop, so it includes waiting"
        " for them), and the same lookup awaited alone after each read."
        f" {args.reads}"
        f" reads after {args.warmup} warm-up reads, {args.repeats} repeats, the two shops and"
        " the floor taking turns query by query; each query names one random customer,"
        " product or order. Milliseconds; the median of the repeats,"
        " then each repeat.",
        "",
        "| series | rows | p50 | p95 | p99 | repeats (p50 / p95 / p99) |",
        "|---|---|---|---|---|---|",
    ]
    rows = {
        "1M": args.rows,
        "1M_alone": args.rows,
        "baseline": args.baseline_rows,
        "baseline_alone": args.baseline_rows,
        "floor": args.rows,
    }
    names = {
        "1M": "**domain step in a read**",
        "1M_alone": "the same lookup alone (no step beside it)",
        "baseline": "baseline: domain step in a read, small shop",
        "baseline_alone": "baseline: the lookup alone, small shop",
        "floor": "floor: one indexed SELECT per table, plain sqlite3",
    }
    for key in ("1M", "1M_alone", "baseline", "baseline_alone", "floor"):
        med = s[key]["median"]
        each = "; ".join(f"{r['p50']} / {r['p95']} / {r['p99']}" for r in s[key]["repeats"])
        p = f"{med['p50']} | {med['p95']} | {med['p99']}"
        lines.append(f"| {names[key]} | {rows[key]:,} | {p} | {each} |")
    t = result["tables_1M"]
    lines += [
        "",
        f"Shop: {t['customers']:,} customers, {t['products']:,} products, {t['orders']:,}"
        f" orders (built in {result['build_s_1M']} s), indexes on `lower(name)`,"
        " `lower(code)` and the foreign keys. The step matches the query's candidate names"
        " against all three tables (one statement each, `lower(column) IN (...)`), reads the"
        " alias table of the memory store beside it, and the matched rows' related rows"
        " (forward by key, reverse newest-first by a window function) in the same call of"
        " the source: one connection, one worker-thread trip."
        f" Reads whose query named no row: {result['reads_without_rows']}.",
        "",
        f"Target: p95 under 5 ms per step at {args.rows:,} rows: "
        + ("met" if s["1M"]["median"]["p95"] < 5.0 else "NOT met")
        + f" (median p95 {s['1M']['median']['p95']} ms).",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    asyncio.run(main())
