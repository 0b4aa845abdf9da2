"""Shared fixtures: real SQLite files, a throwaway PostgreSQL cluster per session, and
the deterministic hashing embedder.

Under pytest-xdist (`make test`) each worker is a process with a session of its own: its
own PostgreSQL cluster and Redis server on ports the kernel picks, and its own temporary
directories, so workers share no database, key, port or file.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import settings as hypothesis_settings

from cognimem import Memory, Settings
from cognimem.providers.fakes import HashingEmbedder
from tests import servers

# property tests check correctness, not speed: a busy 2-core CI machine must not fail
# them on hypothesis's per-example deadline. They draw the same examples on every run
# (derandomize), so a red run comes from the change under test, never from a new draw
# (the API fuzz test found a real bug that way, on one draw of many); the `explore`
# profile draws new examples (500 a test that sets no number): HYPOTHESIS_PROFILE=explore
# make test
hypothesis_settings.register_profile("cognimem", deadline=None, derandomize=True)
hypothesis_settings.register_profile("explore", deadline=None, max_examples=500)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "cognimem"))

# A read cuts a step at its time limit (2 s by default) and ranks without it: on a busy
# 2-core machine a vector step cut short turns a test's ranking into a coin toss (BM25
# alone ties an item with its neighbour, whose lexical context holds the same words).
# Every read in the suite, in this process and in every cognimem process a test starts
# (`child_env`), gets generous limits through the real settings; a test of the limits
# sets its own. A developer's environment may set other values.
LOADED_MACHINE_READ_LIMITS = {
    "COGNIMEM_RECALL__STEP_TIMEOUT_S": "30",
    "COGNIMEM_RECALL__BUDGET_S": "60",
}
for _name, _value in LOADED_MACHINE_READ_LIMITS.items():
    os.environ.setdefault(_name, _value)

T = TypeVar("T")
CONTRACT_DB = "cognimem_contract"
# back to a freshly migrated database: no rows, no vector index (the first write of a
# test builds it), identities restarted, no connection left over from an earlier test
RESET_SQL = """
SELECT pg_terminate_backend(pid) FROM pg_stat_activity
    WHERE datname = current_database() AND pid <> pg_backend_pid();
DO $$
DECLARE r record;
BEGIN
    FOR r IN SELECT indexname FROM pg_indexes
             WHERE schemaname = 'public' AND indexname LIKE 'items_embedding_hnsw_%' LOOP
        EXECUTE format('DROP INDEX %I', r.indexname);
    END LOOP;
    EXECUTE (SELECT 'TRUNCATE ' || string_agg(format('%I', tablename), ', ')
                    || ' RESTART IDENTITY'
             FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'schema_migrations');
END $$;
"""


def run_in_thread(make: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run a coroutine to completion on a private loop, from sync fixture code.

    A thread of its own, so the test's event loop (set up by pytest-asyncio) is
    neither reused nor replaced.
    """
    out: list[T] = []
    errors: list[BaseException] = []

    def target() -> None:
        try:
            out.append(asyncio.run(make()))
        except BaseException as exc:
            errors.append(exc)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if errors:
        raise errors[0]
    return out[0]


def child_env(**settings: str) -> dict[str, str]:
    """The environment of a cognimem process a test starts: this one's without the
    developer's COGNIMEM_* settings, with the suite's read limits, plus ``settings``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("COGNIMEM_")}
    env.update({name: os.environ[name] for name in LOADED_MACHINE_READ_LIMITS})
    env.update(settings)
    return env


def require_postgres() -> None:
    """Skip (or, with COGNIMEM_REQUIRE_SERVICES=1, fail) when PostgreSQL cannot run here."""
    servers.require("postgres")
    try:
        import asyncpg  # noqa: F401
    except ImportError:
        message = "postgres UNAVAILABLE: asyncpg is not installed (the `postgres` extra)"
        if os.environ.get("COGNIMEM_REQUIRE_SERVICES") == "1":
            pytest.fail(message, pytrace=False)
        pytest.skip(message)


@pytest.fixture(scope="session")
def postgres_server(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[servers.PostgresServer]:
    """One cluster per session (per xdist worker), with the contract database migrated."""
    require_postgres()
    from cognimem.store.postgres import PostgresStore

    server = servers.start_postgres(tmp_path_factory.mktemp("pg"))
    try:
        server.psql(f"CREATE DATABASE {CONTRACT_DB}")

        async def migrate() -> None:
            store = PostgresStore(server.admin_dsn(CONTRACT_DB), min_size=0, max_size=1)
            await store.open()
            await store.close()

        run_in_thread(migrate)
        yield server
    finally:
        server.destroy()


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[servers.RedisServer]:
    """One Redis per session (per xdist worker; its tests keep apart by key prefix)."""
    servers.require("redis")
    server = servers.start_redis(tmp_path_factory.mktemp("redis"))
    try:
        yield server
    finally:
        server.destroy()


@pytest.fixture
def postgres_dsn(postgres_server: servers.PostgresServer) -> str:
    """The contract database, emptied for this test (tens of ms; a fresh copy of a
    template database costs five times more)."""
    import asyncpg

    dsn = postgres_server.admin_dsn(CONTRACT_DB)

    async def reset() -> None:
        conn = await asyncpg.connect(dsn, timeout=10)
        try:
            await conn.execute(RESET_SQL)
        finally:
            await conn.close()

    run_in_thread(reset)
    return dsn


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'memory.db'}"


@pytest.fixture(params=["sqlite", "postgres"])
def memory_url(request: pytest.FixtureRequest, db_url: str) -> str:
    """The database of each backend for the end-to-end scenarios through ``Memory``."""
    if request.param == "sqlite":
        return db_url
    return str(request.getfixturevalue("postgres_dsn"))


@pytest.fixture
async def memory(memory_url: str) -> AsyncIterator[Memory]:
    async with Memory.open(memory_url, settings=Settings(), embedder=HashingEmbedder()) as mem:
        yield mem
