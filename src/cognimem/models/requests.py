"""A read's and a turn's arguments as one typed, frozen object each (``ReadArgs``,
``TurnArgs``). Each face builds one where it parses its caller's input — the keywords
of ``Memory.read`` / ``Memory.turn``, the HTTP body (through those keywords), the MCP
tools and the CLI — with the scope already made (``make_read_scope``), and the object
travels whole: ``services/reading.py`` checks and settles it, ``recall/reader.py``
reads it. A new read argument is a field here, its edge, and the code that uses it.

Values are as the caller gave them (a ranking as a mapping, kinds as strings, times
with their offsets): the read service checks them, so every face answers the same."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from datetime import datetime
from typing import Any

from cognimem.models.events import Message
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
