"""The shop example docs/domain.md walks through runs as the docs say, and its output
shows what they show: each customer reads their own rows and every product, never
another customer's."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tests.conftest import child_env

ROOT = Path(__file__).resolve().parents[2]


def test_the_shop_example_shows_each_customer_only_their_rows_and_a_trust_domain_conflict(
    tmp_path: Path,
) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "shop" / "run.py"), "--dir", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
        env=child_env(),
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    # each question's packet, by the line that asks it
    asked = {b.split("\n", 1)[0]: b for b in re.split(r"^# ", out, flags=re.MULTILINE)[1:]}
    mine = asked["c-1001 asks: Where do I live, and how are my orders doing?"]
    assert "### Domain facts (current, from the database)" in mine
    assert "- Alice Smith (customer, customers #c-1001): city Seattle" in mine
    assert "order SO-5002 (orders #5002: status backordered, total 18.0) placed by it" in mine
    assert "[memory said city Portland: superseded by the database]" in mine
    # a product is every customer's to read; of its orders, only hers show
    kettle = asked["c-1001 asks: Is the Blue Kettle in stock?"]
    assert "- Blue Kettle (product, products #p-1): price 39.5, stock 12" in kettle
    assert "SO-5001" in kettle
    assert "SO-5003" not in kettle  # Bob's order
    # another customer's row is no one else's: not Alice's to read, not Bob's to be told
    bobs = asked["c-1001 asks: Who does Bob Jones work for?"]
    assert "Domain facts" not in bobs
    assert "Initech" not in bobs
    hers = asked["c-1002 asks: What is Alice Smith's email?"]
    assert "Domain facts" not in hers
    assert "alice@example.com" not in hers
    conflicts = [line for line in out.splitlines() if "[trust_domain, resolved]" in line]
    assert len(conflicts) == 1
    assert "customers row c-1001 (Alice Smith) has city = 'Seattle'" in conflicts[0]
    assert (tmp_path / "shop.db").is_file()
    assert (tmp_path / "shop.toml").is_file()
