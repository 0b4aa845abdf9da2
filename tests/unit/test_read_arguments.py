"""A read's and a turn's arguments travel as one object (``models/requests.py``), and
every face that takes them keeps in step with it: a field added to ``ReadArgs`` or
``TurnArgs`` fails here until ``Memory``, the SDK, the HTTP body, MCP and the CLI take
it — or the face says here that it leaves it out."""

from __future__ import annotations

from dataclasses import fields
from datetime import UTC, datetime

from cognimem.api.schemas import ReadRequest, TurnRequest
from cognimem.blocking import BlockingFacade
from cognimem.cli.memory import recall
from cognimem.client import AsyncMemoryClient
from cognimem.config import Settings
from cognimem.mcp import build_server
from cognimem.memory import Memory
from cognimem.models import Scope
from cognimem.models.requests import (
    ReadArgs,
    ReadKeywords,
    ReadOptions,
    TurnArgs,
    TurnKeywords,
)
from tests.unit.signatures import keywords, names, typed_keys, unpacked

# the keywords a Python face takes for the object's ``scope`` (make_read_scope's)
SCOPE_KEYWORDS = {"scope", "user_id", "agent_id", "session_id", "all_users"}
# the read options the MCP tools leave to the server's defaults
MCP_LEAVES_OUT = {"kinds", "since", "until", "reference_time", "timezone", "explain"}
# and the CLI's ``recall`` (its names for the others: CLI_NAMES)
CLI_LEAVES_OUT = {"kinds", "since", "until", "reference_time", "timezone"}
CLI_NAMES = {"ranking": "rank", "session_id": "session", "user_id": "user", "agent_id": "agent"}


def test_the_read_keywords_are_the_read_s_fields_and_its_scope() -> None:
    # written twice in models/requests.py (the TypedDict the faces unpack, the object)
    assert typed_keys(ReadKeywords) == names(ReadArgs) - {"query", "scope"} | SCOPE_KEYWORDS
    assert (
        typed_keys(TurnKeywords)
        == names(TurnArgs)
        - {
            "user_message",
            "assistant_message",
            "scope",
        }
        | SCOPE_KEYWORDS
    )


def test_memory_and_the_sdk_unpack_the_same_keywords() -> None:
    for method in ("read", "turn"):
        assert unpacked(getattr(Memory, method)) is unpacked(getattr(AsyncMemoryClient, method))
    assert unpacked(Memory.read) is ReadKeywords
    assert unpacked(Memory.turn) is TurnKeywords


def test_memory_read_takes_each_field_of_the_read_and_its_scope() -> None:
    expected = names(ReadArgs) - {"scope"} | SCOPE_KEYWORDS | {"on_section"}

    assert keywords(Memory.read) == expected


def test_the_sdk_read_takes_what_memory_read_takes_but_the_stream() -> None:
    assert keywords(AsyncMemoryClient.read) == keywords(Memory.read) - {"on_section"}


def test_the_http_read_body_is_the_read_with_its_format() -> None:
    # the route passes the body's fields to Memory.read by name (keywords)
    assert set(ReadRequest.model_fields) == names(ReadArgs) | {"format"}
    assert set(ReadRequest.model_fields) - {"format", "query"} <= keywords(Memory.read)


def test_the_http_body_becomes_memory_read_keywords_by_name() -> None:
    at = datetime(2025, 3, 1, tzinfo=UTC)
    body = ReadRequest.model_validate(
        {
            "query": "where do I live?",
            "scope": {"user_id": "u1"},
            "limit": 3,
            "kinds": ["episode"],
            "as_of": at.isoformat(),
            "format": "markdown",
        }
    )

    sent = body.keywords(scope=body.scope.for_tenant("t1"))

    assert sent["scope"] == {"user_id": "u1", "namespace": "default", "tenant_id": "t1"}
    assert (sent["limit"], sent["as_of"], [str(k) for k in sent["kinds"]]) == (3, at, ["episode"])
    assert "format" not in sent
    assert "query" not in sent


async def test_the_mcp_recall_tool_takes_every_read_option_it_does_not_leave_out() -> None:
    tools = {t.name: t for t in await build_server(Settings()).list_tools()}
    taken = set(tools["recall"].inputSchema["properties"])

    # ``level`` is the tool's form of a shared level's scope (``scope`` in Python)
    assert taken == names(ReadArgs) - {"scope"} - MCP_LEAVES_OUT | {
        "user_id",
        "agent_id",
        "session_id",
        "level",
    }


def test_the_cli_recall_takes_every_read_option_it_does_not_leave_out() -> None:
    wanted = names(ReadArgs) - {"scope"} - CLI_LEAVES_OUT | {
        "user_id",
        "agent_id",
        "session_id",
        "all_users",
    }
    command = {CLI_NAMES.get(n, n) for n in wanted}

    assert command <= keywords(recall)
    # the CLI's own; ``--organisation`` and ``--namespace-level`` are its forms of the
    # shared levels' scopes
    own = {"as_json", "tenant", "db", "organisation", "namespace_level"}
    assert keywords(recall) - command == own


def test_memory_and_the_sdk_turn_take_each_field_of_the_turn_and_its_scope() -> None:
    expected = names(TurnArgs) - {"scope"} | SCOPE_KEYWORDS

    assert keywords(Memory.turn) == expected
    assert keywords(AsyncMemoryClient.turn) == expected


def test_the_http_turn_body_is_the_turn() -> None:
    wire = {"user_message": "user", "assistant_message": "assistant"}

    assert set(TurnRequest.model_fields) == {wire.get(n, n) for n in names(TurnArgs)}


def test_the_http_turn_body_becomes_memory_turn_keywords_by_name() -> None:
    body = TurnRequest.model_validate(
        {
            "user": {"content": "I moved to Lyon"},
            "scope": {"user_id": "u1", "session_id": "s1"},
            "limit": 3,
            "ranking": {"mmr_lambda": 0.5},
            "session_only": True,
            "timezone": "Europe/Paris",
        }
    )

    sent = body.keywords(scope=body.scope.for_tenant("t1"))

    # every keyword Memory.turn takes but the scope's own, the messages left out
    messages = {"user_message", "assistant_message"}
    assert set(sent) == keywords(Memory.turn) - messages - SCOPE_KEYWORDS | {"scope"}
    assert sent["scope"] == {
        "user_id": "u1",
        "session_id": "s1",
        "namespace": "default",
        "tenant_id": "t1",
    }
    assert (sent["limit"], sent["session_only"], sent["timezone"]) == (3, True, "Europe/Paris")
    assert sent["ranking"] == body.ranking


def test_a_turn_reads_with_each_option_it_shares_with_a_read() -> None:
    scope = Scope(user_id="u1", session_id="s1")
    at = datetime(2025, 3, 1, tzinfo=UTC)
    turn = TurnArgs(
        user_message="hi",
        scope=scope,
        limit=4,
        max_tokens=300,
        preset="fast",
        ranking={"mmr_lambda": 0.5},
        timezone="Europe/Paris",
        session_only=True,
    )

    read = turn.read_args("hi", at)

    shared = {f.name for f in fields(ReadOptions)}
    assert {n: getattr(read, n) for n in shared} == {n: getattr(turn, n) for n in shared}
    assert (read.query, read.reference_time, read.kinds, read.explain) == ("hi", at, None, False)


def test_the_blocking_faces_unpack_what_the_sdk_unpacks() -> None:
    # SyncMemory and MemoryClient share BlockingFacade's methods
    typed = {
        name: unpacked(method)
        for name, method in vars(BlockingFacade).items()
        if callable(method) and not name.startswith("_")
    }
    shared = {name: t for name, t in typed.items() if t is not None}

    assert {"read", "turn", "write", "facts", "forget", "list_jobs"} <= set(shared)
    for name, t in shared.items():
        assert t is unpacked(getattr(AsyncMemoryClient, name)), name
