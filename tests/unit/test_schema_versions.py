"""Schema versions as one module each (store/schema_versions.py): the number and name
come from the file, in version order, and a packaging mistake stops the load."""

from __future__ import annotations

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
