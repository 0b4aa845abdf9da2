"""``cognimem erase --user U`` (or ``--agent A``, ``--namespace-level NS``,
``--organisation``): erase a user or a shared level from a tenant, after a
confirmation."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated

import typer

from cognimem.cli.common import (
    DbOption,
    JsonOption,
    NamespaceLevelOption,
    OrganisationOption,
    TenantOption,
    err,
    failed,
    level_flags,
    out,
    print_json,
    with_memory,
)
from cognimem.errors import InvalidInput

if TYPE_CHECKING:
    from cognimem.memory import Memory
    from cognimem.models.admin import ErasureReport


def erase(
    user: Annotated[str | None, typer.Option("--user", "-u", help="The user to erase.")] = None,
    agent: Annotated[
        str | None, typer.Option("--agent", help="The agent whose own level to erase (no --user).")
    ] = None,
    organisation: OrganisationOption = False,
    namespace_level: NamespaceLevelOption = None,
    yes: Annotated[
        bool, typer.Option("--yes", "-y", help="Erase without asking (needed with no terminal).")
    ] = False,
    as_json: JsonOption = False,
    tenant: TenantOption = "default",
    db: DbOption = None,
) -> None:
    """Erase everything stored of a user of the tenant, in every namespace (events,
    memories, facts, entities, relations, conflicts, history, sessions, queued jobs,
    cached embeddings), and say what was erased. With --agent alone, the agent's own
    level instead (its memories and procedures, no user's); with --namespace-level NS,
    that namespace's level; with --organisation, the organisation's level (every
    namespace's). It cannot be undone: it asks first, unless --yes."""
    whose, named = _whose(user, agent, organisation, namespace_level)
    if not yes:
        _confirm(named, tenant)

    async def go(mem: Memory) -> ErasureReport:
        if user is not None:
            return await mem.erase_user(user, tenant_id=tenant)
        level: dict[str, str | None] = {"agent_id": agent}
        level.update(level_flags(organisation, namespace_level, "erase"))
        return await mem.erase_level(scope={"tenant_id": tenant, **level})

    report = with_memory(db, go)
    if as_json:
        print_json(report)
        return
    removed = ", ".join(f"{table} {n}" for table, n in report.removed.items() if n)
    out.print(
        f"erased {whose} of tenant {tenant}: {removed or 'nothing was stored of them'}",
        markup=False,
    )


def _whose(
    user: str | None, agent: str | None, organisation: bool, namespace_level: str | None
) -> tuple[str, str]:
    """What the command erases, in words (plain, and with the id quoted): exactly one
    of --user, --agent, --namespace-level and --organisation (a user's turns with one
    agent are not a level of their own)."""
    named = (user is not None, agent is not None, namespace_level is not None, organisation)
    if sum(named) != 1:
        raise failed(
            InvalidInput(
                "erase: name exactly one of --user, --agent (the agent's own level),"
                " --namespace-level and --organisation",
                field="user",
            )
        )
    if user is not None:
        return f"user {user}", f"user {user!r}"
    if agent is not None:
        return f"the level of agent {agent}", f"the level of agent {agent!r}"
    if namespace_level is not None:
        return (
            f"the level of namespace {namespace_level}",
            f"the level of namespace {namespace_level!r}",
        )
    return "the organisation's level", "the organisation's level"


def _confirm(named: str, tenant: str) -> None:
    """Ask on the terminal; with none (a script, a pipe) refuse: only --yes erases."""
    if not sys.stdin.isatty():
        raise failed(
            InvalidInput(
                f"erase deletes everything of {named} of tenant {tenant!r} for good: "
                "pass --yes to erase without a terminal to confirm on",
                field="yes",
            )
        )
    # asked on stderr and read by hand: stdout carries only the answer (e.g. --json)
    err.print(
        f"Erase everything of {named} of tenant {tenant!r}? It cannot be undone [y/N]: ",
        end="",
        markup=False,
    )
    if sys.stdin.readline().strip().casefold() not in ("y", "yes"):
        err.print("nothing erased", markup=False)
        raise typer.Exit(1)
