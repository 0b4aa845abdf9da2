"""The shop example docs/domain.md walks through runs as the docs say, and its output
shows what they show."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.conftest import child_env

ROOT = Path(__file__).resolve().parents[2]


def test_the_shop_example_shows_domain_facts_and_a_trust_domain_conflict(
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
    assert "### Domain facts (current, from the database)" in out
    assert "- Alice Smith (customer, customers #c-1001): city Seattle" in out
    assert "order SO-5002 (orders #5002: status backordered, total 18.0) placed by it" in out
    assert "[memory said city Portland: superseded by the database]" in out
    assert "[memory said employer Hooli: superseded by the database]" in out
    conflicts = [line for line in out.splitlines() if "[trust_domain, resolved]" in line]
    assert len(conflicts) == 2
    assert (tmp_path / "shop.db").is_file()
    assert (tmp_path / "shop.toml").is_file()
