"""Memory commands: remember, recall, update and forget (import and export:
``transfer``)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated

import typer

from cognimem.cli.common import (
    AgentOption,
    AllUsersOption,
    DbOption,
    JsonOption,
    NamespaceLevelOption,
    OrganisationOption,
    TenantOption,
    UserOption,
    checked,
    counted,
    level_flags,
    out,
    print_json,
    reach_scope,
    timestamp,
    with_memory,
)

if TYPE_CHECKING:
    from cognimem.memory import Memory
    from cognimem.models import MemoryItem, WriteResult
    from cognimem.models.admin import ForgetResult
    from cognimem.models.knowledge import Fact

# how a read ranks: the preset, and fields of it changed for this read
PresetOption = Annotated[
    str | None,
    typer.Option(help="Recall preset (default: COGNIMEM_RECALL__PRESET)."),
]
RankOption = Annotated[
    list[str] | None,
    typer.Option(
        metavar="FIELD=VALUE",
        help="Change how the preset ranks, e.g. rerank.graph=0.2 or mmr_lambda=0.8 "
        "(repeatable; fusion, lexical_weight, vector_weight, rrf_k, rerank.*, "
        "half_lives.*, mmr_lambda, episode_floor, min_similarity).",
    ),
]
# the two times a read can be made as of
AsOfOption = Annotated[
    str | None,
    typer.Option(
        help="Read the facts valid then, superseded ones included (ISO 8601 with offset)."
    ),
]
AsOfRecordedOption = Annotated[
    str | None,
    typer.Option(
        help="Read what the memory knew then: later changes ignored (ISO 8601 with offset)."
    ),
]


def remember(
    text: Annotated[str, typer.Argument(help="What to remember.")],
    user: UserOption = None,
    agent: AgentOption = None,
    name: Annotated[str | None, typer.Option(help="Author (speaker) name.")] = None,
    profile: Annotated[
        str,
        typer.Option(
            help="chat, document, mandate, guardrail, tool_discovery, tool_gotcha or learning."
        ),
    ] = "chat",
    organisation: Annotated[
        bool,
        typer.Option(
            "--organisation",
            help="The organisation's memory, every namespace's (no --user): its mandates"
            " reach every user.",
        ),
    ] = False,
    namespace_level: Annotated[
        str | None,
        typer.Option(
            "--namespace-level",
            metavar="NAMESPACE",
            help="That namespace's memory (no --user): its mandates reach its users.",
        ),
    ] = None,
    tenant: TenantOption = "default",
    db: DbOption = None,
) -> None:
    """Write one message (and print the facts it created or changed): a user's
    (--user), an agent's (--agent alone), a namespace's (--namespace-level NS) or the
    organisation's (--organisation)."""

    async def go(mem: Memory) -> tuple[WriteResult, list[Fact]]:
        scope: dict[str, str] = {"tenant_id": tenant}
        scope.update(level_flags(organisation, namespace_level, "remember"))
        result = await mem.write(
            text, scope=scope, user_id=user, agent_id=agent, name=name, profile=profile
        )
        k = result.knowledge
        return result, await mem.store.get_facts(tenant, [*k.facts_created, *k.facts_reinforced])

    result, changed = with_memory(db, go)
    for m in result.messages:
        out.print(f"{m.outcome.value}: event {m.event_id}, items {', '.join(m.item_ids) or '-'}")
    for f in changed:
        verb = "reinforced" if f.id in result.knowledge.facts_reinforced else "fact"
        out.print(f"{verb}: {f.key} = {f.value}")
    for problem in result.degraded:
        out.print(f"degraded: {problem}")


def recall(
    query: Annotated[str, typer.Argument(help="What to look for.")],
    user: UserOption = None,
    all_users: AllUsersOption = False,
    agent: AgentOption = None,
    organisation: OrganisationOption = False,
    namespace_level: NamespaceLevelOption = None,
    limit: Annotated[int, typer.Option(help="How many memories.")] = 10,
    max_tokens: Annotated[int, typer.Option(help="Token budget.")] = 2000,
    preset: PresetOption = None,
    rank: RankOption = None,
    explain: Annotated[
        bool, typer.Option(help="With --json: each candidate's signals and the effective config.")
    ] = False,
    session: Annotated[
        str | None,
        typer.Option(help="A session of the user: its memories rank first, the others are read."),
    ] = None,
    session_only: Annotated[
        bool, typer.Option(help="Read the --session alone, not the user's other sessions.")
    ] = False,
    as_of: AsOfOption = None,
    as_of_recorded: AsOfRecordedOption = None,
    as_json: JsonOption = False,
    tenant: TenantOption = "default",
    db: DbOption = None,
) -> None:
    """Read the memories that matter for a query: one user's (--user, with the shared
    levels'), every user's of the tenant (--all-users), or one shared level's alone —
    an agent's (--agent with no --user), a namespace's (--namespace-level NS) or the
    organisation's (--organisation); as of a time (--as-of, --as-of-recorded)."""
    from cognimem.recall.overrides import assignments

    whose = checked(
        lambda: reach_scope(user, all_users, agent, organisation, "recall", namespace_level)
    )
    ranking = checked(lambda: assignments(rank or [], "rank"))
    valid_at = checked(lambda: timestamp(as_of, "as-of"))
    recorded_at = checked(lambda: timestamp(as_of_recorded, "as-of-recorded"))
    packet = with_memory(
        db,
        lambda mem: mem.read(
            query,
            scope={"tenant_id": tenant, **whose},
            session_id=session,
            limit=limit,
            max_tokens=max_tokens,
            preset=preset,
            ranking=ranking or None,
            explain=explain,
            session_only=session_only,
            as_of=valid_at,
            as_of_recorded=recorded_at,
        ),
    )
    if as_json:
        print_json(packet)
    else:
        sys.stdout.write(packet.to_markdown())


def update(
    item_id: Annotated[str, typer.Argument(metavar="ID", help="The memory's id.")],
    text: Annotated[
        str | None, typer.Option(help="Its new text (embedded and indexed again).")
    ] = None,
    tier: Annotated[str | None, typer.Option(help="always, high, medium, low or never.")] = None,
    feedback: Annotated[
        str | None,
        typer.Option(
            help="correct (reinforce it), incorrect (silence it) or outdated (archive it)."
        ),
    ] = None,
    importance: Annotated[float | None, typer.Option(help="From 0 to 1.")] = None,
    as_json: JsonOption = False,
    tenant: TenantOption = "default",
    db: DbOption = None,
) -> None:
    """Edit a memory's text, tier or importance, or say what it got right or wrong
    (--feedback); every change is in its history."""
    item = with_memory(
        db,
        lambda mem: mem.update(
            item_id,
            text=text,
            importance=importance,
            tier=tier,
            feedback=feedback,
            tenant_id=tenant,
        ),
    )
    if as_json:
        print_json(item)
        return
    out.print(f"updated {item.id}", markup=False)
    for name in ("status", "tier", "importance", "text"):
        out.print(f"{name}: {getattr(item, name)}", markup=False)


def forget(
    ids: Annotated[
        list[str] | None, typer.Option("--id", help="A memory's id (repeat for more).")
    ] = None,
    query: Annotated[
        str | None, typer.Option(help="Forget what a read of this query returns.")
    ] = None,
    since: Annotated[
        str | None, typer.Option(help="Forget what happened from then (ISO 8601 with offset).")
    ] = None,
    until: Annotated[
        str | None, typer.Option(help="Forget what happened until then (ISO 8601 with offset).")
    ] = None,
    mode: Annotated[
        str,
        typer.Option(
            help="delete (remove), archive (out of every read) or silence (never recalled)."
        ),
    ] = "delete",
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Print what would be forgotten; change nothing.")
    ] = False,
    limit: Annotated[int, typer.Option(help="Most memories to forget.")] = 100,
    user: UserOption = None,
    all_users: AllUsersOption = False,
    agent: AgentOption = None,
    organisation: OrganisationOption = False,
    namespace_level: NamespaceLevelOption = None,
    tenant: TenantOption = "default",
    db: DbOption = None,
) -> None:
    """Forget a user's memories (any user's with --all-users; an agent's own with --agent
    alone; a namespace's with --namespace-level NS; the organisation's with
    --organisation) by --id, --query or --since/--until."""
    whose = checked(
        lambda: reach_scope(user, all_users, agent, organisation, "forget", namespace_level)
    )

    async def go(mem: Memory) -> tuple[ForgetResult, list[MemoryItem]]:
        result = await mem.forget(
            ids=ids,
            query=query,
            since=timestamp(since, "since"),
            until=timestamp(until, "until"),
            mode=mode,
            dry_run=dry_run,
            limit=limit,
            scope={"tenant_id": tenant, **whose},
        )
        return result, await mem.store.get_items(tenant, result.item_ids) if dry_run else []

    result, shown = with_memory(db, go)
    print_forgotten(result, shown)


def print_forgotten(result: ForgetResult, shown: list[MemoryItem]) -> None:
    """What ``forget`` did (or with --dry-run would do), memory by memory."""
    many = counted(len(result.item_ids), "memory", "memories")
    if result.dry_run:
        out.print(f"would {result.mode} {many}", markup=False)
        texts = {item.id: item.text for item in shown}
        for item_id in result.item_ids:
            out.print(f"  {item_id}  {texts.get(item_id, '')}", markup=False)
    else:
        done = {"delete": "deleted", "archive": "archived", "silence": "silenced"}[result.mode]
        out.print(f"{done} {many}", markup=False)
        for item_id in result.item_ids:
            out.print(f"  {item_id}", markup=False)
    # whatever else the result reports (e.g. what was derived from those memories)
    for name, value in result.model_dump(exclude={"mode", "item_ids", "dry_run"}).items():
        out.print(f"{name}: {value}", markup=False)
