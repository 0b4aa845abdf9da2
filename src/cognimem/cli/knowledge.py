"""What the memory knows about a user: ``facts``, ``conflicts`` (and settling one) and
``stats``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from cognimem.cli.common import (
    AllUsersOption,
    DbOption,
    JsonOption,
    TenantOption,
    UserOption,
    checked,
    counted,
    out,
    print_json,
    user_scope,
    with_memory,
)
from cognimem.errors import InvalidInput, NotFound

if TYPE_CHECKING:
    from cognimem.memory import Memory
    from cognimem.models.knowledge import Fact, FactConflict


def facts(
    user: UserOption = None,
    all_users: AllUsersOption = False,
    key: Annotated[
        str | None,
        typer.Option(help="Only this key, or the keys it prefixes (user:preference:cuisine)."),
    ] = None,
    category: Annotated[
        list[str] | None,
        typer.Option(help="Only this category (identity, preference, ...; repeatable)."),
    ] = None,
    history: Annotated[
        bool, typer.Option("--history", help="Every version, superseded ones too.")
    ] = False,
    limit: Annotated[int, typer.Option(help="Most facts to list.")] = 1_000,
    as_json: JsonOption = False,
    tenant: TenantOption = "default",
    db: DbOption = None,
) -> None:
    """List a user's facts (or with --all-users every user's of the tenant), newest
    first: key = value, status, confidence, id."""

    scope = checked(lambda: {"tenant_id": tenant, **user_scope(user, all_users, "facts")})
    found = with_memory(
        db,
        lambda mem: mem.facts(
            key=key, categories=category, include_history=history, scope=scope, limit=limit
        ),
    )
    if as_json:
        print_json(found)
        return
    for fact in found:
        value = fact.value if fact.polarity else f"not {fact.value}"
        # tab-separated, as `keys list` writes (the console would expand the tabs)
        typer.echo(
            f"{fact.key} = {value}\t{fact.status}\tconfidence {fact.confidence:.2f}\t{fact.id}"
        )
    if not found:
        out.print("no facts")


def conflicts(
    user: UserOption = None,
    all_users: AllUsersOption = False,
    resolve: Annotated[
        str | None,
        typer.Option(
            metavar="KEY=VALUE",
            help="Settle the open conflict on KEY: the fact whose value is VALUE stands, "
            "the others are superseded by it.",
        ),
    ] = None,
    keep_both: Annotated[
        str | None,
        typer.Option(metavar="KEY", help="Settle the open conflict on KEY: every value stays."),
    ] = None,
    note: Annotated[str, typer.Option(help="Why (kept with the resolution).")] = "",
    include_resolved: Annotated[
        bool, typer.Option("--include-resolved", help="List resolved conflicts too.")
    ] = False,
    as_json: JsonOption = False,
    tenant: TenantOption = "default",
    db: DbOption = None,
) -> None:
    """List the contradictions between a user's facts (or with --all-users every
    user's of the tenant), or settle one with --resolve KEY=VALUE or --keep-both KEY."""
    if resolve is not None or keep_both is not None:
        _settle(resolve, keep_both, note, user, all_users, as_json, tenant, db)
        return

    def asked() -> dict[str, object]:
        if note:
            raise InvalidInput("--note goes with --resolve or --keep-both", field="note")
        return {"tenant_id": tenant, **user_scope(user, all_users, "conflicts")}

    scope = checked(asked)

    async def go(mem: Memory) -> list[tuple[FactConflict, list[Fact]]]:
        found = await mem.conflicts(open_only=not include_resolved, scope=scope)
        return [(c, await mem.store.get_facts(tenant, c.fact_ids)) for c in found]

    listed = with_memory(db, go)
    if as_json:
        print_json([c for c, _ in listed])
        return
    for conflict, between in listed:
        values = " | ".join(f.value for f in between)
        typer.echo(f"{conflict.key}: {values}\t{conflict.status}\t{conflict.id}")
    if not listed:
        out.print("no open conflicts" if not include_resolved else "no conflicts")


def _settle(
    resolve: str | None,
    keep_both: str | None,
    note: str,
    user: str | None,
    all_users: bool,
    as_json: bool,
    tenant: str,
    db: str | None,
) -> None:
    key, value = checked(lambda: _settling(resolve, keep_both))
    scope = checked(lambda: {"tenant_id": tenant, **user_scope(user, all_users, "conflicts")})

    async def go(mem: Memory) -> tuple[FactConflict, Fact | None]:
        conflict = _only_open(key, await mem.conflicts(scope=scope))
        between = await mem.store.get_facts(tenant, conflict.fact_ids)
        winner = None if value is None else _fact_of_value(conflict, between, value)
        done = await mem.resolve_conflict(
            conflict.id,
            winner_fact_id=None if winner is None else winner.id,
            note=note,
            tenant_id=tenant,
        )
        return done, winner

    done, winner = with_memory(db, go)
    if as_json:
        print_json(done)
    elif winner is None:
        out.print(f"resolved the conflict on {done.key}: every value stays", markup=False)
    else:
        out.print(f"resolved the conflict on {done.key}: {winner.value} stands", markup=False)


def _settling(resolve: str | None, keep_both: str | None) -> tuple[str, str | None]:
    """The key of the conflict to settle and the value that stands (None: every one)."""
    if resolve is None:
        assert keep_both is not None
        return keep_both, None
    if keep_both is not None:
        raise InvalidInput("pass --resolve or --keep-both, not both", field="resolve")
    key, sep, value = resolve.partition("=")
    if not sep or not key or not value:
        raise InvalidInput(f"--resolve takes KEY=VALUE, not {resolve!r}", field="resolve")
    return key, value


def _only_open(key: str, found: list[FactConflict]) -> FactConflict:
    """The one open conflict on ``key`` among ``found``."""
    on_key = [c for c in found if c.key == key]
    if not on_key:
        open_keys = ", ".join(sorted({c.key for c in found})) or "none"
        raise NotFound("open conflict on key", key, hint=f"open conflicts: {open_keys}")
    if len(on_key) > 1:
        users = ", ".join(sorted({c.scope.user_id or "(no user)" for c in on_key}))
        raise InvalidInput(
            f"{counted(len(on_key), 'open conflict')} on {key} (users {users}): "
            "name one user with --user",
            field="resolve",
        )
    return on_key[0]


def _fact_of_value(conflict: FactConflict, between: list[Fact], value: str) -> Fact:
    """The fact of ``conflict`` whose value is ``value`` (exactly, else ignoring case)."""
    exact = [f for f in between if f.value == value]
    folded = [f for f in between if f.value.casefold() == value.casefold()]
    for matching in (exact, folded):
        if len(matching) == 1:
            return matching[0]
    values = ", ".join(repr(f.value) for f in between)
    raise InvalidInput(
        f"the conflict on {conflict.key} is between {values}: {value!r} is not one of them",
        field="resolve",
    )


def stats(
    user: UserOption = None,
    all_users: AllUsersOption = False,
    as_json: JsonOption = False,
    tenant: TenantOption = "default",
    db: DbOption = None,
) -> None:
    """What a user's memory holds (or with --all-users every user's of the tenant):
    events, items by status and kind, facts by status, entities, relations, open
    conflicts, sessions."""

    scope = checked(lambda: {"tenant_id": tenant, **user_scope(user, all_users, "stats")})
    held = with_memory(db, lambda mem: mem.stats(scope=scope))
    if as_json:
        print_json(held)
        return
    for name, value in held.model_dump().items():
        if isinstance(value, dict):
            value = ", ".join(f"{k} {n}" for k, n in value.items()) or "0"
        out.print(f"{name.replace('_', ' ')}: {value}", markup=False)
