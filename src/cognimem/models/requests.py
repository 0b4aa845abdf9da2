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
with their offsets): the read service checks them, so every face answers the same.

The keyword list of each call is written once more, as a ``TypedDict`` beside its object
(``ReadKeywords``, ``TurnKeywords``, ``WriteKeywords``, ``WriteBatchKeywords``): the
object's fields but ``scope``, plus the keywords its scope is made from. ``Memory`` and
the SDK both take ``**options: Unpack[...]`` of it, so their signatures are that one list
and type-check; ``tests/unit/test_read_arguments.py`` and ``test_write_arguments.py``
fail when a ``TypedDict`` and its object drift apart."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields
from datetime import datetime
from typing import Any, TypedDict, TypeVar

from cognimem.models.arguments import ScopeLike, make_message, make_read_scope
from cognimem.models.events import Message, Role
from cognimem.models.items import ItemKind
from cognimem.models.profiles import DEFAULT_PROFILE, IngestProfile
from cognimem.models.ranking import RankingOverrides
from cognimem.models.scope import Scope

Ranking = RankingOverrides | Mapping[str, Any] | None
MessageLike = str | Message | Mapping[str, Any]
A = TypeVar("A")

# the keywords a call's scope is made from (``make_scope`` and its kin)
SCOPE_KEYWORDS = frozenset({"scope", "user_id", "agent_id", "session_id", "all_users", "namespace"})


class UserScopeKeywords(TypedDict, total=False):
    """Whose memories a call that reads reaches: one user's, or every user's of the
    tenant with ``all_users`` (``make_read_scope``)."""

    scope: ScopeLike
    user_id: str | None
    all_users: bool


class ReadScopeKeywords(UserScopeKeywords, total=False):
    """A read's scope keywords: a user's (or every user's), an agent's, a session's."""

    agent_id: str | None
    session_id: str | None


class WriteScopeKeywords(TypedDict, total=False):
    """Whose memory a write makes (``make_write_scope``)."""

    scope: ScopeLike
    user_id: str | None
    agent_id: str | None
    session_id: str | None


def split_scope(options: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """A caller's keywords cut in two: those its scope is made from, and the rest."""
    where = {k: v for k, v in options.items() if k in SCOPE_KEYWORDS}
    return where, {k: v for k, v in options.items() if k not in SCOPE_KEYWORDS}


def check_keywords(options: Mapping[str, Any], typed: Any) -> None:
    """A ``TypeError``, as Python raises for a signature's, for a keyword that is not a
    key of the ``TypedDict`` ``typed`` (a call whose keywords travel as a mapping)."""
    known = typed.__required_keys__ | typed.__optional_keys__
    unknown = sorted(set(options) - known)
    if unknown:
        raise TypeError(f"got an unexpected keyword argument {unknown[0]!r}")


def made(
    cls: Callable[..., A],
    options: Mapping[str, Any],
    make: Callable[..., Scope] = make_read_scope,
    **given: Any,
) -> A:
    """The argument object ``cls`` of a call from its caller's keywords: the scope made
    once from its keywords by ``make``, every other keyword a field, ``given`` beside."""
    where, rest = split_scope(options)
    return cls(scope=make(**where), **rest, **given)


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


class SharedReadKeywords(ReadScopeKeywords, total=False):
    """``ReadOptions``' fields as keywords, with its scope's."""

    limit: int | None
    max_tokens: int | None
    preset: str | None
    ranking: Ranking
    timezone: str | None
    session_only: bool


class ReadKeywords(SharedReadKeywords, total=False):
    """``Memory.read``'s keywords: ``ReadArgs``' fields but ``query`` and ``scope``."""

    kinds: Sequence[ItemKind | str] | None
    since: datetime | None
    until: datetime | None
    reference_time: datetime | None
    explain: bool
    as_of: datetime | None
    as_of_recorded: datetime | None


class TurnKeywords(SharedReadKeywords, total=False):
    """``Memory.turn``'s keywords: ``TurnArgs``' fields but its messages and scope."""

    profile: str | IngestProfile


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

    @classmethod
    def split(cls, options: Mapping[str, Any]) -> tuple[MessageOptions, dict[str, Any]]:
        """``Memory.write``'s keywords cut in two: its message's options, and the rest
        (``write_batch``'s)."""
        own = {f.name for f in fields(cls)}
        given = {k: v for k, v in options.items() if k in own}
        return cls(**given), {k: v for k, v in options.items() if k not in own}

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


class WriteBatchKeywords(WriteScopeKeywords, total=False):
    """``Memory.write_batch``'s keywords: ``WriteArgs``' fields but its messages and
    scope."""

    profile: str | IngestProfile


class WriteKeywords(WriteBatchKeywords, total=False):
    """``Memory.write``'s keywords: its one message's options (``MessageOptions``) and
    ``write_batch``'s."""

    role: Role | str | None
    name: str | None
    occurred_at: datetime | None
    idempotency_key: str | None
    external_id: str | None
    metadata: Mapping[str, Any] | None
