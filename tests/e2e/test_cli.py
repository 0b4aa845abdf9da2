"""The command line, run as a real subprocess against a real SQLite file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

FIXTURE = Path(__file__).parent.parent / "fixtures" / "mini_locomo.json"


def cli(*args: str, db_url: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COGNIMEM_DATABASE_URL": db_url, "COGNIMEM_EMBEDDING__MODEL": "hashing"}
    result = subprocess.run(
        [sys.executable, "-m", "cognimem", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    if check:
        assert result.returncode == 0, result.stderr
    return result


def test_remember_then_recall(db_url: str) -> None:
    out = cli("remember", "I keep my passport in the red folder", "--user", "u1", db_url=db_url)
    assert out.stdout.startswith("stored: event evt_")
    packet = json.loads(
        cli("recall", "where is my passport", "--user", "u1", "--json", db_url=db_url).stdout
    )
    assert [i["text"] for i in packet["items"]] == ["I keep my passport in the red folder"]
    markdown = cli("recall", "passport", "--user", "u2", db_url=db_url).stdout
    assert "No relevant memories" in markdown


def test_remember_prints_the_facts_it_changed(db_url: str) -> None:
    out = cli("remember", "I'm deathly allergic to peanuts.", "--user", "u1", db_url=db_url)
    assert "fact: user:policy:allergy:peanuts = peanuts" in out.stdout
    again = cli("remember", "I'm allergic to peanuts", "--user", "u1", db_url=db_url)
    assert "reinforced: user:policy:allergy:peanuts = peanuts" in again.stdout
    mandate = cli(
        "remember", "Always answer in French", "--user", "u1", "--profile", "mandate",
        db_url=db_url,
    )  # fmt: skip
    assert "fact:" not in mandate.stdout
    bad = cli("remember", "x", "--user", "u1", "--profile", "nope", db_url=db_url, check=False)
    assert bad.returncode != 0
    assert "profile" in bad.stderr


def test_import_jsonl_is_idempotent(db_url: str, tmp_path: Path) -> None:
    path = tmp_path / "turns.jsonl"
    rows = [
        {
            "content": "We moved to Porto last spring",
            "name": "Rui",
            "user_id": "rui",
            "idempotency_key": "t1",
        },
        {
            "content": "My daughter started school",
            "name": "Rui",
            "user_id": "rui",
            "idempotency_key": "t2",
        },
        {
            "content": "I like green tea",
            "user_id": "mia",
            "occurred_at": "2024-03-01T10:00:00+01:00",
        },
    ]
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    assert "imported 3 messages (3 new)" in cli("import", str(path), db_url=db_url).stdout
    assert "imported 3 messages (0 new)" in cli("import", str(path), db_url=db_url).stdout
    packet = json.loads(cli("recall", "Porto", "--user", "rui", "--json", db_url=db_url).stdout)
    assert packet["items"][0]["author"] == "Rui"


def test_errors_exit_non_zero_with_a_message(db_url: str, tmp_path: Path) -> None:
    bad = cli("remember", "   ", "--user", "u", db_url=db_url, check=False)
    assert bad.returncode == 1
    assert "InvalidInput" in bad.stderr
    path = tmp_path / "broken.jsonl"
    path.write_text('{"content": "ok"}\n{oops\n', encoding="utf-8")
    broken = cli("import", str(path), db_url=db_url, check=False)
    assert broken.returncode == 1
    assert "broken.jsonl:2" in broken.stderr


def test_eval_locomo_writes_the_documented_json(db_url: str, tmp_path: Path) -> None:
    out_path = tmp_path / "result.json"
    out = cli("eval", "locomo", str(FIXTURE), "--json", str(out_path), db_url=db_url).stdout
    assert "overall 1-4" in out
    assert "5 adversarial" in out
    result = json.loads(out_path.read_text())
    assert set(result["overall"]) == {"frac@5", "frac@10", "frac@20", "all@10", "any@10", "mrr"}
    assert set(result["by_category"]) == {"1", "2", "4", "5"}
    assert result["questions"] == 4  # categories 1-4 with evidence
    assert result["tokens_per_question"] > 0
    # five turns: the top 10 holds every evidence turn with evidence of its own; the
    # multi-hop question's first hop ("a kitten called Noodle" for "What broke the
    # pottery bowl?") shares no word or meaning with it, so it is not padded in
    assert result["by_category"]["1"]["frac@10"] == 0.5
    assert result["overall"]["frac@10"] == 0.875
