"""Schema versions as one module each (store/schema_versions.py): the number and name
come from the file, in version order, and a packaging mistake stops the load."""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import pytest

from cognimem.store.postgres.migrations import MIGRATIONS as POSTGRES
from cognimem.store.schema_versions import load_versions
from cognimem.store.sqlite.migrations import MIGRATIONS as SQLITE


def _package(tmp_path: Path, name: str, files: dict[str, str]) -> list[str]:
    root = tmp_path / name
    root.mkdir()
    (root / "__init__.py").write_text("")
    for file, text in files.items():
        (root / file).write_text(text)
    sys.path.insert(0, str(tmp_path))
    return [str(root)]


def test_versions_come_from_the_files_in_number_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "path", list(sys.path))
    path = _package(
        tmp_path,
        "versions_ok",
        {
            "v10_later_one.py": 'SQL = "CREATE TABLE b (x int)"\n',
            "v02_first_one.py": 'SQL = "CREATE TABLE a (x int)"\n',
            "helpers.py": "X = 1\n",  # not a version: ignored
        },
    )
    assert load_versions("versions_ok", path) == [
        (2, "first_one", "CREATE TABLE a (x int)"),
        (10, "later_one", "CREATE TABLE b (x int)"),
    ]


@pytest.mark.parametrize(
    ("files", "message"),
    [
        ({"v03_a.py": 'SQL = "x"\n', "v3_b.py": 'SQL = "y"\n'}, "two modules"),
        ({"v04_empty.py": 'SQL = "  "\n'}, "no SQL"),
        ({"v05_none.py": "OTHER = 1\n"}, "no SQL"),
    ],
)
def test_a_packaging_mistake_stops_the_load(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str], message: str
) -> None:
    monkeypatch.setattr(sys, "path", list(sys.path))
    name = f"versions_bad_{abs(hash(tuple(files))) % 10**6}"
    with pytest.raises(RuntimeError, match=message):
        load_versions(name, _package(tmp_path, name, files))


@pytest.mark.parametrize("migrations", [SQLITE, POSTGRES], ids=["sqlite", "postgres"])
def test_each_backend_has_its_versions_once_and_in_order(
    migrations: list[tuple[int, str, str]],
) -> None:
    versions = [version for version, _, _ in migrations]
    assert versions == sorted(set(versions))
    assert versions[0] == 1
    assert len(versions) >= 18
    assert all(sql.strip() for _, _, sql in migrations)


# the first 16 hex digits of the sha256 of the SQL each released migration runs. A
# released migration never changes: a database that ran it keeps what it ran, so a helper
# may build its SQL (store/migration_sql.py) only while the text stays the same to the
# byte. A migration's line is added here once it is released.
_RELEASED_SQLITE = {
    1: "a247d2905ac1b849",  # events_items_fts_cache
    2: "d70d664e2d5a114c",  # items_lexical_filter
    3: "a8d8406dc6ddd109",  # knowledge
    4: "b37c54c0303af13e",  # fact_versions
    5: "e2810a63b3656604",  # relations_by_user
    6: "cf2506ce7a79eab6",  # api_keys
    7: "85bde8485b4226ee",  # sessions
    8: "1a2520fa516ab517",  # drop_items_lexical_filter
    9: "7ed8ded06e46811e",  # one_subject_for_the_user
    10: "25601668e6ecdaf0",  # event_jobs
    11: "86301429f188a0ef",  # item_event_period
    12: "858cabe2470cca4b",  # lifecycle_runs
    13: "ecaafcb32f27a1b0",  # item_novelty
    14: "2094025d19ce5df7",  # item_usage
    15: "99f4795f4e278c0b",  # procedures
    18: "88210ba2f7ea6819",  # fact_provenance
    19: "6b836471d5ddc947",  # fact_times
    20: "1600fa4e398598f8",  # items_kind
    21: "ace4c6eab6e20680",  # api_key_levels
    22: "9ef0cd3afcd79be8",  # procedure_agents
    25: "177536d56c6a1fd4",  # items_shared_level
}
_RELEASED_POSTGRES = {
    1: "4b4a547287ab27df",  # events_items_tsvector_cache
    3: "c30d15dbfbbb06ab",  # knowledge
    5: "cd266bd0bd236c8e",  # relations_by_user
    6: "19dd2ba49cb383f7",  # api_keys
    7: "034733327e45b637",  # sessions
    9: "b8736789723601a4",  # one_subject_for_the_user
    10: "704dd935d5080afa",  # event_jobs
    11: "08c5f4a0cae255f8",  # item_event_period
    12: "c83ba6c16f9df637",  # lifecycle_runs
    13: "9bae4b44074d0d95",  # item_novelty
    14: "4d7cff5d007130da",  # item_usage
    15: "b8a2fecd0df3375f",  # procedures
    16: "1db2f8f653480012",  # item_search_stats
    17: "fbf0304c54cf5bee",  # item_change_seq
    18: "e4e5e04a62071f8a",  # fact_provenance
    19: "87d586c88e6ed5ff",  # fact_times
    21: "9806b69aad32979f",  # api_key_levels
    22: "c855850b632c58fc",  # procedure_agents
    23: "bd5bafd620c2fc8c",  # drop_sql_search
    25: "177536d56c6a1fd4",  # items_shared_level
    26: "1b48c83611f8e52f",  # vectors_inline
}


@pytest.mark.parametrize(
    ("migrations", "released"),
    [(SQLITE, _RELEASED_SQLITE), (POSTGRES, _RELEASED_POSTGRES)],
    ids=["sqlite", "postgres"],
)
def test_a_released_migration_runs_the_sql_it_was_released_with(
    migrations: list[tuple[int, str, str]], released: dict[int, str]
) -> None:
    found = {v: hashlib.sha256(sql.encode()).hexdigest()[:16] for v, _, sql in migrations}
    assert {v: found.get(v) for v in released} == released
