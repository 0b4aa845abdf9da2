"""``cognimem migrate``: bring a database's schema up to date."""

from __future__ import annotations

from cognimem.cli.common import DbOption, opened_store, out, run


def migrate(db: DbOption = None) -> None:
    """Apply the store's pending schema migrations (opening a database applies them too)
    and print the schema version it is at."""

    async def go() -> int:
        async with opened_store(db) as store:
            return await store.schema_version()

    version = run(go)
    out.print(f"database schema at version {version}")
