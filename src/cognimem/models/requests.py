"""A read's, a turn's and a write's arguments as one typed, frozen object each
(``ReadArgs``, ``TurnArgs``, ``WriteArgs``). A read's and a turn's face builds one where
it parses its caller's input — the keywords of ``Memory.read`` / ``Memory.turn``, the
HTTP body (through those keywords), the MCP tools and the CLI — with the scope already
made (``make_read_scope``), and the object travels whole: ``services/reading.py``
checks and settles it, ``recall/reader.py`` reads it. A new read argument is a field
here, its edge, and the code that uses it.

A write's object is built in ``Memory.write`` / ``write_batch`` (and a turn's store)
from messages already made and checked, with its scope made by ``make_write_scope``
(``services/writing.py``'s ``prepare``); ``WriteService.write`` takes it whole. A new
write argument is a field of ``WriteArgs`` (or of ``MessageOptions`` when it sets one
message of ``Memory.write``), its edges, and the code that uses it.

Read values are as the caller gave them (a ranking as a mapping, kinds as strings, times
with their offsets): the read service checks them, so every face answers the same."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from datetime import datetime
from typing import Any

from cognimem.models.arguments import make_message
from cognimem.models.events import Message, Role
from cognimem.models.items import ItemKind
from cognimem.models.profiles import DEFAULT_PROFILE, IngestProfile
from cognimem.models.ranking import RankingOverrides
from cognimem.models.scope import Scope

Ranking = RankingOverrides | Mapping[str, Any] | None
MessageLike = str | Message | Mapping[str, Any]


@dataclass(frozen=True, kw_only=True)
class ReadOptions:
    """What a read and a turn share: whose memories (``scope``, made by
    ``make_read_scope``: ``user_id`` is None exactly when the read spans every user),
    how much comes back and how it ranks."""

    scope: Scope
    limit: int | None = None  # default: settings.recall.default_limit
    max_tokens: int | None = None  # default: settings.recall.default_max_tokens
    preset: str | None = None  # default: settings.recall.preset
    ranking: Ranking = None  # over the preset and settings.recall.ranking
    timezone: str | None = None  # IANA name of the user's zone; UTC
    session_only: bool = False  # read scope.session_id alone, not the user's others


@dataclass(frozen=True, kw_only=True)
class ReadArgs(ReadOptions):
    """One read (``Memory.read`` documents each field)."""

    query: str
    kinds: Sequence[ItemKind | str] | None = None
    since: datetime | None = None
    until: datetime | None = None
    reference_time: datetime | None = None  # default: now
    explain: bool = False
    as_of: datetime | None = None
    as_of_recorded: datetime | None = None


@dataclass(frozen=True, kw_only=True)
class TurnArgs(ReadOptions):
    """One conversational turn (``Memory.turn``): its read's options, the messages it
    stores and how it stores them."""

    user_message: MessageLike
    assistant_message: MessageLike | None = None
    profile: str | IngestProfile = DEFAULT_PROFILE

    def read_args(self, query: str, reference_time: datetime | None) -> ReadArgs:
        """The turn's read: its shared options, for ``query`` at ``reference_time``."""
        shared = {f.name: getattr(self, f.name) for f in fields(ReadOptions)}
        return ReadArgs(query=query, reference_time=reference_time, **shared)


@dataclass(frozen=True, kw_only=True)
class MessageOptions:
    """What ``Memory.write`` sets on its one message over the content's own (None: the
    content's, or the message's default)."""

    role: Role | str | None = None
    name: str | None = None
    occurred_at: datetime | None = None
    idempotency_key: str | None = None
    external_id: str | None = None
    metadata: Mapping[str, Any] | None = None

    def apply(self, content: MessageLike) -> Message:
        """``content`` made a message, with each option given set on it."""
        message = make_message(content)
        given = {f.name: getattr(self, f.name) for f in fields(self)}
        updates = {k: v for k, v in given.items() if v is not None}
        if self.metadata is not None:
            updates["metadata"] = dict(self.metadata)
        if updates:
            message = make_message({**message.model_dump(), **updates})
        return message


@dataclass(frozen=True, kw_only=True)
class WriteArgs:
    """One write (``Memory.write`` / ``write_batch``): its messages, made and checked,
    whose memories they become (``scope``, made by ``make_write_scope``) and how they are
    stored (``profile``)."""

    messages: Sequence[Message]
    scope: Scope
    profile: str | IngestProfile = DEFAULT_PROFILE
