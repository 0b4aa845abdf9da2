"""The shop fixture of the domain layer's tests: the memory store and the shop's domain
database on each backend (SQLite files; PostgreSQL, the shop in a second database of
the test cluster)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import domain_shop, servers
from tests.conftest import run_in_thread
from tests.domain_shop import Shop

DOMAIN_DB = "domain_shop"


@pytest.fixture(scope="session")
def domain_postgres(postgres_server: servers.PostgresServer) -> str:
    """A second database in the test cluster, for the shop."""
    postgres_server.psql(f"CREATE DATABASE {DOMAIN_DB}")
    return postgres_server.admin_dsn(DOMAIN_DB)


@pytest.fixture(params=["sqlite", "postgres"])
def shop(request: pytest.FixtureRequest, tmp_path: Path, db_url: str) -> Shop:
    if request.param == "sqlite":
        domain_url = domain_shop.create_sqlite(tmp_path / "shop.db")
        return Shop("sqlite", db_url, domain_url, tmp_path)
    memory_url = str(request.getfixturevalue("postgres_dsn"))
    dsn = str(request.getfixturevalue("domain_postgres"))
    domain_url = run_in_thread(lambda: domain_shop.create_postgres(dsn))
    return Shop("postgres", memory_url, domain_url, tmp_path)
