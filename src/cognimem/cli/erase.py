"""``cognimem erase --user U``: erase a user from a tenant, after a confirmation."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated

import typer

from cognimem.cli.common import (
    DbOption,
    JsonOption,
    TenantOption,
    err,
    failed,
    out,
    print_json,
    run,
)
from cognimem.errors import InvalidInput

if TYPE_CHECKING:
    from cognimem.models.admin import ErasureReport


def erase(
    user: Annotated[str, typer.Option("--user", "-u", help="The user to erase.")],
    yes: Annotated[
        bool, typer.Option("--yes", "-y", help="Erase without asking (needed with no terminal).")
    ] = False,
    as_json: JsonOption = False,
    tenant: TenantOption = "default",
    db: DbOption = None,
) -> None:
    """Erase everything stored of a user of the tenant, in every namespace (events,
    memories, facts, entities, relations, conflicts, history, sessions, queued jobs,
    cached embeddings), and say what was erased. It cannot be undone: it asks first,
    unless --yes."""
    if not yes:
        _confirm(user, tenant)

    async def go() -> ErasureReport:
        from cognimem.memory import Memory

        async with Memory.open(db) as mem:
            return await mem.erase_user(user, tenant_id=tenant)

    report = run(go)
    if as_json:
        print_json(report)
        return
    removed = ", ".join(f"{table} {n}" for table, n in report.removed.items() if n)
    out.print(
        f"erased user {user} of tenant {tenant}: {removed or 'nothing was stored of them'}",
        markup=False,
    )


def _confirm(user: str, tenant: str) -> None:
    """Ask on the terminal; with none (a script, a pipe) refuse: only --yes erases."""
    if not sys.stdin.isatty():
        raise failed(
            InvalidInput(
                f"erase deletes everything of user {user!r} of tenant {tenant!r} for good: "
                "pass --yes to erase without a terminal to confirm on",
                field="yes",
            )
        )
    # asked on stderr and read by hand: stdout carries only the answer (e.g. --json)
    err.print(
        f"Erase everything of user {user!r} of tenant {tenant!r}? It cannot be undone [y/N]: ",
        end="",
        markup=False,
    )
    if sys.stdin.readline().strip().casefold() not in ("y", "yes"):
        err.print("nothing erased", markup=False)
        raise typer.Exit(1)
