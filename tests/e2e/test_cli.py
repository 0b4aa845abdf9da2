"""The command line against a real SQLite file: the real Typer app in this process, and
as a real ``cognimem`` subprocess in the entry point's own tests (and wherever the
terminal or the environment is what is tested)."""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.cli_runner import cognimem, cognimem_here

FIXTURE = Path(__file__).parent.parent / "fixtures" / "mini_locomo.json"


def cli(
    *args: str, db_url: str, check: bool = True, terminal: bool = False, process: bool = False
) -> subprocess.CompletedProcess[str]:
    """``cognimem ARGS`` in this process; in a ``cognimem`` process of its own with
    ``process`` (the entry point's own tests) or ``terminal`` (rich draws as on a
    terminal: progress bars)."""
    if terminal:
        drawn = {"TTY_COMPATIBLE": "1", "NO_COLOR": "1"}
        return cognimem(*args, db_url=db_url, check=check, **drawn)
    if process:
        return cognimem(*args, db_url=db_url, check=check)
    return cognimem_here(*args, db_url=db_url, check=check)


def test_remember_then_recall(db_url: str) -> None:
    out = cli(
        "remember",
        "I keep my passport in the red folder",
        "--user",
        "u1",
        db_url=db_url,
        process=True,
    )
    assert out.stdout.startswith("stored: event evt_")
    packet = json.loads(
        cli(
            "recall", "where is my passport", "--user", "u1", "--json", db_url=db_url, process=True
        ).stdout
    )
    assert [i["text"] for i in packet["items"]] == ["I keep my passport in the red folder"]
    markdown = cli("recall", "passport", "--user", "u2", db_url=db_url, process=True).stdout
    assert "No relevant memories" in markdown


def test_recall_needs_a_user_or_all_users(db_url: str) -> None:
    cli("remember", "I keep my passport in the red folder", "--user", "u1", db_url=db_url)
    missing = cli("recall", "passport", db_url=db_url, check=False)
    assert missing.returncode == 1
    assert "--user" in missing.stderr
    assert "--all-users" in missing.stderr
    empty = cli("recall", "passport", "--user", "", db_url=db_url, check=False)
    assert empty.returncode == 1
    assert "scope.user_id" in empty.stderr
    both = cli("recall", "passport", "--user", "u1", "--all-users", db_url=db_url, check=False)
    assert both.returncode == 1
    assert "not both" in both.stderr
    packet = json.loads(cli("recall", "passport", "--all-users", "--json", db_url=db_url).stdout)
    assert [i["text"] for i in packet["items"]] == ["I keep my passport in the red folder"]


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
    bad = cli("remember", "   ", "--user", "u", db_url=db_url, process=True, check=False)
    assert bad.returncode == 1
    assert "InvalidInput" in bad.stderr
    path = tmp_path / "broken.jsonl"
    path.write_text('{"content": "ok"}\n{oops\n', encoding="utf-8")
    broken = cli("import", str(path), db_url=db_url, process=True, check=False)
    assert broken.returncode == 1
    assert "broken.jsonl:2" in broken.stderr


def test_eval_locomo_writes_the_documented_json(db_url: str, tmp_path: Path) -> None:
    out_path = tmp_path / "result.json"
    out = cli(
        "eval", "locomo", str(FIXTURE), "--json", str(out_path), db_url=db_url, process=True
    ).stdout
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


def test_eval_locomo_consolidate_consolidates_before_asking(tmp_path: Path) -> None:
    db = tmp_path / "locomo.db"
    out_path = tmp_path / "result.json"
    cli(
        "eval", "locomo", str(FIXTURE), "--consolidate", "--db", f"sqlite:///{db}",
        "--json", str(out_path), db_url=f"sqlite:///{tmp_path / 'unused.db'}",
    )  # fmt: skip
    result = json.loads(out_path.read_text())
    assert result["consolidated"] is True
    assert result["questions"] == 4
    # the turns were consolidated into summaries, which reads keep in their section:
    # the ranked evidence is what it is without consolidation
    assert result["overall"]["frac@10"] == 0.875
    conn = sqlite3.connect(db)
    try:
        kinds = dict(conn.execute("SELECT kind, count(*) FROM items GROUP BY kind").fetchall())
        unconsolidated = conn.execute(
            "SELECT count(*) FROM items WHERE kind = 'episode' AND consolidated = 0"
        ).fetchone()[0]
    finally:
        conn.close()
    assert kinds["summary"] >= 1
    assert unconsolidated == 0


def test_tenant_scopes_remember_recall_and_import(db_url: str, tmp_path: Path) -> None:
    cli("remember", "My cat is called Noodle", "--user", "ada", "--tenant", "demo", db_url=db_url)
    path = tmp_path / "turns.jsonl"
    path.write_text(json.dumps({"content": "I collect old maps", "user_id": "ada"}) + "\n")
    cli("import", str(path), "--tenant", "demo", db_url=db_url)
    demo = cli("recall", "cat called", "--user", "ada", "--tenant", "demo", "--json", db_url=db_url)
    assert json.loads(demo.stdout)["items"][0]["text"] == "My cat is called Noodle"
    maps = cli("recall", "old maps", "--user", "ada", "-t", "demo", "--json", db_url=db_url)
    assert "I collect old maps" in [i["text"] for i in json.loads(maps.stdout)["items"]]
    # the default tenant holds none of it
    default = cli("recall", "cat called Noodle maps", "--user", "ada", "--json", db_url=db_url)
    assert json.loads(default.stdout)["items"] == []


def _records(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_export_then_import_into_another_database(db_url: str, tmp_path: Path) -> None:
    path = tmp_path / "turns.jsonl"
    turns = [{"content": f"Note {n}: the heron came back to pond {n}"} for n in range(350)]
    turns.append({"content": "I'm allergic to shellfish."})
    path.write_text("\n".join(json.dumps(t) for t in turns) + "\n", encoding="utf-8")
    loaded = cli("import", str(path), "-u", "ada", "-t", "demo", db_url=db_url, terminal=True)
    assert re.search(r"importing .* 351/351", loaded.stderr), loaded.stderr  # a progress bar
    cli(
        "remember", "Bob's secret recipe uses saffron", "--user", "bob", "-t", "demo", db_url=db_url
    )

    exported = cli("export", "--user", "ada", "--tenant", "demo", db_url=db_url)
    records = _records(exported.stdout)
    assert records[0]["type"] == "header"
    assert sum(r["type"] == "event" for r in records) == 351
    assert "saffron" not in exported.stdout  # bob's memories stay out of ada's export
    assert f"exported {len(records)} records to standard output" in exported.stderr
    out_file = tmp_path / "ada.jsonl"
    written = cli(
        "export", "-u", "ada", "-t", "demo", "--out", str(out_file), db_url=db_url, terminal=True
    )
    assert re.search(rf"exporting .* {len(records)}/\?", written.stderr), written.stderr
    assert _records(out_file.read_text())[1:] == records[1:]  # the header's time differs
    assert str(out_file) in written.stderr
    assert not (tmp_path / "ada.jsonl.partial").exists()

    other = f"sqlite:///{tmp_path / 'other.db'}"
    imported = cli("import", str(out_file), "--tenant", "demo", db_url=other)
    assert f"imported {len(records)} export records into tenant demo" in imported.stdout
    assert "events 351" in imported.stdout
    packet = json.loads(
        cli("recall", "shellfish allergy", "-u", "ada", "-t", "demo", "--json", db_url=other).stdout
    )
    assert packet["sections"]["must_follow"] or "shellfish" in json.dumps(packet["items"])
    again = cli("import", str(out_file), "--tenant", "demo", db_url=other)
    assert "(new: nothing)" in again.stdout
    few = tmp_path / "few.jsonl"
    few.write_text(json.dumps({"content": "I like tea"}) + "\n", encoding="utf-8")
    quiet = cli("import", str(few), "--user", "ada", db_url=other, terminal=True)
    assert "importing" not in quiet.stderr  # no bar for a few rows
    # what the second database exports is what the first one held (under ids of its own:
    # an import makes every id the importing tenant's)
    copied = _records(cli("export", "-u", "ada", "-t", "demo", db_url=other).stdout)
    assert sorted(r["data"]["content"] for r in copied if r["type"] == "event") == sorted(
        r["data"]["content"] for r in records if r["type"] == "event"
    )


def test_import_refuses_a_file_that_mixes_exports_and_messages(db_url: str, tmp_path: Path) -> None:
    cli("remember", "I live in Leeds", "--user", "ada", db_url=db_url)
    records = cli("export", "--user", "ada", db_url=db_url).stdout
    path = tmp_path / "mixed.jsonl"
    path.write_text(records + json.dumps({"content": "I like tea"}) + "\n", encoding="utf-8")
    mixed = cli("import", str(path), db_url=db_url, check=False)
    assert mixed.returncode == 1
    assert f"mixed.jsonl:{len(_records(records)) + 1}" in mixed.stderr
    assert "not both" in mixed.stderr
    path.write_text(records, encoding="utf-8")
    with_user = cli("import", str(path), "--user", "bob", db_url=db_url, check=False)
    assert with_user.returncode == 1
    assert "--user applies to messages" in with_user.stderr


def test_export_and_forget_refuse_to_run_without_a_user(db_url: str) -> None:
    cli("remember", "I live in Leeds", "--user", "ada", db_url=db_url)
    for args in (("export",), ("forget", "--query", "Leeds")):
        refused = cli(*args, db_url=db_url, check=False)
        assert refused.returncode == 1
        assert refused.stdout == ""
        assert "InvalidInput" in refused.stderr
        assert "--user" in refused.stderr
    still = cli("recall", "Leeds", "--user", "ada", "--json", db_url=db_url)
    assert [i["text"] for i in json.loads(still.stdout)["items"]] == ["I live in Leeds"]


def test_export_and_forget_span_the_tenant_only_when_told(db_url: str) -> None:
    cli("remember", "I live in Leeds", "--user", "ada", db_url=db_url)
    cli("remember", "I live in York", "--user", "bob", db_url=db_url)
    exported = cli("export", "--all-users", db_url=db_url).stdout.splitlines()
    events = [json.loads(line) for line in exported if json.loads(line)["type"] == "event"]
    assert sorted(e["data"]["content"] for e in events) == ["I live in Leeds", "I live in York"]
    dry = cli("forget", "--query", "live", "--all-users", "--dry-run", db_url=db_url)
    assert dry.stdout.startswith("would delete 2 memories\n")


def test_forget_dry_run_then_forget(db_url: str) -> None:
    for text in ("My old address was 4 Elm Street", "I play the cello on Sundays"):
        cli("remember", text, "--user", "ada", "-t", "demo", db_url=db_url)
    args = ("--user", "ada", "--tenant", "demo")
    dry = cli("forget", "--query", "old address Elm Street", *args, "--dry-run", db_url=db_url)
    assert dry.stdout.startswith("would delete 1 memory\n")
    assert "My old address was 4 Elm Street" in dry.stdout
    [item_id] = re.findall(r"mem_\w+", dry.stdout)
    recalled = cli("recall", "Elm Street", *args, "--json", db_url=db_url)
    assert "My old address was 4 Elm Street" in recalled.stdout  # a dry run changes nothing

    done = cli("forget", "--id", item_id, "--mode", "archive", *args, db_url=db_url, process=True)
    assert done.stdout.startswith(f"archived 1 memory\n  {item_id}\n")
    after = json.loads(cli("recall", "Elm Street", *args, "--json", db_url=db_url).stdout)
    assert "Elm Street" not in json.dumps(after["items"])
    cello = json.loads(cli("recall", "cello", *args, "--json", db_url=db_url).stdout)
    assert [i["text"] for i in cello["items"]] == ["I play the cello on Sundays"]

    since = cli(
        "forget", "--since", "2000-01-01T00:00:00+00:00", "--mode", "archive", *args,
        "--dry-run", db_url=db_url,
    )  # fmt: skip
    assert since.stdout.startswith("would archive 1 memory\n")  # the other one is archived
    assert "I play the cello on Sundays" in since.stdout
    naive = cli("forget", "--since", "2000-01-01T00:00:00", *args, db_url=db_url, check=False)
    assert naive.returncode == 1
    assert "no UTC offset" in naive.stderr
    bad_mode = cli("forget", "--id", item_id, "--mode", "shred", *args, db_url=db_url, check=False)
    assert bad_mode.returncode == 1
    assert "mode must be one of delete, archive, silence" in bad_mode.stderr


def test_migrate_brings_a_new_database_to_the_latest_schema(tmp_path: Path) -> None:
    from cognimem.store.sqlite.migrations import MIGRATIONS

    path = tmp_path / "fresh.db"
    done = cli("migrate", db_url=f"sqlite:///{path}", process=True)
    latest = max(version for version, _, _ in MIGRATIONS)
    assert done.stdout == f"database schema at version {latest}\n"
    with sqlite3.connect(path) as conn:
        applied = {row[0] for row in conn.execute("SELECT version FROM schema_migrations")}
    assert applied == {version for version, _, _ in MIGRATIONS}
    again = cli("migrate", db_url=f"sqlite:///{path}", process=True)
    assert again.stdout == done.stdout


def test_eval_locomo_dev_evaluates_the_dev_five_only(db_url: str, tmp_path: Path) -> None:
    sample = json.loads(FIXTURE.read_text())[0]
    ids = ["conv-26", "conv-30", "conv-41", "conv-42", "conv-43", "conv-44"]
    full = tmp_path / "locomo10.json"
    full.write_text(json.dumps([{**sample, "sample_id": i} for i in ids]), encoding="utf-8")
    out_path = tmp_path / "dev.json"
    cli("eval", "locomo", str(full), "--dev", "--json", str(out_path), db_url=db_url)
    assert json.loads(out_path.read_text())["questions"] == 5 * 4  # conv-44 left out
    partial = tmp_path / "partial.json"
    partial.write_text(json.dumps([{**sample, "sample_id": "conv-26"}]), encoding="utf-8")
    lacking = cli("eval", "locomo", str(partial), "--dev", db_url=db_url, check=False)
    assert lacking.returncode == 1
    assert "lacks conv-30, conv-41, conv-42, conv-43 of the dev five" in lacking.stderr


def test_recall_takes_a_preset_and_ranking_overrides(db_url: str) -> None:
    for text in ("My dog Rex loves the park", "I walk my dog Rex in the park every morning"):
        cli("remember", text, "--user", "u1", db_url=db_url)
    args = ("recall", "dog park", "--user", "u1", "--json")
    plain = json.loads(cli(*args, db_url=db_url).stdout)
    assert len(plain["items"]) == 2
    assert plain["recall_config"] is None
    ranked = cli(
        *args, "--preset", "precise", "--rank", "episode_floor=1", "--rank",
        "rerank.graph=0.25", "--explain", db_url=db_url,
    )  # fmt: skip
    packet = json.loads(ranked.stdout)
    assert [i["id"] for i in packet["items"]] == [plain["items"][0]["id"]]
    config = packet["recall_config"]
    assert (config["name"], config["episode_floor"], config["rerank"]["graph"]) == (
        "precise",
        1.0,
        0.25,
    )
    bad = cli(*args, "--rank", "rerank.graph=-1", db_url=db_url, check=False)
    assert bad.returncode == 1
    assert "ranking.rerank.graph" in bad.stderr
    malformed = cli(*args, "--rank", "graph", db_url=db_url, check=False)
    assert malformed.returncode == 1
    assert "FIELD=VALUE" in malformed.stderr


def test_counts_agree_with_their_nouns_and_lines_stay_whole(
    db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "60")
    path = tmp_path / "one.jsonl"
    path.write_text('{"content": "I like green tea", "user_id": "mia"}\n', encoding="utf-8")
    assert (
        cli("import", str(path), db_url=db_url, process=True).stdout
        == "imported 1 message (1 new)\n"
    )
    nobody = cli("export", "--user", "nobody", db_url=db_url, process=True)
    assert "exported 1 record to standard output" in nobody.stderr
    # a line longer than the terminal is not broken in two
    said = cli(
        "remember", "My sister lives in Boston", "--user", "mia", db_url=db_url, process=True
    )
    assert re.fullmatch(r"stored: event evt_\w+, items mem_\w+", said.stdout.splitlines()[0])


def test_an_import_with_a_bad_line_stores_nothing(db_url: str, tmp_path: Path) -> None:
    path = tmp_path / "turns.jsonl"
    turns: list[dict[str, Any]] = [
        {"content": f"Note {n}: the heron came back"} for n in range(300)
    ]
    turns[249]["content"] = "   "  # line 250
    path.write_text("\n".join(json.dumps(t) for t in turns) + "\n", encoding="utf-8")
    refused = cli("import", str(path), "-u", "ada", db_url=db_url, check=False)
    assert refused.returncode == 1
    assert "line 250: content is empty" in refused.stderr, refused.stderr
    # no batch before the bad line was written: fixed, the file imports once, whole
    assert _records(cli("export", "--user", "ada", db_url=db_url).stdout)[1:] == []
    turns[249]["content"] = "Note 249: the heron came back"
    path.write_text("\n".join(json.dumps(t) for t in turns) + "\n", encoding="utf-8")
    assert (
        "imported 300 messages (300 new)"
        in cli("import", str(path), "-u", "ada", db_url=db_url).stdout
    )
