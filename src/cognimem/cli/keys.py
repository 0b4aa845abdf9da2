"""``cognimem keys``: HTTP API keys, managed with database access as the authority."""

from __future__ import annotations

import sys
from datetime import UTC, datetime, timedelta
from typing import Annotated

import typer

from cognimem.cli.common import DbOption, err, opened_store, run
from cognimem.models.admin import ApiKey, KeyLevel


def _key_line(key: ApiKey) -> str:
    state = "revoked" if key.revoked_at else "active"
    if key.revoked_at is None and key.expires_at is not None:
        state = f"expires {key.expires_at.isoformat()}"
    limit = key.rate_limit_per_minute or "default"
    bound = key.user_id or key.agent_id
    level = key.level.value if bound is None else f"{key.level.value} {bound}"
    return (
        f"{key.id}\t{key.tenant_id}\t{key.prefix}…\t{key.name or '-'}\t{state}"
        f"\twrites {level}\trate limit {limit}/min\tcreated {key.created_at.isoformat()}"
    )


def keys_create(
    tenant: Annotated[str, typer.Option("--tenant", "-t", help="Tenant the key acts for.")],
    name: Annotated[str, typer.Option(help="A label to tell keys apart.")] = "",
    expires_in_days: Annotated[
        float | None, typer.Option(help="Expire the key after this many days.", min=0.001)
    ] = None,
    rate_limit: Annotated[
        int | None,
        typer.Option(
            help="Requests per minute (default: COGNIMEM_AUTH__RATE_LIMIT_PER_MINUTE).", min=1
        ),
    ] = None,
    level: Annotated[
        KeyLevel,
        typer.Option(
            help="What the key may write: organisation (every level of the tenant), agent"
            " (only --agent's memory) or user (only --user's memory).",
        ),
    ] = KeyLevel.ORGANISATION,
    user: Annotated[
        str | None, typer.Option("--user", "-u", help="The user a user key is bound to.")
    ] = None,
    agent: Annotated[
        str | None, typer.Option("--agent", help="The agent an agent key is bound to.")
    ] = None,
    db: DbOption = None,
) -> None:
    """Create an API key for a tenant and print its secret (shown this once only)."""
    from cognimem.api.auth import issue_key

    async def go() -> tuple[ApiKey, str]:
        now = datetime.now(UTC)
        expires = None if expires_in_days is None else now + timedelta(days=expires_in_days)
        async with opened_store(db) as store:
            return await issue_key(
                store,
                tenant,
                name=name,
                expires_at=expires,
                rate_limit_per_minute=rate_limit,
                level=level,
                user_id=user,
                agent_id=agent,
                now=now,
            )

    key, secret = run(go)
    # two short lines: the warning stays whole on a narrow terminal
    err.print(
        f"created key {key.id} for tenant {key.tenant_id} ({key.level.value} level)",
        markup=False,
    )
    err.print("the secret is shown only once:")
    sys.stdout.write(f"id: {key.id}\nsecret: {secret}\n")


def keys_list(
    tenant: Annotated[str | None, typer.Option("--tenant", "-t", help="Only this tenant.")] = None,
    db: DbOption = None,
) -> None:
    """List keys (id, tenant, prefix, name, state); never secrets."""

    async def go() -> list[ApiKey]:
        async with opened_store(db) as store:
            return await store.list_api_keys(tenant)

    for key in run(go):
        sys.stdout.write(_key_line(key) + "\n")


def keys_revoke(
    key_id: Annotated[str, typer.Argument(help="The key's id (from `cognimem keys list`).")],
    db: DbOption = None,
) -> None:
    """Revoke a key at once; requests with it are refused from now on."""
    from cognimem.api.auth import revoke_key

    async def go() -> ApiKey:
        async with opened_store(db) as store:
            return await revoke_key(store, key_id)

    key = run(go)
    sys.stdout.write(f"revoked {key.id} (tenant {key.tenant_id})\n")
