"""A write's arguments travel as one object (``WriteArgs``, and ``MessageOptions`` for
the one message of ``Memory.write``; ``models/requests.py``), and every face that takes
them keeps in step with it: a field added to either fails here until ``Memory``, the
SDK, the HTTP bodies, MCP's ``remember`` and the CLI's ``remember`` take it — or the
face says here that it leaves it out."""

from __future__ import annotations

from datetime import UTC, datetime

from cognimem.api.schemas import WriteBatchRequest, WriteRequest
from cognimem.cli.memory import remember
from cognimem.client import AsyncMemoryClient
from cognimem.config import Settings
from cognimem.mcp import build_server
from cognimem.memory import Memory
from cognimem.models import Message, Role
from cognimem.models.requests import (
    MessageOptions,
    WriteArgs,
    WriteBatchKeywords,
    WriteKeywords,
)
from tests.unit.signatures import keywords, names, typed_keys, unpacked

# the keywords a Python face takes for the object's ``scope`` (make_write_scope's)
SCOPE_KEYWORDS = {"scope", "user_id", "agent_id", "session_id"}
# what the MCP ``remember`` tool leaves to the message's and the server's defaults
MCP_LEAVES_OUT = {"name", "idempotency_key", "external_id", "metadata", "profile"}
# and the CLI's ``remember`` (its names for the others: CLI_NAMES; ``organisation`` and
# ``namespace_level`` are its ways to say the scope's level)
CLI_LEAVES_OUT = {"role", "occurred_at", "idempotency_key", "external_id", "metadata"}
CLI_NAMES = {"content": "text", "user_id": "user", "agent_id": "agent"}


def one_write() -> set[str]:
    """What a write of one message takes besides its scope: the message, its options
    and the write's own fields."""
    return {"content"} | names(MessageOptions) | names(WriteArgs) - {"messages", "scope"}


def test_the_options_of_one_message_are_the_message_s_fields() -> None:
    assert names(MessageOptions) | {"content"} == set(Message.model_fields)


def test_the_write_keywords_are_the_write_s_fields_and_its_scope() -> None:
    # written twice in models/requests.py (the TypedDicts the faces unpack, the objects)
    batch = names(WriteArgs) - {"messages", "scope"} | SCOPE_KEYWORDS
    assert typed_keys(WriteBatchKeywords) == batch
    assert typed_keys(WriteKeywords) == names(MessageOptions) | batch


def test_memory_and_the_sdk_unpack_the_same_keywords() -> None:
    assert unpacked(Memory.write) is unpacked(AsyncMemoryClient.write) is WriteKeywords
    assert unpacked(Memory.write_batch) is unpacked(AsyncMemoryClient.write_batch)
    assert unpacked(Memory.write_batch) is WriteBatchKeywords


def test_memory_write_takes_one_message_its_options_the_write_and_its_scope() -> None:
    assert keywords(Memory.write) == one_write() | SCOPE_KEYWORDS


def test_memory_write_batch_takes_each_field_of_the_write_and_its_scope() -> None:
    assert keywords(Memory.write_batch) == names(WriteArgs) - {"scope"} | SCOPE_KEYWORDS


def test_the_sdk_writes_take_what_memory_s_take() -> None:
    assert keywords(AsyncMemoryClient.write) == keywords(Memory.write)
    assert keywords(AsyncMemoryClient.write_batch) == keywords(Memory.write_batch)


def test_the_http_write_bodies_are_the_writes() -> None:
    assert set(WriteRequest.model_fields) == one_write() | {"scope"}
    assert set(WriteBatchRequest.model_fields) == names(WriteArgs)


async def test_the_mcp_remember_tool_takes_every_write_option_it_does_not_leave_out() -> None:
    tools = {t.name: t for t in await build_server(Settings()).list_tools()}
    taken = set(tools["remember"].inputSchema["properties"])

    assert taken == one_write() - MCP_LEAVES_OUT | {"user_id", "agent_id"}


def test_the_cli_remember_takes_every_write_option_it_does_not_leave_out() -> None:
    wanted = one_write() - CLI_LEAVES_OUT | {"user_id", "agent_id"}
    command = {CLI_NAMES.get(n, n) for n in wanted}

    assert command <= keywords(remember)
    # the CLI's own
    assert keywords(remember) - command == {"organisation", "namespace_level", "tenant", "db"}


def test_the_options_given_are_set_on_the_message_and_the_rest_kept() -> None:
    at = datetime(2025, 3, 1, 9, 30, tzinfo=UTC)
    content = {"content": "I moved to Lyon", "name": "Ana", "metadata": {"from": "chat"}}
    options = MessageOptions(role="assistant", occurred_at=at, idempotency_key="k1")

    message = options.apply(content)

    assert (message.content, message.role, message.name) == (
        "I moved to Lyon",
        Role.ASSISTANT,
        "Ana",
    )
    assert (message.occurred_at, message.idempotency_key) == (at, "k1")
    assert (message.external_id, message.metadata) == (None, {"from": "chat"})
    assert MessageOptions(metadata={"a": 1}).apply("hi").metadata == {"a": 1}
