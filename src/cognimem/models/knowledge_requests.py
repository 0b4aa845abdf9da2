"""The knowledge calls' arguments (``Memory.facts``, ``get_fact``, ``entities``,
``relations``, ``conflicts``, ``remove_alias`` and ``add_alias``, and the SDK's calls
of those names), as ``models/requests.py`` keeps a read's: each call's keywords written once as a
``TypedDict`` that ``Memory`` and the SDK both unpack (``**options: Unpack[...]``), and
the frozen object the service reads, built once from them with its scope made
(``made``). A call that takes only a scope takes ``UserScopeKeywords`` and its service
a made ``Scope``. ``tests/unit/test_knowledge_arguments.py`` keeps the two, the faces
and the HTTP bodies in step."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cognimem.models.knowledge import FactCategory
from cognimem.models.requests import UserScopeKeywords
from cognimem.models.scope import Scope

# how many facts a listing returns unless told otherwise
DEFAULT_FACT_LIMIT = 1_000


class FactsKeywords(UserScopeKeywords, total=False):
    """``Memory.facts``' keywords: ``FactsArgs``' fields but ``scope``, and its scope's."""

    key: str | Sequence[str] | None
    categories: Sequence[FactCategory | str] | None
    include_history: bool
    limit: int


@dataclass(frozen=True, kw_only=True)
class FactsArgs:
    """One fact listing (``Memory.facts`` documents each field)."""

    scope: Scope
    key: str | Sequence[str] | None = None
    categories: Sequence[FactCategory | str] | None = None
    include_history: bool = False
    limit: int = DEFAULT_FACT_LIMIT


class ConflictsKeywords(UserScopeKeywords, total=False):
    """``Memory.conflicts``' keywords."""

    open_only: bool


@dataclass(frozen=True, kw_only=True)
class ConflictsArgs:
    """One conflict listing (``Memory.conflicts``)."""

    scope: Scope
    open_only: bool = True


class AliasRemovalKeywords(UserScopeKeywords, total=False):
    """``Memory.remove_alias``' keywords (after its entity and alias)."""

    split: bool


class AliasAdditionKeywords(UserScopeKeywords, total=False):
    """``Memory.add_alias``' keywords (after its entity and alias)."""


@dataclass(frozen=True, kw_only=True)
class AliasAdditionArgs:
    """One name given back to an entity (``Memory.add_alias``)."""

    entity_id: str
    alias: str
    scope: Scope


@dataclass(frozen=True, kw_only=True)
class AliasRemovalArgs:
    """One alias taken off an entity (``Memory.remove_alias``)."""

    entity_id: str
    alias: str
    scope: Scope
    split: bool = False
