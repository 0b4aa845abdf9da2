"""cognimem as an MCP server: memory tools for any MCP client (``cognimem mcp``).

Needs the ``mcp`` extra (``pip install 'cognimem[mcp]'``). Nothing else in cognimem
imports this module, so ``import cognimem`` works without it.

The tenant is fixed: ``COGNIMEM_MCP__TENANT_ID`` over stdio, the API key's on the HTTP
mount; no tool takes a tenant. Every tool takes a ``user_id`` (whose memories), which
defaults to ``COGNIMEM_MCP__USER_ID``; with neither, the call is refused, never run for
every user of the tenant; and an ``agent_id`` (the calling agent: its level is read
beside the user's, and writes are the user's with it), which defaults to
``COGNIMEM_MCP__AGENT_ID``. ``recall`` alone also reads one shared level (the
agent's own, the server's namespace's or the organisation's), said with its ``level``
argument, never by leaving
the user out. The lifecycle, erasure and shared-level writes are not
tools: they are on the HTTP API, the SDK and the CLI only (``docs/mcp.md``).
Errors cognimem raises become MCP tool errors (``isError``) that carry the message.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from datetime import datetime
from typing import Annotated, Any, Literal

from mcp.server.fastmcp import Context, FastMCP
from mcp.server.fastmcp.exceptions import ToolError
from mcp.server.session import ServerSession
from mcp.server.transport_security import TransportSecuritySettings
from pydantic import Field

from cognimem.config import Settings
from cognimem.errors import CognimemError, InvalidInput, UsageError, public_message
from cognimem.memory import Memory
from cognimem.models import Scope, WriteResult
from cognimem.models.arguments import make_scope
from cognimem.recall import PRESETS
from cognimem.recall.overrides import RankingOverrides

# FastMCP resolves this alias from the module's globals to inject the tool context
Ctx = Context[ServerSession, Any, Any]
# where RequireKey leaves the caller's tenant in the ASGI scope of an /v1/mcp request
PRINCIPAL_KEY = "cognimem.tenant_id"
# ... and the key's check of what it may write (``Principal.check_write``)
WRITE_CHECK_KEY = "cognimem.check_write"
# every tool's user argument
UserId = Annotated[
    str | None,
    Field(
        description="Whose memories: the user's id. Default: the user the server is "
        "configured for (COGNIMEM_MCP__USER_ID); a call with neither is refused."
    ),
]
# every tool's agent argument
AgentId = Annotated[
    str | None,
    Field(
        description="The agent making the call: its mandates and procedures are in the "
        "user's reads, and what is written is the user's with that agent. Default: the "
        "agent the server is configured for (COGNIMEM_MCP__AGENT_ID), else none."
    ),
]
# recall's level argument: one shared level's memories alone, said explicitly
Level = Annotated[
    Literal["agent", "namespace", "organisation"] | None,
    Field(
        description="Read one shared level alone instead of a user's memories: 'agent' "
        "(the call's agent's own level: agent_id, or the server's agent), 'namespace' "
        "(the server's namespace's) or 'organisation' (every namespace's). Not with "
        "user_id or session_id. Default: the user's read."
    ),
]
# the read options of recall and get_context
Preset = Annotated[
    str | None,
    Field(
        description="Recall preset: " + ", ".join(PRESETS) + " (default: the server's).",
        json_schema_extra={"enum": [*PRESETS, None]},
    ),
]
SessionId = Annotated[
    str | None,
    Field(
        description="The conversation's session: its memories rank first; the user's "
        "other sessions are still read (unless session_only)."
    ),
]
SessionOnly = Annotated[bool, Field(description="Read the named session alone (needs session_id).")]
AsOf = Annotated[
    datetime | None,
    Field(
        description="Read the facts valid at this time, superseded ones included "
        "(ISO 8601 with offset; default: the current facts)."
    ),
]
AsOfRecorded = Annotated[
    datetime | None,
    Field(
        description="Read what the memory knew at this time: facts recorded by then, "
        "later changes ignored (ISO 8601 with offset), for audit."
    ),
]
Ranking = Annotated[
    RankingOverrides | None,
    Field(
        description="Changes to how the preset ranks: fusion weights, rerank weights, "
        "half-lives, mmr_lambda, episode_floor, min_similarity (unset: the server's)."
    ),
]

INSTRUCTIONS = """\
Long-term memory, per user: pass the user's `user_id` to every tool unless the server \
is configured for one user. Call `recall` (or `get_context` once per turn) before \
answering anything that may depend on what the user said earlier; call `remember` for \
facts, preferences and decisions worth keeping; `forget` deletes memories by the item \
ids `remember` returned."""


def build_server(settings: Settings | None = None, *, url: str | None = None) -> FastMCP[Memory]:
    """A FastMCP server with the memory tools (``cognimem mcp``, over stdio). The
    ``Memory`` (``url`` or the configured database) opens when the server starts and
    closes when it stops."""
    settings = settings or Settings()
    scope = _scope_of(settings)

    @asynccontextmanager
    async def lifespan(_: FastMCP[Memory]) -> AsyncIterator[Memory]:
        async with Memory.open(url, settings=settings) as memory:
            yield memory

    server: FastMCP[Memory] = FastMCP("cognimem", instructions=INSTRUCTIONS, lifespan=lifespan)
    _add_tools(server, lambda ctx: (ctx.request_context.lifespan_context, scope))
    return server


def build_http_server(memory: Memory) -> FastMCP[Any]:
    """The same tools for the HTTP app's ``/v1/mcp`` mount (streamable HTTP,
    stateless, JSON responses). The tenant is the API key's, set on the request by
    :class:`RequireKey`; namespace, agent and the default user come from
    ``COGNIMEM_MCP__*``, the user of a call from its ``user_id``."""
    configured = _scope_of(memory.settings)

    def resolve(ctx: Ctx) -> tuple[Memory, Scope]:
        request = ctx.request_context.request
        tenant = getattr(request, "scope", {}).get(PRINCIPAL_KEY) if request else None
        if tenant is None:  # RequireKey guards the mount; this is a wiring error
            raise ToolError("Unauthenticated: no API key on this request")
        return memory, configured.model_copy(update={"tenant_id": tenant})

    server: FastMCP[Any] = FastMCP(
        "cognimem",
        instructions=INSTRUCTIONS,
        stateless_http=True,
        json_response=True,
        streamable_http_path="/",
        # the mount is behind API keys; the HTTP app's host is the operator's choice
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
    )
    _add_tools(server, resolve)
    return server


# gives a tool call its Memory and the server's scope (which the call's user_id narrows)
Resolve = Callable[[Ctx], tuple[Memory, Scope]]


def _add_tools(server: FastMCP[Any], resolve: Resolve) -> None:
    """Register the four tools; ``resolve`` gives each call its Memory and the server's
    scope, which the call's ``user_id`` narrows to one user."""
    _add_remember(server, resolve)
    _add_recall(server, resolve)
    _add_forget(server, resolve)
    _add_get_context(server, resolve)


def _add_remember(server: FastMCP[Any], resolve: Resolve) -> None:
    @server.tool()
    async def remember(
        content: Annotated[str, Field(description="The message to remember, verbatim.")],
        role: Annotated[
            str, Field(description="Who said it: user, assistant, system or tool.")
        ] = "user",
        occurred_at: Annotated[
            str | None,
            Field(description="When it was said (ISO 8601 with offset); default now."),
        ] = None,
        user_id: UserId = None,
        agent_id: AgentId = None,
        *,
        ctx: Ctx,
    ) -> str:
        """Store one message in long-term memory. Returns the ids of the stored
        memories and the facts the message created, reinforced or superseded."""
        memory, server_scope = resolve(ctx)
        message: dict[str, Any] = {"content": content, "role": role}
        if occurred_at is not None:
            message["occurred_at"] = occurred_at
        with _tool_errors():
            scope = _write_scope(ctx, server_scope, user_id, agent_id)
            result = await memory.write(message, scope=scope)
            return await _describe(memory, scope, result)


def _add_recall(server: FastMCP[Any], resolve: Resolve) -> None:
    @server.tool()
    async def recall(
        query: Annotated[str, Field(description="What to look for, in plain words.")],
        max_tokens: Annotated[int, Field(description="Token budget of the answer.")] = 1000,
        limit: Annotated[int, Field(description="Most memories to return (1-200).")] = 10,
        user_id: UserId = None,
        agent_id: AgentId = None,
        preset: Preset = None,
        ranking: Ranking = None,
        session_id: SessionId = None,
        session_only: SessionOnly = False,
        as_of: AsOf = None,
        as_of_recorded: AsOfRecorded = None,
        level: Level = None,
        *,
        ctx: Ctx,
    ) -> str:
        """The memories that matter for a query, as markdown: constraints to follow and
        known facts first, then the ranked memories; as of a time when asked. With
        ``level``, one shared level's memories alone (the agent's, the namespace's or the
        organisation's)."""
        memory, server_scope = resolve(ctx)
        with _tool_errors():
            scope: Scope | dict[str, str | None]
            if level is None:
                scope = _for_user(server_scope, user_id, agent_id)
            else:
                scope = _level_scope(server_scope, level, user_id, agent_id)
            packet = await memory.read(
                query,
                scope=scope,
                session_id=session_id,
                limit=limit,
                max_tokens=max_tokens,
                preset=preset,
                ranking=ranking,
                session_only=session_only,
                as_of=as_of,
                as_of_recorded=as_of_recorded,
            )
        return packet.to_markdown()


def _add_forget(server: FastMCP[Any], resolve: Resolve) -> None:
    @server.tool()
    async def forget(
        item_ids: Annotated[list[str], Field(description="Ids of the memories to delete.")],
        user_id: UserId = None,
        agent_id: AgentId = None,
        *,
        ctx: Ctx,
    ) -> str:
        """Delete memories by id (the item ids `remember` returned), with the facts
        derived from them alone. Returns how many were deleted and which ids were not
        found."""
        memory, server_scope = resolve(ctx)
        wanted = list(dict.fromkeys(item_ids))
        with _tool_errors():
            scope = _write_scope(ctx, server_scope, user_id, agent_id)
            result = await memory.forget(ids=wanted, scope=scope, limit=max(len(wanted), 1))
        deleted = set(result.item_ids)
        missing = [i for i in wanted if i not in deleted]  # unknown, or another user's
        text = f"forgot {len(deleted)} {'memory' if len(deleted) == 1 else 'memories'}"
        if result.facts:
            text += f" and {result.facts} {'fact' if result.facts == 1 else 'facts'} from them"
        return f"{text}; not found: {', '.join(missing)}" if missing else text


def _add_get_context(server: FastMCP[Any], resolve: Resolve) -> None:
    @server.tool()
    async def get_context(
        user_message: Annotated[str, Field(description="The user's message of this turn.")],
        assistant_response: Annotated[
            str | None, Field(description="The reply to it, when already written.")
        ] = None,
        user_id: UserId = None,
        agent_id: AgentId = None,
        preset: Preset = None,
        ranking: Ranking = None,
        session_id: SessionId = None,
        session_only: SessionOnly = False,
        *,
        ctx: Ctx,
    ) -> str:
        """One call per turn: the memories that matter for the user's message (markdown),
        read before the turn itself is stored (in the session, when named), with the
        reply if one is given."""
        memory, server_scope = resolve(ctx)
        turn = [{"content": user_message, "role": "user"}]
        if assistant_response is not None:
            turn.append({"content": assistant_response, "role": "assistant"})
        with _tool_errors():
            scope = _write_scope(ctx, server_scope, user_id, agent_id, session_id)
            packet = await memory.read(
                user_message,
                scope=scope,
                preset=preset,
                ranking=ranking,
                session_only=session_only,
            )
            await memory.write_batch(turn, scope=scope)
        return packet.to_markdown()


def _write_scope(
    ctx: Ctx,
    server_scope: Scope,
    user_id: str | None,
    agent_id: str | None,
    session_id: str | None = None,
) -> Scope:
    """The scope a writing tool call writes in: ``_for_user``'s, in ``session_id`` when
    named, once the caller may write there (``_check_write``)."""
    scope = make_scope(_for_user(server_scope, user_id, agent_id), session_id=session_id)
    _check_write(ctx, scope)
    return scope


def _check_write(ctx: Ctx, scope: Scope) -> None:
    """Refuse a write the caller's API key may not make (on the ``/v1/mcp`` mount;
    ``cognimem mcp`` over stdio has no key: whoever runs it has the database)."""
    request = ctx.request_context.request
    check = getattr(request, "scope", {}).get(WRITE_CHECK_KEY) if request else None
    if check is not None:
        check(scope)


def _for_user(server_scope: Scope, user_id: str | None, agent_id: str | None) -> Scope:
    """The scope of one call: the server's, for the call's user and agent (the
    configured ones when the call names none). No user at all is refused: a call without
    one would span every user of the tenant."""
    scope = make_scope(server_scope, user_id=user_id, agent_id=agent_id)
    if not scope.user_id:
        raise InvalidInput(
            "user_id is required: pass the user whose memories these are "
            "(or set COGNIMEM_MCP__USER_ID on the server)",
            field="user_id",
        )
    return scope


def _level_scope(
    server_scope: Scope, level: str, user_id: str | None, agent_id: str | None
) -> dict[str, str | None]:
    """The scope of a read of one shared level: the call's agent's own (its
    ``agent_id``, else the server's agent), the server's namespace's or the
    organisation's (no agent). A user named with it is refused: a level's read is no
    user's."""
    if user_id is not None:
        raise InvalidInput("level reads one shared level alone: leave out user_id", field="user_id")
    where: dict[str, str | None] = {
        "tenant_id": server_scope.tenant_id,
        "namespace": server_scope.namespace,
    }
    if level in ("namespace", "organisation"):
        if agent_id is not None:
            raise InvalidInput(
                f"the {level}'s level has no agent: leave out agent_id", field="agent_id"
            )
        return {**where, "level": level}
    agent = agent_id or server_scope.agent_id
    if agent is None:
        raise InvalidInput(
            "level 'agent' needs agent_id (or COGNIMEM_MCP__AGENT_ID on the server)",
            field="agent_id",
        )
    return {**where, "agent_id": agent}


def _scope_of(settings: Settings) -> Scope:
    try:
        return make_scope(settings.mcp.model_dump())
    except InvalidInput as exc:
        # the settings are wrong, not a request: name the variable to fix
        name = "COGNIMEM_MCP__" + (exc.field or "scope").rpartition(".")[2].upper()
        raise UsageError(f"{name}: {exc.message}") from exc


@contextmanager
def _tool_errors() -> Iterator[None]:
    """cognimem errors as MCP tool errors: the client sees the type and the message (a
    store error's detail, which names the database, only in the log)."""
    try:
        yield
    except CognimemError as exc:
        message, _ = public_message(exc)
        raise ToolError(f"{exc.type}: {message}") from exc


async def _describe(memory: Memory, scope: Scope, result: WriteResult) -> str:
    """What a write did, one line each: messages, changed facts, degradations."""
    lines = []
    for m in result.messages:
        lines.append(f"{m.outcome.value}: event {m.event_id}, items {', '.join(m.item_ids) or '-'}")
    if result.job_id is not None:
        lines.append(f"job: {result.job_id}")
    k = result.knowledge
    groups: Sequence[tuple[str, list[str]]] = (
        ("fact", k.facts_created),
        ("reinforced", k.facts_reinforced),
        ("superseded", k.facts_superseded),
    )
    ids = [i for _, group in groups for i in group]
    facts = {f.id: f for f in await memory.store.get_facts(scope.tenant_id, ids)} if ids else {}
    for verb, group in groups:
        lines += [f"{verb}: {facts[i].key} = {facts[i].value}" for i in group if i in facts]
    lines += [f"conflict: {c}" for c in k.conflicts_opened]
    lines += [f"degraded: {problem}" for problem in result.degraded]
    return "\n".join(lines)
